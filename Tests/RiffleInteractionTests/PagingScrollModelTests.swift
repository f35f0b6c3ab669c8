import RealModule
import RiffleInteraction
import Testing

/// A strip of 1000 px pages 20 px apart: page i rests at i · 1020.
///
/// Formulas the expected values come from, written out here rather than taken from the model:
/// - the rubber band b(x) = (1 − 1/(x·c/d + 1))·d = x·c·d/(x·c + d), c = 0.55, d = 1000;
/// - the snap spring, critically damped at ω = 30 rad/s: from x0 at v0 towards a target T,
///   x(t) = T + (D + (v0 + ω·D)·t)·e^(−ω·t) with D = x0 − T. It crosses T (at t = −D/(v0 + ω·D))
///   only when v0 points at T faster than ω·|D|, so the model caps v0 there: the snap then
///   follows T + D·e^(−ω·t).
@Suite struct PagingScrollModelTests {
    static let omega = 30.0

    static func rubberBand(_ excess: Double, viewport: Double = 1000) -> Double {
        let c = 0.55
        return excess * c * viewport / (abs(excess) * c + viewport)
    }

    static func snap(from x0: Double, velocity v0: Double, to target: Double, after t: Double) -> Double {
        let d = x0 - target
        return target + (d + (v0 + omega * d) * t) * Double.exp(-omega * t)
    }

    /// A strip of 5 pages dragged by `displacement` from `page` (grabbed at t = 0).
    static func dragged(page: Int, by displacement: Double, pages: Int = 5) -> PagingScrollModel {
        var model = PagingScrollModel(pageCount: pages, viewportWidth: 1000, page: page)
        model.grab(at: 0)
        model.drag(by: displacement)
        return model
    }

    /// Steps at 60 Hz from `t` until the strip rests; returns the time it rested.
    static func settle(_ model: inout PagingScrollModel, from t: Double) -> Double {
        var now = t
        while model.isAnimating, now < t + 5 {
            now += 1.0 / 60
            model.settle(at: now)
        }
        return now
    }

    // MARK: Positions

    @Test(arguments: [
        // page count, requested page, resting page, position, last page's position
        (5, 2, 2, 2040.0, 4080.0), (5, 7, 4, 4080, 4080), (5, -1, 0, 0, 4080), (0, 3, 0, 0, 0), (1, 0, 0, 0, 0),
    ])
    func restsOnWholePages(pages: Int, page: Int, restingPage: Int, position: Double, maximum: Double) {
        let model = PagingScrollModel(pageCount: pages, viewportWidth: 1000, page: page)
        #expect(model.pageCount == max(pages, 1))
        #expect(model.pageWidth == 1020)
        #expect(model.maximumPosition == maximum)
        #expect(model.currentPage(at: 9) == restingPage)
        #expect(model.position(at: 9) == position)
        #expect(!model.isAnimating && !model.isDragging)
    }

    @Test func aDragMovesTheStripOneToOne() {
        var model = Self.dragged(page: 2, by: 300)
        #expect(model.isDragging && model.dragStartPage == 2)
        #expect(model.position(at: 1) == 2340 && model.dragDisplacement == 300)
        // 2340 / 1020 ≈ 2.29: still nearest page 2.
        #expect(model.currentPage(at: 1) == 2)
        model.drag(by: 250)
        // 2590 / 1020 ≈ 2.54: nearest page 3; the drag still started on 2.
        #expect(model.position(at: 1) == 2590 && model.currentPage(at: 1) == 3 && model.dragStartPage == 2)
    }

    /// Past either end the shown position is the end plus the rubber band of the excess.
    @Test(arguments: [
        // start page, raw displacement, shown position
        (0, -500.0, -275_000.0 / 1275),  // b(500) = 500·550/(275 + 1000)
        (0, -2000, -1_100_000.0 / 2100),  // b(2000) = 2000·550/(1100 + 1000)
        (4, 200, 4080 + 110_000.0 / 1110),  // b(200) = 200·550/(110 + 1000)
        (4, -300, 3780),
        (0, 100, 100),
    ] as [(Int, Double, Double)])
    func pastTheEndsTheStripRubberBands(page: Int, displacement: Double, shown: Double) {
        let model = Self.dragged(page: page, by: displacement)
        #expect(abs(model.position(at: 0) - shown) < 1e-9)
        #expect(model.dragDisplacement == displacement)
        #expect(model.currentPage(at: 0) == page)
    }

    // MARK: Release

