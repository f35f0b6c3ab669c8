import RiffleGeometry
@testable import RiffleRaster
import RiffleTestSupport
import Testing

/// Tolerance between the fixed-point path and the double-precision reference, per channel:
/// weights are quantised to 1/256, which moves a blend of two values at most 255/512 ≈ 0.5 per
/// axis, so two axes and the final rounding stay within 2.
let fastPathTolerance = 2

func maxChannelDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
    precondition(a.size == b.size)
    var worst = 0
    for y in 0..<a.height {
        for x in 0..<a.width {
            for s: UInt32 in [0, 8, 16, 24] {
                worst = max(worst, abs(Int((a[x, y] >> s) & 0xFF) - Int((b[x, y] >> s) & 0xFF)))
            }
        }
    }
    return worst
}

/// The bilinear formula evaluated independently of the sampler code: the value of channel
/// `shift` at destination pixel (i, j) for a source mapped by `m`.
func expectedBilinear(_ src: PixelBuffer, _ m: ImageMapping, _ i: Int, _ j: Int, shift: UInt32) -> Double {
    let sx = (Double(i) + 0.5 - m.offsetX) / m.scaleX - 0.5
    let sy = (Double(j) + 0.5 - m.offsetY) / m.scaleY - 0.5
    let x0 = Int(sx.rounded(.down)), y0 = Int(sy.rounded(.down))
    let fx = sx - Double(x0), fy = sy - Double(y0)
    func v(_ x: Int, _ y: Int) -> Double {
        Double((src[min(max(x, 0), src.width - 1), min(max(y, 0), src.height - 1)] >> shift) & 0xFF)
    }
    return (v(x0, y0) * (1 - fx) + v(x0 + 1, y0) * fx) * (1 - fy) + (v(x0, y0 + 1) * (1 - fx) + v(x0 + 1, y0 + 1) * fx) * fy
}

/// Draws `src` both ways over the same random opaque background and returns the largest channel
/// difference between the reference and the fast path.
func fastVersusReference(
    _ src: PixelBuffer, _ mapping: ImageMapping, opaque: Bool, opacity: Double, clip: PixelRect,
    using rng: inout SeededGenerator
) -> Int {
    let background = randomImage(64, 48, opaque: true, using: &rng)
    let reference = background.copy(), fast = background.copy()
    ReferenceBilinear.draw(src, mapping: mapping, opacity: opacity, clip: clip, into: reference)
    FastBilinear.draw(src, mapping: mapping, opaque: opaque, opacity: opacity, clip: clip, rows: 0..<48, into: fast)
    return maxChannelDifference(reference, fast)
}

/// A source size and mapping that stresses one corner of the fast path.
struct EdgeCase: CustomTestStringConvertible, Sendable {
    let name: String
    let width: Int
    let height: Int
    let mapping: ImageMapping
    var testDescription: String { name }
}

@Suite struct BilinearTests {
    @Test(arguments: [
        ImageMapping(scaleX: 1, scaleY: 1, offsetX: 0, offsetY: 0),
        ImageMapping(scaleX: 2.5, scaleY: 2.5, offsetX: -3.25, offsetY: 1.5),
        ImageMapping(scaleX: 0.61, scaleY: 0.6, offsetX: 2.7, offsetY: 0.1),
        ImageMapping(scaleX: 1, scaleY: 1, offsetX: 0.5, offsetY: -0.25),
    ])
    func referenceMatchesTheFormula(mapping: ImageMapping) {
        var rng = SeededGenerator(seed: 7)
        let src = randomImage(13, 11, opaque: true, using: &rng)
        let dst = PixelBuffer(width: 40, height: 30)
        ReferenceBilinear.draw(src, mapping: mapping, opacity: 1, clip: PixelRect(size: dst.size), into: dst)
        let frame = mapping.frame(of: src.size)
        for j in 0..<dst.height {
            for i in 0..<dst.width {
                let centre = Point(x: Double(i) + 0.5, y: Double(j) + 0.5)
                if !frame.contains(centre) {
                    #expect(dst[i, j] == 0, "pixel (\(i), \(j)) outside the frame was drawn")
                    continue
                }
                for s: UInt32 in [0, 8, 16] {
                    let want = expectedBilinear(src, mapping, i, j, shift: s)
                    let got = Double((dst[i, j] >> s) & 0xFF)
                    // Rounding to 8 bits: at most half a step.
                    #expect(abs(got - want) <= 0.5 + 1e-9, "(\(i), \(j)) channel \(s): \(got) vs \(want)")
                }
            }
        }
    }

