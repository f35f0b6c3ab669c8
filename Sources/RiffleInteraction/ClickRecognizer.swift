import RiffleGeometry

/// Tells single clicks from double clicks among taps, so that a double click never also
/// produces a single click.
///
/// A tap is pending for `doubleClickInterval` after its release. A press within that interval
/// and within `doubleClickDistance` of it holds it; if that press is released as a tap, the
/// double click fires (on the second release). Otherwise the pending single click fires: from
/// `step(to:)` at release + interval, or at once when a later press is too far, or when the
/// held press turns into a pan.
public struct ClickRecognizer: Hashable, Sendable {
    /// 0.3 s between the first release and the second press (PhotoSwipe `DOUBLE_TAP_DELAY`,
    /// `src/js/gestures/gestures.js`; docs/physics.md, "Single and double clicks").
    public static let doubleClickInterval = 0.300
    /// 25 px between the first tap and the second press (PhotoSwipe `MIN_TAP_DISTANCE`,
    /// `src/js/gestures/gestures.js`; docs/physics.md, "Single and double clicks").
    public static let doubleClickDistance = 25.0

    /// A recognized click.
    public enum Click: Hashable, Sendable {
        /// A single click at `position`, fired at clock `time`.
        case single(position: Point, time: Double)
        /// A double click at the second tap's `position`, at its release `time`.
        case double(position: Point, time: Double)
    }

    private struct Pending: Hashable, Sendable {
        var position: Point
        var release: Double
        var secondPress: Bool
    }

    private var pending: Pending?

    /// No click pending.
    public init() {}

    /// The clock time at which `step(to:)` will fire the pending single click, or nil.
    public var deadline: Double? {
        guard let pending, !pending.secondPress else { return nil }
        return pending.release + Self.doubleClickInterval
    }

    /// True while a tap waits to become a single or double click.
    public var isPending: Bool { pending != nil }

    /// The left button went down; fires the pending single click if this press cannot make it a
    /// double click.
    public mutating func press(at position: Point, time: Double) -> Click? {
        guard var held = pending else { return nil }
        if time - held.release <= Self.doubleClickInterval,
            (position - held.position).length <= Self.doubleClickDistance {
            held.secondPress = true
            pending = held
            return nil
        }
        pending = nil
        return .single(position: held.position, time: time)
    }

    /// A press was released as a tap at `position`: a double click if it completes one.
    public mutating func tap(at position: Point, time: Double) -> Click? {
        if let held = pending, held.secondPress {
            pending = nil
            return .double(position: position, time: time)
        }
        pending = Pending(position: position, release: time, secondPress: false)
        return nil
    }

    /// The held second press became a pan (or was cancelled): the first tap was a single click.
    public mutating func cancelSecondPress(time: Double) -> Click? {
        guard let held = pending, held.secondPress else { return nil }
        pending = nil
        return .single(position: held.position, time: time)
    }

    /// Fires the pending single click once `t` reaches its deadline; its time is the deadline.
    public mutating func step(to t: Double) -> Click? {
        guard let deadline, t >= deadline, let held = pending else { return nil }
        pending = nil
        return .single(position: held.position, time: deadline)
    }
}
