import RiffleGeometry
@testable import RiffleRaster
import RiffleTestSupport
import Testing

/// `ExactDoubling` is within 1 of the reference per channel (tighter than the other fast paths'
/// `fastPathTolerance`): each of its two 3:1 blends is off the exact (3n + f)/4 by less than
/// half a step, in opposite directions.
let doublingTolerance = 1

/// A source drawn at 2× with its corner on a whole pixel, both ways, over the same background:
/// (reference, fast).
func drawnDoubled(_ src: PixelBuffer, dx: Int, dy: Int, clip: PixelRect, size: PixelSize) -> (PixelBuffer, PixelBuffer) {
    let mapping = ImageMapping(scaleX: 2, scaleY: 2, offsetX: Double(dx), offsetY: Double(dy))
    let reference = PixelBuffer(width: size.width, height: size.height), fast = reference.copy()
    ReferenceBilinear.draw(src, mapping: mapping, opacity: 1, clip: clip, into: reference)
    FastBilinear.draw(src, mapping: mapping, opaque: true, opacity: 1, clip: clip, rows: 0..<size.height, into: fast)
    return (reference, fast)
}

@Suite struct ExactDoublingTests {
    /// Every pair of channel values: the byte averages round as named, and each 3:1 blend stays
    /// on its side of (3n + f)/4: threeToOne in [−1/4, +1/2], oneToThree in [−1/2, +1/4].
    @Test func blendsOfEveryChannelPairRoundAsDocumented() {
        for n in 0...255 {
            for f0 in stride(from: 0, to: 256, by: 16) {
                let nv = ExactDoubling.Channels(repeating: UInt8(n))
                var fv = ExactDoubling.Channels()
                for i in 0..<16 { fv[i] = UInt8(f0 + i) }
                let ceiling = ExactDoubling.ceilingAverage(nv, fv), floor = ExactDoubling.floorAverage(nv, fv)
                let three = ExactDoubling.threeToOne(nv, fv), one = ExactDoubling.oneToThree(nv, fv)
                for i in 0..<16 {
                    let f = f0 + i
                    #expect(Int(ceiling[i]) == (n + f + 1) / 2 && Int(floor[i]) == (n + f) / 2, "averages of \(n), \(f)")
                    let exact = Double(3 * n + f) / 4
                    #expect(Double(three[i]) - exact >= -0.25 && Double(three[i]) - exact <= 0.5, "threeToOne(\(n), \(f)) = \(three[i])")
                    #expect(Double(one[i]) - exact >= -0.5 && Double(one[i]) - exact <= 0.25, "oneToThree(\(n), \(f)) = \(one[i])")
                }
            }
        }
    }

    /// Exactly 2× at whole-pixel offsets of an opaque source at full opacity takes the doubling
    /// path; a half-pixel offset, a scale a little off 2, a translucent source or an opacity
    /// below 1 do not.
    @Test func onlyWholePixelDoublingsOfOpaqueImagesTakeThePath() {
        var rng = SeededGenerator(seed: 3)
        let src = randomImage(10, 8, opaque: true, using: &rng)
        let clip = PixelRect(minX: 0, minY: 0, maxX: 64, maxY: 48)
        func takesPath(_ m: ImageMapping, opaque: Bool = true, opacity: Double = 1) -> Bool {
            guard let plan = BilinearPlan(src, mapping: m, opaque: opaque, opacity: opacity, clip: clip) else { return false }
            if case .doubling = plan.method { return true }
            return false
        }
        #expect(takesPath(ImageMapping(scaleX: 2, scaleY: 2, offsetX: 3, offsetY: -5)))
        #expect(takesPath(ImageMapping(scaleX: 2 + 1e-6, scaleY: 2, offsetX: 3 + 1e-5, offsetY: 0)))
        #expect(!takesPath(ImageMapping(scaleX: 2, scaleY: 2, offsetX: 3.5, offsetY: 0)))
        #expect(!takesPath(ImageMapping(scaleX: 2.01, scaleY: 2.01, offsetX: 3, offsetY: 0)))
        #expect(!takesPath(ImageMapping(scaleX: 2, scaleY: 2, offsetX: 3, offsetY: 0), opaque: false))
        #expect(!takesPath(ImageMapping(scaleX: 2, scaleY: 2, offsetX: 3, offsetY: 0), opacity: 0.5))
    }

    /// Sources from one pixel to wider than a few vector groups, at offsets and clips that start
    /// the drawn columns on either phase, cut the source at either side, or leave it partly
    /// outside the target: within `doublingTolerance` of the reference everywhere, and nothing
    /// drawn outside the doubled frame.
    @Test(arguments: 0..<48)
    func matchesTheReference(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(500 + seed))
        let src = randomImage(Int.random(in: 1...23, using: &rng), Int.random(in: 1...17, using: &rng), opaque: true, using: &rng)
        let dx = Int.random(in: -20...40, using: &rng), dy = Int.random(in: -15...30, using: &rng)
        let x0 = Int.random(in: 0...30, using: &rng), y0 = Int.random(in: 0...20, using: &rng)
        let clip = PixelRect(minX: x0, minY: y0, maxX: Int.random(in: x0...64, using: &rng), maxY: Int.random(in: y0...48, using: &rng))
        let (reference, fast) = drawnDoubled(src, dx: dx, dy: dy, clip: clip, size: PixelSize(width: 64, height: 48))
        #expect(maxChannelDifference(reference, fast) <= doublingTolerance, "seed \(500 + seed): \(src.size) at (\(dx), \(dy)), clip \(clip)")
    }

    /// Over a large random photo the small errors cancel: the mean signed difference from the
    /// reference is under 0.1 of a step (the rounding analysis gives −0.03), so a zoomed photo is
    /// neither darkened nor lightened.
    @Test func errorsAreUnbiased() {
        var rng = SeededGenerator(seed: 17)
        let src = randomImage(100, 80, opaque: true, using: &rng)
        let size = PixelSize(width: 200, height: 160)
        let (reference, fast) = drawnDoubled(src, dx: 0, dy: 0, clip: PixelRect(size: size), size: size)
        var sum = 0, count = 0
        for y in 0..<size.height {
            for x in 0..<size.width {
                for s: UInt32 in [0, 8, 16] {
                    sum += Int((fast[x, y] >> s) & 0xFF) - Int((reference[x, y] >> s) & 0xFF)
                    count += 1
                }
            }
        }
        let bias = Double(sum) / Double(count)
        #expect(abs(bias) < 0.1, "mean difference \(bias)")
    }

    /// Bands cut anywhere (even and odd rows, single rows) give the one-draw result exactly:
    /// each band doubles its own source rows.
    @Test func rowBandsTogetherEqualOneDraw() {
        var rng = SeededGenerator(seed: 23)
        let src = randomImage(21, 14, opaque: true, using: &rng)
        let mapping = ImageMapping(scaleX: 2, scaleY: 2, offsetX: -3, offsetY: 1)
        let whole = PixelBuffer(width: 40, height: 30), banded = PixelBuffer(width: 40, height: 30)
        let clip = PixelRect(minX: 1, minY: 0, maxX: 39, maxY: 30)
        FastBilinear.draw(src, mapping: mapping, opaque: true, opacity: 1, clip: clip, rows: 0..<30, into: whole)
        for band in [0..<5, 5..<6, 6..<13, 13..<30] {
            FastBilinear.draw(src, mapping: mapping, opaque: true, opacity: 1, clip: clip, rows: band, into: banded)
        }
        #expect(maxChannelDifference(whole, banded) == 0)
    }
}
