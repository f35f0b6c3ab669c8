import RifflePhysics

/// A free-scrolling axis (a UIScrollView without paging): the position of a content of
/// `contentLength` pixels in a viewport of `viewportLength` pixels as a pure function of time,
/// changed only by explicit calls. The library grid scrolls vertically; a strip, horizontally.
///
/// The position p is the content coordinate at the viewport's leading edge: the viewport shows
/// content [p, p + viewportLength). At rest p ∈ [0, maximumPosition], maximumPosition =
/// max(0, contentLength − viewportLength), so content shorter than the viewport rests at 0.
/// - Drag: the raw position moves 1:1 with the finger; the shown position is the raw one inside
///   the range and rubber-bands past either end (`RubberBand`, d = viewportLength). A grab
///   catches any motion where it is, as a touch does on iOS.
/// - Release: `ScrollSimulation` at UIScrollView's `.normal` rate, x(t) = x0 + v0·(1 − e^(−k·t))/k
///   with k = −1000·ln 0.998 per second, heading for x0 + v0/k. A coast that would pass an end
///   hands off there, at the speed v it arrives with, to the critically damped edge spring
///   (`SpringDescription.edgeBounce`, ω): (v·s)·e^(−ω·s) past the end s seconds later, at most
///   v/(ω·e), back on the end without crossing it again. A release past an end springs back
///   from where it is (Flutter's `BouncingScrollSimulation`,
///   packages/flutter/lib/src/widgets/scroll_simulation.dart).
/// - Animated scrolls (wheel notches, Page Up/Down, Home/End, reveal): a critically damped spring
///   (`scrollSpring`) from the current position and velocity to a target inside the range. A
///   velocity pointing at the target faster than ω·|D| (D the distance left) is capped there,
///   so the spring never passes its target; a new step adds to the target of the animation in
///   progress, so quick wheel notches compose. They are ignored while a finger drags.
public struct FreeScrollModel: Hashable, Sendable {
    // The spring of the pager's animated page turns (PhotoSwipe's ω = 30 rad/s), so keys move
    // the grid as they move the photos. From rest it covers 1 − (1 + 30t)·e^(−30t) of a step:
    // 80 % in 0.1 s, 94 % in 0.15 s, 98 % in 0.2 s. Firefox's smooth scrolling is the same kind
    // of motion: a mass-spring-damper at damping ratio 1, restarted from the current position
    // and velocity towards each new destination as wheel events arrive (Firefox
    // layout/generic/ScrollAnimationMSDPhysics.cpp, `Update`).
    /// The spring of animated scrolls: critically damped, ω = 30 rad/s (`SpringDescription.pageSnap`).
    public static let scrollSpring = SpringDescription.pageSnap

    // Page Up/Down keep `overlap` of the old view on screen (a row, so the eye keeps its place)
    // but always move at least half a viewport: in a window barely taller than a row a whole
    // row of overlap would hardly move. Chromium guards the same way with a floor of 0.875
    // (kMinFractionToStepWhenPaging, cc/input/scroll_utils.h), which would discard a grid
    // row's overlap in most windows.
    /// 0.5: the smallest page step, as a fraction of the viewport length.
    public static let minimumPageFraction = 0.5

    /// The content's length along the axis, pixels (≥ 0).
    public private(set) var contentLength: Double
    /// The viewport's length along the axis, pixels (≥ 0); also the rubber band's d.
    public private(set) var viewportLength: Double
    private var mode: Mode

    private enum Mode: Hashable, Sendable {
        case rest(Double)
        // The finger's position before the rubber band.
        case dragging(raw: Double)
        // Momentum after a release, or the spring back from an overscroll.
        case coasting(ScrollSimulation, start: Double)
        // A wheel, key or reveal scroll towards the spring's target.
        case animating(SpringSimulation, start: Double)
    }

    /// Where a resize puts the content: the content point `contentPosition` (in the new layout)
    /// shows at `viewportPosition` pixels from the viewport's leading edge, as far as the range
    /// allows.
    ///
    /// To keep the item at the top: its new leading edge, at the viewport position it had (its
    /// old leading edge minus the old position, negative when partly scrolled off).
    public struct Anchor: Hashable, Sendable {
        /// A content coordinate in the resized content, pixels.
        public var contentPosition: Double
        /// Where it shows, pixels from the viewport's leading edge.
        public var viewportPosition: Double

        /// Content point `contentPosition` shown `viewportPosition` pixels into the viewport.
        public init(contentPosition: Double, viewportPosition: Double) {
            self.contentPosition = contentPosition
            self.viewportPosition = viewportPosition
        }
    }

