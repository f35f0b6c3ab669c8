import RiffleGeometry
import RifflePhysics

/// The flight of a photo between its grid cell and its place at fit (Photos' zoom transition),
/// with the viewer's background fading in over the grid, as a pure function of clock time.
///
/// What to draw: the whole image at `imageRect(at:)`, clipped to `frame(at:)`, over the grid
/// covered by the viewer's background at `backgroundAlpha(at:)` (0: the grid shows, 1: hidden).
/// The image is the photo aspect-filled into the frame and centred on it (UIKit's
/// `.scaleAspectFill` with `clipsToBounds`; PhotoSwipe's opener likewise animates a cropping
/// container around the image, `src/js/opener.js`): a square frame shows the photo's centre
/// square, as the cell does, and a frame of the photo's proportions shows all of it, as at fit.
///
/// Each edge of the frame (minX, minY, maxX, maxY, window pixels) and the background alpha
/// follow their own critically damped spring, `SpringDescription.photoTransition` (ω = 19 rad/s):
/// with x0 = position − target and v0 at the start, x(t) = (x0 + (v0 + ω·x0)·t)·e^(−ω·t). From
/// rest every coordinate has 99 % of its way behind it 0.35 s after the start (docs/physics.md,
/// "Photo transition"). The flight is done when every edge is within `Tolerance.pixels` of its
/// end and the alpha within `Tolerance.opacity` (0.5 px: about 0.49 s for a 500 px flight from
/// rest); from then on the end is answered exactly, and before the start the start is.
///
/// Opening starts at rest in the cell with alpha 0 and ends at fit with alpha 1. Closing starts
/// from any state (at fit, or a dragged and shrunk photo moving with the drag's velocity) and ends
/// in the cell with alpha 0. `reversed(at:)` turns a flight round from exactly where it is,
/// carrying its velocity, so neither position nor velocity jumps.
public struct PhotoTransition: Hashable, Sendable {
    /// Which way the photo flies.
    public enum Direction: Hashable, Sendable {
        /// From the grid cell to fit.
        case opening
        /// To the grid cell.
        case closing
    }

    /// The rate of change of a frame's four edges, window pixels per second.
    public struct FrameVelocity: Hashable, Sendable {
        public var minX: Double
        public var minY: Double
        public var maxX: Double
        public var maxY: Double

        /// Edge rates in pixels per second.
        public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
            self.minX = minX
            self.minY = minY
            self.maxX = maxX
            self.maxY = maxY
        }

