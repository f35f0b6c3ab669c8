import RiffleGeometry
import RiffleInteraction
import Testing

/// `ChromeLayout`: rectangles worked out by hand from its point sizes.
@Suite struct ChromeLayoutTests {
    /// 1000 px at 1x: bar 44 high; fullscreen 952-996, zoom 908-952, info 864-908; back 4-108;
    /// title 116-856.
    @Test func barAtOneX() {
        let layout = ChromeLayout(viewport: Size(width: 1000, height: 800))
        #expect(layout.bar == Rect(x: 0, y: 0, width: 1000, height: 44))
        #expect(layout.frame(of: .fullscreen) == Rect(x: 952, y: 0, width: 44, height: 44))
        #expect(layout.frame(of: .zoom) == Rect(x: 908, y: 0, width: 44, height: 44))
        #expect(layout.frame(of: .info) == Rect(x: 864, y: 0, width: 44, height: 44))
        #expect(layout.frame(of: .back) == Rect(x: 4, y: 0, width: 104, height: 44))
        #expect(layout.titleFrame == Rect(x: 116, y: 0, width: 740, height: 44))
    }

    /// Every size doubles at 2x.
    @Test func barAtTwoX() {
        let one = ChromeLayout(viewport: Size(width: 500, height: 400))
        let two = ChromeLayout(viewport: Size(width: 1000, height: 800), scale: 2)
        for button in ChromeButton.allCases {
            let a = one.frame(of: button), b = two.frame(of: button)
            #expect(b == Rect(x: a.minX * 2, y: 0, width: a.width * 2, height: a.height * 2), "\(button)")
        }
    }

    /// The strip's band along the bottom: 8 + 40 + 6 pt tall, the window's width.
    @Test func stripBand() {
        #expect(ChromeLayout(viewport: Size(width: 1000, height: 800)).stripBand == Rect(x: 0, y: 746, width: 1000, height: 54))
        #expect(ChromeLayout(viewport: Size(width: 1000, height: 800), scale: 2).stripBand == Rect(x: 0, y: 692, width: 1000, height: 108))
    }

    /// Hit testing at edges: half-open rectangles; the gap between back and info is no button.
    @Test(arguments: [
        (Point(x: 4, y: 0), ChromeButton?.some(.back)), (Point(x: 3.9, y: 10), nil), (Point(x: 107.9, y: 43.9), .back),
        (Point(x: 108, y: 10), nil), (Point(x: 500, y: 20), nil), (Point(x: 907.9, y: 20), .info), (Point(x: 908, y: 20), .zoom),
        (Point(x: 952, y: 20), .fullscreen), (Point(x: 996, y: 20), nil), (Point(x: 930, y: 44), nil),
    ])
    func buttonAtPoint(point: Point, button: ChromeButton?) {
        #expect(ChromeLayout(viewport: Size(width: 1000, height: 800)).button(at: point) == button)
    }

    /// Wide: a 320-wide card 12 below the bar and 12 from the right, 24 + 22·rows high.
    /// Narrow (under 720): a sheet across the bottom, never above the bar.
    @Test func infoPanel() {
        let wide = ChromeLayout(viewport: Size(width: 1000, height: 800), infoRows: 12)
        #expect(wide.infoPanelIsSide)
        #expect(wide.infoPanel == Rect(x: 668, y: 56, width: 320, height: 288))
        let narrow = ChromeLayout(viewport: Size(width: 719, height: 800), infoRows: 12)
        #expect(!narrow.infoPanelIsSide)
        #expect(narrow.infoPanel == Rect(x: 0, y: 512, width: 719, height: 288))
        let short = ChromeLayout(viewport: Size(width: 320, height: 200), infoRows: 12)
        #expect(short.infoPanel == Rect(x: 0, y: 44, width: 320, height: 156))
    }
}
