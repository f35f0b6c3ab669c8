import RiffleGeometry
import RifflePhysics

/// One page's zoom and pan (the inner scroll view of Apple's PhotoScroller): its transform from
/// image pixels to page pixels as a pure function of time, changed only by explicit calls.
///
/// States: at rest; tracking (a drag, pinch or wheel is changing it directly); decelerating after
/// a pan (per axis `ScrollSimulation` with `DecelerationRate.fast`, as PhotoScroller sets, and the
/// edge-bounce spring); animating (`ZoomAnimation`). At rest the transform always satisfies
/// `bounds.isResting`. Invariants while tracking: the horizontal offset never leaves its bounds
/// by panning (what is left over is handed back to the caller for the paging model); the
/// vertical offset rubber-bands past its bounds (`RubberBand`, d = viewport height); the scale
/// past its limits is shown through `ZoomResistance`.
public struct ZoomScrollModel: Hashable, Sendable {
    /// The limits and pan bounds this model keeps to.
    public private(set) var bounds: ZoomBounds
    private var mode: Mode

    private struct Tracking: Hashable, Sendable {
        // The scale the gesture asks for, before resistance.
        var rawScale: Double
        // The displayed scale: bounds.resistance.displayed(forRaw: rawScale).
        var scale: Double
        // The horizontal offset, displayed as is.
        var offsetX: Double
        // The vertical offset before the rubber band.
        var rawOffsetY: Double
        // The page point a release bounces the zoom about: the last zoom anchor.
        var anchor: Point
    }

    private enum Mode: Hashable, Sendable {
        case rest(ScaleTranslate)
        case tracking(Tracking)
        case decelerating(scale: Double, x: ScrollSimulation, y: ScrollSimulation, start: Double)
        case animating(ZoomAnimation)
    }

    /// A model resting at fit.
    public init(bounds: ZoomBounds) {
        self.init(bounds: bounds, resting: bounds.fitTransform)
    }

    /// A model resting at `transform` (which should satisfy `bounds.isResting`).
    public init(bounds: ZoomBounds, resting transform: ScaleTranslate) {
        self.bounds = bounds
        mode = .rest(transform)
    }

    /// The transform from image pixels to page pixels at clock time `t`.
    public func transform(at t: Double) -> ScaleTranslate {
        switch mode {
        case let .rest(transform):
            return transform
        case let .tracking(tracking):
            return ScaleTranslate(scale: tracking.scale, offset: displayedOffset(tracking))
        case let .decelerating(scale, x, y, start):
            return ScaleTranslate(scale: scale, offset: Point(x: x.position(at: t - start), y: y.position(at: t - start)))
        case let .animating(animation):
            return animation.transform(at: t)
        }
    }

    /// Where the model will come to rest if left alone: the animation's target, else the
    /// transform at `t` moved into its limits and bounds (about the viewport centre).
    public func restingTransform(at t: Double) -> ScaleTranslate {
        if case let .animating(animation) = mode { return animation.to }
        return bounds.settled(transform(at: t), anchor: viewportCentre)
    }

    /// True while a deceleration or an animation runs (changes with time alone).
    public var isAnimating: Bool {
        switch mode {
        case .decelerating, .animating: return true
        case .rest, .tracking: return false
        }
    }

    /// True while a gesture is changing the model directly.
    public var isTracking: Bool {
        if case .tracking = mode { return true }
        return false
    }

    /// True when resting exactly at fit: the model can be forgotten.
    public var isRestingAtFit: Bool {
        if case let .rest(transform) = mode { return bounds.isAtFit(transform) }
        return false
    }

    /// Stops any motion where it is at `t` and starts tracking from there without a jump.
    public mutating func grab(at t: Double) {
        if isTracking { return }
        let current = transform(at: t)
        let yRange = bounds.offsetRange(.vertical, scale: current.scale)
        mode = .tracking(Tracking(
            rawScale: bounds.resistance.raw(forDisplayed: current.scale),
            scale: current.scale,
            offsetX: current.offset.x,
            rawOffsetY: RubberBand.unclamp(current.offset.y, bounds: yRange, dimension: bounds.viewport.height),
            anchor: viewportCentre))
    }

    /// Pans by `delta` (page pixels, the photo follows the pointer) and returns the horizontal
    /// part it could not take because the photo's edge was reached (for the paging model).
    ///
    /// Horizontally the offset moves freely inside its bounds (an offset already outside them,
    /// caught mid-bounce, may move back in but not further out); vertically it rubber-bands.
    public mutating func pan(by delta: Point, at t: Double) -> Double {
        grab(at: t)
        guard case var .tracking(tracking) = mode else { return delta.x }
        let range = bounds.offsetRange(.horizontal, scale: tracking.scale)
        let low = min(range.lowerBound, tracking.offsetX), high = max(range.upperBound, tracking.offsetX)
        // Unclamped motion leaves exactly 0 over, so rounding never nudges the paging strip.
        let wanted = tracking.offsetX + delta.x
        let x = min(max(wanted, low), high)
        let leftover = wanted - x
        tracking.offsetX = x
        tracking.rawOffsetY += delta.y
        mode = .tracking(tracking)
        return leftover
    }

