import RiffleGeometry
import RiffleInteraction
import Testing

@Suite struct ZoomBoundsTests {
    static let viewport = Size(width: 1000, height: 800)

    /// fit = min(Vw/Cw, Vh/Ch, 1); maximum = max(2.5·fit, 8, fill), fill = min(Vw/Cw, Vh/Ch);
    /// double click = min(2.5·fit, maximum), worked by hand for a 1000×800 viewport.
    @Test(arguments: [
        // content, fit, maximum, double-click scale
        // min(1000/4000, 800/3000) = 0.25; max(0.625, 8, 0.25) = 8.
        (Size(width: 4000, height: 3000), 0.25, 8.0, 0.625),
        // Portrait: min(1000/1000, 800/3000) = 4/15; max(2/3, 8, 4/15) = 8.
        (Size(width: 1000, height: 3000), 4.0 / 15, 8, 2.0 / 3),
        // 1000/1200 = 5/6 < 800/800: 2.5·fit = 25/12, under the floor 8.
        (Size(width: 1200, height: 800), 5.0 / 6, 8, 25.0 / 12),
        // Smaller than the viewport: 1:1; fill min(10/3, 4) = 10/3; the floor 8 wins.
        (Size(width: 300, height: 200), 1, 8, 2.5),
        // Exactly the viewport's height.
        (Size(width: 800, height: 800), 1, 8, 2.5),
        // Unknown size: stands for a viewport-sized photo.
        (Size.zero, 1, 8, 2.5),
        // A 40×30 icon: fill = min(1000/40, 800/30) = 25 beats the floor, so it can fill the window.
        (Size(width: 40, height: 30), 1, 25, 2.5),
    ] as [(Size, Double, Double, Double)])
    func limits(content: Size, fit: Double, maximum: Double, doubleClick: Double) {
        let bounds = ZoomBounds(content: content, viewport: Self.viewport)
        #expect(abs(bounds.fit - fit) < 1e-12)
        #expect(abs(bounds.minimum - fit) < 1e-12)
        #expect(abs(bounds.maximum - maximum) < 1e-12)
        #expect(abs(bounds.doubleClickScale - doubleClick) < 1e-12)
    }

    /// Along an axis of viewport V and content C at scale s: [V − C·s, 0] when C·s > V, else the
    /// single centred value (V − C·s)/2. 4000×3000 in 1000×800.
    @Test(arguments: [
        // scale, horizontal range, vertical range
        // 2000×1500 shown: larger on both axes.
        (0.5, -1000.0 ... 0, -700.0 ... 0),
        // 1000×750: exactly as wide (centred at 0), 50 px short vertically (centred at 25).
        (0.25, 0.0 ... 0, 25.0 ... 25),
        // 800×600: centred on both.
        (0.2, 100.0 ... 100, 100.0 ... 100),
        // 1200×900.
        (0.3, -200.0 ... 0, -100.0 ... 0),
    ] as [(Double, ClosedRange<Double>, ClosedRange<Double>)])
    func offsetRanges(scale: Double, horizontal: ClosedRange<Double>, vertical: ClosedRange<Double>) {
        let bounds = ZoomBounds(content: Size(width: 4000, height: 3000), viewport: Self.viewport)
        let x = bounds.offsetRange(.horizontal, scale: scale), y = bounds.offsetRange(.vertical, scale: scale)
        #expect(abs(x.lowerBound - horizontal.lowerBound) < 1e-9 && abs(x.upperBound - horizontal.upperBound) < 1e-9)
        #expect(abs(y.lowerBound - vertical.lowerBound) < 1e-9 && abs(y.upperBound - vertical.upperBound) < 1e-9)
    }

    @Test func clampsOffsetsAndScales() {
        let bounds = ZoomBounds(content: Size(width: 4000, height: 3000), viewport: Self.viewport)
        #expect(bounds.clampOffset(Point(x: -1200, y: 10), scale: 0.5) == Point(x: -1000, y: 0))
        #expect(bounds.clampOffset(Point(x: 5, y: -300), scale: 0.5) == Point(x: 0, y: -300))
        #expect(bounds.clampOffset(Point(x: -40, y: 40), scale: 0.2) == Point(x: 100, y: 100))
        #expect(bounds.clampScale(0.1) == 0.25)
        #expect(bounds.clampScale(9) == 8)
        #expect(bounds.clampScale(1.5) == 1.5)
    }

