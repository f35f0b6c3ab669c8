import Foundation
import RiffleApp
import RiffleDisplay
import RiffleGeometry
import RiffleImageIO
import RiffleInteraction
import RiffleLibrary
import RiffleRaster
import Testing

/// A viewer on the test photos in a headless display, stepped by hand.
struct ViewerHarness {
    let display: HeadlessDisplay
    let session: RiffleSession
    var viewer: Viewer { session.viewer }
    var now = 0.0

    /// Opens the first test photo by default: the pager shows, its folder's grid behind it.
    init(paths: [String] = [TestPaths.photos + "/1 coffee.png"], size: PixelSize = PixelSize(width: 320, height: 200)) {
        let headless = HeadlessSession(paths, size: size)
        display = headless.display
        session = headless.session
    }

    /// The paging position in pages (fractional while sliding).
    var pagePosition: Double { viewer.renderState.pagingOffset / viewer.renderState.pageWidth }

    mutating func press(_ key: Key) { viewer.handle(.key(key, modifiers: [], time: now), now: now) }

    /// Runs the clock for `seconds` at 60 Hz, rendering as the live loop would.
    mutating func run(_ seconds: Double) {
        let end = now + seconds
        while now < end - 1e-9 {
            now += 1.0 / 60
            viewer.advance(to: now)
            session.scene.renderIfNeeded()
        }
    }
}

@Suite struct ViewerTests {
    @Test func titleNamesThePhotoAndItsPlace() {
        var h = ViewerHarness()
        #expect(h.viewer.title == "1 coffee.png — 1 of 5")
        h.press(.right)
        #expect(h.viewer.title == "2 friends.jpg — 2 of 5")
        h.press(.end)
        #expect(h.viewer.title == "10 hubble.jpg — 5 of 5")
        h.press(.right)
        #expect(h.viewer.current == 4, "paging past the last photo stays on it")
        h.press(.home)
        h.press(.left)
        #expect(h.viewer.current == 0)
    }

    @Test func keyPagingSpringsExactlyOntoThePage() {
        var h = ViewerHarness()
        h.press(.space)
        h.run(0.1)
        #expect(h.pagePosition > 0.3 && h.pagePosition < 1)
        h.run(0.3)
        #expect(abs(h.pagePosition - 1) < 1e-9)
        h.viewer.settleDecodes()
        #expect(!h.viewer.isAnimating, "at rest with every photo decoded, nothing ticks")
    }

    @Test func aJumpSlidesOnlyTheLastPage() {
        var h = ViewerHarness()
        h.press(.end)
        h.run(1.0 / 60)
        #expect(h.pagePosition >= 3 && h.pagePosition < 4)
    }

    @Test func brokenFileShowsAnErrorPageAndTheNextStillOpens() throws {
        var h = ViewerHarness()
        for _ in 0..<2 { h.press(.right) }
        h.run(0.5)
        h.viewer.settleDecodes()
        h.session.scene.renderIfNeeded()
        let errorPage = try h.display.capture()
        // The error page is text on black: some bright pixels, mostly black.
        let lit = (0..<errorPage.height).reduce(0) { n, y in n + (0..<errorPage.width).filter { errorPage[$0, y] & 0xFF > 128 }.count }
        #expect(lit > 100 && lit < errorPage.width * errorPage.height / 4)
        h.press(.right)
        h.press(.right)
        h.run(0.5)
        h.viewer.settleDecodes()
        #expect(h.viewer.title == "10 hubble.jpg — 5 of 5")
        h.session.scene.renderIfNeeded()
        let photo = try h.display.capture()
        #expect(photo[160, 100] != Color.black.packed, "the photo after the broken ones is shown")
    }

    @Test func idleViewerDrawsNothing() {
        var h = ViewerHarness()
        h.run(0.1)
        h.viewer.settleDecodes()
        h.session.scene.renderIfNeeded()
        let frames = h.display.presentedFrames
        h.run(1)
        #expect(h.display.presentedFrames == frames, "no frame without a change")
        #expect(!h.viewer.isAnimating)
    }

