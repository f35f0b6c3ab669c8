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
///
/// A server with no scanout for the window (Xvfb and other servers without a display driver; a
/// window on no monitor) makes its vblanks up from a timer (xserver's present/present_fake.c):
/// vblank n fires at n·T microseconds of CLOCK_MONOTONIC, T = ⌊10⁶ / fps⌋ µs (60 fps unless
/// the server is told otherwise), and the server numbers the moment t µs as ⌊(t + T/2) / T⌋,
/// rounding (present_fake_get_ust_msc; its timer for vblank n is set for n·T). Half an
/// interval before vblank n + 1 fires it already counts n + 1, so a frame presented then for
/// "the next vblank" waits for n + 2: an interval on average, where a scanout's next vblank is
/// half of one away. The timeline recognises such a clock when `madeUpEvidence` completions in
/// a row fit its formula (a real display's counter, started with its mode, fits it only by a
/// coincidence no drift of its clock keeps up), and then knows every vblank from the formula.
struct VBlankTimeline {
    /// The latest frame shown: its vblank's time (seconds) and number.
    private(set) var lastShown: (time: Double, msc: UInt64)?
    /// The first frame shown at the current rate.
    private var runStart: (time: Double, msc: UInt64)?
    /// Seconds between vblanks (first guess 1/60 s).
    private(set) var refreshInterval = 1.0 / 60
    /// How far one interval may stray from T, as a fraction of it, before it means a new rate.
    static let rateChange = 0.1
    /// The made-up clock's interval in microseconds, once the completions have shown one.
    private(set) var madeUpInterval: UInt64?
    /// Completions in a row that fit a made-up clock of the measured rate.
    private var madeUpFits = 0
    /// Completions in a row that must fit a made-up clock before the timeline takes it for one.
    static let madeUpEvidence = 3

    /// True when the vblanks are made up by a server with no scanout: nothing it shows can tear.
    var isMadeUp: Bool { madeUpInterval != nil }

    /// A frame was shown at the vblank numbered `msc`, at `time`.
    mutating func frameShown(at time: Double, msc: UInt64) {
        let micros = UInt64(max(0, (time * 1e6).rounded()))
        if let interval = madeUpInterval {
            // Frames on a made-up clock are copied at once, between its vblanks: their times
            // say nothing of the rate, only whether the clock is still the made-up one.
            if Self.fits(micros: micros, msc: msc, interval: interval) {
                lastShown = (time, msc)
                return
            }
            madeUpInterval = nil
            madeUpFits = 0
            runStart = nil
            lastShown = nil
        }
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
        // A made-up clock's rate from its own count, fps = 10⁶·msc / t rounded (the count since
        // the clock's zero leaves the timer's lateness a millionth part), and it must be the rate
        // measured between frames.
        let rate = msc > 0 && micros > 0 ? (1e6 * Double(msc) / Double(micros)).rounded() : 0
        let candidate = rate >= 1 && rate <= 1e6 ? 1_000_000 / UInt64(rate) : 0
        let fits = candidate > 0 && abs(Double(candidate) / 1e6 - refreshInterval) <= Self.rateChange * refreshInterval
            && Self.fits(micros: micros, msc: msc, interval: candidate)
        madeUpFits = fits ? madeUpFits + 1 : 0
        if madeUpFits >= Self.madeUpEvidence {
            madeUpInterval = candidate
            refreshInterval = Double(candidate) / 1e6
        }
    }

    /// Whether vblank `msc` shown at `micros` fits a made-up clock of `interval` µs:
    /// msc = ⌊(micros + interval/2) / interval⌋.
    static func fits(micros: UInt64, msc: UInt64, interval: UInt64) -> Bool {
        msc == (micros + interval / 2) / interval
    }

    /// The vblank number to present a frame drawn at `time` for: the vblank the timeline puts
    /// last at or before `time`, so the server shows it at the next one (it shows a frame whose
    /// target has passed at the next vblank). Aiming one past it instead would, with T a hair
    /// short after a long rest, skip a vblank. 0 before any frame was shown: the next vblank.
    func targetMSC(at time: Double) -> UInt64 {
        guard let lastShown else { return 0 }
        return lastShown.msc + UInt64((max(0, time - lastShown.time) / refreshInterval).rounded(.down))
    }

    /// When the next vblank after `time` comes, from the latest frame shown (on a made-up clock,
    /// from its formula); nil before any.
    func nextVBlank(after time: Double) -> Double? {
        if let interval = madeUpInterval {
            let micros = UInt64(max(0, time * 1e6))
            return Double((micros / interval + 1) * interval) / 1e6
        }
        guard let lastShown else { return nil }
        let periods = ((time - lastShown.time) / refreshInterval).rounded(.down) + 1
        return lastShown.time + max(periods, 1) * refreshInterval
    }
}
