import RiffleGeometry
@testable import RiffleRaster
import RiffleTestSupport
import Testing

/// Deep zoom draws image pixels as crisp squares: nearest-neighbour from `nearestScale` on.
@Suite struct NearestSamplingTests {
    /// A 3×2 image of six distinct opaque colours.
    static func mosaic() -> PixelBuffer {
        let image = PixelBuffer(width: 3, height: 2)
        let colours: [UInt32] = [0xFF10_2030, 0xFFF0_1020, 0xFF20_F010, 0xFF00_00FF, 0xFFFF_FFFF, 0xFF80_4000]
        for (k, c) in colours.enumerated() { image[k % 3, k / 3] = c }
        return image
    }

    @Test func theFilterSwitchesAtThreeScreenPixelsPerImagePixel() {
        #expect(SamplingFilter.forScale(x: 3, y: 3) == .nearest)
        #expect(SamplingFilter.forScale(x: 8, y: 12) == .nearest)
        #expect(SamplingFilter.forScale(x: 2.999, y: 8) == .bilinear)
        #expect(SamplingFilter.forScale(x: 1, y: 1) == .bilinear)
    }

    @Test func nearestWeightsSnapAtTheMidpoint() {
        #expect(SamplingFilter.nearest.secondWeight(0) == 0)
        #expect(SamplingFilter.nearest.secondWeight(0.499_999) == 0)
        #expect(SamplingFilter.nearest.secondWeight(0.5) == 1)
        #expect(SamplingFilter.bilinear.secondWeight(0.3) == 0.3)
    }

    // At 5× from (7, 3) every image pixel (x, y) fills exactly the 5×5 block at
    // (7 + 5x, 3 + 5y): dest centre 7 + 5x + k + 0.5 maps to x + (k + 0.5)/5, inside pixel x.
    @Test(arguments: [RasterPath.reference, .fast])
    func atFiveTimesEachPixelIsASquareBlock(path: RasterPath) {
        let image = Self.mosaic()
        let target = PixelBuffer(width: 30, height: 16)
        target.fill(.black)
        let layer = Layer(
            transform: ScaleTranslate(scale: 5, offset: Point(x: 7, y: 3)),
            content: .image(ImageContent(pixels: image, size: Size(width: 3, height: 2), isOpaque: true)))
        Compositor(path: path).render(layer, into: target)
        for y in 0..<16 {
            for x in 0..<30 {
                let inside = (7..<22).contains(x) && (3..<13).contains(y)
                let want = inside ? image[(x - 7) / 5, (y - 3) / 5] : Color.black.packed
                #expect(target[x, y] == want, "\(path) (\(x), \(y))")
            }
        }
    }

    // Below the threshold the boundary between two pixels is a ramp of blends.
    @Test func belowThreeTimesPixelsBlend() {
        let image = Self.mosaic()
        let target = PixelBuffer(width: 9, height: 6)
        let layer = Layer(
            transform: ScaleTranslate(scale: 2.9),
            content: .image(ImageContent(pixels: image, size: Size(width: 3, height: 2), isOpaque: true)))
        Compositor().render(layer, into: target)
        let row = (0..<8).map { target[$0, 1] }
        #expect(row.contains { !Set([image[0, 0], image[1, 0], image[2, 0]]).contains($0) }, "\(row)")
    }

    // The fast path's nearest equals the reference's exactly at random deep zooms (seeded).
    @Test(arguments: [1, 7, 42] as [UInt64])
    func fastNearestEqualsTheReference(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let image = PixelBuffer(width: 13, height: 9)
        for y in 0..<9 { for x in 0..<13 { image[x, y] = 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &generator) } }
        for _ in 0..<20 {
            let scale = Double.random(in: 3...20, using: &generator)
            let offset = Point(x: Double.random(in: -60...20, using: &generator), y: Double.random(in: -40...20, using: &generator))
            let layer = Layer(
                transform: ScaleTranslate(scale: scale, offset: offset),
                content: .image(ImageContent(pixels: image, size: Size(width: 13, height: 9), isOpaque: true)))
            let fast = PixelBuffer(width: 64, height: 48), reference = PixelBuffer(width: 64, height: 48)
            Compositor(path: .fast).render(layer, into: fast)
            Compositor(path: .reference).render(layer, into: reference)
            #expect(ImageDifference(fast, reference, tolerance: 0).maxChannel == 0, "seed \(seed): scale \(scale) offset \(offset)")
        }
    }
}

extension NearestSamplingTests {
    // A preview (an 8× smaller copy) stretched over its photo's size at fit is magnified 8×, yet
    // its pixels are not the photo's: it stays smooth.
    @Test func aReducedCopyIsDrawnSmoothAtAnyScale() {
        let preview = Self.mosaic()
        let target = PixelBuffer(width: 24, height: 16)
        let layer = Layer(content: .image(ImageContent(pixels: preview, size: Size(width: 24, height: 16), isOpaque: true)))
        Compositor().render(layer, into: target)
        let row = (0..<24).map { target[$0, 3] }
        #expect(row.contains { !Set([preview[0, 0], preview[1, 0], preview[2, 0]]).contains($0) }, "blended, not blocks")
    }
}

/// Where a file that ends early is missing its part, in the upright picture.
@Suite struct MissingSideTests {
    // TIFF 6.0 names each orientation by the visual sides of the stored 0th row and column; the
    // last rows lie opposite the 0th row's side.
    @Test(arguments: [
        (ImageOrientation.topLeft, PictureSide.bottom), (.topRight, .bottom), (.bottomRight, .top), (.bottomLeft, .top),
        (.leftTop, .right), (.rightTop, .left), (.rightBottom, .left), (.leftBottom, .right),
    ])
    func lastStoredRowsSide(orientation: ImageOrientation, side: PictureSide) {
        #expect(orientation.sideOfLastStoredRows == side)
    }
}
