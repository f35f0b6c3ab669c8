/// The soak's replay script: `flips` page turns through a library of `photoCount` photos, back
/// and forth between its ends, as a user skims: mostly held-down arrow keys (one turn every
/// 50 ms, faster than a slide ends, so most decodes are cancelled), every fifth turn a flick,
/// and before every 25th a zoom at the pointer, a pan and a double-click back to fit (the zoom
/// resets on leaving anyway; this way the zoomed view settles and its sharper decode lands).
/// Once in every thousand turns the script rests (`restLength`), halfway between two zooms so
/// that no photo near the current one holds a zoom's sharper decode: the slide ends, the
/// decodes finish and the cache holds what it holds for any photo looked at (all are 6000×4000),
/// so the resident size then is comparable from one thousand to the next.
struct SoakScript {
    /// The script's lines, one command each.
    let lines: [String]
    /// The script time, in milliseconds from its start, at which each turn is asked for.
    let flipTimes: [Int]
    /// The script time span of each rest, one in every `restEvery` turns.
    let rests: [Range<Int>]
    /// The script's length in milliseconds.
    let duration: Int

    /// Milliseconds between two key turns: a held key repeats at 25–33 Hz on X's defaults (`xset
    /// q`: delay 660 ms, rate 25 Hz), so 50 ms is a brisk skim, not an impossible one.
    static let keyInterval = 50
    /// A flick: 400 px in 50 ms (8,000 px/s, past any paging threshold), then 100 ms to let go.
    static let flickMove = 50, flickRest = 100
    /// Every this many turns, a zoom, a pan and a double-click back first.
    static let zoomEvery = 25
    /// Once in this many turns, a rest of `restLength` milliseconds after the turn: long enough
    /// for the neighbours' decodes to finish on a machine busy with other work.
    static let restEvery = 1000, restLength = 8000
    /// The turn of each thousand after which the script rests: `zoomEvery / 2` turns after a zoom.
    static let restTurn = restEvery - 1 - zoomEvery / 2

    init(flips: Int, photoCount: Int, window: (width: Int, height: Int)) {
        precondition(photoCount >= 2, "a soak pages between two photos at least")
        var lines: [String] = ["wait 500"], flipTimes: [Int] = [], rests: [Range<Int>] = [], time = 500
        var page = 0, forward = true
        let midX = window.width / 2, midY = window.height / 2
        for k in 0..<flips {
            if k % Self.zoomEvery == Self.zoomEvery - 1 {
                lines += [
                    "wheel 3 \(midX) \(midY)", "wait 150",
                    "down \(midX) \(midY)", "move \(midX - 200) \(midY - 100) 150", "up", "wait 300",
                    "doubleclick \(midX) \(midY)", "wait 400",
                ]
                time += 150 + 150 + 300 + 100 + 400
            }
            if forward && page == photoCount - 1 { forward = false } else if !forward && page == 0 { forward = true }
            flipTimes.append(time)
            if k % 5 == 4 {
                // Dragging the photo left shows the next one; right, the previous.
                let from = forward ? midX + 200 : midX - 200, to = forward ? midX - 200 : midX + 200
                lines += ["down \(from) \(midY)", "move \(to) \(midY) \(Self.flickMove)", "up", "wait \(Self.flickRest)"]
                time += Self.flickMove + Self.flickRest
            } else {
                lines += ["key \(forward ? "Right" : "Left")", "wait \(Self.keyInterval)"]
                time += Self.keyInterval
            }
            page += forward ? 1 : -1
            if k % Self.restEvery == Self.restTurn {
                lines.append("wait \(Self.restLength)")
                rests.append(time..<(time + Self.restLength))
                time += Self.restLength
            }
        }
        lines.append("wait 2000")
        self.duration = time + 2000
        self.lines = lines
        self.flipTimes = flipTimes
        self.rests = rests
    }
}
