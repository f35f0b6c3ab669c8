import RealModule
import RiffleGeometry
import RiffleInteraction
import Testing

/// r and Shift+R through the viewer, on its virtual clock, worked by hand for a 3000×2000 photo
/// in the 1000×800 window: at fit, scale 1/3, 1000×667 centred; turned a quarter it is a
/// 2000×3000 picture, fit min(1000/2000, 800/3000) = 0.2667 (4/15), shown 533×800.
@Suite struct ViewerTurnTests {
    static let photo = Size(width: 3000, height: 2000)
    static let turnedFit = 800.0 / 3000
    static let centre = Point(x: 500, y: 400)

    static func page(_ h: ViewerHarness, _ index: Int) -> ViewerRenderState.Page? {
        h.state.pages.first { $0.index == index }
    }

    /// The shown turn is θ0 + (θ1 − θ0)·p(t) with p the zoom spring's progress,
    /// 1 − (1 + 40·t)·e^(−40·t), until it rests on exactly one quarter turn.
    @Test func theTurnFollowsTheZoomSpring() throws {
        var h = ViewerHarness(content: Self.photo)
        h.run(0.5)
        let start = h.t
        h.key("r")
        for _ in 0..<12 {
            h.run(ViewerHarness.frame)
            let t = h.t - start
            let p = 1 - (1 + 40 * t) * Double.exp(-40 * t)
            let shown = try #require(Self.page(h, 0))
            if shown.rotation.wholeQuarters == 1 { break }
            #expect(abs(shown.rotation.quarterTurns - p) < 1e-12, "at \(t) s")
            // The scale moves with the same progress, from fit to the turned fit.
            #expect(abs(shown.transform.scale - (1.0 / 3 + (Self.turnedFit - 1.0 / 3) * p)) < 1e-12, "at \(t) s")
            #expect(h.viewer.isAnimating)
        }
        let took = h.settle()
        #expect(took < 0.4)
        let rested = try #require(Self.page(h, 0))
        #expect(rested.rotation == Rotation(quarterTurns: 1))
    }

    /// Turned, the photo fits the window by its turned size, centred.
    @Test func aTurnedPhotoFitsByItsTurnedSize() throws {
        var h = ViewerHarness(content: Self.photo)
        h.key("r")
        h.settle()
        let shown = try #require(Self.page(h, 0))
        #expect(abs(shown.transform.scale - Self.turnedFit) < 1e-12)
        #expect(abs(shown.transform.offset.x - (1000 - 2000 * Self.turnedFit) / 2) < 1e-9 && abs(shown.transform.offset.y) < 1e-9)
        #expect(h.restingProblem(shown) == nil)
        #expect(h.viewer.zoomBounds(forPage: 0).content == Size(width: 2000, height: 3000))
        // Shift+R gives X's keysym R: back to upright, and once more three quarters.
        h.key("R", .shift)
        h.settle()
        #expect(Self.page(h, 0)?.rotation == Rotation.none)
        #expect(abs((Self.page(h, 0)?.transform.scale ?? 0) - 1.0 / 3) < 1e-12)
        h.key("R", .shift)
        h.settle()
        #expect(Self.page(h, 0)?.rotation == Rotation(quarterTurns: 3))
    }

    /// Each photo keeps its turn for the session: paged away and back it is still turned (and at
    /// fit, its zoom reset as when it was left), and its neighbours are not.
    @Test func theTurnIsKeptAcrossPaging() throws {
        var h = ViewerHarness(content: Self.photo)
        h.key("r")
        h.key("+")
        h.settle()
        #expect((Self.page(h, 0)?.transform.scale ?? 0) > Self.turnedFit * 1.2)
        h.key(.space)
        h.settle()
        #expect(Self.page(h, 1)?.rotation == Rotation.none)
        h.key(.backspace)
        h.settle()
        let back = try #require(Self.page(h, 0))
        #expect(back.rotation == Rotation(quarterTurns: 1))
        #expect(abs(back.transform.scale - Self.turnedFit) < 1e-12)
        #expect(h.viewer.rotation(ofPage: 0) == Rotation(quarterTurns: 1) && h.viewer.rotation(ofPage: 1) == Rotation.none)
    }

