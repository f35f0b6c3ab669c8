import RiffleGeometry
import RiffleInteraction
import RifflePhysics
import Testing

@Suite struct PagingTests {
    @Test func aFastShortFlickMovesExactlyOnePage() {
        var h = ViewerHarness(page: 1)
        h.drag(from: Point(x: 500, y: 400), to: Point(x: 440, y: 400), duration: 0.05, steps: 5)
        let took = h.settle()
        #expect(h.state.currentPage == 2)
        #expect(h.state.pagingOffset == 2 * h.state.pageWidth)
        #expect(took < 0.5)
    }

    @Test(arguments: [(0.4, 1), (0.6, 2), (-0.4, 1), (-0.6, 0)])
    func aSlowDragGoesToTheNearestPage(fraction: Double, page: Int) {
        var h = ViewerHarness(page: 1)
        h.drag(from: Point(x: 500, y: 400), to: Point(x: 500 - fraction * 1000, y: 400), duration: 2, steps: 120)
        h.settle()
        #expect(h.state.currentPage == page)
        #expect(h.state.pagingOffset == Double(page) * h.state.pageWidth)
    }

    @Test func aFlickNeverMovesMoreThanOnePage() {
        var h = ViewerHarness(page: 1)
        h.drag(from: Point(x: 900, y: 400), to: Point(x: 100, y: 400), duration: 0.05, steps: 5)
        h.settle()
        #expect(h.state.currentPage == 2)
    }

    @Test func aDragAtTheFirstPageRubberBandsAndReturns() {
        var h = ViewerHarness()
        let lock = h.pan(from: Point(x: 100, y: 400), to: Point(x: 400, y: 400), duration: 1, steps: 60, release: false)
        let pulled = 400.0 - lock.x
        #expect(abs(h.state.pagingOffset + RubberBand.stretched(pulled, dimension: 1000)) < 1e-9)
        h.run(0.1)
        h.release(Point(x: 400, y: 400))
        let took = h.settle()
        #expect(h.state.pagingOffset == 0 && took < 0.5)
    }

    @Test func homeAndEndComeFromTheNeighbouringPage() {
        var h = ViewerHarness(pages: 10, page: 1)
        h.key("End")
        let pw = h.state.pageWidth
        while h.viewer.isAnimating {
            #expect(h.state.pagingOffset >= 8 * pw)
            h.run(ViewerHarness.frame)
        }
        #expect(h.state.pagingOffset == 9 * pw)
        h.key("Home")
        h.settle()
        #expect(h.state.currentPage == 0)
    }
}

/// Limits worked by hand for the 1000×800 window (fit = min(1000/Cw, 800/Ch, 1), maximum =
/// max(2.5·fit, 2)) rather than read from `ZoomBounds`.
@Suite struct ZoomTests {
    let centre = Point(x: 500, y: 400)
    /// 3000×2000: fit 1/3, shown 1000×(2000/3), (800 − 2000/3)/2 = 200/3 px above and below.
    static let landscapeFit = ScaleTranslate(scale: 1.0 / 3, offset: Point(x: 0, y: 200.0 / 3))

    static func isClose(_ a: ScaleTranslate?, _ b: ScaleTranslate) -> Bool {
        guard let a else { return false }
        return abs(a.scale - b.scale) < 1e-12 && (a.offset - b.offset).length < 1e-9
    }

    @Test func doubleClickZoomsToTwoAndAHalfFitThenBackToExactlyFit() throws {
        var h = ViewerHarness(content: Size(width: 3000, height: 2000))
        let clicked = Point(x: 600, y: 350)
        let point = try #require(h.transform(0)).invert(clicked)
        h.click(clicked); h.run(0.1); h.click(clicked)
        h.settle()
        let zoomed = try #require(h.transform(0))
        #expect(abs(zoomed.scale - 2.5 / 3) < 1e-12)
        #expect((zoomed.apply(point) - centre).length < 1e-6)  // centred on the clicked point
        h.run(0.5)
        h.click(centre); h.run(0.1); h.click(centre)
        h.settle()
        #expect(Self.isClose(h.transform(0), Self.landscapeFit))
        #expect(h.state.chromeVisible)
    }

