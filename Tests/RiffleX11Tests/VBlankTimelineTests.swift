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
}
