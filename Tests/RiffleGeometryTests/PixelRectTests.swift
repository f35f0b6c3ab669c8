import RiffleGeometry
import Testing

@Suite struct PixelRectTests {
    /// Columns [max(x), min(maxX)) and rows [max(y), min(maxY)); nil when either is empty.
    @Test(arguments: [
        // a, b, a ∩ b (nil: no common pixel)
        (PixelRect(x: 0, y: 0, width: 10, height: 10), PixelRect(x: 5, y: 5, width: 10, height: 10), PixelRect(x: 5, y: 5, width: 5, height: 5)),
        // b inside a.
        (PixelRect(x: 0, y: 0, width: 10, height: 10), PixelRect(x: 2, y: 3, width: 4, height: 5), PixelRect(x: 2, y: 3, width: 4, height: 5)),
        // Negative coordinates: columns −7..<−4, rows −5..<−2.
        (PixelRect(x: -10, y: -8, width: 6, height: 6), PixelRect(x: -7, y: -5, width: 10, height: 10), PixelRect(x: -7, y: -5, width: 3, height: 3)),
        // One pixel in common: column 9, row 9.
        (PixelRect(x: 0, y: 0, width: 10, height: 10), PixelRect(x: 9, y: 9, width: 5, height: 5), PixelRect(x: 9, y: 9, width: 1, height: 1)),
        // Disjoint.
        (PixelRect(x: 0, y: 0, width: 10, height: 10), PixelRect(x: 20, y: 0, width: 5, height: 5), nil),
        // Touching along column 10 (a ends before it, b starts at it).
        (PixelRect(x: 0, y: 0, width: 10, height: 10), PixelRect(x: 10, y: 0, width: 5, height: 10), nil),
        // Touching along row 0 from above, at negative coordinates.
        (PixelRect(x: -4, y: -6, width: 8, height: 6), PixelRect(x: -4, y: 0, width: 8, height: 3), nil),
        // Touching at the corner only.
        (PixelRect(x: 0, y: 0, width: 10, height: 10), PixelRect(x: 10, y: 10, width: 2, height: 2), nil),
        // An empty rectangle inside the other.
        (PixelRect(x: 0, y: 0, width: 10, height: 10), PixelRect(x: 3, y: 3, width: 0, height: 4), nil),
    ] as [(PixelRect, PixelRect, PixelRect?)])
    func intersection(a: PixelRect, b: PixelRect, overlap: PixelRect?) {
        #expect(a.intersection(b) == overlap)
        #expect(b.intersection(a) == overlap)
    }

    /// x − k, y − k, width + 2k, height + 2k: k pixels more (or, negative, fewer) on every side.
    @Test(arguments: [
        // rectangle, k, outset, is empty
        (PixelRect(x: 2, y: 3, width: 4, height: 5), 1, PixelRect(x: 1, y: 2, width: 6, height: 7), false),
        (PixelRect(x: 2, y: 3, width: 4, height: 5), 0, PixelRect(x: 2, y: 3, width: 4, height: 5), false),
        (PixelRect(x: 2, y: 3, width: 4, height: 5), -1, PixelRect(x: 3, y: 4, width: 2, height: 3), false),
        // Past the origin into negative coordinates.
        (PixelRect(x: -5, y: 1, width: 2, height: 2), 3, PixelRect(x: -8, y: -2, width: 8, height: 8), false),
        // Shrunk to nothing (4 − 2·2 = 0 columns), and past nothing.
        (PixelRect(x: 0, y: 0, width: 4, height: 6), -2, PixelRect(x: 2, y: 2, width: 0, height: 2), true),
        (PixelRect(x: 0, y: 0, width: 4, height: 6), -3, PixelRect(x: 3, y: 3, width: -2, height: 0), true),
    ] as [(PixelRect, Int, PixelRect, Bool)])
    func outset(rect: PixelRect, amount: Int, grown: PixelRect, isEmpty: Bool) {
        #expect(rect.outset(by: amount) == grown)
        #expect(rect.outset(by: amount).isEmpty == isEmpty)
    }

    /// A clip narrowed by a rectangle it does not meet is empty at the clamped corner, never a
    /// rectangle of negative size: its rows and columns are empty ranges.
    @Test(arguments: [
        // clip, other, clipped
        (PixelRect(x: 0, y: 0, width: 10, height: 8), PixelRect(x: 4, y: -2, width: 20, height: 5),
         PixelRect(x: 4, y: 0, width: 6, height: 3)),
        (PixelRect(x: 0, y: 0, width: 10, height: 8), PixelRect(x: 12, y: 9, width: 3, height: 3),
         PixelRect(x: 12, y: 9, width: 0, height: 0)),
        (PixelRect(x: 5, y: 5, width: 4, height: 4), PixelRect(x: 0, y: 0, width: 2, height: 20),
         PixelRect(x: 5, y: 5, width: 0, height: 4)),
    ] as [(PixelRect, PixelRect, PixelRect)])
    func clipped(clip: PixelRect, other: PixelRect, narrowed: PixelRect) {
        let result = clip.clipped(to: other)
        #expect(result == narrowed)
        #expect(result.columns.count == result.width && result.rows.count == result.height)
        #expect(result.isEmpty == (clip.intersection(other) == nil))
    }

    /// A box given by its corners keeps them; one whose maximum lies below its minimum is empty.
    @Test func cornersMakeTheBox() {
        #expect(PixelRect(minX: 2, minY: 3, maxX: 7, maxY: 4) == PixelRect(x: 2, y: 3, width: 5, height: 1))
        let inverted = PixelRect(minX: 7, minY: 3, maxX: 2, maxY: 9)
        #expect(inverted.isEmpty && inverted.columns.isEmpty && inverted.rows == 3..<9)
    }
}
