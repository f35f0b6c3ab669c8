import RiffleGeometry
import RifflePhysics

/// A photo turning by quarter turns (r, Shift+R) as a pure function of time: its turn, its scale
/// and the place of its centre move together, by one shared progress p(t), from where the photo
/// was shown to where it rests turned.
///
/// p runs from 0 to 1 along the zoom's spring (`SpringDescription.zoomBounce`, critically damped,
/// ω = 40 rad/s, from rest, so it never overshoots): p(t) = 1 − (1 + ω·t)·e^(−ω·t). With
/// θ the turn in quarter turns, s the scale and c the centre:
/// θ(t) = θ0 + (θ1 − θ0)·p, s(t) = s0 + (s1 − s0)·p, c(t) = c0 + (c1 − c0)·p.
/// The end (s1, c1) is read at each instant from where the page's zoom rests then, so a zoom or
/// a pan during the turn is followed, and at p = 1 the photo is exactly where its zoom puts it.
/// A quarter turn is about a third of a second, as a zoom is.
public struct TurnAnimation: Hashable, Sendable {
    /// Where a picture is drawn in its page: turned by `rotation` about its centre, scaled by
    /// `scale`, its centre at `centre` (page pixels). Picture point p lands at
    /// centre + scale · R(p − content/2).
    public struct Placement: Hashable, Sendable {
        /// Page position of the picture's centre, pixels.
        public var centre: Point
        /// Screen pixels per picture pixel.
        public var scale: Double
        /// The picture's turn about its centre.
        public var rotation: Rotation

        public init(centre: Point, scale: Double, rotation: Rotation) {
            self.centre = centre
            self.scale = scale
            self.rotation = rotation
        }

        /// The placement of a picture of `content` pixels turned by `rotation`, whose turned
        /// bounding box (`Rotation.boundingSize(of:)`) `transform` maps into the page.
        public init(transform: ScaleTranslate, rotation: Rotation, content: Size) {
            let box = rotation.boundingSize(of: content)
            self.init(centre: transform.apply(Point(x: box.width / 2, y: box.height / 2)), scale: transform.scale, rotation: rotation)
        }

        /// The transform that maps the bounding box of the picture turned by `rotation` into the
        /// page: scale `scale`, the box's centre at `centre`.
        public func boxTransform(content: Size) -> ScaleTranslate {
            let box = rotation.boundingSize(of: content)
            return ScaleTranslate(scale: scale, offset: centre - Point(x: box.width, y: box.height) * (scale / 2))
        }
    }

    /// Where the photo was shown when the turn began.
    public let from: Placement
    /// The turn it ends at, a whole number of quarter turns (past 3 or below 0 when a turn
    /// follows another: the photo keeps turning the same way).
    public let to: Rotation
    /// Clock time of the start, seconds.
    public let start: Double
    private let progress: SpringSimulation

    /// A turn from `from` to rest at `end` (its rotation a whole number of quarter turns) for a
    /// picture of `content` pixels, beginning at `start`.
    ///
    /// It counts as done when no point of the picture is more than `Tolerance.pixels` (0.5 px,
    /// 20 px/s) from its end: the progress tolerance is that divided by a bound on the farthest
    /// point's travel, |Δc| + |Δs|·r + max(s0, s1)·r·|Δθ|·π/2, r the half diagonal of the picture.
    public init(from: Placement, to end: Placement, content: Size, start: Double) {
        self.from = from
        self.to = end.rotation
        self.start = start
        let radius = (content.width * content.width + content.height * content.height).squareRoot() / 2
        let travel = (end.centre - from.centre).length + abs(end.scale - from.scale) * radius
            + max(from.scale, end.scale) * radius * abs(end.rotation.quarterTurns - from.rotation.quarterTurns) * .pi / 2
        let pixels = Tolerance.pixels
        progress = SpringSimulation(
            spring: .zoomBounce, position: 0, velocity: 0, target: 1,
            tolerance: Tolerance(distance: pixels.distance / travel, velocity: pixels.velocity / travel))
    }

    /// p(t): 0 up to the start, 1 once done.
    public func progress(at t: Double) -> Double {
        isDone(at: t) ? 1 : progress.position(at: t - start)
    }

    /// The placement at clock time `t` on the way to `resting` (where the page's zoom rests at
    /// `t`; its turn is taken to be `to`, which may differ from it by whole turns): `resting`
    /// itself, turned by `to`, once done.
    public func placement(at t: Double, toward resting: Placement) -> Placement {
        let p = progress(at: t)
        return Placement(
            centre: from.centre + (resting.centre - from.centre) * p,
            scale: from.scale + (resting.scale - from.scale) * p,
            rotation: Rotation(quarterTurns: from.rotation.quarterTurns + (to.quarterTurns - from.rotation.quarterTurns) * p))
    }

    /// True once every point of the picture is within half a pixel of its end and slower than
    /// 20 px/s.
    public func isDone(at t: Double) -> Bool { progress.isDone(at: t - start) }
}
