import RiffleGeometry
@testable import RiffleRaster
import RiffleTestSupport
import Testing

/// Tolerance between the fixed-point path and the double-precision reference, per channel:
/// weights are quantised to 1/256, which moves a blend of two values at most 255/512 ≈ 0.5 per
/// axis, so two axes and the final rounding stay within 2.
let fastPathTolerance = 2

func randomImage(_ w: Int, _ h: Int, opaque: Bool, using rng: inout SeededGenerator) -> PixelBuffer {
    let b = PixelBuffer(width: w, height: h)
    for y in 0..<h {
        for x in 0..<w {
            let a = opaque ? 255 : UInt32.random(in: 0...255, using: &rng)
            func c() -> UInt32 { UInt32.random(in: 0...a, using: &rng) }
            b[x, y] = a << 24 | c() << 16 | c() << 8 | c()
        }
    }
    return b
}

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
        ReferenceBilinear.draw(src, mapping: mapping, opacity: 1, clip: PixelBox(size: dst.size), into: dst)
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
        let clip = PixelBox(x0: 3, y0: 2, x1: 60, y1: 45)
        ReferenceBilinear.draw(src, mapping: mapping, opacity: opacity, clip: clip, into: reference)
        FastBilinear.draw(src, mapping: mapping, opaque: opaque, opacity: opacity, clip: clip, rows: 0..<48, into: fast)
        #expect(maxChannelDifference(reference, fast) <= fastPathTolerance, "seed \(seed), mapping \(mapping)")
    }

    @Test func integerTranslationIsAnExactCopy() {
        var rng = SeededGenerator(seed: 99)
        let src = randomImage(20, 10, opaque: true, using: &rng)
        let dst = PixelBuffer(width: 30, height: 20)
        let mapping = ImageMapping(scaleX: 1, scaleY: 1, offsetX: 5, offsetY: -3)
        #expect(mapping.isIntegerTranslation(for: src.size))
        FastBilinear.draw(src, mapping: mapping, opaque: true, opacity: 1, clip: PixelBox(size: dst.size), rows: 0..<20, into: dst)
        for y in 0..<7 {
            for x in 5..<25 { #expect(dst[x, y] == src[x - 5, y + 3]) }
        }
        #expect(dst[4, 0] == 0 && dst[25, 0] == 0 && dst[10, 7] == 0)
    }

    @Test func rowBandsTogetherEqualOneDraw() {
        var rng = SeededGenerator(seed: 5)
        let src = randomImage(17, 9, opaque: false, using: &rng)
        let mapping = ImageMapping(scaleX: 3.3, scaleY: 2.1, offsetX: -4, offsetY: 1.7)
        let whole = PixelBuffer(width: 50, height: 25), banded = PixelBuffer(width: 50, height: 25)
        let clip = PixelBox(size: whole.size)
        FastBilinear.draw(src, mapping: mapping, opaque: false, opacity: 1, clip: clip, rows: 0..<25, into: whole)
        for band in [0..<7, 7..<8, 8..<25] {
            FastBilinear.draw(src, mapping: mapping, opaque: false, opacity: 1, clip: clip, rows: band, into: banded)
        }
        #expect(maxChannelDifference(whole, banded) == 0)
    }
}