    /// A content of `contentLength` in a viewport of `viewportLength` (pixels, negative ones
    /// taken as 0), resting at `position` moved into [0, maximumPosition].
    public init(viewportLength: Double, contentLength: Double, position: Double = 0) {
        self.viewportLength = max(viewportLength, 0)
        self.contentLength = max(contentLength, 0)
        mode = .rest(min(max(position, 0), max(0, contentLength - viewportLength)))
    }

    /// max(0, contentLength − viewportLength): the largest resting position.
    public var maximumPosition: Double { max(0, contentLength - viewportLength) }

    /// The shown position at clock time `t`, pixels; outside [0, maximumPosition] only while
    /// rubber-banded, bouncing or springing back.
    public func position(at t: Double) -> Double {
        switch mode {
        case let .rest(position): return position
        case let .dragging(raw): return RubberBand.clamp(raw, bounds: range, dimension: viewportLength)
        case let .coasting(simulation, start): return simulation.position(at: t - start)
        case let .animating(spring, start): return spring.position(at: t - start)
        }
    }

    /// d/dt of `position(at:)` at clock time `t`, pixels per second: 0 at rest and while dragged
    /// (the finger's velocity is the caller's to measure).
    public func velocity(at t: Double) -> Double {
        switch mode {
        case .rest, .dragging: return 0
        case let .coasting(simulation, start): return simulation.velocity(at: t - start)
        case let .animating(spring, start): return spring.velocity(at: t - start)
        }
    }

    /// The content the viewport shows at `t`: position ..< position + viewportLength. Parts
    /// outside [0, contentLength) are the empty space of an overscroll.
    public func visibleRange(at t: Double) -> Range<Double> {
        let position = self.position(at: t)
        return position..<(position + viewportLength)
    }

    /// True while a coast, bounce, spring back or animated scroll runs (changes with time alone).
    public var isAnimating: Bool {
        switch mode {
        case .coasting, .animating: return true
        case .rest, .dragging: return false
        }
    }

    /// True from a grab (or the first precise delta) to the release.
    public var isDragging: Bool {
        if case .dragging = mode { return true }
        return false
    }

    /// True while a release's momentum, a bounce or a spring back runs: the motion a press
    /// catches instead of clicking through (the grid's taps). False during animated scrolls.
    public var isCoasting: Bool {
        if case .coasting = mode { return true }
        return false
    }

    /// Stops any motion where it is at `t` and starts a drag from there without a jump: the raw
    /// position is the one the rubber band shows where the content is. No effect while dragging.
    public mutating func grab(at t: Double) {
        if isDragging { return }
        mode = .dragging(raw: RubberBand.unclamp(position(at: t), bounds: range, dimension: viewportLength))
    }

    /// Moves the raw position by `delta` pixels (positive shows later content), grabbing at `t`
    /// first when not dragging: a finger's moves after `grab`, or a trackpad's smooth-scroll
    /// deltas, which end with `release` at the velocity `WheelRecognizer` measures.
    public mutating func drag(by delta: Double, at t: Double) {
        grab(at: t)
        guard case let .dragging(raw) = mode else { return }
        mode = .dragging(raw: raw + delta)
    }

    /// Ends a drag at `t` with `velocity` (pixels per second of position): momentum inside the
    /// range, the bounce at an end it reaches, or the spring back from past an end. No effect
    /// unless dragging.
    public mutating func release(velocity: Double, at t: Double) {
        guard isDragging else { return }
        coast(from: position(at: t), velocity: velocity, at: t)
    }

    /// Animates to `position` moved into the range (Home: 0; End: `maximumPosition`), from the
    /// motion at `t`. Ignored while dragging.
    public mutating func scroll(to position: Double, at t: Double) {
        guard !isDragging else { return }
        animate(to: clamp(position), at: t)
    }

    /// Animates `distance` pixels (positive shows later content) from the target of the animated
    /// scroll in progress, or else from the position at `t`; the target is moved into the range.
    /// One wheel notch is one call: fast notches add up. Ignored while dragging.
    public mutating func scroll(by distance: Double, at t: Double) {
        guard !isDragging else { return }
        animate(to: clamp(animationBase(at: t) + distance), at: t)
    }

    /// Page Down (`pages` = 1) or Up (−1): `scroll(by:)` of `pages` steps of
    /// viewportLength − overlap, the overlap (pixels kept in view, e.g. a row) clamped into
    /// [0, (1 − minimumPageFraction) · viewportLength]. Ignored while dragging.
    public mutating func scroll(pages: Int, overlap: Double, at t: Double) {
        let kept = min(max(overlap, 0), (1 - Self.minimumPageFraction) * viewportLength)
        scroll(by: Double(pages) * (viewportLength - kept), at: t)
    }

