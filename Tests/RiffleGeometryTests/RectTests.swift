import RiffleGeometry
import Testing

@Suite struct RectTests {
    /// The overlap is [max(minX), min(maxX)) × [max(minY), min(maxY)), nil unless both sides are
    /// positive. Every coordinate below is a small dyadic fraction, so the expected rectangles are
    /// exact in binary floating point and compared with ==.
    @Test(arguments: [
        // a, b, a ∩ b
        (Rect(x: 0, y: 0, width: 10, height: 10), Rect(x: 5, y: 5, width: 10, height: 10), Rect(x: 5, y: 5, width: 5, height: 5)),
        // b inside a: b itself.
        (Rect(x: 0, y: 0, width: 10, height: 10), Rect(x: 2, y: 3, width: 4, height: 5), Rect(x: 2, y: 3, width: 4, height: 5)),
        // A cross: x from b (2..8), y from a (0..10).
        (Rect(x: 0, y: 0, width: 10, height: 10), Rect(x: 2, y: -5, width: 6, height: 20), Rect(x: 2, y: 0, width: 6, height: 10)),
        // Negative coordinates: x −7..−4, y −5..−2.
        (Rect(x: -10, y: -8, width: 6, height: 6), Rect(x: -7, y: -5, width: 10, height: 10), Rect(x: -7, y: -5, width: 3, height: 3)),
        // Fractions: x 1..1.5, y 0.25..1.
        (Rect(x: 0.5, y: 0.25, width: 1, height: 1), Rect(x: 1, y: 0, width: 1, height: 1), Rect(x: 1, y: 0.25, width: 0.5, height: 0.75)),
    ] as [(Rect, Rect, Rect)])
    func overlappingRectanglesIntersect(a: Rect, b: Rect, overlap: Rect) {
        #expect(a.intersection(b) == overlap)
        #expect(b.intersection(a) == overlap)
    }

    @Test(arguments: [
        // Disjoint.
        (Rect(x: 0, y: 0, width: 10, height: 10), Rect(x: 20, y: 20, width: 5, height: 5)),
        // Sharing the edge x = 10: a zero-width overlap.
        (Rect(x: 0, y: 0, width: 10, height: 10), Rect(x: 10, y: 0, width: 5, height: 10)),
        // Sharing the edge y = 0 from above, at negative coordinates.
        (Rect(x: -10, y: -10, width: 10, height: 10), Rect(x: -10, y: 0, width: 10, height: 4)),
        // Sharing only the corner (10, 10).
        (Rect(x: 0, y: 0, width: 10, height: 10), Rect(x: 10, y: 10, width: 5, height: 5)),
        // Overlapping in x only.
        (Rect(x: 0, y: 0, width: 10, height: 10), Rect(x: 2, y: 12, width: 3, height: 3)),
        // An empty rectangle inside the other.
        (Rect(x: 0, y: 0, width: 10, height: 10), Rect(x: 5, y: 5, width: 0, height: 3)),
        // A rectangle of negative width.
        (Rect(x: 0, y: 0, width: 10, height: 10), Rect(x: 5, y: 5, width: -2, height: 3)),
    ] as [(Rect, Rect)])
    func rectanglesWithoutACommonAreaDoNotIntersect(a: Rect, b: Rect) {
        #expect(a.intersection(b) == nil)
        #expect(b.intersection(a) == nil)
    }

    /// Left and top edges belong to the rectangle, right and bottom ones do not.
    @Test(arguments: [
        (Point(x: -2, y: -3), true), (Point(x: 1.5, y: 0), true), (Point(x: 3.999, y: 1.999), true),
        (Point(x: 4, y: 0), false), (Point(x: 0, y: 2), false), (Point(x: -2.001, y: 0), false), (Point(x: 0, y: -3.001), false),
    ])
    func containsHalfOpen(point: Point, inside: Bool) {
        // x −2..4, y −3..2.
        #expect(Rect(x: -2, y: -3, width: 6, height: 5).contains(point) == inside)
    }
}
