/// Turns X server timestamps (UInt32 milliseconds that wrap every 2^32 ms ≈ 49.7 days) into one
/// continuous timeline in Double seconds.
///
/// Each timestamp is placed relative to the latest one seen by the signed 32-bit difference
/// (serial-number arithmetic, RFC 1982): a step back of less than 2^31 ms (≈ 24.8 days) is an
/// event delivered out of order and lands slightly before the latest; a larger step back is the
/// counter wrapping and lands after it. The first timestamp maps to itself / 1000.
struct ServerTimeline: Hashable, Sendable {
    // The unwrapped millisecond count of the latest timestamp seen; nil before the first.
    private var latest: Int64?

    /// An empty timeline: the first timestamp fixes its origin.
    init() {}

    /// Seconds on the continuous timeline for the server time `timestamp` (milliseconds).
    /// Monotonic in arrival order except for reordered events, which keep their true offset.
    mutating func seconds(for timestamp: UInt32) -> Double {
        let unwrapped: Int64
        if let latest {
            let step = Int32(bitPattern: timestamp &- UInt32(truncatingIfNeeded: latest))
            unwrapped = latest + Int64(step)
            self.latest = max(latest, unwrapped)
        } else {
            unwrapped = Int64(timestamp)
            latest = unwrapped
        }
        return Double(unwrapped) / 1000
    }
}
