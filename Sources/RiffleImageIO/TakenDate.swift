import RiffleGeometry

/// When a photo was taken, as the clock where it was taken showed it, and where that came from.
///
/// The time is kept as it was written, a floating wall-clock time: `localSeconds` counts the
/// seconds from 1970-01-01 00:00:00 to it as if both were in one zone, so the day and hour a
/// photo was taken stay what the camera said wherever the library is browsed (a trip's photos
/// fall on the trip's days). The zone's offset is kept beside it where the file says it
/// (EXIF OffsetTimeOriginal, an XMP date's zone); the timeline orders by the floating time.
///
/// Dates outside `plausibleYears` (a camera's year 0 or 1900 after its battery ran out, the
/// year 2099 some firmware writes) are unknown: photography began in 1826, and no clock has
/// reached 2099.
public struct TakenDate: Hashable, Sendable, Comparable {
    /// Where a date came from, in the order they are believed.
    public enum Source: Int, Sendable {
        /// EXIF DateTimeOriginal (with OffsetTimeOriginal where present).
        case exif = 0
        /// XMP exif:DateTimeOriginal or photoshop:DateCreated.
        case xmp = 1
        /// The file's modification time, in the zone of this machine: not when it was taken,
        /// and the info panel says so.
        case fileModified = 2
    }

    /// The years a date taken may fall in.
    public static let plausibleYears = 1826...2098

    /// Seconds from 1970-01-01 00:00:00 to the wall-clock time, both in the photo's own zone.
    public let localSeconds: Int64
    /// The zone's offset from UTC in minutes (east positive), where the file gives it.
    public let offsetMinutes: Int?
    /// Where the date came from.
    public let source: Source

    /// The date at `localSeconds` (a floating wall-clock time) from `source`.
    public init(localSeconds: Int64, offsetMinutes: Int? = nil, source: Source) {
        self.localSeconds = localSeconds
        self.offsetMinutes = offsetMinutes
        self.source = source
    }

    /// The date of the civil time given, or nil when it is not a real date or time, or not
    /// plausible (`plausibleYears`).
    public init?(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, offsetMinutes: Int? = nil, source: Source
    ) {
        guard Self.plausibleYears.contains(year), (1...12).contains(month), (1...CivilCalendar.daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        let days = CivilCalendar.dayNumber(year: year, month: month, day: day)
        self.init(
            localSeconds: Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59)), offsetMinutes: offsetMinutes,
            source: source)
    }

    /// The civil date and time: year, month (1–12), day (1–31), hour, minute, second.
    public var civil: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let days = Int(localSeconds.quotientRoundingDown(by: 86_400)), inDay = Int(localSeconds - Int64(days) * 86_400)
        let (year, month, day) = CivilCalendar.date(ofDay: days)
        return (year, month, day, inDay / 3600, inDay / 60 % 60, inDay % 60)
    }

    /// Days since 1970-01-01 of the day it was taken, in its own zone.
    public var dayNumber: Int { Int(localSeconds.quotientRoundingDown(by: 86_400)) }

    /// Ordered by the floating time, then by source (a believed date first).
    public static func < (a: TakenDate, b: TakenDate) -> Bool {
        (a.localSeconds, a.source.rawValue) < (b.localSeconds, b.source.rawValue)
    }

    // MARK: - Parsing

    /// EXIF's "YYYY:MM:DD HH:MM:SS" (DateTimeOriginal; Exif 2.32, 4.6.5) with its zone
    /// "±HH:MM" (OffsetTimeOriginal) when given; nil for a blank ("    :  :     :  :  "),
    /// malformed or implausible date. A zone that is not "±HH:MM" is left unknown.
    public static func exif(_ text: String, offset: String? = nil) -> TakenDate? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, bytes[4] == UInt8(ascii: ":"), bytes[7] == UInt8(ascii: ":"), bytes[13] == UInt8(ascii: ":"),
              bytes[16] == UInt8(ascii: ":"), bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"),
              let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
              let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]), let second = number(bytes[17..<19])
        else { return nil }
        return TakenDate(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second,
            offsetMinutes: offset.flatMap { zone(Array($0.utf8)[...]) }, source: .exif)
    }

    /// An XMP date (ISO 8601 as XMP Part 1, 8.2.1.1 "Date" profiles it): "YYYY", "YYYY-MM",
    /// "YYYY-MM-DD", then optionally "THH:MM", ":SS", a fraction, and a zone "Z" or "±HH:MM".
    /// A date without a day is taken at its first day (photoshop:DateCreated may be only a
    /// year); nil when malformed or implausible.
    public static func xmp(_ text: String) -> TakenDate? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 4, let year = number(bytes[0..<4]) else { return nil }
        var month = 1, day = 1, hour = 0, minute = 0, second = 0
        var index = 4
        func field(after separator: UInt8) -> Int? {
            guard index + 3 <= bytes.count, bytes[index] == separator, let value = number(bytes[(index + 1)..<(index + 3)]) else {
                return nil
            }
            index += 3
            return value
        }
        if let m = field(after: UInt8(ascii: "-")) {
            month = m
            if let d = field(after: UInt8(ascii: "-")) { day = d }
        }
        var offset: Int?
        if let h = field(after: UInt8(ascii: "T")) {
            guard let m = field(after: UInt8(ascii: ":")) else { return nil }
            (hour, minute) = (h, m)
            if let s = field(after: UInt8(ascii: ":")) { second = s }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            }
            if index < bytes.count {
                guard let zone = zone(bytes[index...]) else { return nil }
                offset = zone
                index = bytes.count
            }
        }
        guard index == bytes.count else { return nil }
        return TakenDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offsetMinutes: offset, source: .xmp)
    }

    /// A zone "Z" (0) or "±HH:MM" in minutes east of UTC; nil otherwise.
    private static func zone(_ bytes: ArraySlice<UInt8>) -> Int? {
        let bytes = Array(bytes)
        if bytes == [UInt8(ascii: "Z")] { return 0 }
        guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"), bytes[3] == UInt8(ascii: ":"),
              let hours = number(bytes[1..<3]), let minutes = number(bytes[4..<6]), hours <= 14, minutes < 60 else { return nil }
        return (hours * 60 + minutes) * (bytes[0] == UInt8(ascii: "-") ? -1 : 1)
    }

    /// The decimal number the ASCII digits spell; nil when any is not a digit.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return digits.isEmpty ? nil : value
    }
}

extension Int64 {
    /// ⌊self / divisor⌋ for a positive divisor (Swift's `/` rounds toward zero).
    fileprivate func quotientRoundingDown(by divisor: Int64) -> Int64 {
        let q = self / divisor
        return self % divisor < 0 ? q - 1 : q
    }
}
