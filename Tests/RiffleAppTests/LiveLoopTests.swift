import Foundation
import RiffleApp
import RiffleDisplay
import RiffleGeometry
import RiffleInteraction
import RiffleRaster
import Testing

/// A display whose waits never block (as if the X connection were always readable, e.g. with
/// MIT-SHM completion events queued) and whose input is scheduled on the real clock.
final class RestlessDisplay: Display {
    let size = PixelSize(width: 320, height: 200)
    private let buffer = PixelBuffer(width: 320, height: 200)
    private let clock = MonotonicClock()
    private let start: Double
    private var schedule: [(at: Double, event: InputEvent)]
    private(set) var presentTimes: [Double] = []

    init(schedule: [(Double, InputEvent)]) {
        start = clock.now()
        self.schedule = schedule.map { (at: $0.0, event: $0.1) }
    }

    func frameBuffer() -> PixelBuffer { buffer }
    func present() { presentTimes.append(clock.now() - start) }
    func setTitle(_ title: String) {}
    func setFullscreen(_ on: Bool) {}
    func requestResize(_ size: PixelSize) {}
    func pollEvents() -> [InputEvent] {
        let now = clock.now() - start
        let due = schedule.filter { $0.at <= now }.map(\.event)
        schedule.removeAll { $0.at <= now }
        return due
    }
    func waitForEvents(timeout: Double?) {
        // Returns at once, like a poll on a readable descriptor; without a timeout (idle) it
        // sleeps briefly so an idle loop shows up as a count of waits, not a spin.
        if timeout == nil { Thread.sleep(forTimeInterval: 0.01) }
    }
    func wake() {}
    func capture() throws -> PixelBuffer { buffer }
}

@Suite struct LiveLoopTests {
    /// Early wake-ups while animating are collected, not drawn: a 0.5 s slide makes about 30
    /// frames, never more than one per 1/60 s, and the idle viewer draws none.
    @Test func framesArePacedAtSixtyHertzWhateverWakesTheLoop() throws {
        var problems: [String] = []
        let library = PhotoLibrary.collect(paths: [TestPaths.photos], problems: &problems)
        let display = RestlessDisplay(schedule: [
            (0.1, .key(name: "Right", modifiers: [], time: 0)),
            (1.2, .key(name: "q", modifiers: [], time: 0)),
        ])
        let session = RiffleSession(library: library, display: display)
        session.runLive()
        let times = display.presentTimes
        let sliding = times.filter { $0 > 0.1 && $0 < 0.6 }
        // Counts, not timings: a slow machine draws fewer frames, never more. (Before the loop
        // was paced, this display made it draw thousands.)
        #expect(sliding.count >= 3, "the slide was drawn (\(sliding.count) frames)")
        #expect(sliding.count <= 32, "at most 60 Hz: \(sliding.count) frames in 0.5 s")
        #expect(times.filter { $0 > 1.0 && $0 < 1.2 }.isEmpty, "no frame once at rest")
    }
}
