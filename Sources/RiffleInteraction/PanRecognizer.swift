import RiffleGeometry
import RifflePhysics

/// Recognizes a left-button drag as a pan locked to one axis, or a press and release without
/// one as a tap, from timestamped pointer events.
///
/// Press → possible. The first movement more than `slop` from the press point begins the pan and
/// locks its axis from that displacement: vertical when |dy| > |dx|, else horizontal, kept for
/// the whole gesture. Convention (Riffle's choice): motion is reported from the lock point on, so
/// the slop is absorbed and the content starts moving from where it is, with no 10 px jump.
/// Deltas are full 2D displacements; the consumer decides what the axis means. The release
/// velocity is `VelocityTracker`'s least-squares estimate over the last 100 ms of the press and
/// every move since. A release where the last move left the pointer adds no sample: X stamps it
/// later but at the same place, which would tell the fit the pointer had stopped (Flutter's
/// `DragGestureRecognizer` likewise tracks only down and move events); a pointer that really
/// stopped is caught by the tracker's stillness threshold at the release time.
public struct PanRecognizer: Hashable, Sendable {
    /// 10 px: movement beyond this from the press point is a pan, and decides its axis
    /// (PhotoSwipe `AXIS_SWIPE_HYSTERISIS`, `src/js/gestures/gestures.js`; docs/physics.md,
    /// "Pan slop and axis lock").
    public static let slop = 10.0

    /// What one pointer event meant.
    public enum Output: Hashable, Sendable {
        /// A pan along `axis` began at `position` (the lock point; no motion is reported yet).
        case began(axis: Axis, position: Point, time: Double)
        /// The pointer moved by `delta` since the previous report, window pixels.
        case changed(delta: Point, time: Double)
        /// The pan ended with `velocity`, pixels per second.
        case ended(velocity: Point, time: Double)
        /// The button was pressed and released within `slop` of the press point.
        case tap(position: Point, time: Double)
    }

    private enum State: Hashable, Sendable {
        case idle
        case possible(press: Point)
        case panning(axis: Axis, last: Point)
    }

    private var state = State.idle
    private var tracker = VelocityTracker()

    /// An idle recognizer.
    public init() {}

    /// True between a press and its release.
    public var isPressed: Bool { state != .idle }

    /// The locked axis of the pan in progress, or nil.
    public var axis: Axis? {
        if case let .panning(axis, _) = state { return axis }
        return nil
    }

    /// The left button went down at `position`.
    public mutating func press(at position: Point, time: Double) {
        state = .possible(press: position)
        tracker.reset()
        tracker.add(time: time, position: position)
    }

    /// The pointer moved to `position`; reports a pan's beginning or motion.
    public mutating func move(to position: Point, time: Double) -> Output? {
        switch state {
        case .idle:
            return nil
        case let .possible(press):
            tracker.add(time: time, position: position)
            let d = position - press
            guard d.length > Self.slop else { return nil }
            let axis: Axis = abs(d.y) > abs(d.x) ? .vertical : .horizontal
            state = .panning(axis: axis, last: position)
            return .began(axis: axis, position: position, time: time)
        case let .panning(axis, last):
            tracker.add(time: time, position: position)
            state = .panning(axis: axis, last: position)
            return .changed(delta: position - last, time: time)
        }
    }

    /// The left button came up at `position`; reports the pan's end or a tap. A release away from
    /// the last move point first reports that motion (as `changed`) through the returned list.
    public mutating func release(at position: Point, time: Double) -> [Output] {
        defer { state = .idle }
        switch state {
        case .idle:
            return []
        case let .possible(press):
            return (position - press).length > Self.slop ? [] : [.tap(position: position, time: time)]
        case let .panning(_, last):
            if position != last { tracker.add(time: time, position: position) }
            let velocity = tracker.velocity(at: time)
            let motion: [Output] = position == last ? [] : [.changed(delta: position - last, time: time)]
            return motion + [.ended(velocity: velocity, time: time)]
        }
    }
}
