import RiffleGeometry
import RifflePhysics

/// An animated change of a page's zoom transform (double-click, keys, the bounce back into the
/// limits), as a pure function of time.
///
/// Scale and offset move by one shared progress p(t) from 0 to 1, a critically damped spring
/// (`SpringDescription.zoomBounce`, from rest, so p never overshoots):
/// s(t) = s0 + (s1 − s0)·p, o(t) = o0 + (o1 − o0)·p. When s1 ≠ s0 this is a zoom about a fixed
/// point: the image point q = (o0 − o1)/(s1 − s0) stays where it was all along, so a bounce whose
/// target keeps the anchor keeps it during the whole motion.
public struct ZoomAnimation: Hashable, Sendable {
    /// Transform at the start.
    public let from: ScaleTranslate
    /// Transform at rest.
    public let to: ScaleTranslate
    /// Clock time of the start, seconds.
    public let start: Double
    private let progress: SpringSimulation

    /// An animation from `from` to `to` beginning at `start`, for a photo of `content` pixels.
    ///
    /// It counts as done when every image corner is within `Tolerance.pixels` (0.5 px, 20 px/s)
    /// of its final place: the progress tolerance is that divided by the largest corner travel.
    public init(from: ScaleTranslate, to: ScaleTranslate, content: Size, start: Double) {
        self.from = from
        self.to = to
        self.start = start
        // Image point q moves by d + q·ds; across the corners each axis's largest move combines
        // with the other's, so the farthest corner travels the length of `farthest`. A travel of
        // 0 gives an infinite tolerance: done at once.
        let ds = to.scale - from.scale, d = to.offset - from.offset
        let farthest = Point(
            x: max(abs(d.x), abs(d.x + content.width * ds)), y: max(abs(d.y), abs(d.y + content.height * ds)))
        let travel = farthest.length
        let pixels = Tolerance.pixels
        progress = SpringSimulation(
            spring: .zoomBounce, position: 0, velocity: 0, target: 1,
            tolerance: Tolerance(distance: pixels.distance / travel, velocity: pixels.velocity / travel))
    }

    /// The transform at clock time `t`: `from` before the start, `to` once done.
    public func transform(at t: Double) -> ScaleTranslate {
        if isDone(at: t) { return to }
        let p = progress.position(at: t - start)
        return ScaleTranslate(
            scale: from.scale + (to.scale - from.scale) * p,
            offset: from.offset + (to.offset - from.offset) * p)
    }

    /// True once the motion is within half a pixel of `to` and slower than 20 px/s.
    public func isDone(at t: Double) -> Bool { progress.isDone(at: t - start) }
}
