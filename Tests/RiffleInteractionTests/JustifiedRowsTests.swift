import RiffleGeometry
@testable import RiffleInteraction
import Testing

/// Justified rows worked by hand, 1000 wide, rows about 180 high, 2 apart.
@Suite struct JustifiedRowsTests {
    /// Four 3:2 photos: three are 3·270 + 2·2 = 814 < 1000 wide at 180; the fourth makes 1086,
    /// so the row closes with four at h = (1000 − 3·2) / 6 = 165.67, each 1.5·h wide. Then a
    /// 10:1 panorama (taken as 4:1) and a square: 4·180 + 180 + 2 = 902 < 1000 with nothing
    /// after, so the last row stays 180 high, left-aligned.
    @Test func rowsFillTheWidthAndTheLastKeepsItsHeight() throws {
        let rows = JustifiedRows(aspects: [1.5, 1.5, 1.5, 1.5, 10, 1], width: 1000, targetHeight: 180, spacing: 2)
        #expect(rows.rowStarts == [0, 4, 6])
        let h = 994.0 / 6
        #expect(abs(rows.height(ofRow: 0) - h) < 1e-9)
        let first = rows.frames(ofRow: 0)
        #expect(first.map(\.photo) == [0, 1, 2, 3])
        for (i, cell) in first.enumerated() {
            #expect(abs(cell.frame.minX - Double(i) * (1.5 * h + 2)) < 1e-9 && abs(cell.frame.width - 1.5 * h) < 1e-9)
        }
        #expect(abs((first.last?.frame.maxX ?? 0) - 1000) < 1e-9, "the row fills the width exactly")
        let last = rows.frames(ofRow: 1)
        #expect(abs(last[0].frame.minY - (h + 2)) < 1e-9)
        func near(_ a: Rect, _ b: Rect) -> Bool {
            abs(a.minX - b.minX) < 1e-9 && abs(a.minY - b.minY) < 1e-9 && abs(a.width - b.width) < 1e-9 && abs(a.height - b.height) < 1e-9
        }
        #expect(near(last[0].frame, Rect(x: 0, y: h + 2, width: 720, height: 180)), "the panorama taken as 4:1")
        #expect(near(last[1].frame, Rect(x: 722, y: h + 2, width: 180, height: 180)))
        #expect(abs(rows.contentHeight - (h + 2 + 180)) < 1e-9)
        #expect(rows.row(atOffset: 0) == 0 && rows.row(atOffset: h + 1) == 0 && rows.row(atOffset: h + 3) == 1)
        #expect(rows.frame(ofPhoto: 5) == last[1].frame)
        #expect(rows.row(ofPhoto: 3) == 0 && rows.row(ofPhoto: 4) == 1 && rows.row(ofPhoto: 6) == nil)
    }

    @Test func aTimelineLayoutsAllPhotosInJustifiedRowsGivenAspects() throws {
        let days = TimelineLayoutTests.days
        let aspects = (0..<days.photoCount).map { $0 % 3 == 0 ? 0.75 : 1.5 }
        let layout = TimelineLayout(days: days, level: .allPhotos, width: 400, aspects: aspects)
        let rows = try #require(layout.justified)
        #expect(layout.contentHeight == rows.contentHeight)
        let cells = layout.cells(from: 0, to: layout.contentHeight)
        #expect(cells.map(\.content) == (0..<days.photoCount).map { .photo($0) }, "every photo once, in order")
        for cell in cells {
            guard case .photo(let photo) = cell.content else { continue }
            #expect(abs(cell.frame.width / cell.frame.height - aspects[photo]) < 1e-9, "photo \(photo) whole")
            #expect(layout.frame(ofPhoto: photo) == cell.frame)
            #expect(layout.photo(at: cell.frame.center) == photo)
        }
        // The month at a row's top is its first photo's; August's photo (13) starts its scroll.
        #expect(layout.month(atOffset: layout.offset(ofMonth: TimelineLayoutTests.august2019)) != nil)
        #expect(layout.offset(ofMonth: TimelineLayoutTests.august2019) == rows.rowTops[rows.row(ofPhoto: 13)!])
        // Without aspects, or with the wrong count, All Photos is square.
        #expect(TimelineLayout(days: days, level: .allPhotos, width: 400, aspects: [1, 2]).justified == nil)
        #expect(TimelineLayout(days: days, level: .days, width: 400, aspects: aspects).justified == nil)
    }
}
