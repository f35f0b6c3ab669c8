import RiffleGeometry
import RiffleIndex
import RiffleInteraction
import RiffleLibrary

/// What a timeline's top bar says: "2,431 photos · 2019–2024", and while the index is still
/// reading dates, how far it has come ("· dating 1,204 of 2,431"); at All Photos, the month
/// shown under the bar first, in place of the years ("June 2021 · 2,431 photos").
enum TimelineTitle {
    /// The title of `library` (ordered by date taken), with the dating's `progress` while it is
    /// not done, led by `month` when given.
    static func text(library: PhotoLibrary, progress: LibraryDating.Progress?, month: String? = nil) -> String {
        let count = library.photos.count
        var text = "\(grouped(count)) \(count == 1 ? "photo" : "photos")"
        if let month {
            text = month + " · " + text
        } else if let years = years(of: library) {
            text += years.lowerBound == years.upperBound ? " · \(years.lowerBound)" : " · \(years.lowerBound)–\(years.upperBound)"
        }
        if let progress, !progress.isDone {
            text += " · dating \(grouped(progress.dated)) of \(grouped(progress.total))"
        }
        return text
    }

    /// The years of the oldest and the newest dated photo: the first photo, and the last dated
    /// one (undated photos sort last); nil while none is dated.
    static func years(of library: PhotoLibrary) -> ClosedRange<Int>? {
        guard let first = library.photos.first.flatMap({ library.dates[$0.id] }),
              let last = library.photos.reversed().lazy.compactMap({ library.dates[$0.id] }).first else { return nil }
        return CivilCalendar.date(ofDay: first.dayNumber).year...CivilCalendar.date(ofDay: last.dayNumber).year
    }

    /// `n` with its thousands grouped by commas: 2,431.
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return (n < 0 ? "-" : "") + groups.joined(separator: ",")
    }
}
