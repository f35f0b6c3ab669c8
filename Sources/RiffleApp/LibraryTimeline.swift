import RiffleImageIO
import RiffleInteraction
import RiffleLibrary

extension TimelineDays {
    /// The days of `library`'s photos in its order (by date taken): each photo's day is its
    /// date's civil day (`TakenDate.dayNumber`); a photo not dated yet (the index is still filling, and they sort last)
    /// counts as the day of the last dated photo before it, or day 0 without one.
    init(library: PhotoLibrary) {
        var days: [Int] = []
        days.reserveCapacity(library.photos.count)
        var last: Int?
        for photo in library.photos {
            let dated = library.dates[photo.id]?.dayNumber
            // Never earlier than the photo before: the order is the dates', undated ones last.
            let day = max(dated ?? last ?? 0, last ?? Int.min)
            days.append(day)
            last = day
        }
        self.init(dayOfEachPhoto: days)
    }
}
