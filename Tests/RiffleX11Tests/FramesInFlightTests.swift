import Testing

@testable import RiffleX11

/// The frames in flight through Present, on made-up completions: the input a frame answers
/// reaches the latency when it is shown, passes on when it is skipped, and a frame waiting for
/// its vblank keeps the next from being copied at once.
@Suite struct FramesInFlightTests {
    /// A shown frame gives back the input it answers, once; a frame that answered none, nil.
    @Test func aShownFrameGivesTheInputItAnswers() {
        var frames = FramesInFlight()
        frames.presented(1, atVBlank: true)
        frames.latestAnswers(inputAt: 10.5)
        frames.presented(2, atVBlank: true)
        #expect(frames.completed(1, skipped: false) == 10.5)
        #expect(frames.completed(1, skipped: false) == nil, "only once")
        #expect(frames.completed(2, skipped: false) == nil)
        #expect(!frames.isInFlight(1) && !frames.isInFlight(2))
    }

    /// A skipped frame's input passes to the next frame in flight, the older input kept where
    /// that frame answers one too.
    @Test func aSkippedFramesInputPassesToTheNextFrame() {
        var frames = FramesInFlight()
        frames.presented(7, atVBlank: true)
        frames.latestAnswers(inputAt: 3.0)
        frames.presented(8, atVBlank: true)
        frames.latestAnswers(inputAt: 3.2)
        #expect(frames.completed(7, skipped: true) == nil)
        #expect(frames.completed(8, skipped: false) == 3.0)
    }

    /// While a frame waits for its vblank, a frame copied at once would be covered by it: the
    /// presenter may copy at once only when none waits. Frames copied at once never hold the
    /// next back.
    @Test func aFrameWaitingForItsVBlankHoldsBackCopiesAtOnce() {
        var frames = FramesInFlight()
        #expect(!frames.waitsForVBlank)
        frames.presented(1, atVBlank: true)
        #expect(frames.waitsForVBlank)
        _ = frames.completed(1, skipped: false)
        #expect(!frames.waitsForVBlank)
        frames.presented(2, atVBlank: false)
        frames.presented(3, atVBlank: false)
        #expect(!frames.waitsForVBlank)
        #expect(frames.latest == 3 && frames.isInFlight(2))
    }
}
