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

    /// The page snap's flick threshold (`PagingScrollModel.flickVelocity`, 500 px/s) seen through
    /// the viewer: a steady drag of 120 px past the slop (well short of half a page, 510 px) released at 10 %
    /// under it comes back to its page, at 10 % over it turns to the next, either way.
    @Test(arguments: [(0.9, false), (1.1, true)], [1.0, -1.0])
    func aReleaseTurnsThePageOnlyPastTheFlickSpeed(speed: (Double, Bool), direction: Double) {
        let (factor, turns) = speed
        var h = ViewerHarness(page: 1)
        // The figure itself, not the model's constant, so that a changed constant is seen.
        let velocity = factor * 500, distance = 120.0
        let from = Point(x: 500, y: 400)
        // Past the pan's slop first (the pan locks 11 px in), then steadily at `velocity`, so the
        // velocity tracker's fit sees one speed.
        let lock = h.pan(from: from, to: from + Point(x: -direction * (11 + distance), y: 0), duration: distance / velocity, steps: 12)
        h.settle()
        let page = turns ? 1 + Int(direction) : 1
        #expect(h.state.currentPage == page, "released at \(velocity) px/s from \(lock)")
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
        h.key(.end)
        let pw = h.state.pageWidth
        while h.viewer.isAnimating {
            #expect(h.state.pagingOffset >= 8 * pw)
            h.run(ViewerHarness.frame)
        }
        #expect(h.state.pagingOffset == 9 * pw)
        h.key(.home)
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
        h.key("+"); h.key("+")
        h.settle()
        #expect(!Self.isClose(h.transform(0), Self.landscapeFit))
        h.key(.pageDown); h.settle()
        h.key(.pageUp); h.settle()
        #expect(Self.isClose(h.transform(0), Self.landscapeFit))
    }

    @Test func theBouncePastTheMaximumReturnsToItWithTheAnchorFixed() throws {
        var h = ViewerHarness(content: Size(width: 4000, height: 3200))
        let pointer = Point(x: 320, y: 260)
        let point = try #require(h.transform(0)).invert(pointer)
        // 0.25 · 1.3²⁰ ≈ 47.5 raw, far past the maximum 8: shown at 8 · (47.5/8)^0.3 ≈ 13.
        for _ in 0..<20 {
            h.wheel(Point(x: 0, y: 1), at: pointer)
            h.run(0.02)
        }
        // 4000×3200: fit 0.25, maximum max(0.625, 8, 0.25) = 8.
        let maximum = 8.0
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
        h.key("+"); h.key("+"); h.key("+")
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
        h.key(.left); h.settle()
        #expect(Self.isClose(h.transform(0), Self.landscapeFit))
    }

    @Test func resizeKeepsThePageAndTheZoomedPointUnderTheCentre() throws {
        var h = ViewerHarness(content: Size(width: 3000, height: 2000), page: 2)
        h.key("+"); h.key("+"); h.key("+")
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
        h.key("+"); h.settle()
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
        // Once the pan has locked vertically, the photo follows the pointer sideways too.
        #expect(abs(h.state.dismissOffset.x - (520 - lock.x)) < 1e-9)
        #expect(h.state.dismissOffset.x > 0)
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

    // Fullscreen is the scene's (its f, F11 and Escape are asked first): the pager's Escape,
    // without a library behind, quits.
    @Test func escapeQuitsWithoutALibrary() {
        var h = ViewerHarness()
        #expect(h.key("f").isEmpty)
        #expect(h.key(.function(11)).isEmpty)
        #expect(h.key(.escape) == [.app(.quit)])
        #expect(h.key("q") == [.app(.quit)])
        #expect(h.viewer.handle(.close) == [.app(.quit)])
        #expect(h.key(.right).isEmpty)
        #expect(h.key(.up, .alt).isEmpty, "no library to go back to")
    }

    // With the library grid behind: Escape and Alt+Up go back to it, from the photo as shown;
    // q still quits.
    @Test func escapeAndAltUpGoBackToTheLibrary() {
        var h = ViewerHarness(libraryBehind: true)
        #expect(h.key(.escape) == [.dismiss(from: nil)])
        #expect(h.key(.up, .alt) == [.dismiss(from: nil)])
        #expect(h.key("q") == [.app(.quit)])
    }

    // A drag down at fit released past 15 % of the height dismisses from where the photo is
    // shown; a short slow one springs back, as without a library.
    @Test func aDragDownPastTheThresholdDismissesWithALibraryBehind() {
        var h = ViewerHarness(libraryBehind: true)
        h.press(Point(x: 500, y: 300))
        h.run(0.01)
        h.move(Point(x: 500, y: 315))
        h.run(0.3)
        h.move(Point(x: 500, y: 460))
        h.run(0.1)
        let commands = h.viewer.handle(.pointerUp(position: Point(x: 500, y: 460), button: .left, modifiers: [], time: h.t))
        guard case let .dismiss(from: state?)? = commands.first else {
            Issue.record("no dismissal: \(commands)")
            return
        }
        // 145 px of 800 past the lock point: scale 1 − 0.4 · 145/266.7 = 0.7825, under the photo.
        #expect(state.frame.width < 1000 * 0.8 && state.backgroundAlpha < 0.5, "\(state)")
        var short = ViewerHarness(libraryBehind: true)
        short.press(Point(x: 500, y: 300))
        short.run(0.01)
        short.move(Point(x: 500, y: 315))
        short.run(0.3)
        short.move(Point(x: 500, y: 340))
        short.run(0.1)
        #expect(short.viewer.handle(.pointerUp(position: Point(x: 500, y: 340), button: .left, modifiers: [], time: short.t)).isEmpty)
    }

    // A wheel burst from fit ending below 0.7 × fit as shown closes the photo; a smaller one
    // bounces back.
    @Test func aWheelBurstWellBelowFitDismisses() {
        func burst(_ notches: Int) -> [ViewerCommand] {
            var h = ViewerHarness(content: Size(width: 4000, height: 3200), libraryBehind: true)
            var commands: [ViewerCommand] = []
            for _ in 0..<notches {
                commands += h.viewer.handle(
                    .scroll(delta: Point(x: 0, y: -1), position: Point(x: 500, y: 400), modifiers: [], precise: false, time: h.t))
                h.t += 0.02
                commands += h.viewer.step(to: h.t)
            }
            // The burst ends 0.15 s after its last notch (the wheel's idle timer).
            for _ in 0..<30 {
                h.t += 1.0 / 60
                commands += h.viewer.step(to: h.t)
            }
            return commands
        }
        // Six notches out: raw 1.3⁻⁶ = 0.207 of fit, shown 0.207^0.3 = 0.62 of fit, under 0.7.
        #expect(burst(6).contains { if case .dismiss = $0 { true } else { false } })
        // Two: raw 0.59, shown 0.85 of fit: bounces back.
        #expect(burst(2).isEmpty)
    }
}

