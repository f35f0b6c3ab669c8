import RiffleApp
import RiffleDisplay
import RiffleGeometry
import RiffleInteraction
import RiffleLibrary
import RiffleRaster
import RiffleTestSupport
import Testing

/// Drops and clipboard keys through the scene, headless: what it asks of the app, what it draws,
/// and a session replacing its library with dropped paths.
@Suite struct DropAndCopySceneTests {
    static let photo = TestPaths.photos + "/" + ScriptLibrary.firstPhoto

    @Test func aDropAsksToOpenItsFiles() {
        let scene = SceneFullscreenTests.scene(opening: TestPaths.photos)
        let commands = scene.handle(.drop(uriList: "file:///tmp/a%20b.jpg\r\nfile:///tmp/c\r\n"), now: 0)
        #expect(commands.contains(.open(paths: ["/tmp/a b.jpg", "/tmp/c"])))
        #expect(!scene.handle(.drop(uriList: "http://example.com/x.jpg\r\n"), now: 0).contains { if case .open = $0 { true } else { false } })
    }

    @Test func ctrlCCopiesThePhotoShownAndCtrlShiftCItsPath() {
        let scene = SceneFullscreenTests.scene(opening: Self.photo)
        #expect(SceneFullscreenTests.key(scene, "c", [.control]).contains(.copyPhoto(path: Self.photo)))
        #expect(SceneFullscreenTests.key(scene, "C", [.control, .shift]).contains(.copyPath(Self.photo)))
        #expect(!SceneFullscreenTests.key(scene, "c").contains(.copyPhoto(path: Self.photo)), "c alone copies nothing")
    }

    @Test func onTheGridCtrlCCopiesNothing() {
        let scene = SceneFullscreenTests.scene(opening: TestPaths.photos)
        #expect(scene.isShowingGrid)
        #expect(SceneFullscreenTests.key(scene, "c", [.control]).filter { if case .setCursor = $0 { false } else { true } }.isEmpty)
    }

    /// The highlight tints the window blue and outlines it, and goes with the drag.
    @Test func theDropHighlightShowsWhileADragHovers() throws {
        let (display, session) = { let h = HeadlessSession([Self.photo]); return (h.display, h.session) }()
        let scene = session.scene
        scene.settleDecodes()
        scene.advance(to: 0)
        scene.renderIfNeeded()
        let before = try display.capture()
        _ = scene.handle(.dropHighlight(true), now: 0.1)
        #expect(scene.renderIfNeeded())
        let highlighted = try display.capture()
        // On the outline (8 px in, 3 px wide at scale 1): the chrome's blue, opaque.
        #expect(highlighted[9, 100] == Color(red: 0x0A, green: 0x84, blue: 0xFF).packed, "\(String(highlighted[9, 100], radix: 16))")
        #expect(highlighted[160, 100] != before[160, 100], "the photo is tinted")
        _ = scene.handle(.dropHighlight(false), now: 0.2)
        #expect(scene.renderIfNeeded())
        #expect(try display.capture()[160, 100] == before[160, 100])
    }

    @Test func aSessionOpensDroppedPathsAsTheCommandLineDoes() {
        let display = HeadlessDisplay(size: PixelSize(width: 320, height: 200))
        var problems: [String] = []
        let session = RiffleSession(
            library: PhotoLibrary.collect(paths: [Self.photo], problems: &problems), display: display,
            options: SessionOptions(thumbnailFolder: nil))
        #expect(!session.scene.isShowingGrid)
        #expect(session.open(paths: ["/nonexistent/riffle-drop"]) == nil, "nothing there: the library stays")
        let opened = session.open(paths: [TestPaths.photos])
        #expect(opened === session.scene)
        #expect(session.scene.isShowingGrid)
        let title = session.scene.advance(to: 0).compactMap { if case let .setTitle(title) = $0 { title } else { nil } }
        #expect(title.count == 1 && title[0].hasSuffix("photos"), "\(title)")
    }
}
