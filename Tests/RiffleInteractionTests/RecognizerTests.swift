import RiffleGeometry
import RiffleInteraction
import Testing

@Suite struct PanRecognizerTests {
    @Test func noPanWithinTheSlop() {
        var pan = PanRecognizer()
        pan.press(at: Point(x: 100, y: 100), time: 0)
        #expect(pan.move(to: Point(x: 107, y: 107), time: 0.01) == nil)  // 9.9 px
        #expect(pan.move(to: Point(x: 110, y: 100), time: 0.02) == nil)  // exactly 10 px
        #expect(pan.release(at: Point(x: 108, y: 103), time: 0.03) == [.tap(position: Point(x: 108, y: 103), time: 0.03)])
    }

    @Test func beginsBeyondTheSlopWithoutAJump() {
        var pan = PanRecognizer()
        pan.press(at: Point(x: 100, y: 100), time: 0)
        #expect(pan.move(to: Point(x: 111, y: 100), time: 0.01) == .began(axis: .horizontal, position: Point(x: 111, y: 100), time: 0.01))
        // Motion is reported from the lock point on.
        #expect(pan.move(to: Point(x: 115, y: 101), time: 0.02) == .changed(delta: Point(x: 4, y: 1), time: 0.02))
    }

    @Test func aDiagonalDragThatStartsVerticalStaysVertical() {
        var pan = PanRecognizer()
        pan.press(at: .zero, time: 0)
        #expect(pan.move(to: Point(x: 4, y: 11), time: 0.01) == .began(axis: .vertical, position: Point(x: 4, y: 11), time: 0.01))
        for k in 1...10 {
            _ = pan.move(to: Point(x: 4 + 30 * Double(k), y: 11 + 5 * Double(k)), time: 0.01 + 0.01 * Double(k))
            #expect(pan.axis == .vertical)
        }
    }

    /// A steady 1000 px/s drag sampled every 10 ms reports 1000 px/s at release.
    @Test func releaseVelocityIsTheTrackersEstimate() {
        var pan = PanRecognizer()
        pan.press(at: .zero, time: 0)
        for k in 1...20 { _ = pan.move(to: Point(x: 10 * Double(k), y: -3 * Double(k)), time: 0.01 * Double(k)) }
        let outputs = pan.release(at: Point(x: 200, y: -60), time: 0.2)
        guard case let .ended(velocity, _)? = outputs.last else {
            Issue.record("no end: \(outputs)")
            return
        }
        #expect(abs(velocity.x - 1000) < 1)
        #expect(abs(velocity.y + 300) < 1)
    }
}

@Suite struct ClickRecognizerTests {
    // X stamps a release later than the last move but at its place; as a sample it told the fit
    // the pointer had stopped, and three 50 px moves 16 ms apart flicked backwards.
    @Test(arguments: [1.0, -1.0])
    func aReleaseWhereTheLastMoveEndedAddsNoSample(direction: Double) {
        var pan = PanRecognizer()
        pan.press(at: Point(x: 400, y: 300), time: 10)
        for (i, t) in [10.0005, 10.0165, 10.0325].enumerated() {
            _ = pan.move(to: Point(x: 400 + direction * 50 * Double(i + 1), y: 300), time: t)
        }
        let outputs = pan.release(at: Point(x: 400 + direction * 150, y: 300), time: 10.0485)
        guard case let .ended(velocity, _)? = outputs.last else {
            Issue.record("no end: \(outputs)")
            return
        }
        #expect(outputs.count == 1)
        #expect(velocity.x * direction > PagingScrollModel.flickVelocity, "\(velocity)")
    }

    @Test func aReleaseAwayFromTheLastMoveCountsAsMotion() {
        var pan = PanRecognizer()
        pan.press(at: Point(x: 0, y: 0), time: 0)
        _ = pan.move(to: Point(x: 20, y: 0), time: 0.010)
        _ = pan.move(to: Point(x: 40, y: 0), time: 0.020)
        let outputs = pan.release(at: Point(x: 60, y: 0), time: 0.030)
        #expect(outputs.first == .changed(delta: Point(x: 20, y: 0), time: 0.030))
        guard case let .ended(velocity, _)? = outputs.last else {
            Issue.record("no end: \(outputs)")
            return
        }
        // Four samples 10 ms apart, 20 px each: 2000 px/s exactly, by the line and the parabola.
        #expect(abs(velocity.x - 2000) < 1e-6)
    }

