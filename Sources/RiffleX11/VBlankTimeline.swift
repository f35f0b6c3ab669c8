/// The display's vblanks as Present's completions tell them: the latest frame shown (its
/// vblank's time on the app's clock and its number, the MSC) and the refresh interval, so that a
/// frame can be aimed at the next vblank and drawn for its time.
///
/// The interval is measured over the longest run of completions at one rate:
/// T = (t − t₀) / (msc − msc₀) from the first frame shown at that rate. One interval alone is
/// off by the server's timer jitter (a tenth of a millisecond in 16.7 on Xvfb), and that error,
/// multiplied by the hundreds of vblanks of an idle second, would aim the first frame after a
/// rest one vblank late. A single interval more than `rateChange` away from T starts a new run:
/// the window moved to a monitor of another rate, or the mode changed.
struct VBlankTimeline {
    /// The latest frame shown: its vblank's time (seconds) and number.
    private(set) var lastShown: (time: Double, msc: UInt64)?
    /// The first frame shown at the current rate.
    private var runStart: (time: Double, msc: UInt64)?
    /// Seconds between vblanks (first guess 1/60 s).
    private(set) var refreshInterval = 1.0 / 60
    /// How far one interval may stray from T, as a fraction of it, before it means a new rate.
    static let rateChange = 0.1

    /// A frame was shown at the vblank numbered `msc`, at `time`.
    mutating func frameShown(at time: Double, msc: UInt64) {
        if let previous = lastShown, msc > previous.msc, time > previous.time {
            let recent = (time - previous.time) / Double(msc - previous.msc)
            if let start = runStart, msc > start.msc, abs(recent - refreshInterval) <= Self.rateChange * refreshInterval {
                refreshInterval = (time - start.time) / Double(msc - start.msc)
            } else {
                runStart = previous
                refreshInterval = recent
            }
        } else if runStart == nil || msc <= (lastShown?.msc ?? 0) {
            // The first frame, or a counter that went back (another monitor's).
            runStart = (time, msc)
        }
        lastShown = (time, msc)
    }

    /// The vblank number to present a frame drawn at `time` for: the vblank the timeline puts
    /// last at or before `time`, so the server shows it at the next one (it shows a frame whose
    /// target has passed at the next vblank). Aiming one past it instead would, with T a hair
    /// short after a long rest, skip a vblank. 0 before any frame was shown: the next vblank.
    func targetMSC(at time: Double) -> UInt64 {
        guard let lastShown else { return 0 }
        return lastShown.msc + UInt64((max(0, time - lastShown.time) / refreshInterval).rounded(.down))
    }

    /// When the next vblank after `time` comes, from the latest frame shown; nil before any.
    func nextVBlank(after time: Double) -> Double? {
        guard let lastShown else { return nil }
        let periods = ((time - lastShown.time) / refreshInterval).rounded(.down) + 1
        return lastShown.time + max(periods, 1) * refreshInterval
    }
}