    /// Faster than 500 px/s: one page from the start page the way the velocity points (clamped to
    /// the strip); otherwise the page nearest to the released position.
    @Test(arguments: [
        // start page, displacement, velocity, target page
        (2, 100.0, 600.0, 3), (2, 100, -600, 1),
        // 500 px/s exactly is not a flick: nearest page.
        (2, 100, 500, 2), (2, -100, -500, 2),
        // 2520 / 1020 ≈ 2.47 and 2620 / 1020 ≈ 2.57.
        (2, 500, 0, 2), (2, 600, 0, 3), (2, -600, 0, 1), (2, 600, 400, 3), (2, 600, -400, 3),
        // A flick goes one page from the start page, whatever the displacement.
        (2, 600, -600, 1), (2, 1500, 800, 3), (2, -1500, -800, 1),
        // Flicks past the ends stay on the end pages.
        (0, -100, -800, 0), (4, 100, 800, 4), (0, -3000, 0, 0), (4, 3000, 0, 4),
    ])
    func releasePicksThePage(page: Int, displacement: Double, velocity: Double, target: Int) {
        var model = Self.dragged(page: page, by: displacement)
        model.release(velocity: velocity, at: 1)
        #expect(!model.isDragging)
        #expect(model.currentPage(at: 1) == target)
        let rested = Self.settle(&model, from: 1)
        #expect(model.position(at: rested) == Double(target) * 1020)
        #expect(model.currentPage(at: rested) == target)
    }

    /// From 2640 towards page 3 at 3060 (D = −420), 20 000 px/s is capped at 30 · 420 = 12 600:
    /// x(t) = 3060 − 420·e^(−30t), never past 3060. Uncapped it would cross 3060 at
    /// t = 420 / (20 000 − 12 600) ≈ 0.057 s. The mirror image towards page 1 likewise.
    @Test(arguments: [(600.0, 20_000.0, 3060.0), (-600, -20_000, 1020)])
    func theSnapNeverOvershootsItsPage(displacement: Double, velocity: Double, target: Double) {
        var model = Self.dragged(page: 2, by: displacement)
        model.release(velocity: velocity, at: 1)
        let released = 2040 + displacement
        for k in 0...600 {
            let t = Double(k) / 1000
            let shown = model.position(at: 1 + t)
            #expect(abs(shown - (target + (released - target) * Double.exp(-Self.omega * t))) < 1e-9, "t \(t)")
            #expect((shown - target) * (released - target) >= 0, "crossed at t \(t)")
        }
    }

    /// Velocities under the cap, or away from the target, are carried into the snap unchanged.
    @Test(arguments: [
        // displacement, velocity, target position
        (600.0, 400.0, 3060.0), (600, 5000, 3060),
        // 2440 rests on page 2 (2.39 pages); 300 px/s carries it further out first.
        (400, 300, 2040), (-400, -300, 2040),
    ])
    func slowerReleasesKeepTheirVelocity(displacement: Double, velocity: Double, target: Double) {
        var model = Self.dragged(page: 2, by: displacement)
        model.release(velocity: velocity, at: 1)
        for t in [0, 0.01, 0.02, 0.05, 0.1, 0.2] {
            let expected = Self.snap(from: 2040 + displacement, velocity: velocity, to: target, after: t)
            #expect(abs(model.position(at: 1 + t) - expected) < 1e-9, "t \(t)")
        }
    }

    /// From 1020 px away and at rest, the snap is within 0.5 px once 1020·(1 + 30t)·e^(−30t) < 0.5,
    /// at t ≈ 0.334 s (its speed 1020·900·t·e^(−30t) is under 20 px/s from t ≈ 0.320 s); only
    /// `settle` makes it rest, exactly on the page.
    @Test func settleEndsTheSnapExactlyOnThePageOnceDone() {
        var model = PagingScrollModel(pageCount: 5, viewportWidth: 1000, page: 1)
        model.scroll(toPage: 2, at: 0)
        var low = 0.0, high = 2.0
        for _ in 0..<100 {
            let t = (low + high) / 2
            if 1020 * (1 + Self.omega * t) * Double.exp(-Self.omega * t) < 0.5 { high = t } else { low = t }
        }
        model.settle(at: high * (1 - 1e-6))
        #expect(model.isAnimating)
        #expect(model.position(at: high * (1 - 1e-6)) != 2040)
        model.settle(at: high * (1 + 1e-6))
        #expect(!model.isAnimating)
        #expect(model.position(at: high) == 2040)
    }

    // MARK: Page count

    @Test func shrinkingBelowTheRestingPageSettlesOnTheNewLastPage() {
        var model = PagingScrollModel(pageCount: 5, viewportWidth: 1000, page: 4)
        model.setPageCount(3, at: 1)
        #expect(model.pageCount == 3 && model.maximumPosition == 2040)
        #expect(model.currentPage(at: 1) == 2)
        // No jump: the snap starts where the strip rested, from rest.
        for t in [0, 0.05, 0.1, 0.2] {
            #expect(abs(model.position(at: 1 + t) - Self.snap(from: 4080, velocity: 0, to: 2040, after: t)) < 1e-9, "t \(t)")
        }
        let rested = Self.settle(&model, from: 1)
        #expect(model.position(at: rested) == 2040)
    }

