/// The two inner loops of `LanczosResampler`, as functions of raw rows: this floor's Swift loops
/// (`reference`), or a faster implementation of the same arithmetic that gives the same floats
/// and pixels bit for bit (the decoders' AVX2 loops, `LanczosKernels.fastest` in RiffleImageIO,
/// `lanczos_avx2.c`). Every sum adds the same single-precision products in the same order:
///
///     across, output x:  sⱼ = Σ_g src(firstₓ + 4g + j) · wₓ(4g + j)  (g in order; j = 0…3)
///                        out(x) = (s₀ + s₁) + (s₂ + s₃)
///     down, output x:    out(x) = pack(Σₖ rowₖ(x) · w(k))  (k in order)
///
/// with `pack` clamping to [0, 255], the colours to at most alpha, and rounding to the nearest
/// integer, ties to even.
public struct LanczosKernels: Sendable {
    /// Across: `row` (the source width's premultiplied BGRA pixels) into the scratch floats (four
    /// a pixel; the zeros past the row's end, up to source width + 4 · groups pixels, are the
    /// caller's), then for each of the `width` outputs x the sum of its `groups` groups of four
    /// taps from source pixel `firsts[x]`, into the output floats at 4x. Output x's groups'
    /// weights are the floats from `weights[8 · groups · x]` on, each group's in `acrossLayout`.
    public typealias Across = @convention(c) (
        _ row: UnsafePointer<UInt32>?, _ sourceWidth: Int, _ scratch: UnsafeMutablePointer<Float>?,
        _ firsts: UnsafePointer<Int>?, _ weights: UnsafePointer<Float>?, _ groups: Int, _ width: Int,
        _ out: UnsafeMutablePointer<Float>?
    ) -> Void
    /// Down: for each of the `width` output pixels x, Σₖ `rows[k][4x…]` · `weights[k]` over the
    /// `taps` rows resampled across, packed into `out[x]`.
    public typealias Down = @convention(c) (
        _ rows: UnsafePointer<UnsafePointer<Float>?>?, _ weights: UnsafePointer<Float>?, _ taps: Int, _ width: Int,
        _ out: UnsafeMutablePointer<UInt32>?
    ) -> Void

    let across: Across
    let down: Down

    /// Functions that stand in for the Swift loops; they must give the same bits.
    public init(across: Across, down: Down) {
        self.across = across
        self.down = down
    }

    /// A group of four taps' weights (w0, w1, w2, w3) as `Across` reads them: (w0, w2, w0, w2),
    /// (w1, w3, w1, w3). They are two 128-bit halves of one 256-bit register, from which one
    /// in-lane permute spreads taps 0 and 1 over their pixels' channels, and another taps 2 and 3.
    static func acrossLayout(_ group: SIMD4<Float>) -> [SIMD4<Float>] {
        [SIMD4(group[0], group[2], group[0], group[2]), SIMD4(group[1], group[3], group[1], group[3])]
    }

    /// The Swift loops, on the x86-64 baseline's 128-bit vectors: one `SIMD4<Float>` a pixel (its
    /// four channels, in the source's byte order), so each tap is one vector multiply and add
    /// whatever the channel. A sum of many taps in one register would wait on each add in turn,
    /// so the work is spread over four independent sums: across, the four taps of a group go to
    /// four sums (zero weights past an output's own taps, reading zeros past the row's end);
    /// down, four output pixels are summed side by side.
    public static let reference = LanczosKernels(
        across: { row, sourceWidth, scratch, firsts, weights, groups, width, out in
            let bytes = UnsafeRawPointer(row!).assumingMemoryBound(to: SIMD4<UInt8>.self)
            let source = UnsafeMutableRawPointer(scratch!).assumingMemoryBound(to: SIMD4<Float>.self)
            for x in 0..<sourceWidth {
                source[x] = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: bytes[x]))
            }
            let output = UnsafeMutableRawPointer(out!).assumingMemoryBound(to: SIMD4<Float>.self)
            var w = UnsafeRawPointer(weights!).assumingMemoryBound(to: SIMD4<Float>.self)
            for x in 0..<width {
                var s0 = SIMD4<Float>.zero, s1 = s0, s2 = s0, s3 = s0
                var p = source + firsts![x]
                for _ in 0..<groups {
                    // (w0, w2, w0, w2), (w1, w3, w1, w3): `acrossLayout`.
                    let even = w[0], odd = w[1]
                    s0 += p[0] * even[0]
                    s1 += p[1] * odd[0]
                    s2 += p[2] * even[1]
                    s3 += p[3] * odd[1]
                    p += 4
                    w += 2
                }
                output[x] = (s0 + s1) + (s2 + s3)
            }
        },
        down: { rows, weights, taps, width, out in
            let slots = UnsafeRawPointer(rows!).assumingMemoryBound(to: UnsafePointer<SIMD4<Float>>.self)
            let weights = weights!, out = out!
            var x = 0
            while x + 4 <= width {
                var s0 = SIMD4<Float>.zero, s1 = s0, s2 = s0, s3 = s0
                for k in 0..<taps {
                    let r = slots[k] + x, w = weights[k]
                    s0 += r[0] * w
                    s1 += r[1] * w
                    s2 += r[2] * w
                    s3 += r[3] * w
                }
                out[x] = pack(s0)
                out[x + 1] = pack(s1)
                out[x + 2] = pack(s2)
                out[x + 3] = pack(s3)
                x += 4
            }
            for x in x..<width {
                var sum = SIMD4<Float>.zero
                for k in 0..<taps { sum += slots[k][x] * weights[k] }
                out[x] = pack(sum)
            }
        })

    /// 1.5 · 2²³: added to a float in [0, 255], it leaves that value rounded to the nearest
    /// integer (ties to even) in the low mantissa bits, one add instead of a rounding call.
    private static let roundingBias = SIMD4<Float>(repeating: 12_582_912)

    /// A pixel's channel sums clamped to [0, 255], colours to at most alpha (lane 3, so the
    /// pixel stays premultiplied), rounded and packed.
    @inline(__always)
    private static func pack(_ sum: SIMD4<Float>) -> UInt32 {
        var v = sum.replacing(with: 0, where: sum .< 0)
        v.replace(with: 255, where: v .> 255)
        let alpha = SIMD4<Float>(repeating: v[3])
        v.replace(with: alpha, where: v .> alpha)
        let c = unsafeBitCast(v + roundingBias, to: SIMD4<UInt32>.self) & 0xFF
        return c[3] << 24 | c[2] << 16 | c[1] << 8 | c[0]
    }
}
