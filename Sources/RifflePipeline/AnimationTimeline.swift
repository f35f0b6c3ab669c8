/// When each frame of an animation is shown, as a pure function of the clock: frame 0 from
/// `start`, each next one when the one before has been shown for its duration, the loop
/// starting over `loopCount` times (0: for ever), the last frame staying once they are done.
///
/// Frames are numbered on through the loops: frame n is the file's frame n mod `frameCount`,
/// in loop n / `frameCount`. Durations are learned as frames are decoded (the first loop's in
/// order), so the timeline knows the starts of frames 0 ... `durations.count` (and, once a loop's
/// durations are all known, of every frame); past what it knows it stays on the last frame it
/// knows the start of. Querying never changes it; any time may be asked in any order.
///
/// Times are seconds on the app's clock; durations are kept in whole microseconds, and a time is
/// rounded to the nearest microsecond of `start` before it is compared, so that `frame(at:)` of
/// a frame's own `startTime` is that frame whatever the floating-point rounding of the sum.
struct AnimationTimeline: Hashable, Sendable {
    /// When frame 0 shows, seconds.
    let start: Double
    /// Frames in one loop.
    let frameCount: Int
    /// How many times the loop plays; 0 for ever.
    let loopCount: Int
    /// The durations known, microseconds, of frames 0 ..< count of the first loop.
    private(set) var durations: [Int64] = []
    /// `offsets[i]`: microseconds from `start` to frame i of the first loop (offsets[0] = 0),
    /// for every frame whose start is known; one more than `durations` (the loop's length last,
    /// once every duration is known).
    private var offsets: [Int64] = [0]

    /// A timeline starting at `start` for `frameCount` frames (at least 1) played `loopCount`
    /// times, no duration known yet.
    init(start: Double, frameCount: Int, loopCount: Int) {
        self.start = start
        self.frameCount = max(1, frameCount)
        self.loopCount = max(0, loopCount)
    }

    /// Learns that frame `index` of the loop lasts `seconds` (ignored unless it is the next one
    /// not yet known: frames are learned in order).
    mutating func learn(frame index: Int, lasts seconds: Double) {
        guard index == durations.count, index < frameCount else { return }
        let microseconds = max(1, Int64((seconds * 1e6).rounded()))
        durations.append(microseconds)
        offsets.append(offsets[offsets.count - 1] + microseconds)
    }

    /// The number of the last frame, after which nothing changes; nil for an endless animation.
    var lastFrame: Int? { loopCount == 0 ? nil : loopCount * frameCount - 1 }

    /// True once every duration of a loop is known.
    var knowsEveryDuration: Bool { durations.count == frameCount }

    /// The number of the frame shown at clock time `time`: the last whose start is at or before
    /// it (0 before `start`), among those whose start is known; `lastFrame` once the loops are done.
    func frame(at time: Double) -> Int {
        let elapsed = Int64(((time - start) * 1e6).rounded())
        guard elapsed > 0 else { return 0 }
        guard knowsEveryDuration else {
            // Within the first loop: the last known start at or before `elapsed`.
            return offsets.lastIndex { $0 <= elapsed } ?? 0
        }
        let length = offsets[frameCount]
        let loop = elapsed / length
        if let last = lastFrame, loop >= Int64(loopCount) { return last }
        let within = elapsed - loop * length
        let index = offsets[0..<frameCount].lastIndex { $0 <= within } ?? 0
        return Int(loop) * frameCount + index
    }

    /// When frame `number` starts, seconds; nil when that is not known yet, or the frame is
    /// past `lastFrame`.
    func startTime(ofFrame number: Int) -> Double? {
        if let last = lastFrame, number > last { return nil }
        if number < offsets.count, number <= frameCount { return start + Double(offsets[number]) / 1e6 }
        guard knowsEveryDuration else { return nil }
        let loop = Int64(number / frameCount), index = number % frameCount
        return start + Double(loop * offsets[frameCount] + offsets[index]) / 1e6
    }
}
