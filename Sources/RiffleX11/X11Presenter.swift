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
    /// Frames presented, not yet known to be shown: serial → the oldest input they answer.
    private var awaiting: [UInt32: Double?] = [:]
    /// Seconds from input to the frame answering it on screen, one per such frame shown.
    private(set) var inputLatencies: [Double] = []
    /// The serial of the latest presented frame.
    private var lastSerial: UInt32?

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
    /// waiting for the made-up vblank would only add latency.
    func present(now: Double) {
        takeCompletions()
        let atOnce = timeline.isMadeUp
        let serial = rfx_presenter_present(handle, atOnce ? 0 : timeline.targetMSC(at: now), atOnce ? 1 : 0)
        awaiting[serial] = .some(nil)
        lastSerial = serial
    }

    /// The frame just presented answers input that arrived at `time`.
    func latestFrameAnswers(inputAt time: Double) {
        guard let lastSerial, awaiting[lastSerial] != nil else { return }
        awaiting[lastSerial] = time
    }

    /// Waits until the latest frame presented has reached the screen (or was skipped), at most
    /// `timeout` seconds: what the window shows is then that frame (a capture reads it).
    func waitUntilShown(timeout: Double = 0.5) {
        guard let lastSerial else { return }
        var waited = 0.0
        while awaiting[lastSerial] != nil, waited < timeout {
            takeCompletions()
            guard awaiting[lastSerial] != nil else { return }
            rfx_wait(connection.handle, 5)
            waited += 0.005
        }
    }

    /// For a frame started at `time` (app clock): when it will be shown (the next vblank, or
    /// `time` itself where the vblanks are made up and frames are copied at once) and when the
    /// next frame should start (the next vblank); nil before any frame has been shown.
    func frameTiming(startedAt time: Double) -> FrameTiming? {
        takeCompletions()
        guard let vblank = timeline.nextVBlank(after: time) else { return nil }
        return FrameTiming(shownAt: timeline.isMadeUp ? time : vblank, nextFrameStart: vblank)
    }

    /// True once the completions have shown the server's vblanks to be made up (no scanout).
    var vblanksAreMadeUp: Bool {
        takeCompletions()
        return timeline.isMadeUp
    }

    /// Takes in the server's completions: the vblank timeline, the refresh interval, latencies.
    private func takeCompletions() {
        var completion = rfx_present_completion()
        while rfx_presenter_take_completion(handle, &completion) != 0 {
            let inputTime = awaiting.removeValue(forKey: completion.serial) ?? nil
            guard completion.skipped == 0 else {
                // A frame replaced before its vblank (the app was late): the next frame
                // presented is the first to show the answer to its input.
                if let inputTime, let next = awaiting.keys.filter({ $0 > completion.serial }).min() {
                    awaiting[next] = [awaiting[next] ?? nil, inputTime].compactMap { $0 }.min()
                }
                continue
            }
            // UST is CLOCK_MONOTONIC microseconds, the app clock's timeline (`MonotonicClock`).
            let time = Double(completion.ust) / 1e6
            timeline.frameShown(at: time, msc: completion.msc)
            if let inputTime { inputLatencies.append(time - inputTime) }
        }
    }
}
