@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import Testing

/// The animation timeline as a pure function of the clock, on hand-computed cases: frames of
/// 0.1, 0.2 and 0.3 s from t = 10 s (a loop of 0.6 s: frame 1 at 10.1, frame 2 at 10.3, frame 3,
/// the second loop's first, at 10.6, ...).
@Suite struct AnimationTimelineTests {
    static func timeline(loops: Int, known: Int = 3) -> AnimationTimeline {
        var timeline = AnimationTimeline(start: 10, frameCount: 3, loopCount: loops)
        for (i, seconds) in [0.1, 0.2, 0.3].prefix(known).enumerated() { timeline.learn(frame: i, lasts: seconds) }
        return timeline
    }

    @Test("The frame shown at a time", arguments: [
        (9.0, 0), (10.0, 0), (10.099999, 0), (10.1, 1), (10.29, 1), (10.3, 2), (10.599, 2), (10.6, 3), (10.7, 4), (10.9, 5),
        (11.2, 6), (16.05, 30), (16.1, 31),
    ])
    func frameAtTime(time: Double, frame: Int) {
        #expect(Self.timeline(loops: 0).frame(at: time) == frame)
    }

    @Test("When each frame starts", arguments: [(0, 10.0), (1, 10.1), (2, 10.3), (3, 10.6), (4, 10.7), (7, 11.3), (31, 16.1)])
    func startTimes(frame: Int, time: Double) throws {
        let start = try #require(Self.timeline(loops: 0).startTime(ofFrame: frame))
        #expect(abs(start - time) < 1e-9)
    }

    /// Any frame's own start time gives that frame back, however its sum rounds.
    @Test func aFramesStartShowsThatFrame() throws {
        let timeline = Self.timeline(loops: 0)
        for frame in 0..<3000 {
            let start = try #require(timeline.startTime(ofFrame: frame))
            #expect(timeline.frame(at: start) == frame, "frame \(frame) at \(start)")
        }
    }

    /// Two loops: six frames, the last staying once they are done.
    @Test func theLoopsEndOnTheLastFrame() {
        let timeline = Self.timeline(loops: 2)
        #expect(timeline.lastFrame == 5)
        #expect(timeline.frame(at: 10.9) == 5)
        #expect(timeline.frame(at: 11.19) == 5)
        #expect(timeline.frame(at: 11.2) == 5)
        #expect(timeline.frame(at: 99) == 5)
        #expect(timeline.startTime(ofFrame: 5) != nil)
        #expect(timeline.startTime(ofFrame: 6) == nil)
    }

    /// Only frame 0's duration known: frames 0 and 1 have known starts; the clock past frame 1's
    /// start stays on frame 1 until more is learned.
    @Test func whatIsNotKnownYetWaits() {
        let timeline = Self.timeline(loops: 0, known: 1)
        #expect(timeline.frame(at: 10.05) == 0)
        #expect(timeline.frame(at: 10.1) == 1)
        #expect(timeline.frame(at: 50) == 1)
        #expect(timeline.startTime(ofFrame: 1) != nil)
        #expect(timeline.startTime(ofFrame: 2) == nil)
    }

    /// Durations are learned in order only.
    @Test func durationsAreLearnedInOrder() {
        var timeline = AnimationTimeline(start: 0, frameCount: 3, loopCount: 0)
        timeline.learn(frame: 1, lasts: 0.5)
        #expect(timeline.durations.isEmpty)
        timeline.learn(frame: 0, lasts: 0.25)
        #expect(timeline.durations == [250_000])
    }

    /// Querying never changes it: asked in any order, the same answers.
    @Test func queriesArePure() {
        let timeline = Self.timeline(loops: 0)
        let times = [10.65, 10.0, 12.3, 10.3, 11.0]
        let forward = times.map { timeline.frame(at: $0) }
        let backward = times.reversed().map { timeline.frame(at: $0) }
        #expect(forward == Array(backward.reversed()))
    }
}
