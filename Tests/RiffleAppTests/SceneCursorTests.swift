import RiffleApp
import RiffleDisplay
import RiffleGeometry
import RiffleInteraction
import RiffleLibrary
import RiffleTestSupport
import Testing

/// The pointer's shape as the scene commands it, headless: an open hand over a zoomed photo, a
/// closed hand while dragging it, the arrow at fit and on the grid, hidden after 2 s of rest in
/// fullscreen; and the live loop waking at that time though nothing animates.
@Suite struct SceneCursorTests {
    static let centre = Point(x: 160, y: 100)

    static func cursors(in commands: [AppCommand]) -> [PointerCursor] {
        commands.compactMap { if case let .setCursor(shape) = $0 { shape } else { nil } }
    }

    @Test func theHandFollowsTheZoomAndTheDrag() {
        let scene = SceneFullscreenTests.scene(opening: TestPaths.photos + "/" + ScriptLibrary.firstPhoto)
        #expect(!scene.isShowingGrid)
        #expect(Self.cursors(in: scene.handle(.pointerMove(position: Self.centre, modifiers: [], time: 0.1), now: 0.1)).isEmpty,
                "at fit: the arrow, already shown")
        let zoom = scene.handle(.scroll(delta: Point(x: 0, y: 3), position: Self.centre, modifiers: [], precise: false, time: 0.2), now: 0.2)
        #expect(Self.cursors(in: zoom) == [.openHand])
        for t in 13...60 { scene.advance(to: Double(t) / 60) }
        #expect(Self.cursors(in: scene.handle(.pointerDown(position: Self.centre, button: .left, modifiers: [], time: 1.1), now: 1.1))
                == [.closedHand])
        #expect(Self.cursors(in: scene.handle(.pointerMove(position: Point(x: 150, y: 95), modifiers: [], time: 1.15), now: 1.15)).isEmpty)
        #expect(Self.cursors(in: scene.handle(.pointerUp(position: Point(x: 150, y: 95), button: .left, modifiers: [], time: 1.2), now: 1.2))
                == [.openHand])
        #expect(scene.wakeTime == nil, "windowed, the pointer never hides")
        // Back to fit: the arrow.
        #expect(Self.cursors(in: scene.handle(.key("0", modifiers: [], time: 1.3), now: 1.3)) == [.arrow])
    }

    /// The rest before the pointer hides starts at the key that enters fullscreen, not at the
    /// frame before it.
    @Test func theRestStartsWhenFullscreenBegins() {
        let scene = SceneFullscreenTests.scene(opening: TestPaths.photos)
        _ = scene.advance(to: 0.5)
        _ = scene.handle(.key("f", modifiers: [], time: 1), now: 1)
        #expect(scene.wakeTime == 3)
    }

    @Test func inFullscreenTheRestingPointerHidesAfterTwoSeconds() {
        let scene = SceneFullscreenTests.scene(opening: TestPaths.photos)
        #expect(scene.isShowingGrid)
        #expect(scene.handle(.key("f", modifiers: [], time: 1), now: 1) == [.setFullscreen(true)])
        #expect(scene.wakeTime == 3)
        #expect(Self.cursors(in: scene.advance(to: 2.99)).isEmpty)
        #expect(Self.cursors(in: scene.advance(to: 3)) == [.hidden])
        #expect(scene.wakeTime == nil, "hidden: nothing more to wake for")
        #expect(Self.cursors(in: scene.handle(.pointerMove(position: Self.centre, modifiers: [], time: 4), now: 4)) == [.arrow])
        #expect(scene.wakeTime == 6)
    }

    /// The live loop, idle on the grid in fullscreen (nothing animates), waits no longer than the
    /// hide time and sends the hidden cursor to the display then, not at the next input.
    @Test func theIdleLoopWakesToHideThePointer() {
        let display = RestlessDisplay(schedule: [
            .pointerMove(position: Self.centre, modifiers: [], time: 0.5), LiveLoopTests.key("q", at: 10),
        ])
        var problems: [String] = []
        let library = PhotoLibrary.collect(paths: [TestPaths.photos], problems: &problems)
        var options = SessionOptions(thumbnailFolder: nil)
        options.fullscreen = true
        let session = RiffleSession(library: library, display: display, options: options)
        session.scene.settleDecodes()
        LiveLoop(scene: session.scene, display: display, now: { display.now }).run()
        // An idle wait bounded by the hide time (animating waits last a frame at most).
        #expect(display.waits.contains { ($0 ?? 0) > 1 }, "\(display.waits.filter { $0 == nil || $0! > 0.1 })")
        let hidden = display.cursors.filter { $0.shape == .hidden }
        #expect(hidden.count == 1, "\(display.cursors)")
        if let time = hidden.first?.time {
            #expect(abs(time - 2.5) < 0.02, "hidden at \(time) s, 2 s after the last motion")
        }
    }
}