    @Test func fitTransformIsCentred() {
        // 4000×3000 at 0.25 is 1000×750: 25 px above and below.
        #expect(ZoomBounds(content: Size(width: 4000, height: 3000), viewport: Self.viewport).fitTransform
            == ScaleTranslate(scale: 0.25, offset: Point(x: 0, y: 25)))
        // 300×200 at 1:1: (1000 − 300)/2, (800 − 200)/2.
        #expect(ZoomBounds(content: Size(width: 300, height: 200), viewport: Self.viewport).fitTransform
            == ScaleTranslate(scale: 1, offset: Point(x: 350, y: 300)))
    }

    /// Scale 9 with offset (−4500, −3000) shows image point ((500 + 4500)/9, (400 + 3000)/9) =
    /// (5000/9, 3400/9) under (500, 400); settled at the maximum 8 that point stays there:
    /// offset (500 − 40000/9, 400 − 27200/9) = (−35500/9, −23600/9), inside [−31000, 0] × [−23200, 0].
    @Test func settlingKeepsTheAnchorWhereBoundsAllow() {
        let bounds = ZoomBounds(content: Size(width: 4000, height: 3000), viewport: Self.viewport)
        let settled = bounds.settled(ScaleTranslate(scale: 9, offset: Point(x: -4500, y: -3000)), anchor: Point(x: 500, y: 400))
        #expect(settled.scale == 8)
        #expect(abs(settled.offset.x + 35500.0 / 9) < 1e-9 && abs(settled.offset.y + 23600.0 / 9) < 1e-9)
        // Below the minimum nothing but the centred fit is in bounds, whatever the anchor.
        let under = bounds.settled(ScaleTranslate(scale: 0.1, offset: Point(x: 300, y: 200)), anchor: Point(x: 10, y: 10))
        #expect(under == ScaleTranslate(scale: 0.25, offset: Point(x: 0, y: 25)))
    }

    /// Resting: scale in [0.25, 8] and, per axis, the photo covering the window (4000×3000 at
    /// scale s: offset in [1000 − 4000s, 0] × [800 − 3000s, 0]) or centred where it is smaller.
    @Test(arguments: [
        (ScaleTranslate(scale: 0.25, offset: Point(x: 0, y: 25)), true),
        (ScaleTranslate(scale: 0.5, offset: Point(x: -1000, y: -700)), true),
        (ScaleTranslate(scale: 2, offset: Point(x: 0, y: 0)), true),
        (ScaleTranslate(scale: 2, offset: Point(x: -7000, y: -5200)), true),
        (ScaleTranslate(scale: 8, offset: Point(x: -31000, y: -23200)), true),
        // Rounding-level differences still rest: scale a trillionth under fit, offset 1e-9 px out.
        (ScaleTranslate(scale: 0.25 * (1 - 1e-12), offset: Point(x: 0, y: 25)), true),
        (ScaleTranslate(scale: 0.5, offset: Point(x: 1e-9, y: 0)), true),
        // Under the minimum and over the maximum.
        (ScaleTranslate(scale: 0.249, offset: Point(x: 1.5, y: 26.65)), false),
        (ScaleTranslate(scale: 8.001, offset: Point(x: 0, y: 0)), false),
        // The left edge inside the window, the bottom edge inside it.
        (ScaleTranslate(scale: 0.5, offset: Point(x: 1, y: 0)), false),
        (ScaleTranslate(scale: 0.5, offset: Point(x: 0, y: -701)), false),
        // Smaller vertically at fit but not centred.
        (ScaleTranslate(scale: 0.25, offset: Point(x: 0, y: 24)), false),
        (ScaleTranslate(scale: 0.25, offset: Point(x: 0, y: 0)), false),
    ])
    func resting(transform: ScaleTranslate, isResting: Bool) {
        let bounds = ZoomBounds(content: Size(width: 4000, height: 3000), viewport: Self.viewport)
        #expect(bounds.isResting(transform) == isResting)
    }

    @Test func atFitAndZoomed() {
        let bounds = ZoomBounds(content: Size(width: 4000, height: 3000), viewport: Self.viewport)
        #expect(bounds.isAtFit(ScaleTranslate(scale: 0.25, offset: Point(x: 0, y: 25))))
        #expect(!bounds.isAtFit(ScaleTranslate(scale: 0.25, offset: Point(x: 0, y: 20))))
        #expect(!bounds.isAtFit(ScaleTranslate(scale: 0.26, offset: Point(x: -20, y: 10))))
        #expect(!bounds.isZoomed(ScaleTranslate(scale: 0.25, offset: Point(x: 0, y: 25))))
        #expect(!bounds.isZoomed(ScaleTranslate(scale: 0.2, offset: Point(x: 100, y: 100))))
        #expect(bounds.isZoomed(ScaleTranslate(scale: 0.26, offset: Point(x: -20, y: 10))))
    }
}