/// The click that focuses the window only focuses it.
@Suite struct FocusClickTests {
    static let point = Point(x: 500, y: 400)

    /// Blackness at rest after the harness's click and the double-click interval: the harness
    /// starts with the chrome shown (white, 0); a click that toggles makes it black (1).
    static func blacknessAfterClick(_ setup: (inout ViewerHarness) -> Void) -> Double {
        var h = ViewerHarness()
        setup(&h)
        h.click(point)
        h.run(0.5)
        h.settle()
        return h.state.backgroundBlackness
    }

    @Test func aClickOnAFocusedWindowTogglesTheChrome() {
        #expect(Self.blacknessAfterClick { _ in } == 1)
    }

    @Test func aClickOnAnUnfocusedWindowOnlyFocusesIt() {
        #expect(Self.blacknessAfterClick { $0.viewer.handle(.focus(false)) } == 0)
    }

    // The window manager focuses the window as the button goes down: FocusIn just before the
    // press, or between press and release.
    @Test func aClickArrivingWithFocusInOnlyFocuses() {
        #expect(Self.blacknessAfterClick { h in
            h.viewer.handle(.focus(false))
            h.run(2)
            h.viewer.handle(.focus(true))
            h.run(0.05)
        } == 0)
        var h = ViewerHarness()
        h.viewer.handle(.focus(false))
        h.press(Self.point)
        h.viewer.handle(.focus(true))
        h.run(0.03)
        h.release(Self.point)
        h.run(0.5)
        h.settle()
        #expect(h.state.backgroundBlackness == 0)
    }

    @Test func aClickWellAfterFocusInToggles() {
        #expect(Self.blacknessAfterClick { h in
            h.viewer.handle(.focus(false))
            h.viewer.handle(.focus(true))
            h.run(ViewerInteraction.focusClickWindow + 0.1)
        } == 1)
    }

    @Test func aFocusClickStartsNoDoubleClick() {
        var h = ViewerHarness(content: Size(width: 4000, height: 3200))
        h.viewer.handle(.focus(false))
        h.press(Self.point)
        h.viewer.handle(.focus(true))
        h.run(0.03)
        h.release(Self.point)
        h.run(0.1)
        h.click(Self.point)
        h.run(0.5)
        h.settle()
        #expect(h.transform(0) == h.viewer.zoomBounds(forPage: 0).fitTransform, "no double-click zoom")
        #expect(h.state.backgroundBlackness == 1, "the second click is a single click")
    }
}

