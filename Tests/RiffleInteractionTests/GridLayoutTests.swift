import RiffleGeometry
import RiffleInteraction
import Testing

/// Expected values worked out by hand from the layout's definition: c columns across W pixels,
/// side a = (W − (c − 1)·2)/c, pitch p = a + 2, item i at (p·(i mod c), p·⌊i/c⌋, a, a).
///
/// - W = 1280: c = round(7.11) = 7, a = 1268/7 = 181.142857…, p = 1282/7 = 183.142857….
/// - W = 1000: c = round(5.56) = 6, a = 990/6 = 165, p = 167 (exact in binary).
@Suite struct GridLayoutTests {
    static let side1280 = 1268.0 / 7
    static let pitch1280 = 1268.0 / 7 + 2

    static func close(_ a: Rect, _ b: Rect) -> Bool {
        abs(a.minX - b.minX) < 1e-9 && abs(a.minY - b.minY) < 1e-9 && abs(a.width - b.width) < 1e-9
            && abs(a.height - b.height) < 1e-9
    }

    // MARK: Columns

    /// max(3, round(W/180)), halves rounded up: 450/180 = 2.5 → 3, 630/180 = 3.5 → 4,
    /// 810/180 = 4.5 → 5; 1920/180 = 10.67 → 11; 3840/180 = 21.33 → 21.
    @Test(arguments: [
        (1280.0, 7), (1000, 6), (800, 4), (630, 4), (810, 5), (1920, 11), (3840, 21),
        (450, 3), (300, 3), (0, 3),
    ])
    func automaticColumns(width: Double, columns: Int) {
        #expect(GridLayout.automaticColumns(viewportWidth: width) == columns)
        #expect(GridLayout(viewportWidth: width, itemCount: 10).columns == columns)
    }

    /// The most columns at least 80 px wide: ⌊(W + 2)/82⌋ (1282/82 = 15.6: 15 columns of
    /// (1280 − 28)/15 = 83.5 px; a 16th would make them (1280 − 30)/16 = 78.1 px), never below
    /// the automatic count (a 200 px window: ⌊202/82⌋ = 2, automatic 3).
    @Test(arguments: [(1280.0, 15), (1000, 12), (1920, 23), (200, 3), (0, 3)])
    func columnLimits(width: Double, maximum: Int) {
        #expect(GridLayout.columnLimits(viewportWidth: width) == 1...maximum)
    }

    @Test(arguments: [(5, 5), (1, 1), (15, 15), (16, 15), (40, 15), (0, 1), (-3, 1)])
    func requestedColumnsAreClampedIntoTheLimits(requested: Int, columns: Int) {
        #expect(GridLayout(viewportWidth: 1280, itemCount: 10, columns: requested).columns == columns)
    }

    // MARK: Cells

    /// W = 1280, 100 items: 15 rows (98 = 14·7, so items 98 and 99 start row 14), content
    /// 15·1282/7 − 2 = 19216/7 px. Item 99: column 1, row 14 at y = 14·1282/7 = 2564.
    @Test func cellsAt1280() {
        let layout = GridLayout(viewportWidth: 1280, itemCount: 100)
        #expect(abs(layout.cellSide - 181.142_857_142_857) < 1e-9)
        #expect(abs(layout.rowPitch - 183.142_857_142_857) < 1e-9)
        #expect(layout.rowCount == 15)
        #expect(abs(layout.contentHeight - 19216.0 / 7) < 1e-9)
        let a = Self.side1280, p = Self.pitch1280
        let expected: [(Int, Rect)] = [
            (0, Rect(x: 0, y: 0, width: a, height: a)),
            (1, Rect(x: 1282.0 / 7, y: 0, width: a, height: a)),
            (6, Rect(x: 7692.0 / 7, y: 0, width: a, height: a)),
            (7, Rect(x: 0, y: 1282.0 / 7, width: a, height: a)),
            (8, Rect(x: p, y: p, width: a, height: a)),
            (99, Rect(x: 1282.0 / 7, y: 2564, width: a, height: a)),
        ]
        for (index, rect) in expected {
            #expect(Self.close(layout.rect(ofItem: index), rect), "item \(index): \(layout.rect(ofItem: index))")
        }
        // The last column ends exactly at the window's right edge: 7692/7 + 1268/7 = 1280.
        #expect(abs(layout.rect(ofItem: 6).maxX - 1280) < 1e-9)
        #expect([0, 6, 7, 13, 14, 99].map { layout.row(ofItem: $0) } == [0, 0, 1, 1, 2, 14])
    }

    /// W = 1000, 20 items: 4 rows of 165 px at pitch 167, content 4·167 − 2 = 666.
    @Test func cellsAt1000AreExact() {
        let layout = GridLayout(viewportWidth: 1000, itemCount: 20)
        #expect(layout.columns == 6 && layout.cellSide == 165 && layout.rowPitch == 167)
        #expect(layout.contentHeight == 666)
        #expect(layout.rect(ofItem: 13) == Rect(x: 167, y: 334, width: 165, height: 165))
        #expect(layout.rect(ofItem: 19) == Rect(x: 167, y: 501, width: 165, height: 165))
        #expect(layout.rect(ofItem: 5) == Rect(x: 835, y: 0, width: 165, height: 165))
    }

    /// One column fills the width: a = W; 3 items are 3·1002 − 2 = 3004 px tall.
    @Test func oneColumn() {
        let layout = GridLayout(viewportWidth: 1000, itemCount: 3, columns: 1)
        #expect(layout.cellSide == 1000 && layout.contentHeight == 3004)
        #expect(layout.rect(ofItem: 2) == Rect(x: 0, y: 2004, width: 1000, height: 1000))
    }