    @Test func resizeKeepsTheCurrentPhoto() throws {
        var h = ViewerHarness()
        h.press(.right)
        h.run(0.5)
        h.display.requestResize(PixelSize(width: 640, height: 480))
        for event in h.display.pollEvents() { h.viewer.handle(event, now: h.now) }
        h.run(0.1)
        #expect(h.viewer.current == 1 && abs(h.pagePosition - 1) < 1e-9)
        h.viewer.settleDecodes()
        h.session.scene.renderIfNeeded()
        #expect(try h.display.capture().size == PixelSize(width: 640, height: 480))
    }

    /// A photo smaller than the window rests at 1:1, centred; where centring leaves half a pixel
    /// (51×31 in 200×100: 74.5, 34.5) it is drawn at the rounded place as a plain copy, every
    /// pixel exactly the photo's, not blurred by a half-pixel bilinear phase.
    @Test func aSmallPhotoIsDrawnSharpAtWholePixels() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-small-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let photo = PixelBuffer(width: 51, height: 31)
        for y in 0..<31 {
            for x in 0..<51 { photo[x, y] = 0xFF00_0000 | UInt32((x * 5) % 256) << 16 | UInt32((y * 37 + x * 11) % 256) << 8 | UInt32((x * y) % 256) }
        }
        let path = dir.appendingPathComponent("small.png").path
        try Data(try PNGEncoder.encode(photo)).write(to: URL(fileURLWithPath: path))
        let h = ViewerHarness(paths: [path], size: PixelSize(width: 200, height: 100))
        h.viewer.settleDecodes()
        h.session.scene.renderIfNeeded()
        let frame = try h.display.capture()
        var mismatches = 0
        for y in 0..<31 {
            for x in 0..<51 where frame[75 + x, 35 + y] != photo[x, y] { mismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(frame[74, 50] & 0x00FF_FFFF == 0 && frame[126, 50] & 0x00FF_FFFF == 0, "black around the photo")
    }

    @Test func quitKeysAndCloseEndTheViewer() {
        for event in [InputEvent.key("q", modifiers: [], time: 0), .close] {
            let h = ViewerHarness()
            #expect(h.viewer.handle(event, now: 0) == [.app(.quit)])
        }
    }

    // The pager has its folder's grid behind it: Escape goes back to it (fullscreen, and
    // leaving it first, are the scene's).
    @Test func escapeGoesBackToTheGrid() {
        let h = ViewerHarness()
        func key(_ name: Key) -> [ViewerCommand] { h.viewer.handle(.key(name, modifiers: [], time: 0), now: 0) }
        #expect(key("f").isEmpty)
        #expect(key(.escape) == [.dismiss(from: nil)])
    }

    // The runtime carries the commands out: fullscreen reaches the display, quit ends the script.
    @Test func theReplayCarriesOutTheScenesCommands() throws {
        let h = ViewerHarness()
        var fullscreenAtSnapshots: [String: Bool] = [:]
        let script = try ReplayScript(parsing: "key f\nsnapshot a\nkey Escape\nsnapshot b\nkey q\nsnapshot c\n")
        try h.session.replay(script) { name, _ in fullscreenAtSnapshots[name] = h.display.isFullscreen }
        #expect(fullscreenAtSnapshots == ["a": true, "b": false])
    }

    @Test func emptyFolderSaysSo() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let h = ViewerHarness(paths: [empty.path])
        #expect(h.session.scene.advance(to: 0).contains(.setTitle("Riffle — no photos")))
        #expect(h.session.scene.renderIfNeeded())
        // The message is drawn: some text pixels on the black page.
        let frame = try h.display.capture()
        let lit = (0..<frame.height).reduce(0) { n, y in n + (0..<frame.width).filter { frame[$0, y] & 0xFF > 128 }.count }
        #expect(lit > 50)
    }
}