/// Keys and buttons that move through photos or within a zoomed one.
@Suite struct PagingKeysTests {
    // 4000×3200 in 1000×800: fit 0.25; ×1.3⁴ = 0.714025 makes it 2856.1 × 2284.9, with
    // horizontal offsets in [1000 − 2856.1, 0] = [−1856.1, 0].
    static func zoomedHarness() -> ViewerHarness {
        var h = ViewerHarness(pages: 5, content: Size(width: 4000, height: 3200), page: 2)
        for _ in 0..<4 { h.key("+") }
        h.settle()
        return h
    }

    @Test func arrowsPageAtFit() {
        var h = ViewerHarness(pages: 5, page: 2)
        h.key(.right); h.settle()
        #expect(h.state.currentPage == 3)
        h.key(.left); h.key(.left); h.settle()
        #expect(h.state.currentPage == 1)
        h.key(.up); h.key(.down); h.settle()
        #expect(h.state.currentPage == 1)
    }

    @Test func arrowsPanAZoomedPhotoByAThirdOfTheWindowThenPageFromItsEdge() throws {
        var h = Self.zoomedHarness()
        let scale = 0.25 * 1.3 * 1.3 * 1.3 * 1.3
        let start = try #require(h.transform(2))
        #expect(abs(start.scale - scale) < 1e-9)
        // Centred: offset x = (1000 − 4000·s)/2 = −928.05.
        #expect(abs(start.offset.x - (1000 - 4000 * scale) / 2) < 1e-6)
        h.key(.right); h.settle()
        #expect(abs(try #require(h.transform(2)).offset.x - (start.offset.x - 1000.0 / 3)) < 1e-6)
        h.key(.down); h.settle()
        #expect(abs(try #require(h.transform(2)).offset.y - (start.offset.y - 800.0 / 3)) < 1e-6)
        // −928.05 − 333.3 = −1261.4, then −1594.7, then the edge −1856.1: still page 2.
        h.key(.right); h.settle()
        h.key(.right); h.settle()
        #expect(abs(try #require(h.transform(2)).offset.x - (1000 - 4000 * scale)) < 1e-6)
        #expect(h.state.currentPage == 2)
        h.key(.right); h.settle()
        #expect(h.state.currentPage == 3, "at the edge, Right turns the page")
    }

    @Test func ctrlArrowsPageEvenWhenZoomed() {
        var h = Self.zoomedHarness()
        h.key(.right, .control); h.settle()
        #expect(h.state.currentPage == 3)
        h.key(.left, .control); h.key(.left, .control); h.settle()
        #expect(h.state.currentPage == 1)
    }

