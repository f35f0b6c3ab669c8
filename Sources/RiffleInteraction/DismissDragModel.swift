import RifflePhysics

/// A photo at fit dragged vertically (the start of Photos' swipe-down dismiss): it follows the
/// pointer vertically only (the pan is locked to the vertical axis, so horizontal motion is
/// ignored) while the background fades, and springs back to 0 on release.
///
/// Background alpha a = 1 − |dy| / (H/3), clamped to [0, 1] (PhotoSwipe `_getVerticalDragRatio`,
/// `src/js/gestures/drag-handler.js`; docs/physics.md, "Dismiss drag"). The return
/// is `ScrollSimulation.snapping` to 0 with `SpringDescription.edgeBounce`, carrying the release
/// velocity (capped so the photo does not cross 0).
public struct DismissDragModel: Hashable, Sendable {
    /// PhotoSwipe fades the background to 0 over a third of the viewport height.
    public static let fadeHeightFraction = 1.0 / 3.0

    private enum Mode: Hashable, Sendable {
        case rest
        case tracking(offset: Double)
        case returning(ScrollSimulation, start: Double)
    }

    private var mode = Mode.rest

    /// At rest at 0.
    public init() {}

    /// The vertical offset of the dragged photo at `t`, pixels (positive = down).
    public func offset(at t: Double) -> Double {
        switch mode {
        case .rest: return 0
        case let .tracking(offset): return offset
        case let .returning(simulation, start): return simulation.position(at: t - start)
        }
    }

    /// 1 − |offset| / (height/3), clamped to [0, 1]; 1 at rest.
    public func backgroundAlpha(at t: Double, viewportHeight: Double) -> Double {
        guard viewportHeight > 0 else { return 1 }
        return min(max(1 - abs(offset(at: t)) / (viewportHeight * Self.fadeHeightFraction), 0), 1)
    }

    /// True while the photo springs back.
    public var isAnimating: Bool {
        if case .returning = mode { return true }
        return false
    }

    /// Catches the photo where it is at `t`.
    public mutating func grab(at t: Double) {
        mode = .tracking(offset: offset(at: t))
    }

    /// Moves the photo by `dy` pixels. Only while tracking.
    public mutating func drag(by dy: Double) {
        if case let .tracking(offset) = mode { mode = .tracking(offset: offset + dy) }
    }

    /// Lets go at `t` with `velocity` (pixels per second): the photo springs back to 0.
    public mutating func release(velocity: Double, at t: Double) {
        guard case let .tracking(offset) = mode else { return }
        let limit = SpringDescription.edgeBounce.naturalFrequency * abs(offset)
        let v = velocity * offset < 0 && abs(velocity) > limit ? (velocity > 0 ? limit : -limit) : velocity
        let simulation = ScrollSimulation.snapping(position: offset, velocity: v, target: 0, spring: .edgeBounce)
        mode = simulation.isDone(at: 0) ? .rest : .returning(simulation, start: t)
    }

    /// Ends a return that is done at `t`.
    public mutating func settle(at t: Double) {
        if case let .returning(simulation, start) = mode, simulation.isDone(at: t - start) { mode = .rest }
    }
}
