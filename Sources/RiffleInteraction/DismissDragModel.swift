import RiffleGeometry
import RifflePhysics

/// A photo at fit dragged by a vertical pan (Photos' swipe-down dismiss): once the pan has locked
/// vertically, the photo follows the pointer on both axes, shrinks as it moves away vertically
/// and fades the background; let go, it either goes (the scene flies it into its grid cell with
/// `PhotoTransition`, from `dismiss`) or springs back (`release`). docs/physics.md, "Dismiss drag".
///
/// With (dx, dy) the offset from rest (pixels, y down), H the viewport height and
/// f = min(|dy| / (H/3), 1) (0 when H ≤ 0):
/// - scale s = 1 − 0.4·f: 0.6 from a third of the height on (Riffle's reading of Photos);
/// - background alpha a = 1 − f (PhotoSwipe `_getVerticalDragRatio`, `src/js/gestures/drag-handler.js`);
/// - a window point p of the photo at fit shows at anchor + (dx, dy) + (p − anchor)·s, the anchor
///   being where the pan locked: the point of the photo under the pointer stays under it.
///
/// Release (`dismisses(releasedWith:viewportHeight:)`), for a photo below rest (dy > 0): a flick
/// down faster than 800 px/s goes (Agrume), a flick up faster than 800 px/s stays, and between
/// the two the photo goes once dragged more than 15 % of H down (NYTPhotoViewer's first figure).
/// A photo at or above rest never goes (Photos shows the photo's details on a drag up; here it
/// springs back). The spring back is `ScrollSimulation.snapping` to 0 on each axis with
/// `SpringDescription.edgeBounce`, carrying the release velocity capped so the photo crosses 0
/// on neither axis; s and a follow dy back.
public struct DismissDragModel: Hashable, Sendable {
    /// PhotoSwipe fades the background to 0 over a third of the viewport height; the photo
    /// shrinks to `smallestScale` over the same distance.
    public static let fadeHeightFraction = 1.0 / 3.0
    /// The scale of a photo dragged a third of the window or more: 0.6 (Riffle's reading of
    /// Photos, unverified; docs/physics.md, "Dismiss drag").
    public static let smallestScale = 0.6
    /// 800 px/s: a release faster than this down goes, and one faster than this up stays,
    /// wherever the photo is (Agrume's `minFlickDismissalVelocity`; docs/physics.md, "Dismiss drag").
    public static let flickVelocity = 800.0
    /// 0.15: a slower release goes once the photo is more than this fraction of the viewport
    /// height below rest (NYTPhotoViewer's first `PanDismissDistanceRatio`, 100/667;
    /// docs/physics.md, "Dismiss drag").
    public static let dismissDistanceFraction = 0.15

    private enum Mode: Hashable, Sendable {
        case rest
        case tracking(offset: Point)
        case returning(x: ScrollSimulation, y: ScrollSimulation, start: Double)
    }

    private var mode = Mode.rest
    /// Where the pan locked, window pixels: the photo shrinks about it.
    private var anchor = Point.zero

    /// At rest at 0.
    public init() {}

    /// The offset of the dragged photo at `t`, pixels (y positive down).
    public func offset(at t: Double) -> Point {
        switch mode {
        case .rest: return .zero
        case let .tracking(offset): return offset
        case let .returning(x, y, start): return Point(x: x.position(at: t - start), y: y.position(at: t - start))
        }
    }

    /// 1 − 0.4 · min(|dy| / (height/3), 1); 1 at rest.
    public func scale(at t: Double, viewportHeight: Double) -> Double {
        1 - (1 - Self.smallestScale) * fadeFraction(dy: offset(at: t).y, viewportHeight: viewportHeight)
    }

    /// 1 − |dy| / (height/3), clamped to [0, 1]; 1 at rest.
    public func backgroundAlpha(at t: Double, viewportHeight: Double) -> Double {
        1 - fadeFraction(dy: offset(at: t).y, viewportHeight: viewportHeight)
    }

    /// Where the photo at fit is shown at `t`: window pixels to window pixels, scale s about the
    /// anchor, then the offset (p ↦ anchor + offset + (p − anchor)·s); the identity at rest.
    public func transform(at t: Double, viewportHeight: Double) -> ScaleTranslate {
        let s = scale(at: t, viewportHeight: viewportHeight)
        return ScaleTranslate(scale: s, offset: anchor * (1 - s) + offset(at: t))
    }

