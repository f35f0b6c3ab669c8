import RiffleGeometry

/// A half-open box of whole pixel indices [x0, x1) × [y0, y1): a clip in destination pixels.
public struct PixelBox: Hashable, Sendable {
    public var x0: Int
    public var y0: Int
    public var x1: Int
    public var y1: Int

    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = max(x0, x1)
        self.y1 = max(y0, y1)
    }

    /// The whole of a buffer of `size`.
    public init(size: PixelSize) { self.init(x0: 0, y0: 0, x1: size.width, y1: size.height) }

    /// The pixels whose centres lie inside `rect`.
    public init(covering rect: Rect) {
        let cols = coveredPixels(lower: rect.minX, upper: rect.maxX, clipLower: .min / 2, clipUpper: .max / 2)
        let rows = coveredPixels(lower: rect.minY, upper: rect.maxY, clipLower: .min / 2, clipUpper: .max / 2)
        self.init(x0: cols.lowerBound, y0: rows.lowerBound, x1: cols.upperBound, y1: rows.upperBound)
    }

    /// True when the box holds no pixel.
    public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }

    /// The pixels in both boxes.
    public func intersection(_ other: PixelBox) -> PixelBox {
        PixelBox(x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1), y1: min(y1, other.y1))
    }

    /// This box cut to the rows `rows` (empty when they do not meet).
    func limited(toRows rows: Range<Int>) -> PixelBox {
        var band = self
        band.y0 = max(y0, rows.lowerBound)
        band.y1 = min(y1, rows.upperBound)
        return band
    }
}