    @Test func changesThatKeepThePageChangeNothing() {
        var model = PagingScrollModel(pageCount: 5, viewportWidth: 1000, page: 1)
        model.setPageCount(2, at: 1)
        #expect(!model.isAnimating && model.position(at: 1) == 1020)
        model.setPageCount(9, at: 2)
        #expect(!model.isAnimating && model.position(at: 2) == 1020 && model.maximumPosition == 8 * 1020)
        // A snap towards a page that remains runs on unchanged.
        var settling = PagingScrollModel(pageCount: 5, viewportWidth: 1000, page: 3)
        settling.scroll(toPage: 1, at: 0)
        let untouched = settling
        settling.setPageCount(2, at: 0.05)
        for t in [0.05, 0.1, 0.2] { #expect(settling.position(at: t) == untouched.position(at: t)) }
    }

    /// A snap from page 3 towards page 4 is at 4080 − 1020·2.5·e^(−1.5) ≈ 3511 at t = 0.05 s when
    /// the strip shrinks to 3 pages: it turns to page 2 from there, without a jump.
    @Test func shrinkingBelowTheSettlingPageRedirectsTheSnap() {
        var model = PagingScrollModel(pageCount: 5, viewportWidth: 1000, page: 3)
        model.scroll(toPage: 4, at: 0)
        let shown = 4080 - 1020 * 2.5 * Double.exp(-1.5)
        #expect(abs(model.position(at: 0.05) - shown) < 1e-9)
        model.setPageCount(3, at: 0.05)
        #expect(model.currentPage(at: 0.05) == 2)
        #expect(abs(model.position(at: 0.05) - shown) < 1e-9)
        let rested = Self.settle(&model, from: 0.05)
        #expect(model.position(at: rested) == 2040)
    }

    /// Dragged on page 4 (raw 3980) when the strip shrinks to 3 pages: the finger keeps its raw
    /// position, now 1940 px past the new end at 2040, shown rubber-banded; a release settles on
    /// the new last page, even a flick that points further.
    @Test(arguments: [0.0, 800, -800])
    func shrinkingWhileDraggedKeepsTheDragAndSettlesOnTheLastPage(velocity: Double) {
        var model = Self.dragged(page: 4, by: -100)
        model.setPageCount(3, at: 0.5)
        #expect(model.isDragging)
        #expect(abs(model.position(at: 0.5) - (2040 + Self.rubberBand(1940))) < 1e-9)
        #expect(model.currentPage(at: 0.5) == 2)
        model.release(velocity: velocity, at: 1)
        #expect(model.currentPage(at: 1) == 2)
        let rested = Self.settle(&model, from: 1)
        #expect(model.position(at: rested) == 2040)
    }

    // MARK: Resize

    @Test func aResizeAtRestKeepsThePage() {
        var model = PagingScrollModel(pageCount: 5, viewportWidth: 1000, page: 3)
        model.resize(viewportWidth: 800, at: 1)
        #expect(model.pageWidth == 820 && model.viewportWidth == 800)
        #expect(model.position(at: 1) == 2460 && !model.isAnimating)
    }

    /// Dragged 300 px off page 2 (2.294 pages), resized to 800 px (820 px pages): still 2.294
    /// pages, 300 · 820/1020 px off page 2 at 1640.
    @Test func aResizeMidDragKeepsThePageAndTheFraction() {
        var model = Self.dragged(page: 2, by: 300)
        model.resize(viewportWidth: 800, at: 0.5)
        let displacement = 300 * 820.0 / 1020
        #expect(abs(model.dragDisplacement - displacement) < 1e-9)
        #expect(abs(model.position(at: 0.5) - (1640 + displacement)) < 1e-9)
        #expect(model.isDragging && model.dragStartPage == 2 && model.currentPage(at: 0.5) == 2)
        model.release(velocity: 0, at: 1)
        let rested = Self.settle(&model, from: 1)
        #expect(model.position(at: rested) == 1640)
    }

    /// Snapping from page 2 to 3 from rest: x(t) = 3060 − 1020·(1 + 30t)·e^(−30t), moving at
    /// x'(t) = 1020·900·t·e^(−30t). Resized to 800 px at t = 0.05 the position and velocity scale
    /// by 820/1020 and the snap carries on to page 3 at 2460 from there.
    @Test func aResizeMidSnapKeepsTheFractionAndTheMotion() {
        var model = PagingScrollModel(pageCount: 5, viewportWidth: 1000, page: 2)
        model.scroll(toPage: 3, at: 0)
        let ratio = 820.0 / 1020
        let shown = (3060 - 1020 * 2.5 * Double.exp(-1.5)) * ratio
        let velocity = 1020 * 900 * 0.05 * Double.exp(-1.5) * ratio
        model.resize(viewportWidth: 800, at: 0.05)
        #expect(model.currentPage(at: 0.05) == 3)
        for t in [0, 0.02, 0.05, 0.1] {
            let expected = Self.snap(from: shown, velocity: velocity, to: 2460, after: t)
            #expect(abs(model.position(at: 0.05 + t) - expected) < 1e-9, "t \(t)")
        }
        let rested = Self.settle(&model, from: 0.05)
        #expect(model.position(at: rested) == 2460)
    }

    // MARK: Scrolling to a page

    /// Home and End: from more than a page away the strip starts next to the target, at rest.
    @Test(arguments: [
        // from page, to page, fromNeighbour, where the snap starts
        (1, 9, true, 8 * 1020.0), (1, 9, false, 1020), (8, 9, true, 8 * 1020), (5, 0, true, 1020), (5, 0, false, 5 * 1020),
        // Clamped to the strip.
        (1, 12, true, 8 * 1020), (5, -3, true, 1020), (0, -1, true, 0),
    ] as [(Int, Int, Bool, Double)])
    func scrollToAPage(from: Int, to: Int, fromNeighbour: Bool, start: Double) {
        var model = PagingScrollModel(pageCount: 10, viewportWidth: 1000, page: from)
        model.scroll(toPage: to, fromNeighbour: fromNeighbour, at: 2)
        let page = min(max(to, 0), 9)
        #expect(model.currentPage(at: 2) == page)
        for t in [0, 0.03, 0.1] {
            let expected = Self.snap(from: start, velocity: 0, to: Double(page) * 1020, after: t)
            #expect(abs(model.position(at: 2 + t) - expected) < 1e-9, "t \(t)")
        }
    }

    /// A scroll mid-snap starts from where the strip is, with the velocity it has.
    @Test func aScrollMidSnapCarriesTheMotion() {
        var model = PagingScrollModel(pageCount: 10, viewportWidth: 1000, page: 2)
        model.scroll(toPage: 3, at: 0)
        // x(0.05) and x'(0.05) of the first snap, as in the resize test.
        let shown = 3060 - 1020 * 2.5 * Double.exp(-1.5), velocity = 1020 * 900 * 0.05 * Double.exp(-1.5)
        model.scroll(toPage: 4, at: 0.05)
        for t in [0, 0.02, 0.1] {
            #expect(abs(model.position(at: 0.05 + t) - Self.snap(from: shown, velocity: velocity, to: 4080, after: t)) < 1e-9)
        }
    }

    // MARK: Handing motion back to a zoomed photo

    @Test(arguments: [
        // displacement, delta, returned, displacement after
        (100.0, -30.0, 0.0, 70.0), (100, -100, 0, 0), (100, -130, -30, 0), (100, 50, 50, 100),
        (-100, 30, 0, -70), (-100, 250, 150, 0), (-100, -20, -20, -100),
        (0, 40, 40, 0), (0, -40, -40, 0),
    ])
    func dragTowardsTheStartPageStopsOnIt(displacement: Double, delta: Double, returned: Double, after: Double) {
        var model = Self.dragged(page: 2, by: displacement)
        #expect(model.dragTowardsStartPage(by: delta) == returned)
        #expect(model.dragDisplacement == after)
        #expect(model.position(at: 0) == 2040 + after)
    }

    @Test func dragTowardsTheStartPageNeedsADrag() {
        var model = PagingScrollModel(pageCount: 5, viewportWidth: 1000, page: 2)
        #expect(model.dragTowardsStartPage(by: -40) == -40)
        #expect(model.position(at: 0) == 2040 && !model.isDragging)
    }

    // MARK: Grabbing

    /// A grab mid-snap, here from the rubber band past page 0, holds the strip where it is;
    /// dragging on moves it from there (through the rubber band while past the end).
    @Test func aGrabMidSnapHoldsTheStripWhereItIs() {
        var model = Self.dragged(page: 0, by: -500)
        model.release(velocity: 0, at: 0)
        let shown = Self.snap(from: Self.rubberBand(-500), velocity: 0, to: 0, after: 0.05)
        #expect(abs(model.position(at: 0.05) - shown) < 1e-9)
        model.grab(at: 0.05)
        #expect(model.isDragging && !model.isAnimating && model.dragStartPage == 0)
        #expect(abs(model.position(at: 1) - shown) < 1e-9)
        // The raw excess x with b(x) = shown: x = d·b/(c·(d − b)) for the 1000 px viewport.
        let raw = -1000 * -shown / (0.55 * (1000 + shown))
        model.drag(by: -50)
        #expect(abs(model.position(at: 1) + Self.rubberBand(-(raw - 50))) < 1e-9)
    }
}
