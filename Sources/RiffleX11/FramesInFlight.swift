/// The frames presented through Present and not yet known to be shown: for each, the oldest
/// input it answers and whether it waits at the server for a vblank or was copied at once.
///
/// Invariants: a frame leaves when its completion comes (shown, or skipped because a later one
/// took its vblank); a skipped frame's input passes to the next frame in flight, the first to
/// show its answer. The server carries out requests in order, but a frame queued for a vblank
/// is copied at that vblank, after any frame copied at once since: so a frame is copied at once
/// only while none waits for a vblank (`waitsForVBlank`), or the older frame would cover it.
struct FramesInFlight {
    private struct Frame {
        var input: Double?
        let atVBlank: Bool
    }

    private var frames: [UInt32: Frame] = [:]
    /// The serial of the latest frame presented.
    private(set) var latest: UInt32?

    /// Frame `serial` was presented, for a vblank or copied at once.
    mutating func presented(_ serial: UInt32, atVBlank: Bool) {
        frames[serial] = Frame(input: nil, atVBlank: atVBlank)
        latest = serial
    }

    /// The latest frame presented is the first to answer input that arrived at `time`.
    mutating func latestAnswers(inputAt time: Double) {
        if let latest { frames[latest]?.input = time }
    }

    /// Frame `serial`'s completion: the time of the input it answered when it was shown, nil
    /// when it answered none or was `skipped` (its input then passes to the next frame).
    mutating func completed(_ serial: UInt32, skipped: Bool) -> Double? {
        guard let frame = frames.removeValue(forKey: serial) else { return nil }
        guard skipped else { return frame.input }
        if let input = frame.input, let next = frames.keys.filter({ $0 > serial }).min() {
            let older = frames[next]?.input.map { min($0, input) } ?? input
            frames[next]?.input = older
        }
        return nil
    }

    /// True while frame `serial` has not been shown (nor skipped).
    func isInFlight(_ serial: UInt32) -> Bool { frames[serial] != nil }

    /// True while some frame waits at the server for its vblank.
    var waitsForVBlank: Bool { frames.values.contains { $0.atVBlank } }
}
