import Foundation
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleDisplay
import RiffleGeometry
import RiffleImageIO
import RiffleInteraction
import RiffleRaster
import RiffleTestSupport
import Synchronization
import Testing

/// A display on a virtual clock for the live loop, whose decodes take no virtual time: they run
/// only in its waits (the workers pass `DecodeCounter`'s gate only there), where every decode
/// asked for so far is let finish before the clock moves (`settle`). When one finished since
/// the last wait (a window's wait is ended by the worker's `wake()` then), the wait returns at
/// once, else the clock jumps to the end of the wait (a timed wait) or to the next scheduled
/// input (an untimed one). Records every frame presented, with the colour at
/// the window's centre, and every time the loop asks for the next vblank.
final class PlaybackDisplay: Display {
    let size = PixelSize(width: 320, height: 200)
    let pixelsPerPoint = 1.0
    /// The virtual clock, seconds.
    private(set) var now = 0.0
    /// Each present's time and the pixel at the window's centre.
    private(set) var presents: [(time: Double, centre: UInt32)] = []
    /// When the loop asked for the next frame time: it does so only while something moves.
    private(set) var frameRequests: [Double] = []
    /// Decodes finished, counted by the decode workers as each returns (before the service
    /// counts it done, so that none is missed once `settle` returns).
    let decodesFinished = DecodeCounter()
    /// Lets every decode asked for finish (set once the pipeline exists).
    var settle: () -> Void = {}
    private var decodesSeen = 0
    private let buffer = PixelBuffer(width: 320, height: 200)
    private var schedule: [InputEvent]

    init(schedule: [InputEvent]) {
        self.schedule = schedule.sorted { ($0.time ?? 0) < ($1.time ?? 0) }
    }

    func frameBuffer() -> PixelBuffer { buffer }
    func present() { presents.append((now, buffer[160, 100])) }
    func setTitle(_ title: String) {}
    func setFullscreen(_ on: Bool) {}
    func setCursor(_ cursor: PointerCursor) {}
    func offerClipboard(_ offer: ClipboardOffer) {}
    func requestResize(_ size: PixelSize) {}
    func capture() throws -> PixelBuffer { buffer }
    func wake() {}

    func frameTiming(startedAt time: Double) -> FrameTiming? {
        frameRequests.append(time)
        return nil
    }

    func pollEvents() -> [InputEvent] {
        let due = schedule.prefix { ($0.time ?? 0) <= now }
        schedule.removeFirst(due.count)
        return Array(due)
    }

    func waitForEvents(timeout: Double?) {
        settle()
        let finished = decodesFinished.count.load(ordering: .sequentiallyConsistent)
        if finished > decodesSeen {
            decodesSeen = finished
            return
        }
        let next = schedule.first?.time
        if let next, next <= now { return }
        if let timeout {
            now += min(timeout, (next ?? .infinity) - now)
        } else if let next {
            now = next
        } else {
            Issue.record("the loop waits for input at \(now) s with none left to come")
            schedule.append(.key("q", modifiers: [], time: now))
        }
    }
}

/// The decode workers' count of decodes finished, and the gate they wait at: decodes run only
/// while the display settles them, never while the loop runs, so that what a frame takes in
/// never depends on how fast a worker was.
final class DecodeCounter: @unchecked Sendable {
    let count = Atomic<Int>(0)
    private let condition = NSCondition()
    private var isOpen = false

    /// Blocks until the gate is open.
    func passGate() {
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
    }

    func setGate(open: Bool) {
        condition.lock()
        isOpen = open
        condition.broadcast()
        condition.unlock()
    }
}

/// An animated GIF playing in the pager on the live loop's virtual clock: frames at exactly the
/// animation's own times and none between them (the loop never steps at 60 Hz for it), the end
/// after its loops, the pause on paging away and the restart on coming back.
@Suite(.serialized) struct AnimationLoopTests {
    static let red: UInt32 = 0xFFFF_0000, green: UInt32 = 0xFF00_FF00, blue: UInt32 = 0xFF00_00FF

    /// A folder with "1 moving.gif" (64×40, red 0.1 s, green 0.2 s, blue 0.3 s, played twice)
    /// and "2 still.gif" (white), and the app's scene on the GIF in `display` (the pager showing),
    /// its decodes counted by the display.
    static func scene(on display: PlaybackDisplay, folder: ScratchFolder) throws -> (scene: NavigationScene, pipeline: PhotoPipeline) {
        let palette = [HandMadeGIF.RGB(255, 0, 0), HandMadeGIF.RGB(0, 255, 0), HandMadeGIF.RGB(0, 0, 255), HandMadeGIF.RGB(255, 255, 255)]
        let moving = HandMadeGIF.file(width: 64, height: 40, palette: palette, frames: [
            .solid(0, width: 64, height: 40, delay: 10), .solid(1, width: 64, height: 40, delay: 20),
            .solid(2, width: 64, height: 40, delay: 30),
        ], loops: 1)
        let still = HandMadeGIF.file(width: 64, height: 40, palette: palette, frames: [.solid(3, width: 64, height: 40)])
        let path = try folder.write(moving, to: "1 moving.gif")
        try folder.write(still, to: "2 still.gif")
        var problems: [String] = []
        let library = PhotoLibrary.collect(paths: [path], problems: &problems)
        #expect(problems.isEmpty && library.photos.count == 2)
        let pipeline = PhotoPipeline(
            photos: library.photos, memoryBudget: SessionOptions.defaultMemoryBudget, thumbnailFolder: nil, workers: 2, clock: { MonotonicClock().now() },
            decode: { [counter = display.decodesFinished] decoding, request, cancellation in
                counter.passGate()
                let output = decoding.perform(request, cancellation: cancellation)
                counter.count.add(1, ordering: .sequentiallyConsistent)
                return output
            })
        display.settle = { [counter = display.decodesFinished] in
            counter.setGate(open: true)
            pipeline.photoStore.waitForDecodes()
            counter.setGate(open: false)
        }
        let compositor = Compositor()
        let pager = Viewer(
            library: library, display: display, pipeline: pipeline, frameObserver: nil, libraryBehind: true,
            wallClock: { display.now })
        let scene = NavigationScene(
            library: library, pager: pager, pipeline: pipeline, labels: PageLabels(), display: display, compositor: compositor)
        return (scene, pipeline)
    }

