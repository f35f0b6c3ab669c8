import RiffleGeometry
import Testing

@Suite struct AspectFitTests {
    @Test(arguments: [
        // content, viewport, scale, frame
        (Size(width: 6000, height: 4000), Size(width: 1280, height: 800), 0.2 as Double, Rect(x: 40, y: 0, width: 1200, height: 800)),
        (Size(width: 2056, height: 3088), Size(width: 1280, height: 800), 800.0 / 3088, Rect(x: (1280 - 2056 * 800.0 / 3088) / 2, y: 0, width: 2056 * 800.0 / 3088, height: 800)),
        (Size(width: 400, height: 300), Size(width: 1280, height: 800), 1.0, Rect(x: 440, y: 250, width: 400, height: 300)),
    ])
    func fitsAndCentresWithoutEnlarging(content: Size, viewport: Size, scale: Double, frame: Rect) {
        #expect(abs(AspectFit.scale(content: content, viewport: viewport) - scale) < 1e-12)
        let f = AspectFit.frame(content: content, viewport: viewport)
        #expect(abs(f.minX - frame.minX) < 1e-9 && abs(f.minY - frame.minY) < 1e-9)
        #expect(abs(f.width - frame.width) < 1e-9 && abs(f.height - frame.height) < 1e-9)
    }

    @Test func transformsComposeInOrder() {
        let page = ScaleTranslate(offset: Point(x: 100, y: 0))
        let zoom = ScaleTranslate(scale: 2, offset: Point(x: -10, y: 5))
        let both = page.concatenating(zoom)
        let p = Point(x: 3, y: 4)
        #expect(both.apply(p) == page.apply(zoom.apply(p)))
        #expect(both.invert(both.apply(p)) == p)
    }
}