    /// True while the photo springs back.
    public var isAnimating: Bool {
        if case .returning = mode { return true }
        return false
    }

    /// Catches the photo where it is at `t`, the pointer at `anchor` (window pixels). The photo
    /// shrinks about `anchor` when grabbed at rest; caught mid-return it keeps the anchor it had,
    /// so it does not jump.
    public mutating func grab(at t: Double, anchor: Point) {
        if case .rest = mode { self.anchor = anchor }
        mode = .tracking(offset: offset(at: t))
    }

    /// Moves the photo by `delta` pixels. Only while tracking.
    public mutating func drag(by delta: Point) {
        if case let .tracking(offset) = mode { mode = .tracking(offset: offset + delta) }
    }

    /// True when letting go now with the pointer's `velocity` (pixels per second) should dismiss:
    /// the photo is below rest and either flicked down faster than `flickVelocity`, or, not
    /// flicked up faster than that, more than `dismissDistanceFraction` of `viewportHeight` down.
    /// False unless tracking.
    public func dismisses(releasedWith velocity: Point, viewportHeight: Double) -> Bool {
        guard case let .tracking(offset) = mode, offset.y > 0 else { return false }
        if velocity.y > Self.flickVelocity { return true }
        if velocity.y < -Self.flickVelocity { return false }
        return offset.y > Self.dismissDistanceFraction * viewportHeight
    }

    /// Lets go at `t` with `velocity` (pixels per second): the photo springs back to rest.
    public mutating func release(velocity: Point, at t: Double) {
        guard case let .tracking(offset) = mode else { return }
        let spring = SpringDescription.edgeBounce
        let x = ScrollSimulation.snapping(
            position: offset.x, velocity: spring.nonCrossingVelocity(velocity.x, displacement: offset.x), target: 0, spring: spring)
        let y = ScrollSimulation.snapping(
            position: offset.y, velocity: spring.nonCrossingVelocity(velocity.y, displacement: offset.y), target: 0, spring: spring)
        mode = x.isDone(at: 0) && y.isDone(at: 0) ? .rest : .returning(x: x, y: y, start: t)
    }

    /// Lets go at `t` for a dismissal: returns where the photo whose rectangle at fit is
    /// `photoFrame` (window pixels) shows, and how fast each of its edges and the background alpha
    /// change with the pointer moving at `velocity` (pixels per second), for
    /// `PhotoTransition(closingFrom:to:fit:at:)`. The model rests at 0: the flight draws the photo
    /// from now on.
    ///
    /// With f' = sign(dy)·vy / (H/3) while 0 < |dy| < H/3 (else 0), s' = −0.4·f' and the alpha's
    /// rate −f'; an edge at window coordinate p at fit moves at v + (p − anchor)·s' on its axis.
    public mutating func dismiss(velocity: Point, photoFrame: Rect, viewportHeight: Double, at t: Double) -> PhotoTransition.State {
        let transform = transform(at: t, viewportHeight: viewportHeight)
        let dy = offset(at: t).y, third = viewportHeight * Self.fadeHeightFraction
        let fadeRate = dy != 0 && abs(dy) < third ? (dy > 0 ? velocity.y : -velocity.y) / third : 0
        let scaleRate = -(1 - Self.smallestScale) * fadeRate
        let state = PhotoTransition.State(
            frame: transform.apply(photoFrame),
            frameVelocity: PhotoTransition.FrameVelocity(
                minX: velocity.x + (photoFrame.minX - anchor.x) * scaleRate,
                minY: velocity.y + (photoFrame.minY - anchor.y) * scaleRate,
                maxX: velocity.x + (photoFrame.maxX - anchor.x) * scaleRate,
                maxY: velocity.y + (photoFrame.maxY - anchor.y) * scaleRate),
            backgroundAlpha: backgroundAlpha(at: t, viewportHeight: viewportHeight),
            backgroundAlphaVelocity: -fadeRate)
        mode = .rest
        return state
    }

    /// Ends a return that is done at `t`.
    public mutating func settle(at t: Double) {
        if case let .returning(x, y, start) = mode, x.isDone(at: t - start), y.isDone(at: t - start) { mode = .rest }
    }

    // f = min(|dy| / (H/3), 1), 0 for an empty viewport.
    private func fadeFraction(dy: Double, viewportHeight: Double) -> Double {
        guard viewportHeight > 0 else { return 0 }
        return min(abs(dy) / (viewportHeight * Self.fadeHeightFraction), 1)
    }
}
