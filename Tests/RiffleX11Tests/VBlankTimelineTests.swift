import Testing

@testable import RiffleX11

/// The vblank timeline from Present's completions, on made-up completions: a 60 Hz display whose
/// timer jitters by up to 0.15 ms (as Xvfb's does), a rest, a change of rate.
@Suite struct VBlankTimelineTests {
    static let period = 1.0 / 60
    static let firstMSC: UInt64 = 1000

    /// Completion k of a jittery 60 Hz display: vblank 1000 + k at k·T, ±0.15 ms.
    static func completion(_ k: Int) -> (time: Double, msc: UInt64) {
        let jitter = Double((k * 7919) % 31 - 15) * 1e-5
        return (10 + Double(k) * period + jitter, firstMSC + UInt64(k))
    }

    static func shown(_ frames: Range<Int>, on timeline: inout VBlankTimeline) {
        for k in frames {
            let c = completion(k)
            timeline.frameShown(at: c.time, msc: c.msc)
        }
    }

    /// Over two seconds of frames the interval is the run's, T within 3 µs, where one
    /// interval alone is off by up to 0.3 ms.
    @Test func theIntervalIsMeasuredOverTheWholeRun() {
        var timeline = VBlankTimeline()
        Self.shown(0..<120, on: &timeline)
        #expect(abs(timeline.refreshInterval - Self.period) < 3e-6, "\(timeline.refreshInterval)")
    }

    /// Three seconds after the last frame shown, a frame drawn 0.4 of a period after vblank
    /// 1299 is aimed at 1299, which has passed: the server shows it at the very next vblank,
    /// 1300, due within a millisecond of when it comes. Aiming one later, as a one-interval T a
    /// hair short would, costs a whole refresh.
    @Test func theFirstFrameAfterARestIsAimedAtTheNextVBlank() throws {
        var timeline = VBlankTimeline()
        Self.shown(0..<120, on: &timeline)
        let drawn = 10 + 299.4 * Self.period
        #expect(timeline.targetMSC(at: drawn) == Self.firstMSC + 299)
        let next = try #require(timeline.nextVBlank(after: drawn))
        // Within a millisecond: the last frame's own jitter and T's error over 180 periods.
        #expect(abs(next - (10 + 300 * Self.period)) < 1e-3, "\(next)")
    }

    /// Before any frame is shown the target is 0 (the next vblank) and no vblank is known.
    @Test func beforeAnyFrameTheNextVBlankIsAimedAt() {
        let timeline = VBlankTimeline()
        #expect(timeline.targetMSC(at: 5) == 0)
        #expect(timeline.nextVBlank(after: 5) == nil)
    }

    /// The window moved to a 144 Hz monitor: two frames there and the interval is 1/144.
    @Test func aNewRateIsFollowedAtOnce() {
        var timeline = VBlankTimeline()
        Self.shown(0..<60, on: &timeline)
        let last = Self.completion(59)
        for k in 1...3 { timeline.frameShown(at: last.time + Double(k) / 144, msc: last.msc + UInt64(k)) }
        #expect(abs(timeline.refreshInterval - 1.0 / 144) < 1e-9, "\(timeline.refreshInterval)")
    }

    /// Completion n of a server's made-up clock at `fps` (xserver's present_fake.c): its timer
    /// for vblank n fires at n·T µs, T = ⌊10⁶/fps⌋, a little late (up to 0.3 ms here), and it
    /// numbers that moment ⌊(t + T/2) / T⌋.
    static func madeUp(_ n: UInt64, fps: UInt64 = 60) -> (time: Double, msc: UInt64) {
        let interval = 1_000_000 / fps
        let micros = n * interval + (n * 7919) % 300
        return (Double(micros) / 1e6, (micros + interval / 2) / interval)
    }

    /// Xvfb's clock is recognised by its third completion; from then on its vblanks come from
    /// its formula exactly, and frames copied at once between them (their completions stamped
    /// mid-interval, numbered by rounding) keep it so.
    @Test func aMadeUpClockIsRecognisedAndItsVBlanksFollowItsFormula() throws {
        var timeline = VBlankTimeline()
        let first: UInt64 = 600_000  // 10,000 s after boot
        for n in first..<(first + 2) {
            let c = Self.madeUp(n)
            timeline.frameShown(at: c.time, msc: c.msc)
        }
        #expect(!timeline.isMadeUp, "two completions are not yet evidence")
        let third = Self.madeUp(first + 2)
        timeline.frameShown(at: third.time, msc: third.msc)
        #expect(timeline.isMadeUp)
        #expect(timeline.refreshInterval == 16_666e-6)
        // Copied at once 0.6 of an interval after vblank first + 5: numbered first + 6.
        let copied = Double((first + 5) * 16_666 + 10_000) / 1e6
        timeline.frameShown(at: copied, msc: first + 6)
        #expect(timeline.isMadeUp)
        let next = try #require(timeline.nextVBlank(after: copied))
        #expect(next == Double((first + 6) * 16_666) / 1e6)
    }

    /// A server told `-fakescreenfps 144` makes up a 144 Hz clock: T = 6944 µs.
    @Test func aMadeUpClockOfAnotherRateIsRecognised() {
        var timeline = VBlankTimeline()
        for n in UInt64(1_440_000)..<1_440_004 {
            let c = Self.madeUp(n, fps: 144)
            timeline.frameShown(at: c.time, msc: c.msc)
        }
        #expect(timeline.isMadeUp)
        #expect(timeline.refreshInterval == 6_944e-6)
    }

    /// A display with a scanout numbers its vblanks from when its mode was set, not from the
    /// clock's zero: two seconds of its frames never look made up.
    @Test func aRealDisplaysVBlanksAreNotTakenForMadeUp() {
        var timeline = VBlankTimeline()
        for k in 0..<120 {
            let c = Self.completion(k)
            timeline.frameShown(at: c.time, msc: c.msc)
            #expect(!timeline.isMadeUp, "frame \(k)")
        }
    }

    /// A completion that does not fit the made-up clock (the window moved onto a monitor with a
    /// scanout) ends it: the timeline starts again from that display's frames.
    @Test func aCompletionThatDoesNotFitEndsTheMadeUpClock() throws {
        var timeline = VBlankTimeline()
        for n in UInt64(600_000)..<600_004 {
            let c = Self.madeUp(n)
            timeline.frameShown(at: c.time, msc: c.msc)
        }
        #expect(timeline.isMadeUp)
        let moved = Self.madeUp(600_005).time
        for k in 0..<3 { timeline.frameShown(at: moved + Double(k) / 75, msc: 42 + UInt64(k)) }
        #expect(!timeline.isMadeUp)
        #expect(abs(timeline.refreshInterval - 1.0 / 75) < 1e-9, "\(timeline.refreshInterval)")
        let next = try #require(timeline.nextVBlank(after: moved + 2.5 / 75))
        #expect(abs(next - (moved + 3.0 / 75)) < 1e-9)
    }
}