        /// No motion.
        public static let zero = FrameVelocity(minX: 0, minY: 0, maxX: 0, maxY: 0)
    }

    /// Where a flying photo is and how it moves at one instant.
    public struct State: Hashable, Sendable {
        /// The part of the window the photo shows in (the clip), window pixels.
        public var frame: Rect
        /// The frame's edges' rates, pixels per second.
        public var frameVelocity: FrameVelocity
        /// The viewer background's opacity over the grid: 0 the grid shows … 1 it is hidden.
        public var backgroundAlpha: Double
        /// The background alpha's rate, per second.
        public var backgroundAlphaVelocity: Double

        /// A state; still unless velocities are given.
        public init(frame: Rect, frameVelocity: FrameVelocity = .zero, backgroundAlpha: Double, backgroundAlphaVelocity: Double = 0) {
            self.frame = frame
            self.frameVelocity = frameVelocity
            self.backgroundAlpha = backgroundAlpha
            self.backgroundAlphaVelocity = backgroundAlphaVelocity
        }
    }

    /// The grid cell, window pixels: a square showing the photo's centre crop.
    public let cell: Rect
    /// The photo's rectangle at fit, window pixels: its proportions are the photo's.
    public let fit: Rect
    /// Which way this flight goes.
    public let direction: Direction
    /// Clock time of the start, seconds.
    public let start: Double
    /// The state at the start, answered exactly up to `start`.
    public let initial: State

    // minX, minY, maxX, maxY: springs in time since `start`.
    private let edges: [SpringSimulation]
    private let alpha: SpringSimulation

    /// Opens: from rest in `cell` with the grid showing, to `fit` with the background opaque.
    public init(openingFrom cell: Rect, to fit: Rect, at start: Double) {
        self.init(from: State(frame: cell, backgroundAlpha: 0), direction: .opening, cell: cell, fit: fit, start: start)
    }

    /// Closes: from `state` (at fit, or where a dismiss drag let go, with its velocity) into
    /// `cell`, the background fading out. A velocity pointing at its end faster than ω times the
    /// distance left is capped there, so no edge passes the cell and the alpha never passes 0
    /// (a critically damped spring crosses its target only past that speed).
    public init(closingFrom state: State, to cell: Rect, fit: Rect, at start: Double) {
        let spring = SpringDescription.photoTransition
        let end = Self.edges(of: cell), from = Self.edges(of: state.frame), v = Self.rates(state.frameVelocity)
        let capped = (0..<4).map { spring.nonCrossingVelocity(v[$0], displacement: from[$0] - end[$0]) }
        var state = state
        state.frameVelocity = FrameVelocity(minX: capped[0], minY: capped[1], maxX: capped[2], maxY: capped[3])
        state.backgroundAlphaVelocity = spring.nonCrossingVelocity(state.backgroundAlphaVelocity, displacement: state.backgroundAlpha)
        self.init(from: state, direction: .closing, cell: cell, fit: fit, start: start)
    }

    private init(from state: State, direction: Direction, cell: Rect, fit: Rect, start: Double) {
        self.cell = cell
        self.fit = fit
        self.direction = direction
        self.start = start
        initial = state
        let spring = SpringDescription.photoTransition
        let from = Self.edges(of: state.frame), v = Self.rates(state.frameVelocity)
        let end = Self.edges(of: direction == .opening ? fit : cell)
        edges = (0..<4).map {
            SpringSimulation(spring: spring, position: from[$0], velocity: v[$0], target: end[$0], tolerance: .pixels)
        }
        alpha = SpringSimulation(
            spring: spring, position: state.backgroundAlpha, velocity: state.backgroundAlphaVelocity,
            target: direction == .opening ? 1 : 0, tolerance: .opacity)
    }

    /// The same photo turned round at clock time `t`: from exactly the state at `t`, velocity
    /// included (uncapped, so nothing jumps), to the other end.
    public func reversed(at t: Double) -> PhotoTransition {
        PhotoTransition(from: state(at: t), direction: direction == .opening ? .closing : .opening, cell: cell, fit: fit, start: t)
    }

    /// Where the flight ends: at fit with alpha 1 when opening, in the cell with alpha 0 when
    /// closing, still.
    public var end: State {
        direction == .opening ? State(frame: fit, backgroundAlpha: 1) : State(frame: cell, backgroundAlpha: 0)
    }

    /// The state at clock time `t`: `initial` up to the start, `end` once done, the springs
    /// between (the alpha unclamped: see `backgroundAlpha(at:)`).
    public func state(at t: Double) -> State {
        let local = t - start
        if local <= 0 { return initial }
        if isDone(at: t) { return end }
        let p = edges.map { $0.position(at: local) }, v = edges.map { $0.velocity(at: local) }
        return State(
            frame: Rect(x: p[0], y: p[1], width: p[2] - p[0], height: p[3] - p[1]),
            frameVelocity: FrameVelocity(minX: v[0], minY: v[1], maxX: v[2], maxY: v[3]),
            backgroundAlpha: alpha.position(at: local), backgroundAlphaVelocity: alpha.velocity(at: local))
    }

    /// The clip at clock time `t`, window pixels: the part of the window the photo shows in.
    public func frame(at t: Double) -> Rect { state(at: t).frame }

    /// Where the whole image is drawn at clock time `t`, window pixels: the photo's proportions
    /// (those of `fit`) scaled to cover `frame(at:)`, centred on it. Equal to the frame when the
    /// frame has the photo's proportions; for a square frame, the photo's centre square fills it.
    public func imageRect(at t: Double) -> Rect {
        let frame = frame(at: t)
        let image = fit.size * max(frame.width / fit.width, frame.height / fit.height)
        // Offsetting the frame's origin (rather than centring on its centre) keeps the image
        // exactly on a frame of the photo's size: (w − w)/2 is exactly 0.
        return Rect(
            origin: Point(x: frame.minX + (frame.width - image.width) / 2, y: frame.minY + (frame.height - image.height) / 2),
            size: image)
    }

    /// The viewer background's opacity over the grid at clock time `t`, clamped to [0, 1] (a
    /// reversed flight carries its velocity uncapped and may overshoot an end by a little).
    public func backgroundAlpha(at t: Double) -> Double {
        min(max(state(at: t).backgroundAlpha, 0), 1)
    }

    /// True once every edge is within 0.5 px of its end and slower than 20 px/s, and the alpha
    /// within half an 8-bit level and slower than 20 levels per second; stays true.
    public func isDone(at t: Double) -> Bool {
        let local = t - start
        return edges.allSatisfy { $0.isDone(at: local) } && alpha.isDone(at: local)
    }

    private static func edges(of rect: Rect) -> [Double] { [rect.minX, rect.minY, rect.maxX, rect.maxY] }

    private static func rates(_ v: FrameVelocity) -> [Double] { [v.minX, v.minY, v.maxX, v.maxY] }
}
