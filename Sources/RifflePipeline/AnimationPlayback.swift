import RiffleGeometry
import RiffleImageIO
import RiffleLibrary
import RiffleRaster

/// A frame of a playing animation, decoded at the size the photo is shown at fit.
package struct PlaybackFrame: Sendable {
    /// Its number, on through the loops (frame `number % frameCount` of the file).
    let number: Int
    /// Upright premultiplied BGRA at the photo's fit size.
    package let pixels: PixelBuffer
    /// How long it is shown, seconds (the browsers' rule for tiny delays applied).
    let duration: Double
    /// Every pixel has alpha 255.
    package let isOpaque: Bool
}

/// What a decode worker hands back for an animation's frames: some frames, and the file's
/// frame and loop counts.
package struct DecodedFrames: Sendable {
    let frames: [PlaybackFrame]
    let frameCount: Int
    let loopCount: Int
}

/// The focused animated photo playing: the frame shown, the few decoded ahead of it, the
/// timeline they follow, and the next decode to ask for.
///
/// Playback starts when the first frames are taken in (frame 0 is shown from then: it is what
/// the still decode already showed); the frame shown at any time is the timeline's
/// (`AnimationTimeline`), or the newest frame held before it when the decoder is late. Frames
/// are decoded in order on the decode workers, a batch of at most `framesPerJob` at a time, and
/// at most `framesAhead(frameBytes:)` frames are held beyond the one shown (32 MiB of them: 3 at
/// 1920×1080, 1 for a frame over 16 MiB, never more than 4); frames shown are let go at once.
/// After the last loop the last frame stays and nothing more is asked for. A frame that cannot
/// be decoded ends the playback where it is.
struct AnimationPlayback {
    /// Bytes of frames held beyond the one shown, at most: 32 MiB, a sixth of the default
    /// memory budget (Riffle's choice).
    static let aheadBudget = 32 << 20
    /// Frames held beyond the one shown, at most: enough to ride out a decode slower than one
    /// frame's time now and then.
    static let mostFramesAhead = 4
    /// Frames one decode job makes, at most: a few, so that the first frames come soon and one
    /// job never holds a worker long.
    static let framesPerJob = 2

    /// How many frames of `frameBytes` bytes are held ahead of the one shown: what
    /// `aheadBudget` holds, at least 1 and at most `mostFramesAhead`.
    static func framesAhead(frameBytes: Int) -> Int {
        min(mostFramesAhead, max(1, aheadBudget / max(1, frameBytes)))
    }

    /// The photo playing and the window size its frames are decoded for.
    let photo: PhotoID
    let viewport: PixelSize
    /// Frames held beyond the one shown, at most.
    let framesAhead: Int
    /// When frames show; nil until the first frames are taken in and the playback advanced.
    private(set) var timeline: AnimationTimeline?
    /// The file's frame and loop counts, from the first frames decoded.
    private var counts: (frames: Int, loops: Int)?
    /// The frames held, in order: the one shown first, then those decoded ahead.
    private(set) var frames: [PlaybackFrame] = []
    /// The frames request in flight, asked for again until its result comes.
    private(set) var asked: DecodeRequest?
    /// A frame could not be decoded: the playback stays on the frame shown.
    private(set) var hasFailed = false

    /// A playback of `photo` shown in `viewport`, its frames `frameBytes` each.
    init(photo: PhotoID, viewport: PixelSize, frameBytes: Int) {
        self.photo = photo
        self.viewport = viewport
        framesAhead = Self.framesAhead(frameBytes: frameBytes)
    }

    /// The frame shown now; nil before the playback starts.
    var shown: PlaybackFrame? { timeline == nil ? nil : frames.first }

    /// Bytes of the frames held.
    var bytes: Int { frames.reduce(0) { $0 + $1.pixels.byteCount } }

    /// True once the loops are done and the last frame shows (or the playback failed).
    var isFinished: Bool {
        guard !hasFailed else { return true }
        guard let last = timeline?.lastFrame, let shown else { return false }
        return shown.number == last
    }

    /// When the frame after the one shown is due, if it is held (else the decode that brings it
    /// wakes the app); nil when finished.
    var nextChange: Double? {
        guard !isFinished, let timeline, frames.count > 1 else { return nil }
        return timeline.startTime(ofFrame: frames[1].number)
    }

    /// The decode to ask for now for photo `path`: the request in flight, else the next frames
    /// when fewer than `framesAhead` are held ahead; nil when there is nothing to ask for.
    mutating func request(path: String) -> DecodeRequest? {
        if let asked { return asked }
        guard !isFinished else { return nil }
        let next = (frames.last?.number ?? -1) + 1
        let room = framesAhead + 1 - frames.count
        let remaining = timeline?.lastFrame.map { $0 + 1 - next } ?? .max
        let count = min(Self.framesPerJob, room, remaining)
        guard count > 0 else { return nil }
        asked = DecodeRequest(photo: photo, path: path, job: .frames(viewport: viewport, first: next, count: count))
        return asked
    }

    /// Takes in the result of `request`; a failure ends the playback. A result of another
    /// request is ignored.
    mutating func absorb(_ outcome: Result<DecodedFrames, ImageDecodeError>, of request: DecodeRequest) {
        guard request == asked else { return }
        asked = nil
        guard case .success(let decoded) = outcome else {
            hasFailed = true
            return
        }
        if counts == nil { counts = (decoded.frameCount, decoded.loopCount) }
        for frame in decoded.frames where frame.number == (frames.last?.number ?? -1) + 1 {
            timeline?.learn(frame: frame.number, lasts: frame.duration)
            frames.append(frame)
        }
    }

    /// A result of the request in flight was given up (its decode was cancelled): ask again.
    mutating func forget(_ request: DecodeRequest) {
        if request == asked { asked = nil }
    }

    /// Moves to clock time `now`: the first time after the first frames came, frame 0 starts
    /// showing then; after that the frame shown becomes the newest held whose start is at or
    /// before `now`, the ones before it let go. True when the frame shown changed.
    mutating func advance(to now: Double) -> Bool {
        guard !hasFailed, let counts, !frames.isEmpty else { return false }
        if timeline == nil {
            var started = AnimationTimeline(start: now, frameCount: counts.frames, loopCount: counts.loops)
            for frame in frames { started.learn(frame: frame.number, lasts: frame.duration) }
            timeline = started
            return true
        }
        guard let timeline else { return false }
        let due = timeline.frame(at: now)
        guard let newest = frames.lastIndex(where: { $0.number <= due }), newest > 0 else { return false }
        frames.removeFirst(newest)
        return true
    }
}
