import RiffleGeometry
@testable import RiffleRaster
import RiffleTestSupport
import Testing

/// `LanczosResampler` against `ReferenceLanczos`, the formula evaluated in doubles.
///
/// Tolerance: 1 per channel. The resampler's single-precision weights and sums are within about
/// 10⁻⁴ of the exact value (relative error 2⁻²⁴ per operation over a few dozen taps of values up
/// to 255), so only a value within that of a rounding boundary can round the other way; its
/// ties go to even, the reference's away from zero.
@Suite struct LanczosResampleTests {
    static let tolerance = 1

    @Test(arguments: [(7, 3), (10, 10), (3000, 1200), (5, 1), (9, 4), (4000, 800), (101, 100)])
    func weightsAreTheNormalisedKernel(m: Int, n: Int) {
        let taps = LanczosResample.weights(from: m, to: n)
        #expect(taps.count == n)
        for (i, t) in taps.enumerated() {
            #expect(abs(t.weights.reduce(0, +) - 1) < 1e-5, "\(m) to \(n), output \(i)")
            let reference = ReferenceLanczos.weights(output: i, from: m, to: n)
            // Equal sizes take each pixel whole; otherwise the same taps, up to a zero weight
            // where a source centre lies exactly on the support's edge.
            if m == n {
                #expect(t.first == i && t.weights == [1])
                continue
            }
            for (s, w) in reference {
                let k = s - t.first
                let got = t.weights.indices.contains(k) ? Double(t.weights[k]) : 0
                #expect(abs(got - w) < 1e-6, "\(m) to \(n), output \(i), source \(s): \(got) vs \(w)")
            }
            #expect(t.first >= 0 && t.first + t.weights.count <= m)
        }
    }

    @Test func kernelIsSincTimesTheWiderSinc() {
        for x in stride(from: -3.5, through: 3.5, by: 0.125) {
            #expect(abs(LanczosResample.kernel(x) - ReferenceLanczos.kernel(x)) < 1e-12, "L(\(x))")
        }
        #expect(LanczosResample.kernel(0) == 1)
        #expect(abs(LanczosResample.kernel(1)) < 1e-12 && abs(LanczosResample.kernel(2)) < 1e-12)
    }

    @Test func flatColourStaysFlat() {
        let src = PixelBuffer(width: 97, height: 53)
        src.fill(Color(packed: 0x80_40_20_10))
        let out = DownscaleFilter.lanczos3.shrink(src, to: PixelSize(width: 23, height: 9))
        for y in 0..<9 { for x in 0..<23 { #expect(out[x, y] == 0x8040_2010) } }
    }

    /// Random premultiplied pictures, opaque and not, to random smaller sizes, rows pushed one
    /// at a time; every output within `tolerance` of the formula.
    @Test(arguments: 0..<8)
    func matchesTheReference(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed))
        let sw = Int.random(in: 2...90, using: &rng), sh = Int.random(in: 2...70, using: &rng)
        let dw = Int.random(in: 1...sw, using: &rng), dh = Int.random(in: 1...sh, using: &rng)
        let src = randomImage(sw, sh, opaque: seed % 2 == 0, using: &rng)
        let out = Self.streamed(src, to: PixelSize(width: dw, height: dh))
        let reference = ReferenceLanczos.resample(src, toWidth: dw, height: dh)
        #expect(maxChannelDifference(out, reference) <= Self.tolerance, "seed \(seed): \(sw)x\(sh) to \(dw)x\(dh)")
        #expect(Self.isPremultiplied(out), "seed \(seed)")
    }

    /// Reductions the viewer makes (2 to 5 times, one side kept) and ones with many taps a row,
    /// where the ring of resampled rows wraps many times.
    @Test(arguments: [(240, 160, 120, 80), (301, 200, 60, 40), (250, 180, 100, 72), (200, 150, 200, 41), (180, 120, 37, 120)])
    func matchesTheReferenceAtViewerReductions(sw: Int, sh: Int, dw: Int, dh: Int) {
        var rng = SeededGenerator(seed: UInt64(sw * 1000 + dw))
        let src = randomImage(sw, sh, opaque: false, using: &rng)
        let out = Self.streamed(src, to: PixelSize(width: dw, height: dh))
        #expect(maxChannelDifference(out, ReferenceLanczos.resample(src, toWidth: dw, height: dh)) <= Self.tolerance)
    }

    /// Hard edges ring: beside a bright opaque block on a transparent ground the negative lobes
    /// undershoot below 0 and the positive ones overshoot above 255 and above alpha; every
    /// result is clamped back into valid premultiplied BGRA, as the reference is.
    @Test func ringingIsClampedToValidPremultipliedPixels() {
        let src = PixelBuffer(width: 64, height: 48)
        for y in 0..<48 {
            for x in 0..<64 {
                let inBlock = (16..<40).contains(x) && (12..<30).contains(y)
                // White opaque block; beside it transparent, then a dark opaque band.
                src[x, y] = inBlock ? 0xFFFF_FFFF : (x >= 48 ? 0xFF10_1010 : 0)
            }
        }
        let out = Self.streamed(src, to: PixelSize(width: 25, height: 19))
        #expect(Self.isPremultiplied(out))
        #expect(maxChannelDifference(out, ReferenceLanczos.resample(src, toWidth: 25, height: 19)) <= Self.tolerance)
        // The overshoot is there to clamp: a white block's inside stays at full white.
        #expect(out[11, 8] == 0xFFFF_FFFF)
    }

    @Test func equalSizesCopyRowsThrough() {
        var rng = SeededGenerator(seed: 9)
        let src = randomImage(31, 17, opaque: false, using: &rng)
        var resampler = LanczosResampler(from: src.size, to: src.size)
        for y in 0..<src.height {
            #expect(!resampler.isComplete)
            resampler.push(src.row(y))
        }
        #expect(resampler.isComplete)
        #expect(maxChannelDifference(resampler.result, src) == 0)
    }

    /// The resampler fed `src` a row at a time, complete exactly after the last.
    static func streamed(_ src: PixelBuffer, to size: PixelSize) -> PixelBuffer {
        var resampler = LanczosResampler(from: src.size, to: size)
        for y in 0..<src.height {
            #expect(!resampler.isComplete)
            resampler.push(src.row(y))
        }
        #expect(resampler.isComplete)
        return resampler.result
    }

    /// True when no colour channel of any pixel exceeds its alpha.
    static func isPremultiplied(_ b: PixelBuffer) -> Bool {
        for y in 0..<b.height {
            for x in 0..<b.width {
                let p = b[x, y], a = p >> 24
                if p & 0xFF > a || (p >> 8) & 0xFF > a || (p >> 16) & 0xFF > a { return false }
            }
        }
        return true
    }
}