    /// Multiplies the requested scale by `factor` keeping the image point under `anchor` (page
    /// pixels) fixed, as far as the bounds allow: past the limits the shown scale resists
    /// (`ZoomResistance`), and the offset is kept in bounds (centred on an axis where the photo
    /// is smaller than the viewport).
    public mutating func zoom(by factor: Double, anchor: Point, at t: Double) {
        grab(at: t)
        guard case var .tracking(tracking) = mode, factor > 0, factor.isFinite else { return }
        let point = ScaleTranslate(scale: tracking.scale, offset: displayedOffset(tracking)).invert(anchor)
        tracking.rawScale *= factor
        tracking.scale = bounds.resistance.displayed(forRaw: tracking.rawScale)
        let offset = bounds.clampOffset(anchor - point * tracking.scale, scale: tracking.scale)
        tracking.offsetX = offset.x
        tracking.rawOffsetY = offset.y
        tracking.anchor = anchor
        mode = .tracking(tracking)
    }

    /// Ends tracking at `t` with the pointer's `velocity` (page pixels per second).
    ///
    /// A scale past its limits springs back (`ZoomAnimation`) about the last zoom anchor, the
    /// offset ending in bounds; otherwise each axis decelerates (`DecelerationRate.fast`) and
    /// bounces back into bounds (`SpringDescription.edgeBounce`). No effect unless tracking.
    public mutating func release(velocity: Point, at t: Double) {
        guard case let .tracking(tracking) = mode else { return }
        let current = transform(at: t)
        let s = current.scale
        if s < bounds.minimum || s > bounds.maximum {
            animate(to: bounds.settled(current, anchor: tracking.anchor), at: t)
            return
        }
        let x = ScrollSimulation(
            position: current.offset.x, velocity: velocity.x, bounds: bounds.offsetRange(.horizontal, scale: s),
            rate: .fast, spring: .edgeBounce)
        let y = ScrollSimulation(
            position: current.offset.y, velocity: velocity.y, bounds: bounds.offsetRange(.vertical, scale: s),
            rate: .fast, spring: .edgeBounce)
        mode = .decelerating(scale: s, x: x, y: y, start: t)
        settle(at: t)
    }

    /// Animates from the transform at `t` to `target` (which should satisfy `bounds.isResting`).
    public mutating func animate(to target: ScaleTranslate, at t: Double) {
        let current = transform(at: t)
        if current == target {
            mode = .rest(target)
        } else {
            mode = .animating(ZoomAnimation(from: current, to: target, content: bounds.content, start: t))
        }
    }

    /// Ends a deceleration or animation that is done at `t`, resting exactly in bounds.
    public mutating func settle(at t: Double) {
        switch mode {
        case let .decelerating(scale, x, y, start):
            if x.isDone(at: t - start), y.isDone(at: t - start) {
                let offset = Point(x: x.position(at: t - start), y: y.position(at: t - start))
                mode = .rest(ScaleTranslate(scale: scale, offset: bounds.clampOffset(offset, scale: scale)))
            }
        case let .animating(animation):
            if animation.isDone(at: t) { mode = .rest(animation.to) }
        case .rest, .tracking:
            break
        }
    }

    /// Moves to `newBounds` (a resize, or the photo's real size arriving), stopping any motion.
    ///
    /// A model at fit rests at the new fit. Otherwise the image point under the viewport centre
    /// stays under the new viewport centre as far as bounds allow, at the same on-screen size
    /// (the scale divided by the content's growth), clamped into the new limits.
    public mutating func rebase(to newBounds: ZoomBounds, at t: Double) {
        let current = transform(at: t)
        let wasAtFit = bounds.isAtFit(current) || !bounds.isZoomed(current)
        let growth = newBounds.content.width / bounds.content.width
        let point = current.invert(viewportCentre) * growth
        bounds = newBounds
        if wasAtFit {
            mode = .rest(newBounds.fitTransform)
            return
        }
        let scale = newBounds.clampScale(current.scale / growth)
        mode = .rest(ScaleTranslate(scale: scale, offset: newBounds.clampOffset(viewportCentre - point * scale, scale: scale)))
    }

    private var viewportCentre: Point { Point(x: bounds.viewport.width / 2, y: bounds.viewport.height / 2) }

    private func displayedOffset(_ tracking: Tracking) -> Point {
        let yRange = bounds.offsetRange(.vertical, scale: tracking.scale)
        return Point(
            x: tracking.offsetX,
            y: RubberBand.clamp(tracking.rawOffsetY, bounds: yRange, dimension: bounds.viewport.height))
    }
}
