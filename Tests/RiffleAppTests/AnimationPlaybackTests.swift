@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

/// The playing animation's bookkeeping, fed by hand: what it asks for, what it holds, what it
/// shows when. Frames of 0.1, 0.2 and 0.3 s, 3 to a loop.
@Suite struct AnimationPlaybackTests {
    static let viewport = PixelSize(width: 320, height: 200)
    static let durations = [0.1, 0.2, 0.3]

    /// Decoded frames `numbers` (8×8 each) as a worker would hand them back.
    static func decoded(_ numbers: Range<Int>, loops: Int = 0) -> Result<DecodedFrames, ImageDecodeError> {
        .success(DecodedFrames(
            frames: numbers.map {
                PlaybackFrame(number: $0, pixels: PixelBuffer(width: 8, height: 8), duration: durations[$0 % 3], isOpaque: true)
            },
            frameCount: 3, loopCount: loops))
    }

    /// Asks for its next frames and takes them in, as the store does with a worker.
    static func serve(_ playback: inout AnimationPlayback, loops: Int = 0) {
        guard let request = playback.request(path: "a.gif"), case let .frames(_, first, count) = request.job else { return }
        playback.absorb(decoded(first..<(first + count), loops: loops), of: request)
    }

    @Test func framesAheadFollowTheBudget() {
        #expect(AnimationPlayback.framesAhead(frameBytes: 8 << 20) == 4)
        #expect(AnimationPlayback.framesAhead(frameBytes: 1920 * 1080 * 4) == 4)
        #expect(AnimationPlayback.framesAhead(frameBytes: 10 << 20) == 3)
        #expect(AnimationPlayback.framesAhead(frameBytes: 17 << 20) == 1)
        #expect(AnimationPlayback.framesAhead(frameBytes: 100 << 20) == 1)
    }

    /// The first frames start it when it is next advanced; until then nothing shows.
    @Test func theFirstFramesStartIt() throws {
        var playback = AnimationPlayback(photo: PhotoID(4), viewport: Self.viewport, frameBytes: 256)
        let asked = playback.request(path: "a.gif")
        let request = try #require(asked)
        #expect(request == DecodeRequest(photo: PhotoID(4), path: "a.gif", job: .frames(viewport: Self.viewport, first: 0, count: 2)))
        // Asked again until it comes.
        let again = playback.request(path: "a.gif")
        #expect(again == request)
        playback.absorb(Self.decoded(0..<2), of: request)
        #expect(playback.shown == nil)
        let started = playback.advance(to: 5)
        #expect(started)
        #expect(playback.shown?.number == 0)
        #expect(playback.nextChange == 5.1)
    }

    /// At most `framesAhead` frames beyond the one shown are held and asked for.
    @Test func framesAheadAreBounded() {
        var playback = AnimationPlayback(photo: PhotoID(0), viewport: Self.viewport, frameBytes: 16 << 20)
        #expect(playback.framesAhead == 2)
        for _ in 0..<5 { Self.serve(&playback) }
        #expect(playback.frames.map(\.number) == [0, 1, 2])
        let full = playback.request(path: "a.gif")
        #expect(full == nil)
        _ = playback.advance(to: 0)
        _ = playback.advance(to: 0.1)
        #expect(playback.frames.map(\.number) == [1, 2])
        // Room for one more.
        guard case let .frames(_, first, count)? = playback.request(path: "a.gif")?.job else {
            Issue.record("nothing asked for")
            return
        }
        #expect(first == 3 && count == 1)
    }

    /// The frame shown is the timeline's; a decoder that is late leaves the newest frame held on
    /// screen, and one that catches up skips the frames whose time has passed.
    @Test func aLateDecoderIsCaughtUp() {
        var playback = AnimationPlayback(photo: PhotoID(0), viewport: Self.viewport, frameBytes: 256)
        Self.serve(&playback)
        _ = playback.advance(to: 0)
        let early = playback.advance(to: 0.05)
        #expect(!early)
        let due = playback.advance(to: 0.1)
        #expect(due)
        #expect(playback.shown?.number == 1)
        // Frame 2 is due at 0.3, frame 3 at 0.6; none is held yet.
        #expect(playback.nextChange == nil)
        let stuck = playback.advance(to: 0.7)
        #expect(!stuck)
        Self.serve(&playback)
        #expect(playback.frames.map(\.number) == [1, 2, 3])
        let caughtUp = playback.advance(to: 0.7)
        #expect(caughtUp)
        #expect(playback.shown?.number == 3)
    }

    /// After its loops the last frame stays, and nothing more is asked for.
    @Test func itStopsAfterItsLoops() {
        var playback = AnimationPlayback(photo: PhotoID(0), viewport: Self.viewport, frameBytes: 256)
        var time = 0.0
        for _ in 0..<10 {
            Self.serve(&playback, loops: 2)
            _ = playback.advance(to: time)
            time += 0.3
        }
        #expect(playback.shown?.number == 5)
        #expect(playback.isFinished)
        #expect(playback.nextChange == nil)
        let more = playback.request(path: "a.gif")
        #expect(more == nil)
    }

    /// A frame that cannot be decoded ends the playback on the frame shown.
    @Test func aFailureStopsIt() {
        var playback = AnimationPlayback(photo: PhotoID(0), viewport: Self.viewport, frameBytes: 256)
        Self.serve(&playback)
        _ = playback.advance(to: 0)
        let request = playback.request(path: "a.gif")!
        playback.absorb(.failure(ImageDecodeError(reason: "broken")), of: request)
        #expect(playback.isFinished)
        let later = playback.advance(to: 10)
        #expect(!later)
        #expect(playback.shown?.number == 0)
        let more = playback.request(path: "a.gif")
        #expect(more == nil)
    }
}
