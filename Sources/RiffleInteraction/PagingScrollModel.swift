import RifflePhysics

/// The horizontal strip of pages (the outer scroll view of Apple's PhotoScroller): its position
/// in pixels as a pure function of time, changed only by explicit calls.
///
/// Page i's left edge is at window x = i · pageWidth − position, pageWidth = viewport width +
/// `gap`. At rest position = page · pageWidth exactly. A drag moves the raw position 1:1; the
/// shown position is the raw one inside [0, (n − 1) · pageWidth] and rubber-bands beyond it
/// (`RubberBand`, d = viewport width). A release picks a target page (`release`) and a critically
/// damped spring (`SpringDescription.pageSnap`) carries the release velocity there without
/// crossing the target.
public struct PagingScrollModel: Hashable, Sendable {
    /// 20 px between pages: Riffle's gap (Apple's PhotoScroller pads each page 10 pt a side,
    /// `PADDING` in `PhotoViewController.m`; docs/physics.md, "Paging").
    public static let gap = 20.0
    /// 500 px/s: a release faster than this is a flick that turns the page (PhotoSwipe
    /// `MIN_NEXT_SLIDE_SPEED`, 0.5 px/ms, `src/js/gestures/drag-handler.js`; docs/physics.md,
    /// "Paging").
    public static let flickVelocity = 500.0

    /// Number of pages (≥ 1).
    public private(set) var pageCount: Int
    /// The window's width, pixels.
    public private(set) var viewportWidth: Double
    private var mode: Mode

    private enum Mode: Hashable, Sendable {
        case rest(page: Int)
        case dragging(raw: Double, startPage: Int)
        case settling(ScrollSimulation, start: Double, page: Int)
    }

    /// A strip of `pageCount` pages resting on `page`.
    public init(pageCount: Int, viewportWidth: Double, page: Int = 0) {
        self.pageCount = max(pageCount, 1)
        self.viewportWidth = viewportWidth
        mode = .rest(page: min(max(page, 0), max(pageCount, 1) - 1))
    }

    /// viewport width + gap, pixels.
    public var pageWidth: Double { viewportWidth + Self.gap }

    /// (n − 1) · pageWidth: the last page's resting position.
    public var maximumPosition: Double { Double(pageCount - 1) * pageWidth }

    /// The shown position at clock time `t`, pixels.
    public func position(at t: Double) -> Double {
        switch mode {
        case let .rest(page): return Double(page) * pageWidth
        case let .dragging(raw, _): return RubberBand.clamp(raw, bounds: 0...maximumPosition, dimension: viewportWidth)
        case let .settling(simulation, start, _): return simulation.position(at: t - start)
        }
    }

    /// The page the strip rests on, settles towards, or (while dragged) is nearest to.
    public func currentPage(at t: Double) -> Int {
        switch mode {
        case let .rest(page), let .settling(_, _, page): return page
        case .dragging: return nearestPage(to: position(at: t))
        }
    }

    /// True while a snap spring runs.
    public var isAnimating: Bool {
        if case .settling = mode { return true }
        return false
    }

    /// True between `grab` and `release`.
    public var isDragging: Bool {
        if case .dragging = mode { return true }
        return false
    }

    /// Raw position minus the drag's start page position (0 when not dragging): how far a drag
    /// has pulled the strip off the page it started on, before the rubber band.
    public var dragDisplacement: Double {
        if case let .dragging(raw, startPage) = mode { return raw - Double(startPage) * pageWidth }
        return 0
    }

    /// The page a drag started on (the nearest page at `grab`); nil when not dragging.
    public var dragStartPage: Int? {
        if case let .dragging(_, startPage) = mode { return startPage }
        return nil
    }

    /// Stops the strip where it is at `t` and starts a drag from there without a jump; the drag's
    /// start page is the page nearest to that position. No effect while already dragging.
    public mutating func grab(at t: Double) {
        if isDragging { return }
        let shown = position(at: t)
        mode = .dragging(
            raw: RubberBand.unclamp(shown, bounds: 0...maximumPosition, dimension: viewportWidth),
            startPage: nearestPage(to: shown))
    }

    /// Moves the raw position by `delta` pixels (positive shows later pages). Only while dragging.
    public mutating func drag(by delta: Double) {
        guard case let .dragging(raw, startPage) = mode else { return }
        mode = .dragging(raw: raw + delta, startPage: startPage)
    }

