import RealModule

/// A turn about the origin, clockwise on screen (y grows downwards), measured in quarter turns:
/// 1 is 90°, 2 is 180°, −1 is 90° anticlockwise.
///
/// In quarter turns the turns a photo rests at are whole numbers, and for those `cosine` and
/// `sine` are exactly 0 or ±1, so turning by them moves points by exact swaps and negations:
/// a photo turned a quarter lands on the same pixel grid. A point p turns to
/// (x·cos θ − y·sin θ, x·sin θ + y·cos θ) with θ = quarterTurns · π/2; with y downwards that is
/// clockwise on screen: (1, 0) turns a quarter to (0, 1), straight down.
public struct Rotation: Hashable, Sendable, CustomStringConvertible {
    /// The turn in quarter turns, clockwise (any real number; 4 is a whole turn).
    public var quarterTurns: Double

    /// A turn of `quarterTurns` quarter turns clockwise.
    public init(quarterTurns: Double) {
        self.quarterTurns = quarterTurns
    }

    /// No turn.
    public static let none = Rotation(quarterTurns: 0)

    /// True when the turn is a whole number of quarter turns (0°, 90°, 180°, 270° and their
    /// multiples): the cases turned exactly.
    public var isWholeQuarters: Bool { quarterTurns == quarterTurns.rounded() }

    /// For a whole turn, its quarter turns reduced to 0...3 (−1 is 3); nil for a turn between.
    public var wholeQuarters: Int? {
        guard isWholeQuarters, quarterTurns.magnitude < 1e15 else { return nil }
        let q = Int(quarterTurns) % 4
        return q < 0 ? q + 4 : q
    }

    /// cos θ: exactly 0 or ±1 for whole quarter turns.
    public var cosine: Double {
        switch wholeQuarters {
        case 0?: 1
        case 1?, 3?: 0
        case 2?: -1
        default: Double.cos(quarterTurns * .pi / 2)
        }
    }

    /// sin θ: exactly 0 or ±1 for whole quarter turns.
    public var sine: Double {
        switch wholeQuarters {
        case 0?, 2?: 0
        case 1?: 1
        case 3?: -1
        default: Double.sin(quarterTurns * .pi / 2)
        }
    }

    /// The opposite turn.
    public var inverse: Rotation { Rotation(quarterTurns: -quarterTurns) }

    /// `p` turned about the origin: (x·cos θ − y·sin θ, x·sin θ + y·cos θ).
    public func apply(_ p: Point) -> Point {
        let c = cosine, s = sine
        return Point(x: p.x * c - p.y * s, y: p.x * s + p.y * c)
    }

    /// The size of the box around a `size` rectangle turned by this: (|cos|·w + |sin|·h,
    /// |sin|·w + |cos|·h); `size` itself, or its width and height exchanged, for whole quarter
    /// turns.
    public func boundingSize(of size: Size) -> Size {
        let c = cosine.magnitude, s = sine.magnitude
        return Size(width: c * size.width + s * size.height, height: s * size.width + c * size.height)
    }

    /// Where point `p` of a picture of `size` (its top-left at the origin) lies once the picture
    /// is turned about its centre and its bounding box (`boundingSize(of:)`) is put back with its
    /// top-left at the origin: R(p − size/2) + bounding/2. A quarter turn clockwise takes the
    /// top-left corner (0, 0) to the top-right one (h, 0).
    public func turn(_ p: Point, inPictureOf size: Size) -> Point {
        let bounding = boundingSize(of: size)
        return apply(p - Point(x: size.width / 2, y: size.height / 2)) + Point(x: bounding.width / 2, y: bounding.height / 2)
    }

    /// The inverse of `turn(_:inPictureOf:)`: the picture point that lands on `q` of the turned
    /// picture's bounding box.
    public func unturn(_ q: Point, inPictureOf size: Size) -> Point {
        let bounding = boundingSize(of: size)
        return inverse.apply(q - Point(x: bounding.width / 2, y: bounding.height / 2)) + Point(x: size.width / 2, y: size.height / 2)
    }

    public var description: String { "\(quarterTurns) quarter turns" }
}