    /// Brings the content span `span` into view with the least motion from the target of the
    /// animated scroll in progress, or else from the position at `t`. Ignored while dragging.
    ///
    /// With a = span's start, b = its end, V = viewportLength, that base position p moves to the
    /// nearest point of [min(a, b − V), max(a, b − V)], then into the range: a span that fits is
    /// then wholly in view, a longer one fills the whole viewport (CSSOM View's "nearest"
    /// alignment, https://drafts.csswg.org/cssom-view/#scroll-an-element-into-view).
    /// Animated, a span already placed so changes nothing (whatever motion runs carries on);
    /// with `animated` false (behind a photo closing onto its cell) the model rests there at once.
    public mutating func scroll(toReveal span: Range<Double>, animated: Bool = true, at t: Double) {
        guard !isDragging else { return }
        let base = animationBase(at: t)
        let low = min(span.lowerBound, span.upperBound - viewportLength)
        let high = max(span.lowerBound, span.upperBound - viewportLength)
        let target = clamp(min(max(base, low), high))
        if !animated {
            mode = .rest(target)
        } else if target != base {
            animate(to: target, at: t)
        }
    }

    /// Ends a coast or animation that is done at `t`: an animated scroll rests exactly on its
    /// target, a spring back or bounce exactly on its end, a coast where it stopped (it never
    /// jumps to its asymptote).
    public mutating func settle(at t: Double) {
        switch mode {
        case let .coasting(simulation, start):
            guard simulation.isDone(at: t - start) else { return }
            // An edge spring approaches its end from outside the range and never crosses it
            // (the one that would, flicked back in, hands off to friction at the end), so moving
            // the position into the range puts it exactly on the end; a coast is already inside.
            mode = .rest(clamp(simulation.position(at: t - start)))
        case let .animating(spring, start):
            if spring.isDone(at: t - start) { mode = .rest(spring.target) }
        case .rest, .dragging:
            break
        }
    }

    /// Changes the lengths at `t` (a resize; items added or removed), keeping in view what the
    /// user looks at: the new position is p′ = anchor.contentPosition − anchor.viewportPosition
    /// (without an anchor, the position at `t`).
    ///
    /// At rest p′ moved into the new range; a drag keeps the finger, its raw position moved by
    /// p′ − the old shown position; a coast or bounce carries its velocity on from p′ within the
    /// new range (springing back if p′ lies past an end); an animated scroll carries on from p′,
    /// its target moved by the same amount and into the new range.
    public mutating func resize(viewportLength: Double, contentLength: Double, anchor: Anchor? = nil, at t: Double) {
        let shown = position(at: t), velocity = self.velocity(at: t)
        let wanted = anchor.map { $0.contentPosition - $0.viewportPosition } ?? shown
        self.viewportLength = max(viewportLength, 0)
        self.contentLength = max(contentLength, 0)
        switch mode {
        case .rest:
            mode = .rest(clamp(wanted))
        case let .dragging(raw):
            mode = .dragging(raw: raw + wanted - shown)
        case .coasting:
            coast(from: wanted, velocity: velocity, at: t)
        case let .animating(spring, _):
            startSpring(from: wanted, velocity: velocity, to: clamp(spring.target + wanted - shown), at: t)
        }
    }

    private var range: ClosedRange<Double> { 0...maximumPosition }

    private func clamp(_ position: Double) -> Double { min(max(position, 0), maximumPosition) }

    // Where a new animated step starts from: the running animation's target, else the position.
    private func animationBase(at t: Double) -> Double {
        if case let .animating(spring, _) = mode { return spring.target }
        return position(at: t)
    }

    private mutating func coast(from position: Double, velocity: Double, at t: Double) {
        mode = .coasting(
            ScrollSimulation(position: position, velocity: velocity, bounds: range, rate: .normal, spring: .edgeBounce),
            start: t)
        settle(at: t)
    }

    private mutating func animate(to target: Double, at t: Double) {
        startSpring(from: position(at: t), velocity: velocity(at: t), to: target, at: t)
    }

    // The velocity is capped where the critically damped spring would cross its target
    // (`SpringDescription.nonCrossingVelocity`), so an animated scroll never overshoots.
    private mutating func startSpring(from position: Double, velocity: Double, to target: Double, at t: Double) {
        let v = Self.scrollSpring.nonCrossingVelocity(velocity, displacement: position - target)
        mode = .animating(SpringSimulation(spring: Self.scrollSpring, position: position, velocity: v, target: target), start: t)
        settle(at: t)
    }
}
