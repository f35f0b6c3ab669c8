import RiffleGeometry
import RiffleInteraction
import Testing

/// `NavigatorStripLayout`: cells worked out by hand from its formula in a 1000 × 800 window at
/// 1x (w 28, h 40, g 2, m 8, pitch 30; cells' top 800 − 8 − 40 = 752).
@Suite struct NavigatorStripLayoutTests {
    static let layout = NavigatorStripLayout(viewport: Size(width: 1000, height: 800), count: 5)
    /// Photo 2 is 3:2 (open width 60, slot 28 + 48 wider), photo 3 is 1:2 (open width 20, slot
    /// 8 wider), the others unknown (they stay 28 wide, their slots 16 wider when open).
    static func aspect(_ index: Int) -> Double? { [2: 1.5, 3: 0.5][index] }

    static func frame(_ index: Int, at f: Double) -> Rect? {
        layout.cells(at: f, aspect: aspect).first { $0.index == index }?.frame
    }

    /// f = 2: slot 2 starts at 60, is 76 wide, so c = 98 and the shift 402: cell 2 is 60 wide at
    /// 470 (centred on 500); cell 1 at 30 + 402 = 432, cell 3 at 90 + 48 + 402 = 540.
    @Test func wholePosition() {
        #expect(Self.frame(2, at: 2) == Rect(x: 470, y: 752, width: 60, height: 40))
        #expect(Self.frame(1, at: 2) == Rect(x: 432, y: 752, width: 28, height: 40))
        #expect(Self.frame(3, at: 2) == Rect(x: 540, y: 752, width: 28, height: 40))
        #expect(Self.frame(0, at: 2) == Rect(x: 402, y: 752, width: 28, height: 40))
    }

    /// f = 2.25: o₂ = 0.75, o₃ = 0.25. Slot 2 at 60, 28 + 36 = 64 wide (middle 92); slot 3 at
    /// 90 + 36 = 126, 28 + 2 = 30 wide (middle 141); c = 0.75·92 + 0.25·141 = 104.25, shift
    /// 395.75. Cell 2: 60 + 6 + 395.75 = 461.75, 28 + 0.75·32 = 52 wide; cell 3: 126 + 2 +
    /// 395.75 = 523.75, 28 − 0.25·8 = 26 wide.
    @Test func fractionalPosition() {
        #expect(Self.frame(2, at: 2.25) == Rect(x: 461.75, y: 752, width: 52, height: 40))
        #expect(Self.frame(3, at: 2.25) == Rect(x: 523.75, y: 752, width: 26, height: 40))
    }

    /// The opening cell's width interpolates: w + o·(W − w), o = 1 − |f − j| (to 1e-9 px: the
    /// layout subtracts the margins from the slot, a different rounding of the same sum).
    @Test(arguments: [0.0, 0.1, 0.5, 0.9, 1.0])
    func openingWidthInterpolates(s: Double) throws {
        let two = try #require(Self.frame(2, at: 2 + s)), three = try #require(Self.frame(3, at: 2 + s))
        #expect(abs(two.width - (28 + (1 - s) * 32)) < 1e-9)
        #expect(abs(three.width - (28 + s * (20 - 28))) < 1e-9)
    }

    /// No jump anywhere: frames a hair either side of every whole and half position agree
    /// within a thousandth of a pixel.
    @Test(arguments: [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0])
    func continuous(f: Double) {
        let e = 1e-7
        for index in 0..<5 {
            guard let a = Self.frame(index, at: f - e), let b = Self.frame(index, at: f + e) else { continue }
            #expect(abs(a.minX - b.minX) < 1e-3 && abs(a.width - b.width) < 1e-3, "photo \(index) at \(f)")
        }
    }

    /// Only the cells on screen: 10,000 photos give a window's worth around f.
    @Test func onlyCellsInView() {
        let big = NavigatorStripLayout(viewport: Size(width: 1000, height: 800), count: 10_000)
        let cells = big.cells(at: 5000.4, aspect: { _ in 1.5 })
        #expect(cells.count <= 1000 / 30 + 3)
        #expect(cells.allSatisfy { $0.frame.maxX > 0 && $0.frame.minX < 1000 })
        #expect(cells.map(\.index) == Array(cells.first!.index...cells.last!.index))
    }

    /// Hit testing at f = 2: cell 2's slot with its margins and half the gaps is [461, 539);
    /// above the band (top 746) nothing.
    @Test(arguments: [
        (Point(x: 500, y: 770), Int?.some(2)), (Point(x: 461, y: 770), 2), (Point(x: 460.9, y: 770), 1),
        (Point(x: 538.9, y: 790), 2), (Point(x: 539, y: 790), 3), (Point(x: 500, y: 745.9), nil), (Point(x: 500, y: 746), 2),
        (Point(x: 390, y: 770), nil),
    ])
    func hitTesting(point: Point, index: Int?) {
        #expect(Self.layout.index(at: point, position: 2, aspect: Self.aspect) == index)
    }

    /// The band runs from 6 above the cells to the window's bottom; sizes double at 2x.
    @Test func bandAndScale() {
        #expect(Self.layout.band == Rect(x: 0, y: 746, width: 1000, height: 54))
        let two = NavigatorStripLayout(viewport: Size(width: 2000, height: 1600), scale: 2, count: 5)
        #expect(two.band == Rect(x: 0, y: 1492, width: 2000, height: 108))
        #expect(two.pitch == 60)
    }
}
