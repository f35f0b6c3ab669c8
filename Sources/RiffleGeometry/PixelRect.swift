/// A rectangle of whole pixels: columns `x ..< x + width`, rows `y ..< y + height`, y downwards.
///
/// For buffer and image regions, where a `Rect` of Doubles would invite rounding questions.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    /// First column.
    public var x: Int
    /// First row.
    public var y: Int
    /// Number of columns (a valid rectangle has at least 1).
    public var width: Int
    /// Number of rows (a valid rectangle has at least 1).
    public var height: Int

    /// The rectangle of columns `x ..< x + width` and rows `y ..< y + height`.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The half-open box of columns [minX, maxX) and rows [minY, maxY); a box whose maximum lies
    /// below its minimum is the empty rectangle at its minimum corner.
    public init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
        self.init(x: minX, y: minY, width: max(0, maxX - minX), height: max(0, maxY - minY))
    }

    /// The rectangle at the origin covering a whole buffer or image of `size`.
    public init(size: PixelSize) {
        self.init(x: 0, y: 0, width: size.width, height: size.height)
    }

    /// One past the last column.
    public var maxX: Int { x + width }
    /// One past the last row.
    public var maxY: Int { y + height }
    /// Width and height.
    public var size: PixelSize { PixelSize(width: width, height: height) }
    /// Number of pixels, width × height.
    public var area: Int { width * height }

    /// The columns x ..< maxX (empty for an empty rectangle).
    public var columns: Range<Int> { x..<max(x, maxX) }
    /// The rows y ..< maxY (empty for an empty rectangle).
    public var rows: Range<Int> { y..<max(y, maxY) }

    /// True when the rectangle holds no pixel (a side of 0 or less).
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// True when every pixel of `other`, which must not be empty, lies in this rectangle.
    public func contains(_ other: PixelRect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    /// The pixels both rectangles hold, or nil when they share none.
    public func intersection(_ other: PixelRect) -> PixelRect? {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The pixels both rectangles hold, as a rectangle that is empty when they share none: the form
    /// a clip takes, narrowed layer by layer.
    public func clipped(to other: PixelRect) -> PixelRect {
        PixelRect(
            minX: max(x, other.x), minY: max(y, other.y), maxX: min(maxX, other.maxX), maxY: min(maxY, other.maxY))
    }

    /// The smallest rectangle holding both.
    public func union(_ other: PixelRect) -> PixelRect {
        let x0 = min(x, other.x), y0 = min(y, other.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// The rectangle grown by `amount` pixels on every side (shrunk when negative).
    public func outset(by amount: Int) -> PixelRect {
        PixelRect(x: x - amount, y: y - amount, width: width + 2 * amount, height: height + 2 * amount)
    }

    /// Every coordinate multiplied by `factor`: the same region on a grid `factor` times finer.
    public func scaled(by factor: Int) -> PixelRect {
        PixelRect(x: x * factor, y: y * factor, width: width * factor, height: height * factor)
    }

    /// "(x, y, wxh)", like `Rect`.
    public var description: String { "(\(x), \(y), \(width)x\(height))" }
}