    /// A grid cell fading in: 1:1 at whole pixels, translucent or at partial opacity, is the faded
    /// copy, and within the fast path's tolerance of the reference.
    @Test(arguments: 0..<24)
    func fadedCopyMatchesReference(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(500 + seed))
        let opaque = seed % 2 == 0
        let src = randomImage(Int.random(in: 1...50, using: &rng), Int.random(in: 1...40, using: &rng), opaque: opaque, using: &rng)
        let mapping = ImageMapping(
            scaleX: 1, scaleY: 1, offsetX: Double(Int.random(in: -10...30, using: &rng)),
            offsetY: Double(Int.random(in: -10...20, using: &rng)))
        let opacity = opaque || seed % 3 == 0 ? Double.random(in: 0.01..<1, using: &rng) : 1
        let clip = PixelRect(minX: 3, minY: 2, maxX: 60, maxY: 45)
        let plan = BilinearPlan(src, mapping: mapping, opaque: opaque, opacity: opacity, clip: clip)
        if let plan, case .fadedCopy = plan.method {} else if plan != nil { Issue.record("seed \(seed): not a faded copy") }
        let worst = fastVersusReference(src, mapping, opaque: opaque, opacity: opacity, clip: clip, using: &rng)
        #expect(worst <= fastPathTolerance, "seed \(seed), mapping \(mapping), opacity \(opacity)")
    }

    @Test(arguments: 0..<24)
    func fastPathMatchesReference(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed))
        let opaque = seed % 2 == 0
        let src = randomImage(Int.random(in: 1...40, using: &rng), Int.random(in: 1...30, using: &rng), opaque: opaque, using: &rng)
        let mapping = ImageMapping(
            scaleX: Double.random(in: 0.3...4, using: &rng), scaleY: Double.random(in: 0.3...4, using: &rng),
            offsetX: Double.random(in: -20...30, using: &rng), offsetY: Double.random(in: -20...30, using: &rng))
        let opacity = seed % 3 == 0 ? Double.random(in: 0.2...1, using: &rng) : 1
        let background = randomImage(64, 48, opaque: true, using: &rng)
        let reference = background.copy(), fast = background.copy()
        let clip = PixelRect(minX: 3, minY: 2, maxX: 60, maxY: 45)
        ReferenceBilinear.draw(src, mapping: mapping, opacity: opacity, clip: clip, into: reference)
        FastBilinear.draw(src, mapping: mapping, opaque: opaque, opacity: opacity, clip: clip, rows: 0..<48, into: fast)
        #expect(maxChannelDifference(reference, fast) <= fastPathTolerance, "seed \(seed), mapping \(mapping)")
    }

    /// Both fast paths (direct below scale 1, separable from it), tiny sources, partial
    /// coverage and negative offsets, each opaque and translucent, at full and half opacity.
    @Test(arguments: [
        EdgeCase(name: "1x1 upscaled", width: 1, height: 1, mapping: ImageMapping(scaleX: 7.3, scaleY: 5.1, offsetX: 4.2, offsetY: 3.6)),
        EdgeCase(name: "1x1 at 1:1, fractional", width: 1, height: 1, mapping: ImageMapping(scaleX: 1, scaleY: 1, offsetX: 10.5, offsetY: 7.25)),
        EdgeCase(name: "1xN column", width: 1, height: 17, mapping: ImageMapping(scaleX: 3, scaleY: 0.7, offsetX: 5.5, offsetY: 2.2)),
        EdgeCase(name: "Nx1 row", width: 23, height: 1, mapping: ImageMapping(scaleX: 1.9, scaleY: 12, offsetX: -3.1, offsetY: 4.4)),
        EdgeCase(name: "2x2 upscaled", width: 2, height: 2, mapping: ImageMapping(scaleX: 20, scaleY: 15, offsetX: 1.3, offsetY: 0.8)),
        EdgeCase(name: "separable upscale", width: 19, height: 13, mapping: ImageMapping(scaleX: 2.5, scaleY: 2.5, offsetX: 1.25, offsetY: 2.75)),
        EdgeCase(name: "direct downscale", width: 150, height: 130, mapping: ImageMapping(scaleX: 0.37, scaleY: 0.33, offsetX: 2.6, offsetY: 1.1)),
        EdgeCase(name: "strong downscale", width: 300, height: 200, mapping: ImageMapping(scaleX: 0.19, scaleY: 0.21, offsetX: 0.3, offsetY: 0.9)),
        EdgeCase(name: "1:1 at a fractional offset", width: 40, height: 30, mapping: ImageMapping(scaleX: 1, scaleY: 1, offsetX: 3.5, offsetY: 4.75)),
        EdgeCase(name: "negative offsets, partly covered", width: 30, height: 25, mapping: ImageMapping(scaleX: 3.1, scaleY: 2.9, offsetX: -50.4, offsetY: -40.7)),
        EdgeCase(name: "past the bottom right", width: 30, height: 25, mapping: ImageMapping(scaleX: 1.7, scaleY: 1.3, offsetX: 41.2, offsetY: 29.9)),
        EdgeCase(name: "scales differ by axis", width: 33, height: 21, mapping: ImageMapping(scaleX: 0.8, scaleY: 1.6, offsetX: -2.2, offsetY: 0.4)),
    ])
    func fastPathMatchesReferenceInEdgeCases(edge: EdgeCase) {
        for (seed, (opaque, opacity)) in [(true, 1.0), (false, 1.0), (true, 0.5), (false, 0.37)].enumerated() {
            var rng = SeededGenerator(seed: UInt64(100 + seed))
            let src = randomImage(edge.width, edge.height, opaque: opaque, using: &rng)
            let clip = PixelRect(minX: 1, minY: 2, maxX: 61, maxY: 47)
            let worst = fastVersusReference(src, edge.mapping, opaque: opaque, opacity: opacity, clip: clip, using: &rng)
            #expect(worst <= fastPathTolerance, "\(edge.name), seed \(100 + seed), opaque \(opaque), opacity \(opacity)")
        }
    }

    /// Random tiny to medium sources, scales on both sides of the separable threshold, clips
    /// the frame only partly covers.
    @Test(arguments: 0..<64)
    func fastPathMatchesReferenceOnSmallAndClippedDraws(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(1000 + seed))
        let opaque = Bool.random(using: &rng)
        let src = randomImage(Int.random(in: 1...9, using: &rng), Int.random(in: 1...9, using: &rng), opaque: opaque, using: &rng)
        let mapping = ImageMapping(
            scaleX: Double.random(in: 0.5...9, using: &rng), scaleY: Double.random(in: 0.5...9, using: &rng),
            offsetX: Double.random(in: -40...60, using: &rng), offsetY: Double.random(in: -30...45, using: &rng))
        let opacity = Bool.random(using: &rng) ? 1 : Double.random(in: 0.05...1, using: &rng)
        let x0 = Int.random(in: 0...40, using: &rng), y0 = Int.random(in: 0...30, using: &rng)
        let clip = PixelRect(minX: x0, minY: y0, maxX: Int.random(in: x0...64, using: &rng), maxY: Int.random(in: y0...48, using: &rng))
        let worst = fastVersusReference(src, mapping, opaque: opaque, opacity: opacity, clip: clip, using: &rng)
        #expect(worst <= fastPathTolerance, "seed \(1000 + seed), mapping \(mapping), clip \(clip), opacity \(opacity)")
    }

    @Test func integerTranslationIsAnExactCopy() {
        var rng = SeededGenerator(seed: 99)
        let src = randomImage(20, 10, opaque: true, using: &rng)
        let dst = PixelBuffer(width: 30, height: 20)
        let mapping = ImageMapping(scaleX: 1, scaleY: 1, offsetX: 5, offsetY: -3)
        #expect(mapping.isIntegerTranslation(for: src.size))
        FastBilinear.draw(src, mapping: mapping, opaque: true, opacity: 1, clip: PixelRect(size: dst.size), rows: 0..<20, into: dst)
        for y in 0..<7 {
            for x in 5..<25 { #expect(dst[x, y] == src[x - 5, y + 3]) }
        }
        #expect(dst[4, 0] == 0 && dst[25, 0] == 0 && dst[10, 7] == 0)
    }

    /// Bands cut anywhere, through the separable path (which reuses interpolated source rows
    /// across destination rows) and the direct one.
    @Test(arguments: [
        ImageMapping(scaleX: 3.3, scaleY: 2.1, offsetX: -4, offsetY: 1.7),
        ImageMapping(scaleX: 0.9, scaleY: 0.45, offsetX: 2.5, offsetY: -0.3),
    ])
    func rowBandsTogetherEqualOneDraw(mapping: ImageMapping) {
        var rng = SeededGenerator(seed: 5)
        let src = randomImage(17, 60, opaque: false, using: &rng)
        let whole = PixelBuffer(width: 50, height: 25), banded = PixelBuffer(width: 50, height: 25)
        let clip = PixelRect(size: whole.size)
        FastBilinear.draw(src, mapping: mapping, opaque: false, opacity: 1, clip: clip, rows: 0..<25, into: whole)
        for band in [0..<7, 7..<8, 8..<25] {
            FastBilinear.draw(src, mapping: mapping, opaque: false, opacity: 1, clip: clip, rows: band, into: banded)
        }
        #expect(maxChannelDifference(whole, banded) == 0)
    }
}