    /// Double-click, pans and the rubber band work in the turned frame: 2.5 × the turned fit at
    /// the clicked point, panned to the turned picture's edge and no further.
    @Test func zoomAndPanWorkInTheTurnedFrame() throws {
        var h = ViewerHarness(content: Self.photo)
        h.key("r")
        h.settle()
        let clicked = Point(x: 450, y: 300)
        let point = try #require(Self.page(h, 0)).transform.invert(clicked)
        h.click(clicked); h.run(0.1); h.click(clicked)
        h.settle()
        let zoomed = try #require(Self.page(h, 0))
        #expect(abs(zoomed.transform.scale - 2.5 * Self.turnedFit) < 1e-12)
        #expect((zoomed.transform.apply(point) - Self.centre).length < 1e-6)
        // Dragged far down and right, it rubber-bands, then rests with its turned top-left corner
        // at the window's: the turned picture is 2000 wide, 3000 tall.
        h.pan(from: Point(x: 300, y: 200), to: Point(x: 900, y: 750), duration: 0.6, steps: 30)
        h.settle()
        let panned = try #require(Self.page(h, 0))
        #expect(h.restingProblem(panned) == nil)
        #expect(abs(panned.transform.offset.y) < 1e-6, "top edge at the window's top")
        #expect(h.state.currentPage == 0)
    }

    /// A zoomed photo keeps its scale and the picture point under the window's centre as it
    /// turns (here 1:1, inside the limits either way).
    @Test func aZoomedPhotoTurnsAboutTheCentre() throws {
        var h = ViewerHarness(content: Self.photo)
        h.key("1")
        h.settle()
        h.pan(from: Point(x: 600, y: 500), to: Point(x: 400, y: 420), duration: 0.5, steps: 20)
        h.settle()
        let before = try #require(Self.page(h, 0))
        let picturePoint = before.transform.invert(Self.centre)
        h.key("r")
        h.settle()
        let after = try #require(Self.page(h, 0))
        #expect(after.transform.scale == 1)
        let turnedPoint = Rotation(quarterTurns: 1).turn(picturePoint, inPictureOf: Self.photo)
        #expect((after.transform.apply(turnedPoint) - Self.centre).length < 1e-6)
    }

    /// A turn pressed while one is under way carries on from where the photo is, the same way:
    /// two quick r rest at a half turn, four at none.
    @Test func turnsInQuickSuccessionAddUp() throws {
        var h = ViewerHarness(content: Self.photo)
        h.key("r")
        h.run(0.05)
        let midway = try #require(Self.page(h, 0)).rotation.quarterTurns
        h.key("r")
        h.run(ViewerHarness.frame)
        let next = try #require(Self.page(h, 0)).rotation.quarterTurns
        #expect(next > midway && next < 2)
        h.settle()
        #expect(Self.page(h, 0)?.rotation == Rotation(quarterTurns: 2))
        h.key("r"); h.run(0.05); h.key("r")
        h.settle()
        #expect(Self.page(h, 0)?.rotation == Rotation.none)
        #expect(abs((Self.page(h, 0)?.transform.scale ?? 0) - 1.0 / 3) < 1e-12)
    }

    /// A photo whose size arrives once it is turned fits by its turned size, without motion.
    @Test func aSizeArrivingLaterFitsTheTurnedPhoto() throws {
        var h = ViewerHarness()
        h.key("r")
        h.settle()
        h.setContentSize(Self.photo, forPage: 0)
        let shown = try #require(Self.page(h, 0))
        #expect(abs(shown.transform.scale - Self.turnedFit) < 1e-12)
        #expect(!h.viewer.isAnimating)
    }
}
