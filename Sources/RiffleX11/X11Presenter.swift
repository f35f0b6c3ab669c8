import CRiffleX11
import RiffleDisplay
import RiffleGeometry
import RiffleRaster

/// Frames shown at the display's vblanks through the Present extension (`rfx_presenter`): the
/// app draws into one of three MIT-SHM pixmaps, presents it for a vblank, and learns from the
/// server when each frame reached the screen — which paces the frame loop at the display's own
/// rate and measures input-to-photon latency.
///
/// The vblank timeline and the refresh interval come from the completions (`VBlankTimeline`),
/// so a 144 Hz display is paced at 144 Hz and a window moved to another output follows that
/// output's vblanks.
// @unchecked Sendable: a PixelBuffer's @Sendable release keeps it alive; used from the app's thread.
final class X11Presenter: @unchecked Sendable {
    let connection: X11Connection
    private let handle: OpaquePointer
    private(set) var size: PixelSize
    /// The vblanks the frames shown so far fell on.
    private var timeline = VBlankTimeline()
    /// Frames presented, not yet known to be shown.
    private var inFlight = FramesInFlight()
    /// Called for each frame seen shown that answered input: the input's time, then the frame's
    /// (the app clock).
    var onInputAnswered: ((Double, Double) -> Void)?
    /// Called when the completions first show the server's vblanks to be made up.
    var onVBlanksFoundMadeUp: (() -> Void)?

    init(connection: X11Connection, size: PixelSize) throws {
        let width = max(size.width, 1), height = max(size.height, 1)
        handle = try callingShim { rfx_presenter_open(connection.handle, Int32(width), Int32(height), $0, $1) }
        self.connection = connection
        self.size = PixelSize(width: width, height: height)
    }

    deinit { rfx_presenter_close(handle) }

    /// A buffer over a free pixmap for the next frame (remade first if the window changed size).
    func pixelBuffer(for size: PixelSize) throws -> PixelBuffer {
        let wanted = PixelSize(width: max(size.width, 1), height: max(size.height, 1))
        if wanted != self.size {
            _ = try callingShim { rfx_presenter_resize(handle, Int32(wanted.width), Int32(wanted.height), $0, $1) != 0 ? () : nil }
            self.size = wanted
        }
        var rowPixels: Int32 = 0
        let pixels = rfx_presenter_acquire(handle, &rowPixels)!
        return PixelBuffer(
            wrapping: pixels, width: wanted.width, height: wanted.height, rowPixels: Int(rowPixels),
            release: { _ in withExtendedLifetime(self) {} })
    }

    /// Presents the drawn pixmap for the first vblank after `now` (the next one), or at once
    /// where the vblanks are made up (`VBlankTimeline`): with no scanout nothing can tear, and
    /// waiting for the made-up vblank would only add latency. Not at once while an earlier frame
    /// still waits for its vblank, which would then cover this one (`FramesInFlight`).
    func present(now: Double) {
        takeCompletions()
        let atOnce = presentsAtOnce
        let serial = rfx_presenter_present(handle, atOnce ? 0 : timeline.targetMSC(at: now), atOnce ? 1 : 0)
        inFlight.presented(serial, atVBlank: !atOnce)
    }

    /// The frame just presented answers input that arrived at `time`.
    func latestFrameAnswers(inputAt time: Double) { inFlight.latestAnswers(inputAt: time) }

    /// Waits until the latest frame presented has reached the screen (or was skipped), until
    /// `timeout` seconds of `now` have passed: what the window shows is then that frame (a
    /// capture reads it).
    func waitUntilShown(now: () -> Double, timeout: Double = 0.5) {
        guard let latest = inFlight.latest else { return }
        let deadline = now() + timeout
        while inFlight.isInFlight(latest), now() < deadline {
            takeCompletions()
            guard inFlight.isInFlight(latest) else { return }
            rfx_wait(connection.handle, 5)
        }
    }

    /// For a frame started at `time` (app clock): when it will be shown (the next vblank, or
    /// `time` itself where the vblanks are made up and frames are copied at once) and when the
    /// next frame should start (the next vblank); nil before any frame has been shown.
    func frameTiming(startedAt time: Double) -> FrameTiming? {
        takeCompletions()
        guard let vblank = timeline.nextVBlank(after: time) else { return nil }
        return FrameTiming(shownAt: presentsAtOnce ? time : vblank, nextFrameStart: vblank)
    }

    /// True when the next frame will be copied at once: the vblanks are made up and no earlier
    /// frame still waits for one.
    private var presentsAtOnce: Bool { timeline.isMadeUp && !inFlight.waitsForVBlank }

    /// True once the completions taken so far have shown the server's vblanks to be made up (no
    /// scanout).
    var knownMadeUp: Bool { timeline.isMadeUp }

    /// Takes in the server's completions: the vblank timeline, the refresh interval, the frames
    /// that answered input.
    private func takeCompletions() {
        var completion = rfx_present_completion()
        while rfx_presenter_take_completion(handle, &completion) != 0 {
            // A frame replaced before its vblank (the app was late) was never shown.
            let inputTime = inFlight.completed(completion.serial, skipped: completion.skipped != 0)
            guard completion.skipped == 0 else { continue }
            // UST is CLOCK_MONOTONIC microseconds, the app clock's timeline (`MonotonicClock`).
            let time = Double(completion.ust) / 1e6
            let wasMadeUp = timeline.isMadeUp
            timeline.frameShown(at: time, msc: completion.msc)
            if timeline.isMadeUp, !wasMadeUp { onVBlanksFoundMadeUp?() }
            if let inputTime { onInputAnswered?(inputTime, time) }
        }
    }
}
