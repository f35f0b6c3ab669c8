import Foundation
import RiffleApp
import RiffleDisplay
import RiffleGeometry
import RiffleLibrary
import RiffleRaster
import RiffleTestSupport
import Testing

/// Runs a replay script headless against the test photos (their folder for a `grid-…` script,
/// else the first photo: `ScriptLibrary`); returns its snapshots by name and the viewer as the
/// script left it.
func replay(
    _ scriptName: String, path: RasterPath = .fast, frameRate: Double = ReplayRunner.defaultFrameRate
) throws -> (shots: [(String, PixelBuffer)], viewer: Viewer) {
    let window = ScriptLibrary.windowSize(forScript: scriptName)
    let size = PixelSize(width: window.width, height: window.height)
    try PinnedPhotoDates.pin(photos: TestPaths.photos)
    let script = try ReplayScript(parsing: try String(contentsOf: TestPaths.script(scriptName), encoding: .utf8))
    var problems: [String] = []
    let library = PhotoLibrary.collect(paths: [ScriptLibrary.path(forScript: scriptName, photos: TestPaths.photos)], problems: &problems)
    #expect(problems.isEmpty)
    let display = HeadlessDisplay(size: size)
    // Thumbnails made in memory: a replay neither reads nor fills the user's thumbnail cache.
    var options = SessionOptions(rasterPath: path, thumbnailFolder: nil)
    options.scale = Double(ScriptLibrary.scale(forScript: scriptName))
    let session = RiffleSession(library: library, display: display, options: options)
    var shots: [(String, PixelBuffer)] = []
    try session.replay(script, frameRate: frameRate, snapshots: { name, frame in shots.append((name, frame)) })
    return (shots, session.viewer)
}

@Suite struct ReplayGoldenTests {
    /// Every snapshot of every script matches its golden, drawn by the fast paths and again by
    /// the reference sampler (tiny-skia's rule: goldens pass both ways).
    @Test(arguments: try TestPaths.allScripts(), [RasterPath.fast, .reference])
    func snapshotsMatchGoldens(script: String, path: RasterPath) throws {
        if GoldenImage.recording && path == .reference { return }
        let shots = try replay(script, path: path).shots
        #expect(!shots.isEmpty)
        for (name, frame) in shots { try GoldenImage.check(frame, golden: "\(script)/\(name)") }
    }

    @Test func replayIsDeterministic() throws {
        let a = try replay("paging").shots, b = try replay("paging").shots
        #expect(a.map(\.0) == b.map(\.0))
        for ((name, x), (_, y)) in zip(a, b) {
            #expect(ImageDifference(x, y, tolerance: 0).pixelsOverTolerance == 0, "snapshot \(name) differs between two runs")
        }
    }
}

/// What each script leaves behind once its clock has run on: the page it rests on and whether
/// that photo is back at fit (coffee.png, 600×400, fits a 320×200 window at 0.5; friends.jpg
/// 2056×3088 at 200/3088).
@Suite struct ReplayOutcomeTests {
    static let coffeeFit = 0.5
    static let friendsFit = 200.0 / 3088

    @Test(arguments: [
        ("flick", 1, friendsFit), ("slow-drag", 1, friendsFit), ("rubber-band", 0, coffeeFit),
        ("double-click", 0, coffeeFit), ("zoom-page-back", 0, coffeeFit), ("wheel-zoom", 0, coffeeFit),
        ("pan-to-next", 1, friendsFit), ("mid-swipe", 1, friendsFit), ("paging", 0, coffeeFit),
        ("fit-however-reached", 1, friendsFit), ("turn", 0, coffeeFit), ("slideshow", 1, friendsFit),
    ])
    func scriptEndsAtRestOnItsPage(script: String, page: Int, fitScale: Double) throws {
        // At 60 Hz, and stepped as a 144 Hz display (`--hz 144`): the physics are functions of
        // time, so the frames in between differ, never where a gesture comes to rest.
        for frameRate in [ReplayRunner.defaultFrameRate, 144] {
            let viewer = try replay(script, frameRate: frameRate).viewer
            #expect(viewer.current == page, "at \(frameRate) Hz")
            let state = viewer.renderState
            #expect(abs(state.pagingOffset - Double(page) * state.pageWidth) < 0.5, "not on a whole page at \(frameRate) Hz: \(state.pagingOffset)")
            let shown = try #require(state.pages.first { $0.index == page })
            #expect(abs(shown.transform.scale - fitScale) < 1e-9, "page \(page) at scale \(shown.transform.scale) at \(frameRate) Hz, fit is \(fitScale)")
        }
    }

    /// The same photo looks the same at fit however it got there: a zoom leaves a sharper
    /// decode behind (and its box-halved levels), which must not stand in for the fit decode
    /// once the photo is back at fit, whether by `0`, a double-click or paging away and back.
    /// Pixel for pixel: both are plain copies of one decode.
    @Test func fitIsTheSameHoweverReached() throws {
        let shots = Dictionary(uniqueKeysWithValues: try replay("fit-however-reached").shots)
        let ways = [("coffee", ["zoomed-back"]), ("friends", ["zoomed-back", "double-clicked-back", "paged-back"])]
        for (photo, returns) in ways {
            let arrival = try #require(shots["\(photo)-on-arrival"])
            for way in returns {
                let back = try #require(shots["\(photo)-\(way)"])
                let difference = ImageDifference(arrival, back, tolerance: 0)
                #expect(difference.maxChannel == 0, "\(photo) \(way): \(difference.pixelsOverTolerance) pixels differ, by up to \(difference.maxChannel)")
            }
        }
    }

    @Test func clickShowsTheChromeOnWhite() throws {
        let state = try replay("chrome-and-drag-down").viewer.renderState
        #expect(state.chromeVisible)
        #expect(state.backgroundBlackness == 0)
        #expect(state.dismissOffset == .zero)
    }
}