    /// Moves the raw position by `delta` only if that brings it back towards the drag's start
    /// page, stopping exactly there; returns the part of `delta` not used. Lets a zoomed photo
    /// take motion back only once the strip has returned to its page.
    public mutating func dragTowardsStartPage(by delta: Double) -> Double {
        guard case let .dragging(raw, startPage) = mode else { return delta }
        let start = Double(startPage) * pageWidth
        let displacement = raw - start
        guard displacement * delta < 0 else { return delta }
        if abs(delta) >= abs(displacement) {
            mode = .dragging(raw: start, startPage: startPage)
            return delta + displacement
        }
        mode = .dragging(raw: raw + delta, startPage: startPage)
        return 0
    }

    /// Ends a drag at `t` with `velocity` (pixels per second of position, positive towards later
    /// pages): faster than `flickVelocity` goes exactly one page from the start page in the
    /// velocity's direction, otherwise to the nearest page; then the snap spring.
    public mutating func release(velocity: Double, at t: Double) {
        guard case let .dragging(_, startPage) = mode else { return }
        let shown = position(at: t)
        let target: Int
        if abs(velocity) > Self.flickVelocity {
            target = clampPage(startPage + (velocity > 0 ? 1 : -1))
        } else {
            target = nearestPage(to: shown)
        }
        snap(from: shown, velocity: velocity, to: target, at: t)
    }

    /// Animates to `page` (clamped) through the snap spring from the motion at `t`. With
    /// `fromNeighbour` the strip first jumps to the page next to the target on the side it comes
    /// from (Home/End: one page of motion, not a flight past every photo).
    public mutating func scroll(toPage page: Int, fromNeighbour: Bool = false, at t: Double) {
        let target = clampPage(page)
        var shown = position(at: t)
        var velocity = self.velocity(at: t)
        let targetPosition = Double(target) * pageWidth
        if fromNeighbour, abs(shown - targetPosition) > pageWidth {
            shown = targetPosition + (shown > targetPosition ? pageWidth : -pageWidth)
            velocity = 0
        }
        snap(from: shown, velocity: velocity, to: target, at: t)
    }

    /// Slides onto `page` (clamped) from resting on page `start` at `t`, through the snap spring
    /// from standstill: a page taking the place of one that is gone arrives as a page turn does.
    /// `start` may lie beyond the pages (the last page arriving from the right of its end).
    public mutating func slide(toPage page: Int, fromPage start: Int, at t: Double) {
        snap(from: Double(start) * pageWidth, velocity: 0, to: clampPage(page), at: t)
    }

    /// Ends a snap that is done at `t`: the strip rests exactly on its page.
    public mutating func settle(at t: Double) {
        if case let .settling(simulation, start, page) = mode, simulation.isDone(at: t - start) {
            mode = .rest(page: page)
        }
    }

    /// Changes the viewport width at `t`, keeping the current page (and any motion's fraction of
    /// a page) in place.
    public mutating func resize(viewportWidth newWidth: Double, at t: Double) {
        let ratio = (newWidth + Self.gap) / pageWidth
        let shown = position(at: t), velocity = self.velocity(at: t)
        viewportWidth = newWidth
        switch mode {
        case .rest: break
        case let .dragging(raw, startPage): mode = .dragging(raw: raw * ratio, startPage: startPage)
        case let .settling(_, _, page): snap(from: shown * ratio, velocity: velocity * ratio, to: page, at: t)
        }
    }

    /// Changes the number of pages at `t`; a strip beyond the new last page settles onto it.
    public mutating func setPageCount(_ count: Int, at t: Double) {
        let page = currentPage(at: t)
        let shown = position(at: t)
        pageCount = max(count, 1)
        switch mode {
        case .rest, .settling:
            if page >= pageCount { snap(from: shown, velocity: 0, to: pageCount - 1, at: t) }
        case .dragging:
            break
        }
    }

    private func velocity(at t: Double) -> Double {
        if case let .settling(simulation, start, _) = mode { return simulation.velocity(at: t - start) }
        return 0
    }

    private func nearestPage(to position: Double) -> Int {
        clampPage(Int((position / pageWidth).rounded()))
    }

    private func clampPage(_ page: Int) -> Int { min(max(page, 0), pageCount - 1) }

    // The velocity is capped where the critically damped spring would cross its target
    // (`SpringDescription.nonCrossingVelocity`), so the snap never overshoots the page.
    private mutating func snap(from shown: Double, velocity: Double, to page: Int, at t: Double) {
        let target = Double(page) * pageWidth
        let v = SpringDescription.pageSnap.nonCrossingVelocity(velocity, displacement: shown - target)
        let simulation = ScrollSimulation.snapping(position: shown, velocity: v, target: target)
        mode = simulation.isDone(at: 0) ? .rest(page: page) : .settling(simulation, start: t, page: page)
    }
}
