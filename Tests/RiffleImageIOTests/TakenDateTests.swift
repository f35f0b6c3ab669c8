import Foundation
import RiffleGeometry
@testable import RiffleImageIO
import Testing

/// Dates taken: the calendar against Foundation's Gregorian calendar, EXIF's and XMP's forms
/// worked by hand, and what Riffle reads from real files of each format against what exiftool
/// reads from the same files.
@Suite struct TakenDateTests {
    /// Every day from 1826 to 2098 maps to the date Foundation's proleptic Gregorian calendar
    /// gives for it, and back.
    @Test func theCalendarIsFoundations() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        #expect(CivilCalendar.dayNumber(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilCalendar.dayNumber(year: 2000, month: 3, day: 1) == 11017)
        for days in stride(from: -52595, through: 47116, by: 1) {
            let (year, month, day) = CivilCalendar.date(ofDay: days)
            #expect(CivilCalendar.dayNumber(year: year, month: month, day: day) == days)
            // Foundation is slow: every 97th day (all months and leap days over the years).
            if days % 97 == 0 || (month == 2 && day == 29) {
                let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(days) * 86_400))
                #expect((parts.year, parts.month, parts.day) == (year, month, day), "day \(days)")
            }
        }
    }

    /// EXIF's "YYYY:MM:DD HH:MM:SS" with OffsetTimeOriginal's zone; blanks and dates a camera
    /// writes when its clock was never set are unknown.
    @Test func exifDates() throws {
        let taken = try #require(TakenDate.exif("2019:07:14 10:22:05", offset: "+02:00"))
        #expect(taken.parts == [2019, 7, 14, 10, 22, 5])
        #expect(taken.offsetMinutes == 120 && taken.source == .exif)
        #expect(taken.localSeconds == Int64(CivilCalendar.dayNumber(year: 2019, month: 7, day: 14)) * 86_400 + 10 * 3600 + 22 * 60 + 5)
        #expect(TakenDate.exif("2019:07:14 10:22:05", offset: "-05:30")?.offsetMinutes == -330)
        #expect(TakenDate.exif("2019:07:14 10:22:05", offset: "garbage")?.offsetMinutes == nil)
        #expect(TakenDate.exif("2019:07:14 10:22:05")?.offsetMinutes == nil)
        for unknown in ["    :  :     :  :  ", "0000:00:00 00:00:00", "1825:12:31 23:59:59", "2099:01:01 00:00:00",
                        "2019:02:29 12:00:00", "2019:13:01 12:00:00", "2019:07:14 24:00:00", "2019-07-14", ""] {
            #expect(TakenDate.exif(unknown) == nil, "\(unknown)")
        }
        #expect(TakenDate.exif("1826:01:01 00:00:00")?.dayNumber == -52595)
        #expect(TakenDate.exif("2098:12:31 23:59:59")?.dayNumber == 47116)
    }

    /// XMP's ISO 8601 profile: a year, a month, a day, a time to the minute or second with a
    /// fraction, and a zone.
    @Test func xmpDates() throws {
        #expect(TakenDate.xmp("2018")?.parts == [2018, 1, 1, 0, 0, 0])
        #expect(TakenDate.xmp("2018-03")?.parts == [2018, 3, 1, 0, 0, 0])
        #expect(TakenDate.xmp("2018-03-02")?.parts == [2018, 3, 2, 0, 0, 0])
        #expect(TakenDate.xmp("2018-03-02T17:45")?.parts == [2018, 3, 2, 17, 45, 0])
        let full = try #require(TakenDate.xmp("2018-03-02T17:45:09.25Z"))
        #expect(full.parts == [2018, 3, 2, 17, 45, 9] && full.offsetMinutes == 0 && full.source == .xmp)
        #expect(TakenDate.xmp("2018-03-02T17:45:09-08:00")?.offsetMinutes == -480)
        for malformed in ["18", "2018-3-2", "2018-03-02T17", "2018-03-02 17:45", "2018-03-02T17:45:09+0800", "0000", "2018-02-30"] {
            #expect(TakenDate.xmp(malformed) == nil, "\(malformed)")
        }
    }

    /// XMP written as attributes and as elements, exif:DateTimeOriginal believed first.
    @Test func xmpPacketsAreReadInBothForms() {
        let attribute = #"<rdf:Description photoshop:DateCreated="2017-05-01" exif:DateTimeOriginal="2016-04-03T02:01:00"/>"#
        #expect(XMPDates.taken(inHead: Array(attribute.utf8))?.parts == [2016, 4, 3, 2, 1, 0])
        let element = "<x><photoshop:DateCreated>\n 2015-06-07T08:09:10+01:00 </photoshop:DateCreated></x>"
        let date = XMPDates.taken(inHead: Array(element.utf8))
        #expect(date?.parts == [2015, 6, 7, 8, 9, 10] && date?.offsetMinutes == 60)
        // An implausible first value gives way to the next property.
        let both = #"exif:DateTimeOriginal="0000-00-00T00:00:00" photoshop:DateCreated='2014'"#
        #expect(XMPDates.taken(inHead: Array(both.utf8))?.civil.year == 2014)
        #expect(XMPDates.taken(inHead: Array("no packet here".utf8)) == nil)
    }

    /// A file of each format with its date written by exiftool, read by Riffle (the codec's
    /// EXIF block, else its XMP packet), agrees with what exiftool reads back.
    @Test(arguments: ["jpg", "png", "webp", "tif", "heic", "jxl"])
    func datesAgreeWithExiftool(format: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-dates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("source.png").path
        try FormatTools.writePNG(FormatTools.testPicture(width: 64, height: 48), to: png)
        let cases: [(name: String, tags: [String])] = [
            ("exif", ["-EXIF:DateTimeOriginal=2019:07:14 10:22:05", "-EXIF:OffsetTimeOriginal=+02:00"]),
            ("exif-no-zone", ["-EXIF:DateTimeOriginal=2003:11:30 23:59:58"]),
            ("xmp", ["-XMP-exif:DateTimeOriginal=2011:02:03 04:05:06-07:00"]),
            ("xmp-created", ["-XMP-photoshop:DateCreated=2008:09:10"]),
            ("none", []),
        ]
        var paths: [String] = []
        for (name, tags) in cases {
            let path = folder.appendingPathComponent("\(name).\(format)").path
            switch format {
            case "jpg", "tif": try FormatTools.run("convert", [png, path])
            case "png": try FileManager.default.copyItem(atPath: png, toPath: path)
            case "webp": try FormatTools.run("cwebp", ["-quiet", png, "-o", path])
            case "heic": try FormatTools.run("heif-enc", ["-q", "60", png, "-o", path])
            default: try FormatTools.run("cjxl", ["--quiet", png, path])
            }
            if !tags.isEmpty { try FormatTools.run("exiftool", ["-q", "-m", "-overwrite_original"] + tags + [path]) }
            paths.append(path)
        }
        let references = try Self.exiftoolDates(paths)
        for path in paths {
            let head = try FileBytes.read(atPath: path, upTo: ImageCodecs.headBytes)
            let riffle = try PhotoFacts.read(head: head, path: path).taken
            let reference = references[path] ?? nil
            #expect(riffle?.parts == reference?.parts, "\(path): Riffle \(String(describing: riffle?.parts)), exiftool \(String(describing: reference?.parts))")
            #expect(riffle?.offsetMinutes == reference?.offset, "\(path)")
        }
    }

    /// What exiftool reads as each file's date taken (one run for all of them), believed in
    /// Riffle's order: EXIF DateTimeOriginal with OffsetTimeOriginal, XMP exif:DateTimeOriginal,
    /// XMP photoshop:DateCreated; from exiftool's own writing of each value ("2019:07:14
    /// 10:22:05", "+02:00", "2011:02:03 04:05:06-07:00", "2008:09:10").
    static func exiftoolDates(_ paths: [String]) throws -> [String: (parts: [Int], offset: Int?)?] {
        let output = try FormatTools.run(
            "exiftool", ["-j", "-G1", "-EXIF:DateTimeOriginal", "-EXIF:OffsetTimeOriginal", "-XMP-exif:DateTimeOriginal",
                         "-XMP-photoshop:DateCreated"] + paths)
        let records = try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
        func zone(_ text: Substring) -> Int? {
            guard text.count == 6, let h = Int(text.dropFirst().prefix(2)), let m = Int(text.suffix(2)) else { return nil }
            return (h * 60 + m) * (text.hasPrefix("-") ? -1 : 1)
        }
        // "YYYY:MM:DD[ HH:MM:SS[±HH:MM]]"
        func date(_ text: String) -> (parts: [Int], offset: Int?)? {
            let numbers = text.prefix(19).split(whereSeparator: { $0 == ":" || $0 == " " }).compactMap { Int($0) }
            guard numbers.count == 3 || numbers.count == 6 else { return nil }
            return (numbers + [0, 0, 0].prefix(6 - numbers.count), text.count > 19 ? zone(text.dropFirst(19)) : nil)
        }
        var dates: [String: (parts: [Int], offset: Int?)?] = [:]
        for record in records {
            guard let path = record["SourceFile"] as? String else { continue }
            if let exif = record["ExifIFD:DateTimeOriginal"] as? String, var found = date(exif) {
                found.offset = (record["ExifIFD:OffsetTimeOriginal"] as? String).flatMap { zone($0[...]) }
                dates[path] = found
            } else if let xmp = (record["XMP-exif:DateTimeOriginal"] ?? record["XMP-photoshop:DateCreated"]).map({ "\($0)" }) {
                dates[path] = date(xmp)
            } else {
                dates[path] = .some(nil)
            }
        }
        return dates
    }
}

extension TakenDate {
    /// Year, month, day, hour, minute, second, comparable where the tuple is not.
    var parts: [Int] {
        let c = civil
        return [c.year, c.month, c.day, c.hour, c.minute, c.second]
    }
}
