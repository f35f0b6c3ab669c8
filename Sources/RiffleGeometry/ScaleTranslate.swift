/// A uniform scale followed by a translation: p' = p · scale + offset.
///
/// Every transform in the layer tree (page > zoom > image) is of this form; composing two gives
/// another (`outer.concatenating(inner)` maps inner space through inner, then outer).
public struct ScaleTranslate: Hashable, Sendable, CustomStringConvertible {
    /// Multiplier from source to destination units (> 0).
    public var scale: Double
    /// Destination position of the source origin.
    public var offset: Point

    public init(scale: Double = 1, offset: Point = .zero) {
        self.scale = scale
        self.offset = offset
    }

    public static let identity = ScaleTranslate()

    /// p · scale + offset.
    public func apply(_ p: Point) -> Point { Point(x: p.x * scale + offset.x, y: p.y * scale + offset.y) }

    /// The rectangle `r` mapped into destination space.
    public func apply(_ r: Rect) -> Rect {
        Rect(origin: apply(r.origin), size: r.size * scale)
    }

    /// (p − offset) / scale: destination back to source.
    public func invert(_ p: Point) -> Point { Point(x: (p.x - offset.x) / scale, y: (p.y - offset.y) / scale) }

    /// The transform that applies `inner` first, then `self`.
    public func concatenating(_ inner: ScaleTranslate) -> ScaleTranslate {
        ScaleTranslate(scale: scale * inner.scale, offset: apply(inner.offset))
    }

    public var description: String { "scale \(scale) offset \(offset)" }
}
