import CRiffleImaging
import RiffleGeometry
import RiffleImageIO
@testable import RiffleRaster
import RiffleTestSupport
import Testing

/// The resampler's AVX2 loops (`lanczos_avx2.c`, `LanczosKernels.fastest`) stand in for its
/// Swift loops in every decode that shrinks with Lanczos-3; they must give the same pixels, bit
/// for bit: at every reduction (so every count of tap groups), at widths that leave each loop's
/// remainder, and for translucent pictures and hard edges whose lobes overshoot both clamps.
@Suite("Lanczos-3 resampler's AVX2 loops")
struct LanczosAVX2Tests {
    static let available = rfi_lanczos_avx2_available() != 0

    /// Random premultiplied pixels (noise: the largest overshoots), from `seed`.
    static func noise(_ width: Int, _ height: Int, opaque: Bool, seed: UInt64) -> PixelBuffer {
        var rng = SeededGenerator(seed: seed)
        return randomImage(width, height, opaque: opaque, using: &rng)
    }

    /// White blocks on black and a smooth ramp beside them: sums past 255 and below 0 at the
    /// edges, values strictly between in the ramp.
    static func edgesAndRamp(_ width: Int, _ height: Int) -> PixelBuffer {
        let picture = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                if x < width / 2 {
                    picture[x, y] = (x / 3 + y / 5) % 2 == 0 ? 0xFFFF_FFFF : 0xFF00_0000
                } else {
                    let v = UInt32((x * 255) / max(1, width - 1)), u = UInt32((y * 255) / max(1, height - 1))
                    picture[x, y] = 0xFF00_0000 | v << 16 | u << 8 | (v ^ u)
                }
            }
        }
        return picture
    }

    /// `source` shrunk to `target` with `kernels`.
    static func shrink(_ source: PixelBuffer, to target: PixelSize, kernels: LanczosKernels) -> PixelBuffer {
        var resampler = LanczosResampler(from: source.size, to: target, kernels: kernels)
        for y in 0..<source.height { resampler.push(source.row(y)) }
        #expect(resampler.isComplete)
        return resampler.result
    }

    /// The two loops' pixels for `source` shrunk to `target` are the same.
    static func expectSamePixels(_ source: PixelBuffer, _ target: PixelSize, _ label: String) {
        let swift = shrink(source, to: target, kernels: .reference)
        let avx2 = shrink(source, to: target, kernels: .fastest)
        var differing = 0
        for y in 0..<target.height {
            for x in 0..<target.width where swift[x, y] != avx2[x, y] { differing += 1 }
        }
        #expect(differing == 0, "\(label): \(differing) pixels differ")
    }

    @Test("The decoders' loops are the AVX2 ones exactly where the CPU has AVX2")
    func fastestIsAVX2WhereAvailable() {
        let fastest = LanczosKernels.fastest, avx2 = LanczosKernels.avx2, reference = LanczosKernels.reference
        let isAVX2 = unsafeBitCast(fastest.across, to: UnsafeRawPointer.self) == unsafeBitCast(avx2.across, to: UnsafeRawPointer.self)
            && unsafeBitCast(fastest.down, to: UnsafeRawPointer.self) == unsafeBitCast(avx2.down, to: UnsafeRawPointer.self)
        let isSwift = unsafeBitCast(fastest.across, to: UnsafeRawPointer.self) == unsafeBitCast(reference.across, to: UnsafeRawPointer.self)
        #expect(isAVX2 == Self.available && isSwift == !Self.available)
    }

    /// The across loop's output floats for `width` outputs of `groups` groups each over a row of
    /// `sourceWidth` random pixels, with random weights (some negative, as the lobes are) and
    /// firsts anywhere the groups stay inside the padded row.
    static func across(_ kernels: LanczosKernels, sourceWidth: Int, groups: Int, width: Int, seed: UInt64) -> [UInt32] {
        var rng = SeededGenerator(seed: seed)
        let row = (0..<sourceWidth).map { _ in UInt32.random(in: 0...UInt32.max, using: &rng) }
        let firsts = (0..<width).map { _ in Int.random(in: 0..<sourceWidth, using: &rng) }
        let weights = (0..<(8 * groups * width)).map { _ in Float.random(in: -0.4...1.1, using: &rng) }
        var scratch = [Float](repeating: 0, count: 4 * (sourceWidth + 4 * groups))
        var out = [Float](repeating: .nan, count: 4 * width)
        kernels.across(row, sourceWidth, &scratch, firsts, weights, groups, width, &out)
        return out.map(\.bitPattern)
    }

    /// The down loop's pixels for `width` outputs over `taps` rows of random floats (beyond both
    /// clamps, and some exactly half-way between two integers) with random weights.
    static func down(_ kernels: LanczosKernels, taps: Int, width: Int, seed: UInt64) -> [UInt32] {
        var rng = SeededGenerator(seed: seed)
        let rows = (0..<taps).map { _ in
            (0..<(4 * width)).map { _ in
                Bool.random(using: &rng) ? Float(Int.random(in: 0...255, using: &rng)) + 0.5 : Float.random(in: -90...400, using: &rng)
            }
        }
        let weights = (0..<taps).map { _ in Float.random(in: -0.3...1, using: &rng) }
        var out = [UInt32](repeating: 0, count: width)
        let pointers = rows.map { row in row.withUnsafeBufferPointer { UnsafePointer<Float>?($0.baseAddress!) } }
        withExtendedLifetime(rows) { kernels.down(pointers, weights, taps, width, &out) }
        return out
    }

    @Test(
        "The same floats across and the same pixels down, loop for loop",
        .enabled(if: available, "this CPU has no AVX2: the decoders use the Swift loops"),
        arguments: [(1, 1), (3, 2), (4, 4), (5, 7), (8, 13), (9, 3), (17, 5), (64, 16)])
    func sameNumbersPerLoop(width: Int, taps: Int) {
        for seed in UInt64(0)..<4 {
            let groups = (taps + 3) / 4
            let swift = Self.across(.reference, sourceWidth: width + 9, groups: groups, width: width, seed: seed)
            let avx2 = Self.across(.avx2, sourceWidth: width + 9, groups: groups, width: width, seed: seed)
            #expect(swift == avx2, "across, \(width) outputs of \(groups) groups, seed \(seed)")
            #expect(Self.down(.reference, taps: taps, width: width, seed: seed) == Self.down(.avx2, taps: taps, width: width, seed: seed),
                    "down, \(width) outputs of \(taps) taps, seed \(seed)")
        }
    }

    @Test(
        "The same pixels at every reduction and at widths that leave each loop's remainder",
        .enabled(if: available, "this CPU has no AVX2: the decoders use the Swift loops"),
        arguments: [
            (61, 47, 55, 43), (64, 40, 32, 20), (97, 33, 42, 14), (233, 101, 100, 44), (300, 200, 17, 11),
            (37, 29, 1, 1), (9, 9, 8, 3), (523, 17, 31, 16), (1000, 8, 59, 7), (45, 45, 44, 44),
        ])
    func samePixels(width: Int, height: Int, targetWidth: Int, targetHeight: Int) {
        let target = PixelSize(width: targetWidth, height: targetHeight)
        Self.expectSamePixels(Self.noise(width, height, opaque: false, seed: UInt64(width * height)), target, "translucent noise \(width)x\(height) to \(target)")
        Self.expectSamePixels(Self.noise(width, height, opaque: true, seed: UInt64(width + height)), target, "opaque noise \(width)x\(height) to \(target)")
        Self.expectSamePixels(Self.edgesAndRamp(width, height), target, "edges and ramp \(width)x\(height) to \(target)")
    }
}
