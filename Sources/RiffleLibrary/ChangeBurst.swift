/// When a burst of folder events is taken in: once the folder has been quiet for `quiet`, and
/// never later than `longest` after the burst's first event. A copy of 500 files then lists
/// the folder a few times a second, not 500 times, and each file shows within `longest` (plus
/// one frame) of its first event, inside the half second a change may take to show.
struct ChangeBurst: Equatable, Sendable {
    /// 0.1 s without an event ends a burst (Riffle's choice: a file manager's copy sends its
    /// events for one file within a few milliseconds, and 0.1 s is where a delay starts to be
    /// seen as one).
    static let quiet = 0.1
    /// 0.25 s: the longest a burst is held, however long it goes on (half the 0.5 s a change
    /// may take to show, leaving the rest for listing, decoding and a frame).
    static let longest = 0.25

    /// Clock times (seconds) of the burst's first and latest events.
    let first: Double
    private(set) var last: Double

    /// A burst starting with an event at `t`.
    init(at t: Double) {
        first = t
        last = t
    }

    /// Another event at `t`.
    mutating func add(at t: Double) { last = max(last, t) }

    /// min(last + quiet, first + longest): when the burst is taken in.
    var deadline: Double { min(last + Self.quiet, first + Self.longest) }
}
