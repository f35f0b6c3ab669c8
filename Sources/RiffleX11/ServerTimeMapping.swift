/// Maps X server timestamps onto the app's monotonic clock.
///
/// The server stamps input with a 32-bit millisecond counter of its own (it wraps every
/// 2^32 ms, about 49.7 days, and starts wherever the server's clock was). The mapping unwraps
/// it with `ServerTimeline` and adds an offset, app seconds − server seconds, learnt from the
/// first event. Pure: the arrival time comes in as a number.
///
/// The offset is kept as the smallest one seen, because an event is never delivered before it
/// happens: an event that arrives "earlier" than the mapping predicts lowers the offset, so a
/// mapped time is never later than the `now` it arrived at. An event that arrives more than
/// `maxDrift` seconds later than predicted re-anchors the offset to it: the server's clock jumped
/// or drifted (a suspend, a restarted server), and stale times would make velocities meaningless.
///
/// Events read together are mapped together, with the one offset their newest implies: only the
/// newest can have arrived without waiting, the older ones queued behind it. Mapped one by one,
/// each would lower the offset to its own arrival and every event of the batch would map to
/// `now`, collapsing a flick's 16 ms spacing to nothing.
struct ServerTimeMapping: Sendable {
    /// Seconds an event may arrive later than the mapping predicts before it re-anchors.
    let maxDrift: Double
    /// App seconds minus unwrapped server seconds; nil before the first event.
    private(set) var offset: Double?
    /// Unwraps the 32-bit counter.
    private var timeline = ServerTimeline()

    /// A mapping that has seen no event yet.
    ///
    /// - Parameter maxDrift: seconds of lateness tolerated before re-anchoring (default 1 s,
    ///   far longer than any delivery delay of a live server and far shorter than a suspend).
    init(maxDrift: Double = 1) {
        self.maxDrift = maxDrift
    }

    /// The app-clock times of events stamped `serverMilliseconds` (in the order read) that
    /// arrived together at app time `now` (seconds); none later than `now`, their server spacing
    /// kept exactly.
    mutating func appTimes(serverMilliseconds: [UInt32], now: Double) -> [Double] {
        let seconds = serverMilliseconds.map { timeline.seconds(for: $0) }
        guard let newest = seconds.max() else { return [] }
        let arrival = now - newest
        let mapped = offset.map { arrival <= $0 + maxDrift ? min($0, arrival) : arrival } ?? arrival
        offset = mapped
        return seconds.map { $0 + mapped }
    }

    /// The app-clock time of one event stamped `serverMilliseconds` that arrived alone at app
    /// time `now` (seconds); never later than `now`.
    mutating func appTime(serverMilliseconds: UInt32, now: Double) -> Double {
        appTimes(serverMilliseconds: [serverMilliseconds], now: now)[0]
    }
}