    @Test func noItems() {
        let layout = GridLayout(viewportWidth: 1280, itemCount: 0)
        #expect(layout.rowCount == 0 && layout.contentHeight == 0)
        #expect(layout.items(inContentY: 0..<800) == 0..<0)
        #expect(layout.item(at: Point(x: 10, y: 10)) == nil)
        #expect(GridLayout(viewportWidth: 1280, itemCount: -4).itemCount == 0)
    }

    // MARK: Visible items

    /// W = 1280, 100 items, p = 1282/7 ≈ 183.14, a ≈ 181.14. Row r spans [r·p, r·p + a); it is
    /// drawn for content band [y0, y1) when r·p < y1 and r·p + a > y0.
    @Test(arguments: [
        (0.0, 800.0, 0, 35),  // rows 0...4: 4p = 732.6 < 800 ≤ 5p = 915.7
        (100, 900, 0, 35),  // row 0's bottom 181.1 > 100; 4p < 900 < 5p
        (182, 900, 7, 35),  // row 0 ends at 181.1
        (181.5, 182.5, 7, 7),  // inside the gap between rows 0 and 1: nothing, split at item 7
        (1268.0 / 7, 1500, 7, 63),  // starting exactly at row 0's bottom: row 0 left out; 8p = 1465.1
        (0, 1268.0 / 7 + 2, 0, 7),  // ending exactly at row 1's top (computed as the layout does): row 1 left out
        (2564, 3000, 98, 100),  // the last, partial row
        (2800, 3600, 100, 100),  // past the content (19216/7 ≈ 2745.1)
        (-500, -100, 0, 0),  // above the content
        (-100, 10, 0, 7),  // an overscroll at the top
    ] as [(Double, Double, Int, Int)])
    func itemsInABand(low: Double, high: Double, first: Int, end: Int) {
        let layout = GridLayout(viewportWidth: 1280, itemCount: 100)
        #expect(layout.items(inContentY: low..<high) == first..<end)
    }

    /// The band's items are exactly those whose cells overlap it, for bands at every 7 px.
    @Test func itemsInABandMatchTheRects() {
        let layout = GridLayout(viewportWidth: 1000, itemCount: 50)
        for k in -20...150 {
            let low = Double(k) * 7, high = low + 333
            let overlapping = (0..<50).filter { layout.rect(ofItem: $0).maxY > low && layout.rect(ofItem: $0).minY < high }
            let found = layout.items(inContentY: low..<high)
            #expect(Array(found) == overlapping, "band \(low)..<\(high)")
        }
    }

    // MARK: Hit testing

    /// W = 1000, 100 items: cells [167k, 167k + 165) on both axes, 17 rows, the last (row 16 at
    /// 2672) holding items 96...99 in columns 0...3. Left and top edges are inside, right and
    /// bottom outside; the 2 px gaps belong to no item.
    @Test(arguments: [
        (Point(x: 0, y: 0), 0), (Point(x: 164.9, y: 164.9), 0), (Point(x: 167, y: 0), 1),
        (Point(x: 165, y: 10), nil), (Point(x: 166.5, y: 10), nil), (Point(x: 10, y: 165.5), nil),
        (Point(x: 999.9, y: 10), 5), (Point(x: 1000, y: 10), nil), (Point(x: 10, y: 167), 6),
        (Point(x: 508, y: 2680), 99), (Point(x: 675, y: 2680), nil),  // past the last item
        (Point(x: 10, y: 2837), nil), (Point(x: -1, y: 10), nil), (Point(x: 10, y: -0.5), nil),
    ] as [(Point, Int?)])
    func itemAtAPoint(point: Point, item: Int?) {
        let layout = GridLayout(viewportWidth: 1000, itemCount: 100)
        #expect(layout.item(at: point) == item)
    }

    /// At W = 1280 the cell edges are not exact in binary; a point exactly on item 8's computed
    /// corner is item 8, a point just before it is in the gap.
    @Test func hitTestingAgreesWithTheRectsAtInexactEdges() {
        let layout = GridLayout(viewportWidth: 1280, itemCount: 100)
        let cell = layout.rect(ofItem: 8)
        #expect(layout.item(at: cell.origin) == 8)
        #expect(layout.item(at: Point(x: cell.minX.nextDown, y: cell.minY)) == nil)
        #expect(layout.item(at: Point(x: cell.maxX.nextDown, y: cell.maxY.nextDown)) == 8)
        #expect(layout.item(at: Point(x: cell.maxX, y: cell.minY)) == nil)
    }

    /// Insets move every cell down by the top one and lengthen the content by both; a point in
    /// the room above or below the rows is on no item, and the rows in a band are those whose
    /// (moved) cells meet it.
    @Test func insetsLeaveRoomAboveAndBelowTheRows() {
        let plain = GridLayout(viewportWidth: 1000, itemCount: 20, columns: 5)
        let inset = GridLayout(viewportWidth: 1000, itemCount: 20, columns: 5, insets: GridInsets(top: 34, bottom: 44))
        for index in [0, 7, 19] {
            let a = plain.rect(ofItem: index), b = inset.rect(ofItem: index)
            #expect(b == Rect(x: a.minX, y: a.minY + 34, width: a.width, height: a.height))
        }
        #expect(inset.contentHeight == plain.contentHeight + 78)
        #expect(inset.item(at: Point(x: 10, y: 20)) == nil, "in the room above")
        #expect(inset.item(at: Point(x: 10, y: 40)) == 0)
        #expect(inset.item(at: Point(x: 10, y: inset.contentHeight - 10)) == nil, "in the room below")
        #expect(inset.items(inContentY: 0..<34) == plain.items(inContentY: -34..<0))
        #expect(inset.items(inContentY: 300..<500) == plain.items(inContentY: 266..<466))
    }
}