@Suite struct CopyToleranceTests {
    /// A fit scale rounded in double precision (6000 · s = 1620.0000000000002) with a centring
    /// offset a hair off 150 is still a plain copy, equal to the reference (which samples a
    /// hair from each pixel centre).
    @Test func nearlyWholePixelMappingsAreCopies() {
        var rng = SeededGenerator(seed: 11)
        let src = randomImage(1620, 3, opaque: true, using: &rng)
        let s = 1 + 2e-13
        let mapping = ImageMapping(scaleX: s, scaleY: 1, offsetX: 150 - 1e-10, offsetY: 0)
        #expect(mapping.isIntegerTranslation(for: src.size))
        let fast = PixelBuffer(width: 1920, height: 3), reference = PixelBuffer(width: 1920, height: 3)
        Compositor(path: .fast).render(Layer(content: .image(ImageContent(pixels: src, size: Size(width: 1620 * s, height: 3), isOpaque: true))).withTransform(ScaleTranslate(offset: Point(x: mapping.offsetX, y: 0))), into: fast)
        Compositor(path: .reference).render(Layer(content: .image(ImageContent(pixels: src, size: Size(width: 1620 * s, height: 3), isOpaque: true))).withTransform(ScaleTranslate(offset: Point(x: mapping.offsetX, y: 0))), into: reference)
        #expect(maxChannelDifference(fast, reference) == 0)
        for x in 0..<1620 { #expect(fast[150 + x, 1] == src[x, 1]) }
        #expect(!ImageMapping(scaleX: 1.001, scaleY: 1, offsetX: 0, offsetY: 0).isIntegerTranslation(for: src.size))
        #expect(!ImageMapping(scaleX: 1, scaleY: 1, offsetX: 0.01, offsetY: 0).isIntegerTranslation(for: src.size))
    }
}

extension Layer {
    fileprivate func withTransform(_ t: ScaleTranslate) -> Layer {
        var copy = self
        copy.transform = t
        return copy
    }
}
