/// A width and a height in pixels (Double, for layout) — see `PixelSize` for whole pixels.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public init(_ pixels: PixelSize) {
        self.init(width: Double(pixels.width), height: Double(pixels.height))
    }

    public static let zero = Size(width: 0, height: 0)

    /// The extent along `axis`.
    public subscript(axis: Axis) -> Double {
        get { axis == .horizontal ? width : height }
        set { if axis == .horizontal { width = newValue } else { height = newValue } }
    }

    public static func * (s: Size, k: Double) -> Size { Size(width: s.width * k, height: s.height * k) }

    /// True when either side is zero or negative: nothing can be drawn into it.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    public var description: String { "\(width)x\(height)" }
}

/// A whole-pixel size: of a buffer, a window or an image file.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public static let zero = PixelSize(width: 0, height: 0)

    /// Number of pixels, width × height.
    public var area: Int { width * height }

    /// The same size with width and height exchanged (a quarter turn).
    public var transposed: PixelSize { PixelSize(width: height, height: width) }

    public var description: String { "\(width)x\(height)" }
}