    @Test func aPageZoomedAndLeftIsAtFitWhenSeenAgain() {
        var h = ViewerHarness(content: Size(width: 3000, height: 2000))
        h.key("plus"); h.key("plus")
        h.settle()
        #expect(!Self.isClose(h.transform(0), Self.landscapeFit))
        h.key("Right"); h.settle()
        h.key("Left"); h.settle()
        #expect(Self.isClose(h.transform(0), Self.landscapeFit))
    }

    @Test func theBouncePastTheMaximumReturnsToItWithTheAnchorFixed() throws {
        var h = ViewerHarness(content: Size(width: 4000, height: 3200))
        let pointer = Point(x: 320, y: 260)
        let point = try #require(h.transform(0)).invert(pointer)
        for _ in 0..<14 {
            h.wheel(Point(x: 0, y: 1), at: pointer)
            h.run(0.02)
        }
        // 4000×3200: fit 0.25, maximum max(0.625, 2) = 2.
        let maximum = 2.0
        #expect(try #require(h.transform(0)).scale > maximum * 1.1)
        while h.viewer.isAnimating {
            h.run(ViewerHarness.frame)
            let shown = try #require(h.transform(0))
            #expect((shown.apply(point) - pointer).length < 0.5)
        }
        #expect(try #require(h.transform(0)).scale == maximum)
    }

    @Test func panToTheEdgeThenKeepPullingSlidesTheNextPhotoIn() throws {
        var h = ViewerHarness(content: Size(width: 3000, height: 2000))
        h.key("plus"); h.key("plus"); h.key("plus")
        h.settle()
        let start = try #require(h.transform(0))
        // Three presses: fit · 1.3³ = 2.197/3; the photo's right edge meets the window's at
        // offset 1000 − 3000·scale.
        #expect(abs(start.scale - 2.197 / 3) < 1e-12)
        let edge = 1000 - 3000 * start.scale
        let room = start.offset.x - edge
        // Pull left by the room plus 150 px (plus the 11 px slop).
        h.pan(from: Point(x: 900, y: 400), to: Point(x: 900 - 11 - room - 150, y: 400), duration: 3, steps: 200, release: false)
        #expect(try #require(h.transform(0)).offset.x == edge)
        #expect(abs(h.state.pagingOffset - 150) < 1e-6)
        #expect(h.state.pages.map(\.index) == [0, 1])
        // Reversing: the strip returns to its page before the photo pans again.
        h.run(0.1); h.move(Point(x: 900 - 11 - room - 50, y: 400))
        #expect(abs(h.state.pagingOffset - 50) < 1e-6)
        #expect(try #require(h.transform(0)).offset.x == edge)
        h.run(0.1); h.move(Point(x: 900 - 11 - room + 30, y: 400))
        #expect(h.state.pagingOffset == 0)
        #expect(abs(try #require(h.transform(0)).offset.x - (edge + 30)) < 1e-6)
        // Pull again and release slowly past half a page: the next page.
        h.drag(from: Point(x: 900, y: 400), to: Point(x: 100, y: 400), duration: 3, steps: 200)
        h.settle()
        #expect(h.state.currentPage == 1)
        #expect(h.state.pagingOffset == h.state.pageWidth)
    }

    @Test func zoomingOutToFitThenPagingImmediatelyDoesNotJump() throws {
        var h = ViewerHarness(content: Size(width: 3000, height: 2000))
        for _ in 0..<3 { h.wheel(Point(x: 0, y: 1), at: centre); h.run(0.02) }
        for _ in 0..<5 { h.wheel(Point(x: 0, y: -1), at: centre); h.run(0.02) }
        let before = try #require(h.transform(0))
        #expect(before.scale < 1.0 / 3)  // resisting below fit
        h.press(Point(x: 700, y: 400))
        h.move(Point(x: 689, y: 400))
        #expect(h.transform(0) == before)
        #expect(h.state.pagingOffset == 0)
        for k in 1...5 { h.run(0.01); h.move(Point(x: 689 - 15 * Double(k), y: 400)) }
        #expect(abs(h.state.pagingOffset - 75) < 1e-9)
        h.release(Point(x: 614, y: 400))
        h.settle()
        #expect(h.state.currentPage == 1 && h.state.pagingOffset == h.state.pageWidth)
        #expect(h.viewer.renderState.pages.map(\.index) == [1])
        h.key("Left"); h.settle()
        #expect(Self.isClose(h.transform(0), Self.landscapeFit))
    }

