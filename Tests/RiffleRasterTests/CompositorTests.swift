import RiffleGeometry
@testable import RiffleRaster
import RiffleTestSupport
import Testing

@Suite struct CompositorTests {
    @Test func sourceOverBlendsPremultipliedPixels() {
        // 50 % white over opaque black is mid grey; transparent over anything leaves it.
        #expect(PixelBlend.over(0x8080_8080, 0xFF00_0000) == 0xFF80_8080)
        #expect(PixelBlend.over(0, 0xFF12_3456) == 0xFF12_3456)
        #expect(PixelBlend.over(0xFF01_0203, 0xFFFF_FFFF) == 0xFF01_0203)
        // x · a / 255 rounds to nearest for every x and a.
        for x: UInt32 in stride(from: 0, through: 255, by: 15) {
            for a: UInt32 in stride(from: 0, through: 255, by: 17) {
                let want = UInt32((Double(x * a) / 255).rounded())
                #expect(PixelBlend.scale(x, by: a) == want)
            }
        }
    }

    @Test func clipAndTransformsCompose() {
        let target = PixelBuffer(width: 20, height: 10)
        let red = Color(red: 255, green: 0, blue: 0)
        // A page at x = 10 clipped to its 5×10 bounds holds a fill 8 units wide at scale 1.
        let page = Layer(
            transform: ScaleTranslate(offset: Point(x: 10, y: 0)), clip: Rect(x: 0, y: 0, width: 5, height: 10),
            content: .fill(Rect(x: 1, y: 2, width: 8, height: 3), red))
        Compositor().render(Layer(content: .fill(Rect(x: 0, y: 0, width: 20, height: 10), .black), sublayers: [page]), into: target)
        for y in 0..<10 {
            for x in 0..<20 {
                let inside = x >= 11 && x < 15 && y >= 2 && y < 5
                #expect(target[x, y] == (inside ? red.packed : Color.black.packed), "(\(x), \(y))")
            }
        }
    }

    @Test func opacityMultipliesDownTheTree() {
        let target = PixelBuffer(width: 4, height: 4)
        target.fill(.black)
        let child = Layer(opacity: 0.5, content: .fill(Rect(x: 0, y: 0, width: 4, height: 4), .white))
        Compositor().render(Layer(opacity: 0.5, sublayers: [child]), into: target)
        // White at 25 % over black: 0.25 · 255 = 63.75 → 64.
        #expect(target[2, 2] == 0xFF40_4040)
    }

    @Test func textMaskIsFilledWithItsColour() {
        var mask = AlphaMask(width: 3, height: 1)
        mask[0, 0] = 0
        mask[1, 0] = 128
        mask[2, 0] = 255
        let target = PixelBuffer(width: 5, height: 2)
        target.fill(.black)
        Compositor().render(Layer(content: .text(mask, origin: Point(x: 1, y: 1), color: .white)), into: target)
        #expect(target[1, 1] == Color.black.packed)
        #expect(target[2, 1] == 0xFF80_8080)
        #expect(target[3, 1] == Color.white.packed)
        #expect(target[2, 0] == Color.black.packed)
    }

    @Test func imageStretchesOverItsLogicalSize() {
        // A 2×2 buffer standing for a 4×4 photo at scale 1 covers 4×4 window pixels.
        let pixels = PixelBuffer(width: 2, height: 2)
        pixels.fill(.white)
        let target = PixelBuffer(width: 6, height: 6)
        let image = Layer(
            transform: ScaleTranslate(offset: Point(x: 1, y: 1)),
            content: .image(ImageContent(pixels: pixels, size: Size(width: 4, height: 4), isOpaque: true)))
        for path in [RasterPath.reference, .fast] {
            target.fill(.clear)
            Compositor(path: path).render(image, into: target)
            for y in 0..<6 {
                for x in 0..<6 {
                    let inside = (1..<5).contains(x) && (1..<5).contains(y)
                    #expect(target[x, y] == (inside ? Color.white.packed : 0), "\(path) (\(x), \(y))")
                }
            }
        }
    }

    @Test func parallelBandsEqualOneBand() {
        var rng = SeededGenerator(seed: 3)
        let photo = randomImage(37, 23, opaque: true, using: &rng)
        let tree = Layer(
            content: .fill(Rect(x: 0, y: 0, width: 64, height: 48), .black),
            sublayers: [Layer(transform: ScaleTranslate(scale: 1.37, offset: Point(x: 3.3, y: 2.2)),
                              content: .image(ImageContent(pixels: photo, isOpaque: true)))])
        let one = PixelBuffer(width: 64, height: 48), many = PixelBuffer(width: 64, height: 48)
        Compositor().render(tree, into: one)
        let sequential: Compositor.ParallelRunner = { n, job in for k in 0..<n { job(k) } }
        Compositor(path: .fast, parallel: sequential, bands: 5).render(tree, into: many)
        #expect(maxChannelDifference(one, many) == 0)
    }
}

@Suite struct MipLevelTests {
    /// Drawn at 0.3 of its size, a picture with levels is sampled from its half-size level (scale
    /// 0.6): the frame equals drawing that level alone, not the full-size pixels.
    @Test func belowHalfScaleTheHalvedLevelIsSampled() {
        var rng = SeededGenerator(seed: 21)
        let full = randomImage(200, 100, opaque: true, using: &rng)
        let half = BoxDownsample.halved(full), quarter = BoxDownsample.halved(half)
        let content = ImageContent(pixels: full, size: Size(width: 200, height: 100), isOpaque: true, smaller: [half, quarter])
        #expect(content.level(forFrameWidth: 60) === half)
        #expect(content.level(forFrameWidth: 120) === full)
        #expect(content.level(forFrameWidth: 20) === quarter)
        let transform = ScaleTranslate(scale: 0.3, offset: Point(x: 2, y: 3))
        let withLevels = PixelBuffer(width: 70, height: 40), fromHalf = PixelBuffer(width: 70, height: 40)
        Compositor().render(Layer(transform: transform, content: .image(content)), into: withLevels)
        Compositor().render(Layer(transform: transform, content: .image(ImageContent(pixels: half, size: Size(width: 200, height: 100), isOpaque: true))), into: fromHalf)
        #expect(maxChannelDifference(withLevels, fromHalf) == 0)
    }
}
