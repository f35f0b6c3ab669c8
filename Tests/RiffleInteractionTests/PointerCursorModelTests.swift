import RiffleGeometry
import RiffleInteraction
import Testing

/// `PointerCursorModel` on a virtual clock: events in with their times, the cursor asked at any time.
@Suite struct PointerCursorModelTests {
    static let here = Point(x: 10, y: 10)
    static func move(_ t: Double) -> InputEvent { .pointerMove(position: here, modifiers: [], time: t) }
    static func down(_ t: Double) -> InputEvent { .pointerDown(position: here, button: .left, modifiers: [], time: t) }
    static func up(_ t: Double) -> InputEvent { .pointerUp(position: here, button: .left, modifiers: [], time: t) }

    @Test func theArrowUntilThePointerIsOverAZoomedPhoto() {
        var model = PointerCursorModel()
        #expect(model.cursor(at: 0, fullscreen: false) == .arrow)
        model.handle(Self.move(1), now: 1, overZoomedPhoto: false)
        #expect(model.cursor(at: 1, fullscreen: false) == .arrow)
        model.handle(Self.move(2), now: 2, overZoomedPhoto: true)
        #expect(model.cursor(at: 2, fullscreen: false) == .openHand)
        // Windowed, a resting pointer never hides.
        #expect(model.cursor(at: 1000, fullscreen: false) == .openHand)
        #expect(model.hideTime(fullscreen: false) == nil)
    }

    /// The hand closes on a press on the zoomed photo and stays closed while the button is held,
    /// even once the drag has paged on to a photo at fit; the release opens it again.
    @Test func aDragThatGrabsAZoomedPhotoClosesTheHand() {
        var model = PointerCursorModel()
        model.handle(Self.down(1), now: 1, overZoomedPhoto: true)
        #expect(model.cursor(at: 1, fullscreen: false) == .closedHand)
        model.handle(Self.move(1.1), now: 1.1, overZoomedPhoto: false)
        #expect(model.cursor(at: 1.1, fullscreen: false) == .closedHand)
        model.handle(Self.up(1.2), now: 1.2, overZoomedPhoto: true)
        #expect(model.cursor(at: 1.2, fullscreen: false) == .openHand)
        // A press beside the zoomed photo (on the bars, or at fit) grabs nothing.
        model.handle(Self.down(2), now: 2, overZoomedPhoto: false)
        #expect(model.cursor(at: 2, fullscreen: false) == .arrow)
    }

    /// Fullscreen: hidden exactly 2 s after the last motion (not a moment before), back on the
    /// next motion; a wheel turn or a key leaves it hidden.
    @Test(arguments: [(2.9, PointerCursor.openHand), (2.999, .openHand), (3.0, .hidden), (50, .hidden)])
    func aRestingPointerHidesInFullscreen(t: Double, expected: PointerCursor) {
        var model = PointerCursorModel()
        model.handle(Self.move(1), now: 1, overZoomedPhoto: true)
        #expect(model.hideTime(fullscreen: true) == 3)
        #expect(model.cursor(at: t, fullscreen: true) == expected)
    }

    @Test func onlyMotionWakesAHiddenPointer() {
        var model = PointerCursorModel()
        model.handle(Self.move(0), now: 0, overZoomedPhoto: false)
        model.handle(.key(.right, modifiers: [], time: 2.5), now: 2.5, overZoomedPhoto: false)
        model.handle(.scroll(delta: Point(x: 0, y: 1), position: Self.here, modifiers: [], precise: false, time: 2.6),
                     now: 2.6, overZoomedPhoto: true)
        #expect(model.cursor(at: 2.6, fullscreen: true) == .hidden)
        model.handle(Self.move(4), now: 4, overZoomedPhoto: true)
        #expect(model.cursor(at: 4, fullscreen: true) == .openHand)
        #expect(model.hideTime(fullscreen: true) == 6)
    }

    /// A held drag never hides; entering fullscreen starts the rest anew; a window opened
    /// fullscreen hides its pointer 2 s after the first time seen.
    @Test func holdsAndFullscreenChangesRestartTheRest() {
        var model = PointerCursorModel()
        model.handle(Self.down(0), now: 0, overZoomedPhoto: true)
        model.fullscreenChanged(at: 0)
        #expect(model.hideTime(fullscreen: true) == nil)
        #expect(model.cursor(at: 10, fullscreen: true) == .closedHand)
        model.handle(Self.up(10), now: 10, overZoomedPhoto: true)
        #expect(model.hideTime(fullscreen: true) == 12)

        var opened = PointerCursorModel()
        #expect(opened.hideTime(fullscreen: true) == nil, "no time seen yet")
        opened.advance(to: 100)
        opened.advance(to: 101)
        #expect(opened.hideTime(fullscreen: true) == 102)
        opened.fullscreenChanged(at: 101)
        #expect(opened.cursor(at: 200, fullscreen: false) == .arrow)
        opened.advance(to: 300)
        opened.fullscreenChanged(at: 300)
        #expect(opened.hideTime(fullscreen: true) == 302)
    }
}
