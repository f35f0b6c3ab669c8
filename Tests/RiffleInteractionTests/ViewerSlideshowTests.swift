import RiffleGeometry
import RiffleInteraction
import Testing

/// The slideshow through the viewer, on its virtual clock: s, then a page turn every interval.
@Suite struct ViewerSlideshowTests {
    /// Steps the harness to clock time `t` (a frame at exactly `t`).
    static func runUntil(_ h: inout ViewerHarness, _ t: Double) { h.run(t - h.t) }

    /// Started at 0.5 with a 2 s interval, it turns the page at 2.5, 4.5, 6.5 (N·k after the
    /// start), through the page spring, and sleeps in between: nothing animates, and the next
    /// wake is the next turn.
    @Test func itTurnsThePageEveryInterval() {
        var h = ViewerHarness(pages: 5, content: Size(width: 3000, height: 2000), slideshow: Slideshow.Settings(interval: 2))
        Self.runUntil(&h, 0.5)
        h.key("s")
        #expect(h.viewer.isSlideshowRunning && h.viewer.slideshowWakeTime == 2.5)
        #expect(h.state.slideshowLabel.text == "Slideshow, every 2\u{202F}s" && h.state.slideshowLabel.opacity == 1)
        for (k, turn) in [2.5, 4.5, 6.5].enumerated() {
            Self.runUntil(&h, turn - 0.01)
            #expect(h.state.currentPage == k, "before \(turn) s")
            #expect(!h.viewer.isAnimating, "asleep before the turn at \(turn) s")
            Self.runUntil(&h, turn)
            #expect(h.state.currentPage == k + 1, "at \(turn) s")
            #expect(h.viewer.slideshowWakeTime == turn + 2)
            // The page spring, as Space: moving, resting on the page well within a second.
            #expect(h.viewer.isAnimating)
            h.run(0.6)
            #expect(h.state.pagingOffset == Double(k + 1) * h.state.pageWidth)
        }
    }

    /// Any input pauses it (a press, the wheel, a key other than s), the pointer merely moving
    /// does not; s resumes it, its first turn one interval after.
    @Test(arguments: ["click", "wheel", "key", "pinch"])
    func inputPausesItAndSResumes(input: String) {
        var h = ViewerHarness(content: Size(width: 3000, height: 2000), slideshow: Slideshow.Settings(interval: 2))
        h.key("s")
        h.run(1)
        h.move(Point(x: 300, y: 300))
        #expect(h.viewer.isSlideshowRunning)
        switch input {
        case "click": h.click(Point(x: 500, y: 400))
        case "wheel": h.wheel(Point(x: 0, y: -1), at: Point(x: 500, y: 400))
        case "pinch": h.viewer.handle(.pinch(scaleFactor: 1, center: Point(x: 500, y: 400), phase: .began, time: h.t))
        default: h.key("i")
        }
        #expect(!h.viewer.isSlideshowRunning && h.viewer.slideshowWakeTime == nil)
        #expect(h.state.slideshowLabel.text == "Slideshow paused")
        if input == "pinch" { h.viewer.handle(.pinch(scaleFactor: 1, center: Point(x: 500, y: 400), phase: .ended, time: h.t)) }
        h.run(10)
        #expect(h.state.currentPage == 0, "no turn while paused")
        let resumed = h.t
        h.key("s")
        #expect(h.viewer.slideshowWakeTime == resumed + 2)
        h.run(2.01)
        #expect(h.state.currentPage == 1)
        // s while it runs pauses it too.
        h.key("s")
        #expect(!h.viewer.isSlideshowRunning && h.state.slideshowLabel.text == "Slideshow paused")
    }

    /// Without looping it ends on the last photo, one interval after arriving there.
    @Test func itStopsAtTheLastPhoto() {
        var h = ViewerHarness(pages: 3, content: Size(width: 3000, height: 2000), slideshow: Slideshow.Settings(interval: 1))
        h.key("s")
        Self.runUntil(&h, 2.5)
        #expect(h.state.currentPage == 2 && h.viewer.isSlideshowRunning)
        Self.runUntil(&h, 3)
        #expect(!h.viewer.isSlideshowRunning && h.viewer.slideshowWakeTime == nil)
        #expect(h.state.slideshowLabel.text == "Slideshow ended")
        h.run(10)
        #expect(h.state.currentPage == 2)
    }

    /// With `loops`, the last photo is followed by the first (from its neighbour, as Home), and
    /// the beat goes on.
    @Test func withLoopItGoesBackToTheFirst() {
        var h = ViewerHarness(pages: 3, content: Size(width: 3000, height: 2000), slideshow: Slideshow.Settings(interval: 1, loops: true))
        h.key("s")
        Self.runUntil(&h, 3)
        #expect(h.state.currentPage == 0 && h.viewer.isSlideshowRunning)
        // From page 1's place, not a flight over every photo.
        #expect(h.state.pagingOffset <= h.state.pageWidth)
        Self.runUntil(&h, 4)
        #expect(h.state.currentPage == 1)
    }

    /// `startSlideshow` (riffle --slideshow) runs from the time it is given.
    @Test func startedFromTheCommandLine() {
        var h = ViewerHarness(pages: 3, content: Size(width: 3000, height: 2000), slideshow: Slideshow.Settings(interval: 3))
        h.run(100)
        h.viewer.startSlideshow(at: h.t)
        #expect(h.viewer.slideshowWakeTime == 103)
        h.run(3)
        #expect(h.state.currentPage == 1)
    }

    /// A turned photo stays turned as the slideshow passes it and comes back to it.
    @Test func turnedPhotosStayTurnedInASlideshow() {
        var h = ViewerHarness(pages: 2, content: Size(width: 3000, height: 2000), slideshow: Slideshow.Settings(interval: 1, loops: true))
        h.key("r")
        h.settle()
        h.key("s")
        h.run(2.5)
        #expect(h.state.currentPage == 0)
        #expect(h.state.pages.first { $0.index == 0 }?.rotation == Rotation(quarterTurns: 1))
    }
}
