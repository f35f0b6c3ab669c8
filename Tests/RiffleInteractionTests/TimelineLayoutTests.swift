import RiffleGeometry
@testable import RiffleInteraction
import Testing

/// The timeline's four levels laid out by hand for a small library in a column 400 points wide,
/// and, for a synthetic library of a million photos, that every month is reachable exactly.
///
/// The small library: 14 Jul 2019 (photos 0–2), 20 Jul 2019 (3–12), 1 Aug 2019 (13),
/// 5 Jan 2021 (14–15).
@Suite struct TimelineLayoutTests {
    static let july14 = CivilCalendar.dayNumber(year: 2019, month: 7, day: 14)
    static let july20 = CivilCalendar.dayNumber(year: 2019, month: 7, day: 20)
    static let august1 = CivilCalendar.dayNumber(year: 2019, month: 8, day: 1)
    static let january5 = CivilCalendar.dayNumber(year: 2021, month: 1, day: 5)
    static let days = TimelineDays(counts: [(july14, 3), (july20, 10), (august1, 1), (january5, 2)])
    static let july2019 = 2019 * 12 + 6, august2019 = 2019 * 12 + 7, january2021 = 2021 * 12

    @Test func theDaysAreCountedOnce() {
        let perPhoto = TimelineDays(dayOfEachPhoto: [Self.july14, Self.july14, Self.july14] + Array(repeating: Self.july20, count: 10)
            + [Self.august1, Self.january5, Self.january5])
        #expect(perPhoto == Self.days)
        #expect(Self.days.photoCount == 16)
        #expect([0, 2, 3, 12, 13, 14, 15].map(Self.days.dayIndex(ofPhoto:)) == [0, 0, 1, 1, 2, 3, 3])
    }

    /// Columns: ⌊(400 + 2) / (150 + 2)⌋ = 2, raised to 3; side (400 − 2·2) / 3 = 132, rows of 134.
    @Test func allPhotosIsOneGrid() {
        let layout = TimelineLayout(days: Self.days, level: .allPhotos, width: 400)
        #expect(layout.columns == 3 && layout.cellSide == 132)
        #expect(layout.contentHeight == 6 * 134 - 2)
        #expect(layout.frame(ofPhoto: 7) == Rect(x: 134, y: 268, width: 132, height: 132))
        #expect(layout.cells(from: 270, to: 400).map(\.content) == [.photo(6), .photo(7), .photo(8)])
        #expect(layout.photo(at: Point(x: 140, y: 300)) == 7)
        #expect(layout.photo(at: Point(x: 133, y: 300)) == nil, "between cells")
        // Row 3 begins with photo 9 (20 July); August's first photo, 13, is in row 4.
        #expect(layout.month(atOffset: 410) == Self.july2019)
        #expect(layout.offset(ofMonth: Self.august2019) == 4 * 134)
        #expect(layout.stickyHeader(atOffset: 100) == nil)
    }

    /// Cells (400 − 3·2) / 4 = 98.5, rows of 100.5; a section is 52 of header, its rows less one
    /// spacing, and 20: 170.5 for one row, 271 for two. 20 July's ten photos show seven and "+3".
    @Test func daysHaveSectionsAndAMoreCell() throws {
        let layout = TimelineLayout(days: Self.days, level: .days, width: 400)
        #expect(layout.sections.map(\.y) == [0, 170.5, 441.5, 612])
        #expect(layout.contentHeight == 782.5)
        let july20 = layout.cells(ofSection: 1)
        #expect(july20.count == 8)
        #expect(Array(july20.map(\.content).prefix(7)) == (3...9).map { TimelineLayout.Content.photo($0) })
        #expect(july20[7] == TimelineLayout.Cell(content: .more(hidden: 3, first: 10), frame: Rect(x: 301.5, y: 323, width: 98.5, height: 98.5)))
        #expect(layout.frame(ofPhoto: 11) == july20[7].frame)
        #expect(layout.photo(at: Point(x: 350, y: 330)) == 10)
        #expect(layout.photo(at: Point(x: 10, y: 180)) == nil, "on a header")
        // The header of the section under the top edge sticks, pushed up by the next one.
        #expect(layout.stickyHeader(atOffset: 300)! == (1, 300))
        #expect(layout.stickyHeader(atOffset: 400)! == (1, 441.5 - 52))
        #expect(layout.month(atOffset: 500) == Self.august2019)
        #expect(layout.offset(ofMonth: Self.august2019) == 441.5)
        #expect(layout.offset(ofMonth: Self.august2019 + 1) == 612, "no photos in September: the next month that has some")
    }

