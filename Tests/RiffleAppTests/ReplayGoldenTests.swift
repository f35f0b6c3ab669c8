import Foundation
@testable import RiffleApp
import RiffleDisplay
import RiffleGeometry
import RiffleLibrary
import RiffleRaster
import RiffleTestSupport
import Testing

/// Runs a replay script headless against the test photos (their folder for a `grid-…` script,
/// else the first photo: `ScriptLibrary`); returns its snapshots by name, and the viewer, the
/// scene and the display as the script left them.
func replay(
    _ scriptName: String, path: RasterPath = .fast, frameRate: Double = ReplayRunner.defaultFrameRate
) throws -> (shots: [(String, PixelBuffer)], viewer: Viewer, scene: NavigationScene, display: HeadlessDisplay) {
    let window = ScriptLibrary.windowSize(forScript: scriptName)
    let size = PixelSize(width: window.width, height: window.height)
    let script = try ReplayScript(parsing: try String(contentsOf: TestPaths.script(scriptName), encoding: .utf8))
    var problems: [String] = []
    let library = PhotoLibrary.collect(paths: [ScriptLibrary.path(forScript: scriptName, photos: TestPaths.photos)], problems: &problems)
    #expect(problems.isEmpty)
    let display = HeadlessDisplay(size: size)
    // Thumbnails made in memory: a replay neither reads nor fills the user's thumbnail cache.
    var options = SessionOptions(rasterPath: path, thumbnailFolder: nil)
    // Nor does it keep a library index (a `timeline-…` script's tree is dated in memory).
    options.libraryIndexPath = nil
    options.viewSettingsPath = nil
    options.scale = Double(ScriptLibrary.scale(forScript: scriptName))
    let session = RiffleSession(library: library, display: display, options: options)
    var shots: [(String, PixelBuffer)] = []
    try session.replay(script, frameRate: frameRate, snapshots: { name, frame in shots.append((name, frame)) })
    return (shots, session.viewer, session.scene, display)
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

/// What the scripts of the grid, the chrome, the navigator strip and the animation leave behind,
/// worked out from each script's own steps (its comments give the layout) rather than from
/// goldens recorded from Riffle's output: where the scene is (grid or pager, which page), the
/// background, the bars and panels, the zoom, the turn and the window's size. Test photos, in
/// order: coffee.png 600×400, friends.jpg 2056×3088, truncated.png, hubble.jpg (notes.jpg, a
/// text file named as a photo, leaves the library once probed, before the first frame); the
/// animation bounce.gif 480×300. The window is 320×200 unless a script resizes.
@Suite struct ReplayEndStateTests {
    /// Every script has an end state checked, here or in `ReplayOutcomeTests`: a script added
    /// without one fails.
    static let scripts = [
        "animation-play", "chrome-2x", "chrome-and-drag-down", "chrome-bars", "chrome-help", "chrome-hover", "chrome-info",
        "focus-click", "grid-drag-to-dismiss", "grid-open-and-back", "grid-turned-flight", "grid-zoom-out-to-dismiss", "resize",
        "strip-click-wheel", "strip-flick", "strip-scrub", "strip-slide", "timeline-aspect", "timeline-levels", "timeline-resize",
        "timeline-scrub",
    ]
    static let outcomeScripts = [
        "flick", "slow-drag", "rubber-band", "double-click", "zoom-page-back", "wheel-zoom", "pan-to-next", "mid-swipe", "paging",
        "fit-however-reached", "turn", "slideshow",
    ]

    @Test func everyScriptHasAnEndStateCheck() throws {
        #expect(Set(Self.scripts + Self.outcomeScripts) == Set(try TestPaths.allScripts()))
    }

    /// The scale at which a `content` photo fits `viewport`: min(Vw/Cw, Vh/Ch, 1).
    static func fit(_ content: Size, in viewport: Size) -> Double {
        min(viewport.width / content.width, viewport.height / content.height, 1)
    }

    static let coffee = Size(width: 600, height: 400), friends = Size(width: 2056, height: 3088)
    static let bounce = Size(width: 480, height: 300)

    @Test(arguments: scripts)
    func scriptEndsWhereItsStepsLeadIt(script: String) throws {
        let run = try replay(script)
        let viewer = run.viewer, state = run.viewer.renderState, scene = run.scene
        let window = Size(width: Double(run.display.size.width), height: Double(run.display.size.height))
        /// The page shown, in the pager, and its scale.
        func expectPager(page: Int, scale: Double? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(!scene.isShowingGrid, "the grid shows", sourceLocation: sourceLocation)
            #expect(viewer.current == page, sourceLocation: sourceLocation)
            #expect(abs(state.pagingOffset - Double(page) * state.pageWidth) < 0.5, "between pages: \(state.pagingOffset)", sourceLocation: sourceLocation)
            if let scale {
                let shown = state.pages.first { $0.index == page }?.transform.scale
                #expect(shown.map { abs($0 - scale) < 1e-9 } == true, "page \(page) at \(String(describing: shown)), not \(scale)", sourceLocation: sourceLocation)
            }
        }
        switch script {
        case "animation-play":
            // A double-click zooms to 2.5 × fit (fit 2/3 for 480×300 in 320×200); the pan
            // after it moves the zoomed picture left (80 px, within its bounds), off centre.
            expectPager(page: 0, scale: 2.5 * Self.fit(Self.bounce, in: window))
            let picture = try #require(state.pages.first?.transform)
            let centred = (window.width - Self.bounce.width * picture.scale) / 2
            #expect(picture.offset.x < centred - 1, "panned left of centre: \(picture.offset.x), centred \(centred)")
        case "chrome-2x":
            // The click pins the bars on white; i opens the info panel; the bars at 2 pixels a point.
            expectPager(page: 0, scale: Self.fit(Self.coffee, in: window))
            #expect(window == Size(width: 640, height: 400))
            #expect(state.chromeVisible && state.backgroundBlackness == 0 && state.chrome.panel == .info)
            #expect(state.chrome.layout.scale == 2)
        case "chrome-and-drag-down":
            // White after the click; the short drag down springs back.
            expectPager(page: 0, scale: Self.fit(Self.coffee, in: window))
            #expect(state.chromeVisible && state.backgroundBlackness == 0 && state.dismissOffset == .zero)
        case "chrome-bars":
            // Zoom to 1:1 and back to fit; the last click on the photo: alone on black.
            expectPager(page: 0, scale: Self.fit(Self.coffee, in: window))
            #expect(!state.chromeVisible && state.backgroundBlackness == 1 && state.chrome.panel == .none)
        case "chrome-help":
            // The help closed by a click (which toggled nothing) and by Escape, at 800×500.
            #expect(window == Size(width: 800, height: 500))
            expectPager(page: 0, scale: Self.fit(Self.coffee, in: window))
            #expect(state.chrome.panel == .none && state.backgroundBlackness == 1 && !state.chromeVisible)
        case "chrome-hover":
            // 2.4 s after the last motion over the photo, the bars are gone; the background never left black.
            expectPager(page: 0, scale: Self.fit(Self.coffee, in: window))
            #expect(state.chrome.opacity == 0 && state.backgroundBlackness == 1 && !state.chromeVisible)
        case "chrome-info":
            // Right turned to friends.jpg under the panel; the click on it reached nothing; i closed it.
            #expect(window == Size(width: 800, height: 500))
            expectPager(page: 1, scale: Self.fit(Self.friends, in: window))
            #expect(state.chrome.panel == .none && state.backgroundBlackness == 1 && !state.chromeVisible)
        case "focus-click":
            // The focusing click only focused; the second pinned the bars and toggled the
            // background, still fading to white 0.5 s later (the double-click interval, then the
            // fade). Had the first toggled too, the second would have toggled back.
            expectPager(page: 0, scale: Self.fit(Self.coffee, in: window))
            #expect(state.chromeVisible && state.backgroundBlackness < 1, "blackness \(state.backgroundBlackness)")
        case "grid-drag-to-dismiss", "grid-open-and-back", "grid-zoom-out-to-dismiss":
            // Back in the grid, the pager on the photo that was opened (the first cell at 50,50,
            // the second at 160,50; 50,160 is the fourth: three columns of 105.3 px).
            #expect(scene.isShowingGrid)
            let opened = ["grid-drag-to-dismiss": 3, "grid-open-and-back": 1, "grid-zoom-out-to-dismiss": 0][script]
            #expect(viewer.current == opened)
        case "timeline-levels":
            // Back at All Photos (a), the tree's seventeen photos by the dates their files give
            // (Tests/Timeline: exiftool wrote them): the 1962 scan first, 5 June 2021 last,
            // its nine in the order of their times.
            #expect(scene.isShowingGrid && scene.levelView == nil)
            #expect(scene.library.photos.map(\.name) == [
                "grandma.jpg", "beach.jpg", "sunset.jpg", "boat.jpg", "dunes.jpg", "snow.jpg", "park.jpg", "cake.jpg", "tea.jpg",
                "lake.jpg", "bike.jpg", "field.jpg", "rain.jpg", "kite.jpg", "fire.jpg", "city.jpg", "moon.jpg",
            ])
        case "timeline-aspect":
            // g left the grid for the aspect-ratio grid, where the click opened a photo and
            // Escape brought it back: still the aspect-ratio grid, at All Photos.
            #expect(scene.isShowingGrid && scene.viewSettings.aspectGrid && scene.levelView?.level == .allPhotos)
            #expect(scene.levelView?.interaction.layout.justified != nil)
        case "timeline-resize":
            // Days after the window grew to 480×300: laid out for that width (the level's
            // margins aside), four cells across, still at its end.
            let level = try #require(scene.levelView)
            #expect(level.level == .days && level.interaction.viewport == Size(width: 480, height: 300))
            #expect(level.interaction.layout.width > 320, "\(level.interaction.layout.width)")
            #expect(level.interaction.scrollFraction == 1)
        case "timeline-scrub":
            // Dragged to the top of the track: the grid at the top of its scroll, the 1962 scan in
            // the first cell; let go, the grid shows.
            #expect(scene.isShowingGrid && scene.levelView == nil)
            #expect(scene.library.photos.first?.name == "grandma.jpg")
            #expect(scene.shownScrollFraction == 0, "the drag to the track's top did not reach the top")
        case "grid-turned-flight":
            // friends.jpg turned a quarter clockwise (r), and back in the grid still turned.
            #expect(scene.isShowingGrid)
            #expect(viewer.current == 1)
            #expect(viewer.rotation(ofPhoto: 1).wholeQuarters == 1, "\(viewer.rotation(ofPhoto: 1))")
        case "resize":
            // Right, then two resizes: friends.jpg refitted to 200×260 and centred.
            #expect(window == Size(width: 200, height: 260))
            expectPager(page: 1, scale: Self.fit(Self.friends, in: window))
            let picture = try #require(state.pages.first { $0.index == 1 }?.transform)
            let shown = Size(width: Self.friends.width * picture.scale, height: Self.friends.height * picture.scale)
            #expect(abs(picture.offset.x - (window.width - shown.width) / 2) < 1e-6 && abs(picture.offset.y - (window.height - shown.height) / 2) < 1e-6)
        case "strip-click-wheel":
            // The click at x 250 lands on the third cell right of the open one (coffee's 60 px
            // cell centred at 160 spans 130-190; then 28 px cells 2 px apart: 192-220, 222-250):
            // truncated.png, index 2; a notch towards the user goes on one, two away go back two.
            expectPager(page: 1)
            #expect(state.strip.position == 1 && state.backgroundBlackness == 1)
        case "strip-flick":
            // The flick coasts to the end of the strip: the last photo, hubble.jpg.
            expectPager(page: 3)
            #expect(state.strip.position == 3)
        case "strip-scrub":
            // 70 px left is 2.33 photos: truncated.png, index 2, and the strip rests on its cell.
            expectPager(page: 2)
            #expect(state.strip.position == 2)
        case "strip-slide":
            // The drag (160 px in 0.3 s: 533 px/s, past the 500 px/s flick) turns to friends.jpg.
            expectPager(page: 1, scale: Self.fit(Self.friends, in: window))
            #expect(state.strip.position == 1)
        default:
            Issue.record("no end state written for \(script)")
        }
    }
}