    @Test func backAndForwardButtonsPage() {
        var h = ViewerHarness(pages: 5, page: 2)
        h.press(Point(x: 10, y: 10), button: .forward); h.settle()
        #expect(h.state.currentPage == 3)
        h.press(Point(x: 10, y: 10), button: .back)
        h.press(Point(x: 10, y: 10), button: .back); h.settle()
        #expect(h.state.currentPage == 1)
    }
}

/// The zoom limits: deep enough to see single pixels.
@Suite struct DeepZoomTests {
    @Test func aLargePhotoZoomsToEightTimes() {
        // 6000×4000 in 1000×800: fit 1/6; 2.5·fit = 0.417; maximum 8.
        let bounds = ZoomBounds(content: Size(width: 6000, height: 4000), viewport: Size(width: 1000, height: 800))
        #expect(bounds.maximum == 8)
    }

    @Test func aTinyPhotoZoomsUntilItFillsTheWindow() {
        // 40×30 in 1280×800: fit 1 (never enlarged at rest); fill = min(32, 26.67) = 26.67.
        let bounds = ZoomBounds(content: Size(width: 40, height: 30), viewport: Size(width: 1280, height: 800))
        #expect(bounds.fit == 1)
        #expect(abs(bounds.maximum - 800.0 / 30) < 1e-12)
        var h = ViewerHarness(pages: 1, viewport: Size(width: 1280, height: 800), content: Size(width: 40, height: 30))
        for _ in 0..<20 { h.key("+") }
        h.settle()
        #expect(abs((h.transform(0)?.scale ?? 0) - 800.0 / 30) < 1e-9)
    }
}

/// The zoom-level figure shown while zooming.
@Suite struct ZoomLabelTests {
    @Test func opacityHoldsThenFades() {
        var label = ZoomLabel()
        #expect(label.opacity(at: 5) == 0 && !label.isAnimating(at: 5))
        label.zoomChanged(at: 10)
        #expect(label.opacity(at: 10) == 1 && label.opacity(at: 10.75) == 1)
        // Half-way through the fade: 10 + 0.8 + 0.15.
        #expect(abs(label.opacity(at: 10.95) - 0.5) < 1e-9)
        #expect(label.opacity(at: 11.125) == 0 && !label.isAnimating(at: 11.125) && label.isAnimating(at: 11.0625))
    }

    @Test func showsWhileAKeyZoomAnimatesThenGoes() {
        var h = ViewerHarness(content: Size(width: 4000, height: 3200))
        #expect(h.state.zoomLabel.opacity == 0)
        h.key("+")
        h.run(0.1)
        #expect(h.state.zoomLabel.opacity == 1)
        let settledAfter = h.settle()
        #expect(h.state.zoomLabel.opacity == 0)
        // The zoom animation ran, then the label held 0.8 s and faded 0.3 s after it.
        #expect(settledAfter > ZoomLabel.hold + ZoomLabel.fadeOut)
        #expect(h.state.zoomLabel.text == "33\u{202F}%", "0.25 × 1.3 = 32.5 % rounds to 33")
    }

    @Test func pagingShowsNoLabel() {
        var h = ViewerHarness(content: Size(width: 4000, height: 3200))
        h.key(.right)
        h.run(0.1)
        #expect(h.state.zoomLabel.opacity == 0)
    }
}

extension ZoomLabelTests {
    // Zoomed, then paged away while the label still faded: it showed the next photo's scale.
    @Test func theLabelGoesWithItsPage() {
        var h = ViewerHarness(content: Size(width: 4000, height: 3200))
        h.key("+")
        h.settle(limit: 0.4)
        #expect(h.state.zoomLabel.opacity == 1)
        h.key(.pageDown)
        h.run(0.05)
        #expect(h.state.zoomLabel.opacity == 0)
    }
}

/// A zoomed photo closes into the library only when pulled down from its top edge.
@Suite struct ZoomedDismissTests {
    // 4000×3200 in 1000×800 at 0.25 · 1.3⁴ = 0.714: 2856 × 2285 px, vertical offsets in
    // [800 − 2285, 0]; centred at first (−742.4), at 0 once Up has panned it to its top.
    static func zoomed(toTop: Bool) -> ViewerHarness {
        var h = ViewerHarness(content: Size(width: 4000, height: 3200), libraryBehind: true)
        for _ in 0..<4 { h.key("+") }
        h.settle()
        if toTop {
            for _ in 0..<4 { h.key(.up) }
            h.settle()
        }
        return h
    }

