import RiffleGeometry
import RiffleInteraction
import Testing

/// The chrome through the viewer's model: hit testing against the photo's recognizers, auto-hide
/// on the virtual clock, panels and Escape. Viewport 1000×800: info button 864-908, zoom 908-952,
/// fullscreen 952-996, back 4-108, all 0-44 high.
@Suite struct ChromeInteractionTests {
    static let info = Point(x: 886, y: 22), zoom = Point(x: 930, y: 22), fullscreen = Point(x: 974, y: 22)
    static let back = Point(x: 50, y: 22), photo = Point(x: 500, y: 400)

    func harness(pinned: Bool) -> ViewerHarness {
        var h = ViewerHarness(content: Size(width: 2000, height: 1600), libraryBehind: true)
        h.viewer = ViewerInteraction(
            pageCount: 5, viewport: Size(width: 1000, height: 800), chromeVisible: pinned, libraryBehind: true, infoRows: 12)
        for page in 0..<5 { h.setContentSize(Size(width: 2000, height: 1600), forPage: page) }
        return h
    }

    /// A click on a button never toggles the background, nor starts a double click.
    @Test(arguments: [true, false])
    func aClickOnAButtonNeverTogglesTheBackground(pinned: Bool) {
        var h = harness(pinned: pinned)
        if !pinned { h.move(Point(x: 500, y: 300)) }
        let blackness = h.state.backgroundBlackness
        h.click(Self.info)
        h.run(1)
        #expect(h.state.backgroundBlackness == blackness)
        #expect(h.state.chrome.panel == .info)
        h.click(Self.info)
        h.run(1)
        #expect(h.state.backgroundBlackness == blackness)
        #expect(h.state.chrome.panel == .none)
    }

    /// While hidden the bar is photo: a click there toggles the background.
    @Test func aClickWhereHiddenBarsWouldBeReachesThePhoto() {
        var h = harness(pinned: false)
        h.click(Self.info)
        h.run(1)
        #expect(h.state.backgroundBlackness == 0)
        #expect(h.state.chrome.panel == .none)
    }

    /// A drag that starts on the photo and ends on a button pages, and never presses it; a drag
    /// that starts on a button and leaves it does nothing on release, and never pages.
    @Test func dragsNeverCrossBetweenPhotoAndChrome() {
        var h = harness(pinned: true)
        h.drag(from: Point(x: 600, y: 60), to: Self.fullscreen, duration: 0.3, release: false)
        // The release over the button issues nothing: no fullscreen, no dismissal.
        #expect(h.release(Self.fullscreen) == [])
        #expect(h.state.chrome.panel == .none)
        _ = h.settle()
        var g = harness(pinned: true)
        g.press(Self.zoom)
        #expect(g.state.chrome.pressed == .zoom)
        g.move(Point(x: 300, y: 400))
        #expect(g.state.chrome.pressed == nil)
        g.move(Point(x: 100, y: 400))
        #expect(g.release(Point(x: 100, y: 400)) == [])
        g.run(1)
        #expect(g.viewer.currentPage == 0)
        #expect(g.state.pages.first?.transform.scale == 0.5)
    }

    @Test func buttonsAct() {
        var h = harness(pinned: true)
        h.click(Self.zoom)
        _ = h.settle()
        #expect(h.state.pages.first?.transform.scale == 1)
        h.click(Self.zoom)
        _ = h.settle()
        #expect(h.state.pages.first?.transform.scale == 0.5)
        h.press(Self.fullscreen)
        #expect(h.viewer.handle(.pointerUp(position: Self.fullscreen, button: .left, modifiers: [], time: h.t)) == [.toggleFullscreen])
        h.press(Self.back)
        #expect(h.viewer.handle(.pointerUp(position: Self.back, button: .left, modifiers: [], time: h.t)) == [.dismiss(from: nil)])
    }

    /// Motion without a button shows the bars, gone 2.2 s after the last motion; motion during a
    /// drag of the photo shows nothing.
    @Test func autoHideOnTheVirtualClock() {
        var h = harness(pinned: false)
        h.drag(from: Self.photo, to: Point(x: 500, y: 420), duration: 0.2)
        #expect(h.state.chrome.opacity == 0)
        _ = h.settle()
        h.move(Self.photo)
        h.run(0.1)
        #expect(abs(h.state.chrome.opacity - 0.5) < 0.02)
        h.run(1.9)
        #expect(h.state.chrome.opacity == 1)
        h.run(0.25)
        #expect(h.state.chrome.opacity == 0)
        #expect(!h.viewer.isAnimating)
    }

    @Test func hoverHighlightsTheButtonUnderThePointer() {
        var h = harness(pinned: false)
        h.move(Self.zoom)
        h.run(0.1)
        #expect(h.state.chrome.hovered == .zoom)
        h.run(5)
        #expect(h.state.chrome.opacity == 1, "resting on the bar keeps it")
        h.move(Self.photo)
        #expect(h.state.chrome.hovered == nil)
    }

    /// Escape closes the panel before it goes back; the help closes on any click, which reaches
    /// nothing else.
    @Test func escapeAndHelp() {
        var h = harness(pinned: false)
        #expect(h.key("i").isEmpty)
        #expect(h.state.chrome.panel == .info)
        #expect(h.key(.escape).isEmpty)
        #expect(h.state.chrome.panel == .none)
        #expect(h.key("?", .shift).isEmpty)
        #expect(h.state.chrome.panel == .help)
        h.click(Self.photo)
        h.run(1)
        #expect(h.state.chrome.panel == .none)
        #expect(h.state.backgroundBlackness == 1)
        #expect(h.key(.escape) == [.dismiss(from: nil)])
    }

    /// A panel opened with the bars hidden (its key) shows them, and they stay while it is open,
    /// however long the pointer rests; closed, they fade out `idleDelay` later, as after a motion.
    @Test(arguments: [(Key.character("i"), Modifiers()), (Key.character("?"), Modifiers.shift)])
    func aPanelShowsTheBarsWhileOpen(key: Key, modifiers: Modifiers) {
        var h = harness(pinned: false)
        #expect(h.state.chrome.opacity == 0)
        _ = h.key(key, modifiers)
        h.run(ChromeVisibility.fadeDuration)
        #expect(h.state.chrome.opacity == 1)
        h.run(10)
        #expect(h.state.chrome.opacity == 1, "held while the panel is open")
        #expect(h.key(.escape).isEmpty)
        #expect(h.state.chrome.panel == .none)
        h.run(ChromeVisibility.idleDelay - 0.05)
        #expect(h.state.chrome.opacity == 1)
        h.run(0.1 + ChromeVisibility.fadeDuration)
        #expect(h.state.chrome.opacity == 0)
        #expect(h.state.backgroundBlackness == 1, "the background never left black")
    }
}
