import RiffleImageIO
import RiffleInteraction
import RiffleLibrary

extension TimelineDays {
    /// Seconds in a day: a date's local seconds over this, rounded down, is its day number.
    static let secondsPerDay: Int64 = 86_400

    /// The civil day of `date` (days since 1970-01-01, rounded down before it).
    static func day(of date: TakenDate) -> Int {
        let (quotient, remainder) = date.localSeconds.quotientAndRemainder(dividingBy: secondsPerDay)
        return Int(remainder < 0 ? quotient - 1 : quotient)
    }

    /// The days of `library`'s photos in its order (by date taken): each photo's day is its
    /// date's civil day; a photo not dated yet (the index is still filling, and they sort last)
    /// counts as the day of the last dated photo before it, or day 0 without one.
    init(library: PhotoLibrary) {
        var days: [Int] = []
        days.reserveCapacity(library.photos.count)
        var last: Int?
        for photo in library.photos {
            let dated = library.dates[photo.id].map(Self.day(of:))
            // Never earlier than the photo before: the order is the dates', undated ones last.
            let day = max(dated ?? last ?? 0, last ?? Int.min)
            days.append(day)
            last = day
        }
        self.init(dayOfEachPhoto: days)
    }
}
