import RiffleGeometry

/// Where a source buffer lands turned by any angle: destination d = offset + R·(scaleX·x,
/// scaleY·y) for a source point (x, y), in pixel-edge coordinates (the source's corner (0, 0)
/// lands at `offset`), R the `rotation` (clockwise on screen).
///
/// The scales are per axis for the reason `ImageMapping`'s are (a reduced decode mapped onto its
/// full-resolution frame); the turn comes after them, so the picture turns as a whole.
public struct TurnedMapping: Hashable, Sendable {
    public let scaleX: Double
    public let scaleY: Double
    public let rotation: Rotation
    public let offset: Point
    /// cos θ and sin θ of `rotation`, and the scales' reciprocals, worked out once: every pixel
    /// of a draw needs them.
    private let cosine: Double
    private let sine: Double
    private let inverseScaleX: Double
    private let inverseScaleY: Double

    public init(scaleX: Double, scaleY: Double, rotation: Rotation, offset: Point) {
        precondition(scaleX > 0 && scaleY > 0, "mapping scale must be positive")
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.rotation = rotation
        self.offset = offset
        cosine = rotation.cosine
        sine = rotation.sine
        inverseScaleX = 1 / scaleX
        inverseScaleY = 1 / scaleY
    }

    /// The source point (pixel-edge coordinates) that lands on destination point `d`:
    /// (R⁻¹(d − offset)).x / scaleX and .y / scaleY (times the reciprocals). The reference and
    /// the fast path both find their samples here, so they agree on which pixels an edge covers.
    public func sourcePoint(_ d: Point) -> Point {
        let (x, y) = source(x: d.x, y: d.y)
        return Point(x: x, y: y)
    }

    /// `sourcePoint` in plain numbers, for the samplers' inner loops.
    @inline(__always)
    func source(x dx: Double, y dy: Double) -> (x: Double, y: Double) {
        let x = dx - offset.x, y = dy - offset.y
        // R⁻¹ turns by −θ: (x·cos + y·sin, −x·sin + y·cos).
        return ((x * cosine + y * sine) * inverseScaleX, (y * cosine - x * sine) * inverseScaleY)
    }

    /// Where source point `p` lands: offset + R·(scaleX·x, scaleY·y).
    public func apply(_ p: Point) -> Point {
        let x = p.x * scaleX, y = p.y * scaleY
        return Point(x: x * cosine - y * sine + offset.x, y: x * sine + y * cosine + offset.y)
    }

    /// The destination box around a source of `size`.
    public func bounds(of size: PixelSize) -> Rect {
        bounds(of: Rect(origin: .zero, size: Size(size)))
    }

    /// The destination box around the source rectangle `rect`: its four corners' images.
    public func bounds(of rect: Rect) -> Rect {
        let corners = [
            Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.minY), Point(x: rect.minX, y: rect.maxY),
            Point(x: rect.maxX, y: rect.maxY),
        ].map(apply)
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let minX = xs.min() ?? 0, minY = ys.min() ?? 0
        return Rect(x: minX, y: minY, width: (xs.max() ?? 0) - minX, height: (ys.max() ?? 0) - minY)
    }

    /// The destination columns of row `j` whose pixel centres may land inside a source of `size`,
    /// widened by a pixel each side (the caller tests each one with `sourcePoint`), within
    /// `clip`: along a row the source point moves linearly, so each of 0 ≤ x < w, 0 ≤ y < h holds
    /// on one interval of the row.
    func candidateColumns(row j: Int, size: PixelSize, clip: Range<Int>) -> Range<Int> {
        let c = cosine, s = sine
        let y = Double(j) + 0.5
        // At destination x the source point is p0 + x·dp.
        let p0 = source(x: 0, y: y)
        var low = -Double.infinity, high = Double.infinity
        for (start, step, limit) in [(p0.x, c * inverseScaleX, Double(size.width)), (p0.y, -s * inverseScaleY, Double(size.height))] {
            if step == 0 {
                if start < 0 || start >= limit { return clip.lowerBound..<clip.lowerBound }
                continue
            }
            let a = (0 - start) / step, b = (limit - start) / step
            low = max(low, min(a, b))
            high = min(high, max(a, b))
        }
        guard low <= high else { return clip.lowerBound..<clip.lowerBound }
        // Centre x = i + 0.5 inside [low, high], give or take a pixel for rounding.
        let first = max(clip.lowerBound, Int(max(low - 1.5, Double(Int.min / 2)).rounded(.down)))
        let end = min(clip.upperBound, Int(min(high + 1.5, Double(Int.max / 2)).rounded(.up)))
        return first < end ? first..<end : first..<first
    }
}