    /// The frames drawn once the animation plays: at its start t0, then t0 + 0.1 (green),
    /// + 0.3 (blue), + 0.6 (red, the second play), + 0.7, + 0.9, and nothing after the second
    /// play's last frame; the loop never asked for a vblank meanwhile (it slept until each
    /// frame's time).
    @Test func framesComeAtTheAnimationsOwnTimesAndStopAfterItsLoops() throws {
        let folder = try ScratchFolder()
        let quit = 5.0
        let display = PlaybackDisplay(schedule: [.key("q", modifiers: [], time: quit)])
        let (scene, pipeline) = try Self.scene(on: display, folder: folder)
        defer {
            display.decodesFinished.setGate(open: true)
            pipeline.shutdown()
        }
        LiveLoop(scene: scene, display: display, now: { display.now }).run()

        let shown = display.presents.filter { $0.time < quit }
        // The animation starts with the first frame drawn in red (the still, then frame 0).
        let start = try #require(shown.first { $0.centre == Self.red }?.time)
        let playing = shown.filter { $0.time > start }
        let expected: [(Double, UInt32)] = [(0.1, Self.green), (0.3, Self.blue), (0.6, Self.red), (0.7, Self.green), (0.9, Self.blue)]
        #expect(playing.count == expected.count, "frames after the start: \(playing.map { ($0.time - start, $0.centre) })")
        for ((time, colour), (offset, expectedColour)) in zip(playing.map { ($0.time, $0.centre) }, expected) {
            #expect(abs(time - start - offset) < 1e-9, "a frame at \(time - start) s, \(offset) s expected")
            #expect(colour == expectedColour, "at \(offset) s")
        }
        #expect(display.frameRequests.filter { $0 > start }.isEmpty, "vblanks asked for while only the GIF moved: \(display.frameRequests)")
    }

    /// Paged away from in its blue frame, the GIF keeps that frame while it slides out and asks
    /// for nothing more; paged back to, it plays again from its first frame.
    @Test func pagingAwayPausesAndComingBackRestarts() throws {
        let folder = try ScratchFolder()
        let away = 0.45, back = 2.0, quit = 4.0
        let display = PlaybackDisplay(schedule: [
            .key(.right, modifiers: [], time: away), .key(.left, modifiers: [], time: back),
            .key("q", modifiers: [], time: quit),
        ])
        let (scene, pipeline) = try Self.scene(on: display, folder: folder)
        defer {
            display.decodesFinished.setGate(open: true)
            pipeline.shutdown()
        }
        LiveLoop(scene: scene, display: display, now: { display.now }).run()

        #expect(display.presents.contains { $0.centre == Self.red }, "the GIF played before the slide")
        // The slide out: the GIF's page slides left, blue while it shows.
        let slideOut = display.presents.filter { $0.time >= away && $0.time < back }
        #expect(!slideOut.isEmpty)
        let lastSlideFrame = try #require(slideOut.last).time
        #expect(lastSlideFrame < away + 1, "the slide rests within a second")
        // Paused on blue: no other frame of the GIF while it slides out, nothing once it rests.
        #expect(!slideOut.contains { $0.centre == Self.red || $0.centre == Self.green })
        #expect(display.presents.filter { $0.time > lastSlideFrame && $0.time < back }.isEmpty)
        // Back: it plays anew from the frame after the key (the slide's first, which takes in
        // its first frames; frame 0 is hidden by the slide's gap): blue at + 0.3, red (its
        // second play) at + 0.6, green at + 0.7, blue at + 0.9. Resumed, it would have shown red
        // soon after coming back.
        let restart = back + LiveLoop.frameInterval
        let returned = display.presents.filter { $0.time >= back && $0.time < quit }
        for (offset, colour) in [(0.3, Self.blue), (0.6, Self.red), (0.7, Self.green), (0.9, Self.blue)] {
            #expect(returned.contains { abs($0.time - restart - offset) < 1e-9 && $0.centre == colour }, "\(offset) s after coming back")
        }
        #expect(!returned.contains { $0.time > restart + 0.1 && $0.time < restart + 0.59 && $0.centre == Self.red })
        #expect(scene.pager.current == 0)
    }
}
