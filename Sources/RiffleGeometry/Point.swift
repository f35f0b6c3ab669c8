/// A point or a displacement in a plane, in pixels (window, layer or image space as the name of
/// the value says). Double precision: positions come from physics and are rounded only by the
/// sampler.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    public static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }
    public static func / (a: Point, s: Double) -> Point { Point(x: a.x / s, y: a.y / s) }
    public static prefix func - (a: Point) -> Point { Point(x: -a.x, y: -a.y) }

    /// Euclidean length of the point seen as a vector from the origin.
    public var length: Double { (x * x + y * y).squareRoot() }

    /// The component along `axis`.
    public subscript(axis: Axis) -> Double {
        get { axis == .horizontal ? x : y }
        set { if axis == .horizontal { x = newValue } else { y = newValue } }
    }

    public var description: String { "(\(x), \(y))" }
}

/// One of the two screen axes.
public enum Axis: Sendable, Hashable, CaseIterable {
    case horizontal
    case vertical

    /// The other axis.
    public var cross: Axis { self == .horizontal ? .vertical : .horizontal }
}