    @Test func resizeKeepsThePageAndTheZoomedPointUnderTheCentre() throws {
        var h = ViewerHarness(content: Size(width: 3000, height: 2000), page: 2)
        h.key("plus"); h.key("plus"); h.key("plus")
        h.settle()
        let point = try #require(h.transform(2)).invert(centre)
        h.viewer.resize(viewport: Size(width: 800, height: 600), at: h.t)
        #expect(h.state.currentPage == 2)
        #expect(h.state.pagingOffset == 2 * 820)
        let shown = try #require(h.transform(2)).apply(point)
        #expect((shown - Point(x: 400, y: 300)).length < 0.5)
        // A page at fit stays at fit: in 1200×900, min(0.4, 0.45) = 0.4, shown 1200×800.
        h.key("0"); h.settle()
        h.viewer.resize(viewport: Size(width: 1200, height: 900), at: h.t)
        #expect(Self.isClose(h.transform(2), ScaleTranslate(scale: 0.4, offset: Point(x: 0, y: 50))))
        #expect(!h.viewer.isAnimating)
    }

    @Test func aPhotoWhoseSizeArrivesLaterRefitsWithoutMotion() {
        var h = ViewerHarness()
        #expect(h.transform(0) == ScaleTranslate(scale: 1, offset: .zero))
        h.setContentSize(Size(width: 2000, height: 2000), forPage: 0)
        #expect(h.transform(0) == ScaleTranslate(scale: 0.4, offset: Point(x: 100, y: 0)))
        #expect(!h.viewer.isAnimating)
    }

    @Test func smallPhotosRestAtOneToOneAndKeyOneGivesActualSize() throws {
        var h = ViewerHarness(content: Size(width: 300, height: 200))
        #expect(try #require(h.transform(0)).scale == 1)
        h.key("plus"); h.settle()
        #expect(try #require(h.transform(0)).scale == 1.3)
        h.key("1"); h.settle()
        #expect(try #require(h.transform(0)) == ScaleTranslate(scale: 1, offset: Point(x: 350, y: 300)))
    }
}

@Suite struct GestureTests {
    @Test func aVerticalDragAtFitMovesThePhotoAndFadesTheBackground() {
        var h = ViewerHarness()
        let lock = h.pan(from: Point(x: 500, y: 300), to: Point(x: 520, y: 511), duration: 0.5, steps: 30, release: false)
        let dy = h.state.dismissOffset.y
        #expect(abs(dy - (511 - lock.y)) < 1e-9)
        #expect(h.state.dismissOffset.x == 0)
        #expect(abs(h.state.dismissBackgroundAlpha - (1 - dy / (800.0 / 3))) < 1e-9)
        #expect(h.state.pagingOffset == 0)
        h.run(0.1)
        h.release(Point(x: 520, y: 511))
        h.settle()
        #expect(h.state.dismissOffset == .zero && h.state.dismissBackgroundAlpha == 1)
    }

    @Test func pinchZoomsAboutItsCentreAndBouncesOnEnd() throws {
        var h = ViewerHarness(content: Size(width: 4000, height: 3200))
        let c = Point(x: 400, y: 300)
        h.viewer.handle(.pinch(scaleFactor: 1, center: c, phase: .began, time: h.t))
        for _ in 0..<20 { h.run(0.01); h.viewer.handle(.pinch(scaleFactor: 0.9, center: c, phase: .changed, time: h.t)) }
        // 4000×3200 fits 1000×800 exactly at 0.25.
        #expect(try #require(h.transform(0)).scale < 0.25)
        h.viewer.handle(.pinch(scaleFactor: 1, center: c, phase: .ended, time: h.t))
        h.settle()
        #expect(h.transform(0) == ScaleTranslate(scale: 0.25, offset: .zero))
    }

    @Test func signalsForTheApp() {
        var h = ViewerHarness()
        h.key("f"); h.key("F11")
        #expect(h.state.fullscreenToggles == 2 && !h.state.wantsQuit)
        h.key("Escape")
        #expect(h.state.wantsQuit)
    }
}