    /// Drags from (500, 300) by `dy` over 0.3 s and returns the commands of the release.
    static func drag(_ h: inout ViewerHarness, dy: Double) -> [ViewerCommand] {
        let start = Point(x: 500, y: 300)
        h.press(start)
        h.run(0.01)
        h.move(start + Point(x: 0, y: dy > 0 ? 15 : -15))
        for k in 1...6 {
            h.run(0.05)
            h.move(start + Point(x: 0, y: dy * Double(k) / 6))
        }
        return h.viewer.handle(.pointerUp(position: start + Point(x: 0, y: dy), button: .left, modifiers: [], time: h.t))
    }

    static func dismisses(_ commands: [ViewerCommand]) -> Bool {
        commands.contains { if case .dismiss = $0 { true } else { false } }
    }

    @Test func pulledDownFromItsTopEdgeItDismisses() throws {
        var h = Self.zoomed(toTop: true)
        #expect(abs(try #require(h.transform(0)).offset.y) < 1e-6, "panned to the top")
        #expect(Self.dismisses(Self.drag(&h, dy: 250)))
    }

    @Test func awayFromItsTopEdgeADragDownPans() throws {
        var h = Self.zoomed(toTop: false)
        let before = try #require(h.transform(0)).offset.y
        #expect(!Self.dismisses(Self.drag(&h, dy: 250)))
        h.settle()
        #expect(try #require(h.transform(0)).offset.y > before + 100, "the photo moved down: it panned")
    }

    @Test func atItsTopEdgeADragUpPans() throws {
        var h = Self.zoomed(toTop: true)
        #expect(!Self.dismisses(Self.drag(&h, dy: -250)))
        h.settle()
        #expect(try #require(h.transform(0)).offset.y < -100)
    }
}

/// `renumberPages`: the pager follows its photo when the library changes around it.
@Suite struct RenumberPagesTests {
    /// Two pages arrive before page 2, zoomed in with "+": it is page 4 now, at the same zoom.
    @Test func thePhotoShownKeepsItsZoomAtItsNewIndex() {
        var h = ViewerHarness(pages: 5, content: Size(width: 2000, height: 1600), page: 2)
        _ = h.key("+")
        h.settle()
        let zoomed = h.state.pages.first { $0.index == 2 }!.transform
        #expect(zoomed.scale > 0.5 + 1e-9)
        h.viewer.renumberPages(count: 7, current: 4, newPage: { $0 >= 2 ? $0 + 2 : $0 }, at: h.t)
        #expect(h.state.currentPage == 4 && h.viewer.pageCount == 7)
        #expect(h.state.pagingOffset == 4 * h.state.pageWidth)
        #expect(h.state.pages.map(\.index) == [4])
        #expect(h.state.pages[0].transform == zoomed)
        #expect(h.viewer.zoomBounds(forPage: 4).content == Size(width: 2000, height: 1600))
    }

    /// The photo shown is gone: its successor slides in from the page before it, as a turn to
    /// the next page does, and rests there at fit.
    @Test func theNextPhotoSlidesInWhenTheOneShownIsGone() {
        var h = ViewerHarness(pages: 5, page: 2)
        h.viewer.renumberPages(count: 4, current: 2, arrivingFrom: 1, newPage: { $0 < 2 ? $0 : $0 == 2 ? nil : $0 - 1 }, at: h.t)
        #expect(h.state.currentPage == 2)
        #expect(h.state.pagingOffset == h.state.pageWidth)
        h.run(0.1)
        #expect(h.state.pagingOffset > h.state.pageWidth && h.state.pagingOffset < 2 * h.state.pageWidth)
        h.settle()
        #expect(h.state.pagingOffset == 2 * h.state.pageWidth)
    }
}
