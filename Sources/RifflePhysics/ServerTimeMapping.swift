/// Maps X server timestamps onto the app's monotonic clock.
///
/// The server stamps input with a 32-bit millisecond counter of its own (it wraps every
/// 2^32 ms, about 49.7 days, and starts wherever the server's clock was). The mapping unwraps
/// it with `ServerTimeline` and adds an offset, app seconds − server seconds, learnt from the
/// first event. Pure: the arrival time comes in as a number.
///
/// The offset is kept as the smallest one seen, because an event is never delivered before it
/// happens: an event that arrives "earlier" than the mapping predicts lowers the offset, so a
/// mapped time is never later than the `now` it arrived at and mapped times never run
/// backwards for events in server order. An event that arrives more than `maxDrift` seconds
/// later than predicted re-anchors the offset to it: the server's clock jumped or drifted (a
/// suspend, a restarted server), and stale times would make velocities meaningless.
public struct ServerTimeMapping: Sendable {
    /// Seconds an event may arrive later than the mapping predicts before it re-anchors.
    public let maxDrift: Double
    /// App seconds minus unwrapped server seconds; nil before the first event.
    public private(set) var offset: Double?
    /// Unwraps the 32-bit counter.
    private var timeline = ServerTimeline()

    /// A mapping that has seen no event yet.
    ///
    /// - Parameter maxDrift: seconds of lateness tolerated before re-anchoring (default 1 s,
    ///   far longer than any delivery delay of a live server and far shorter than a suspend).
    public init(maxDrift: Double = 1) {
        self.maxDrift = maxDrift
    }

    /// The app-clock time of an event stamped `serverMilliseconds` that arrived at app time
    /// `now` (seconds); never later than `now`.
    public mutating func appTime(serverMilliseconds: UInt32, now: Double) -> Double {
        let seconds = timeline.seconds(for: serverMilliseconds)
        let arrival = now - seconds
        if let known = offset, arrival <= known + maxDrift {
            offset = min(known, arrival)
        } else {
            offset = arrival
        }
        return seconds + (offset ?? arrival)
    }
}