    @Test func aSingleClickFiresOnlyAfter300ms() {
        var clicks = ClickRecognizer()
        #expect(clicks.press(at: Point(x: 5, y: 5), time: 0) == nil)
        #expect(clicks.tap(at: Point(x: 5, y: 5), time: 0.05) == nil)
        #expect(clicks.step(to: 0.2) == nil)
        #expect(clicks.step(to: 0.349) == nil)
        #expect(clicks.step(to: 0.36) == .single(position: Point(x: 5, y: 5), time: 0.35))
        #expect(clicks.step(to: 1) == nil)
    }

    @Test func aDoubleClickNeverAlsoYieldsASingle() {
        var clicks = ClickRecognizer()
        _ = clicks.press(at: Point(x: 5, y: 5), time: 0)
        _ = clicks.tap(at: Point(x: 5, y: 5), time: 0.05)
        #expect(clicks.press(at: Point(x: 20, y: 10), time: 0.3) == nil)
        #expect(clicks.step(to: 0.4) == nil)  // held by the second press
        #expect(clicks.tap(at: Point(x: 20, y: 10), time: 0.45) == .double(position: Point(x: 20, y: 10), time: 0.45))
        #expect(clicks.step(to: 2) == nil)
        #expect(!clicks.isPending)
    }

    @Test func aLateOrDistantSecondPressIsNotADoubleClick() {
        var clicks = ClickRecognizer()
        _ = clicks.tap(at: .zero, time: 0)
        #expect(clicks.press(at: Point(x: 30, y: 0), time: 0.1) == .single(position: .zero, time: 0.1))
        #expect(clicks.tap(at: Point(x: 30, y: 0), time: 0.15) == nil)
        #expect(clicks.press(at: Point(x: 30, y: 0), time: 0.46) == .single(position: Point(x: 30, y: 0), time: 0.46))
    }

    @Test func viewerTogglesTheChromeOnlyForSingleClicks() {
        var h = ViewerHarness()
        #expect(h.state.chromeVisible)
        h.click(Point(x: 500, y: 400))
        h.run(0.25)
        #expect(h.state.chromeVisible && h.state.backgroundBlackness == 0)
        h.run(0.1)
        #expect(!h.state.chromeVisible)
        h.settle()
        #expect(h.state.backgroundBlackness == 1)

        h.click(Point(x: 500, y: 400))
        h.run(0.1)
        h.click(Point(x: 505, y: 402))
        h.settle()
        #expect(!h.state.chromeVisible && h.state.backgroundBlackness == 1)
    }
}

@Suite struct WheelTests {
    /// The image point under the pointer stays within 0.5 px through notches in (past the
    /// maximum too) and out, for a photo of the viewport's aspect (its bounds then never bind).
    @Test(arguments: [Point(x: 300, y: 200), Point(x: 810, y: 650), Point(x: 500, y: 400)])
    func wheelZoomKeepsThePointUnderThePointer(pointer: Point) throws {
        var h = ViewerHarness(content: Size(width: 4000, height: 3200))
        let point = try #require(h.transform(0)).invert(pointer)
        for notches in [1.0, 1, 1, 0.5, 1, 1, 1, 1, -1, -1, -0.25, -2] {
            h.wheel(Point(x: 0, y: notches), at: pointer)
            h.run(0.03)
            let shown = try #require(h.transform(0)).apply(point)
            #expect((shown - pointer).length < 0.5, "after \(notches)")
        }
    }

    @Test func aHorizontalNotchBurstTurnsOnePage() {
        var h = ViewerHarness()
        for _ in 0..<4 {
            h.wheel(Point(x: 1, y: 0), at: Point(x: 500, y: 400))
            h.run(0.04)
        }
        h.settle()
        #expect(h.state.currentPage == 1)
        h.wheel(Point(x: 0, y: -1), at: Point(x: 500, y: 400), .shift)
        h.settle()
        #expect(h.state.currentPage == 2 && h.state.pagingOffset == 2 * h.state.pageWidth)
    }

    @Test func preciseScrollingPansAndCarriesMomentum() throws {
        var h = ViewerHarness(content: Size(width: 4000, height: 3200))
        h.key("+"); h.key("+"); h.key("+")
        h.settle()
        let before = try #require(h.transform(0))
        for _ in 0..<10 {
            h.wheel(Point(x: 0.1, y: 0), at: Point(x: 500, y: 400), precise: true)
            h.run(0.01)
        }
        let lifted = try #require(h.transform(0))
        #expect(abs(lifted.offset.x - (before.offset.x - 60)) < 1e-9)
        h.run(0.1)
        let coasting = try #require(h.transform(0))
        #expect(coasting.offset.x < lifted.offset.x - 5)
        h.settle()
        #expect(!h.viewer.isAnimating)
        for page in h.state.pages { #expect(h.restingProblem(page) == nil) }
    }
}