    /// A key photo 400 × 224 (0.56), then up to three of (400 − 2·2) / 3 = 132 below: July's
    /// thirteen photos at steps of 13/4 (0, 3, 6, 9); 52 + 224 + 2 + 132 + 20 = 430 a month.
    @Test func monthsShowKeyPhotos() {
        let layout = TimelineLayout(days: Self.days, level: .months, width: 400)
        #expect(layout.sections.map(\.period) == [Self.july2019, Self.august2019, Self.january2021])
        #expect(layout.sections.map(\.y) == [0, 430, 726])
        #expect(layout.contentHeight == 1156)
        #expect(layout.cells(ofSection: 0) == [
            .init(content: .photo(0), frame: Rect(x: 0, y: 52, width: 400, height: 224)),
            .init(content: .photo(3), frame: Rect(x: 0, y: 278, width: 132, height: 132)),
            .init(content: .photo(6), frame: Rect(x: 134, y: 278, width: 132, height: 132)),
            .init(content: .photo(9), frame: Rect(x: 268, y: 278, width: 132, height: 132)),
        ])
        #expect(layout.frame(ofPhoto: 6) == Rect(x: 134, y: 278, width: 132, height: 132))
        #expect(layout.frame(ofPhoto: 5) == Rect(x: 0, y: 52, width: 400, height: 224), "stood for by the key photo")
        #expect(layout.month(atOffset: 800) == Self.january2021)
    }

    /// A tile 400 × 248 (0.62) and 16 below it: 2019 shows its middle photo, 0 + 14/2 = 7.
    @Test func yearsAreTiles() {
        let layout = TimelineLayout(days: Self.days, level: .years, width: 400)
        #expect(layout.sections.map(\.period) == [2019, 2021])
        #expect(layout.cells(ofSection: 0) == [.init(content: .photo(7), frame: Rect(x: 0, y: 0, width: 400, height: 248))])
        #expect(layout.cells(ofSection: 1).map(\.content) == [.photo(15)])
        #expect(layout.contentHeight == 2 * 264)
        #expect(layout.frame(ofPhoto: 14) == Rect(x: 0, y: 264, width: 400, height: 248))
        #expect(layout.month(atOffset: 300) == Self.january2021)
    }

    /// Seen in a window 400 wide and 300 high (a landscape one): a tile is at most 0.8 · 300 =
    /// 240 high (not 248), and 16 below it.
    @Test func aYearsTileKeepsWithinTheHeightItIsSeenIn() {
        let layout = TimelineLayout(days: Self.days, level: .years, width: 400, height: 300)
        #expect(layout.cells(ofSection: 0) == [.init(content: .photo(7), frame: Rect(x: 0, y: 0, width: 400, height: 240))])
        #expect(layout.contentHeight == 2 * 256)
        #expect(layout.frame(ofPhoto: 14) == Rect(x: 0, y: 256, width: 400, height: 240))
        let tall = TimelineLayout(days: Self.days, level: .years, width: 400, height: 800)
        #expect(tall.cells(ofSection: 0).first?.frame.height == 248, "a window tall enough leaves the tile as wide makes it")
    }

    /// In 400 × 300: the key photo at most 0.55 · 300 = 165 high (not 224), the other three
    /// 132 wide and at most 0.3 · 300 = 90 high; 52 + 165 + 2 + 90 + 20 = 329 a month (all of it
    /// seen at once), and August's single photo 52 + 165 + 20 = 237.
    @Test func aMonthKeepsWithinTheHeightItIsSeenIn() {
        let layout = TimelineLayout(days: Self.days, level: .months, width: 400, height: 300)
        #expect(layout.sections.map(\.y) == [0, 329, 566])
        #expect(layout.cells(ofSection: 0) == [
            .init(content: .photo(0), frame: Rect(x: 0, y: 52, width: 400, height: 165)),
            .init(content: .photo(3), frame: Rect(x: 0, y: 219, width: 132, height: 90)),
            .init(content: .photo(6), frame: Rect(x: 134, y: 219, width: 132, height: 90)),
            .init(content: .photo(9), frame: Rect(x: 268, y: 219, width: 132, height: 90)),
        ])
        #expect(layout.frame(ofPhoto: 6) == Rect(x: 134, y: 219, width: 132, height: 90))
        #expect(layout.month(atOffset: 600) == Self.january2021)
    }

    /// A million photos over 30 years, one day of them a burst import of 50,000: every month
    /// that has photos is found where `offset(ofMonth:)` puts it, at every level (exactly for
    /// the sectioned ones; in All Photos, the row there holds a photo of that month), and the
    /// burst day's section is no taller than any other day's.
    @Test func everyMonthOfAMillionPhotosIsReachable() {
        let days = Self.millionPhotos()
        #expect(days.photoCount == 1_000_000)
        #expect(CivilCalendar.date(ofDay: days.days.last!).year <= 2025, "thirty years")
        let months = Set(days.days.map(CivilCalendar.monthNumber(ofDay:))).sorted()
        for level in [TimelineLayout.Level.days, .months] {
            let layout = TimelineLayout(days: days, level: level, width: 1280)
            for month in months { #expect(layout.month(atOffset: layout.offset(ofMonth: month)) == month, "\(level) \(month)") }
        }
        let all = TimelineLayout(days: days, level: .allPhotos, width: 1280)
        for month in months {
            let row = all.cells(from: all.offset(ofMonth: month), to: all.offset(ofMonth: month) + 1)
            #expect(row.contains { cell in
                guard case .photo(let photo) = cell.content else { return false }
                return CivilCalendar.monthNumber(ofDay: days.days[days.dayIndex(ofPhoto: photo)]) == month
            }, "all photos \(month)")
        }
        let daysLayout = TimelineLayout(days: days, level: .days, width: 1280)
        let twoRows = TimelineLayout.Metrics.headerHeight + 2 * (daysLayout.cellSide + TimelineLayout.Metrics.spacing)
            - TimelineLayout.Metrics.spacing + TimelineLayout.Metrics.sectionGap
        #expect(daysLayout.sections.allSatisfy { $0.height <= twoRows })
        let burst = daysLayout.sections.max { $0.photos.count < $1.photos.count }!
        #expect(burst.photos.count == 50_000)
        #expect(daysLayout.cells(from: burst.y, to: burst.y + burst.height).count == TimelineLayout.Metrics.dayColumns * TimelineLayout.Metrics.dayRows)
    }

    /// 950,000 photos on days spread over 1995–2024 (a deterministic pattern: most days empty,
    /// some with one photo, some with dozens) and one day of 50,000.
    static func millionPhotos() -> TimelineDays {
        let first = CivilCalendar.dayNumber(year: 1995, month: 1, day: 1)
        let burstDay = CivilCalendar.dayNumber(year: 2016, month: 8, day: 20)
        var counts: [(day: Int, count: Int)] = []
        var remaining = 950_000
        var day = first
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        while remaining > 0 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let roll = Int(state >> 33)
            if day == burstDay { counts.append((day, 50_000)) } else if roll % 3 == 0 {
                let count = min(remaining, 1 + roll % 520)
                counts.append((day, count))
                remaining -= count
            }
            day += 1
        }
        if day <= burstDay { counts.append((burstDay, 50_000)) }
        return TimelineDays(counts: counts)
    }
}
