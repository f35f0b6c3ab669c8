@testable import RiffleApp
import RiffleGeometry
@testable import RiffleImageIO
@testable import RiffleIndex
@testable import RiffleInteraction
@testable import RiffleLibrary
import Testing

/// What a timeline's top bar says, and the days its levels are laid out from: the count grouped
/// by thousands, the years of the oldest and newest dated photos, the dating's progress while it
/// runs; undated photos (last, while the index fills) on the last dated day.
@Suite struct TimelineTitleTests {
    static func library(dates: [Int64?]) -> PhotoLibrary {
        let photos = Photo.numbered(dates.indices.map { "/t/\($0).jpg" })
        var known = PhotoValues<TakenDate?>()
        for (photo, seconds) in zip(photos, dates) {
            if let seconds { known.append(photo.id, TakenDate(localSeconds: seconds, source: .exif)) }
        }
        let listed = PhotoLibrary(
            listing: photos, ordering: .byDateTaken, startIndex: 0, description: "/t", unavailable: [], missing: [], pathCount: 1,
            folders: [ListedFolder(path: "/t", range: 0..<photos.count)], tree: "/t")
        return listed.dating(known).library
    }

    static let day = Int64(86_400)
    /// 1 Jan 2019 and 31 Dec 2021, 00:00.
    static let start2019 = Int64(CivilCalendar.dayNumber(year: 2019, month: 1, day: 1)) * day
    static let end2021 = Int64(CivilCalendar.dayNumber(year: 2021, month: 12, day: 31)) * day

    @Test(arguments: [(0, "0"), (7, "7"), (999, "999"), (1000, "1,000"), (2431, "2,431"), (1_234_567, "1,234,567")])
    func countsAreGroupedByThousands(n: Int, text: String) {
        #expect(TimelineTitle.grouped(n) == text)
    }

    @Test func theTitleNamesTheCountTheYearsAndTheProgress() {
        let library = Self.library(dates: [Self.end2021 + 3600, nil, Self.start2019])
        #expect(TimelineTitle.text(library: library, progress: nil) == "3 photos · 2019–2021")
        #expect(TimelineTitle.text(library: library, progress: LibraryDating.Progress(dated: 1200, total: 2431))
            == "3 photos · 2019–2021 · dating 1,200 of 2,431")
        #expect(TimelineTitle.text(library: library, progress: LibraryDating.Progress(dated: 5, total: 5)) == "3 photos · 2019–2021")
        #expect(TimelineTitle.text(library: Self.library(dates: [Self.start2019]), progress: nil) == "1 photo · 2019")
        #expect(TimelineTitle.text(library: Self.library(dates: [nil, nil]), progress: nil) == "2 photos")
        #expect(TimelineTitle.text(library: library, progress: nil, month: "June 2021") == "June 2021 · 3 photos", "at All Photos")
    }

    @Test func undatedPhotosTakeTheLastDatedDay() {
        // Before 1970 too: the day is rounded down, not towards zero.
        let library = Self.library(dates: [Self.start2019 + 5, -1, nil, Self.start2019 + Self.day * 2])
        let days = TimelineDays(library: library)
        let first = CivilCalendar.dayNumber(year: 2019, month: 1, day: 1)
        #expect(days.days == [-1, first, first + 2])
        #expect(days.firstPhoto == [0, 1, 2, 4], "the undated photo on 3 January with the last dated one")
    }
}
