import RiffleGeometry

/// The fast path for an image turned by an angle between quarter turns (a photo while it turns),
/// which must match `ReferenceBilinear.drawTurned` within the raster tests' tolerance.
///
/// Each pixel finds its sample where the reference does (`TurnedMapping.sourcePoint`, the same
/// double-precision expression, so both draw exactly the same pixels along the turned edges) but
/// blends its four taps in integers, the four channels of a pixel side by side: weights are
/// fractions of 4096 (12 bits), so
///
///     top = a·wx0 + b·wx1,  bottom = c·wx0 + d·wx1       (≤ 255 · 4096)
///     v   = top·wy0 + bottom·wy1                         (≤ 255 · 4096², below 2³²)
///     out = (v + 2²³) >> 24
///
/// with wx0 + wx1 = 4096 and wy0 + wy1 = opacity · 4096. Each weight is within 1/8192 of its
/// exact value, which moves a channel by at most 255/8192 ≈ 0.03 per weight, so before the one
/// rounding v is within 0.1 of the exact bilinear value: within 1 of the reference per channel,
/// plus what the source-over blend (the reference's own `PixelBlend.over`) turns that into.
/// Nearest-neighbour runs the same code with every weight 0 or 4096. Rows are independent: the
/// compositor runs this in row bands.
enum TurnedBilinear {
    /// A weight of 1: 2¹² (the products above then fit 32-bit lanes).
    static let weightScale = 4096.0
    /// Half an output step in the 8.24 fixed point of v, for rounding to nearest.
    static let roundingHalf: UInt32 = 1 << 23

    /// Draws `source` turned and placed by `mapping` into `target` within `clip`, rows `band`
    /// only, source-over with `opacity`.
    static func draw(
        _ source: PixelBuffer, mapping: TurnedMapping, filter: SamplingFilter = .bilinear, opaque: Bool, opacity: Double,
        clip: PixelBox, rows band: Range<Int>, into target: PixelBuffer
    ) {
        let box = clip.intersection(PixelBox(covering: mapping.bounds(of: source.size)))
        let rows = (box.y0..<box.y1).clamped(to: band)
        guard !box.isEmpty, !rows.isEmpty, source.width > 0, source.height > 0, opacity > 0 else { return }
        let stores = opaque && opacity >= 1
        let w = Double(source.width), h = Double(source.height)
        let lastX = source.width - 1, lastY = source.height - 1
        let gain = (min(1, opacity) * weightScale).rounded()
        for j in rows {
            let out = target.row(j)
            let y = Double(j) + 0.5
            for i in mapping.candidateColumns(row: j, size: source.size, clip: box.x0..<box.x1) {
                let s = mapping.sourcePoint(Point(x: Double(i) + 0.5, y: y))
                guard s.x >= 0, s.x < w, s.y >= 0, s.y < h else { continue }
                let sx = s.x - 0.5, sy = s.y - 0.5
                let x0f = sx.rounded(.down), y0f = sy.rounded(.down)
                let wx1 = UInt32((filter.secondWeight(sx - x0f) * weightScale).rounded())
                let wy1 = (filter.secondWeight(sy - y0f) * gain).rounded()
                let wx0 = UInt32(weightScale) - wx1, wy0 = UInt32(gain - wy1)
                let x0 = min(max(Int(x0f), 0), lastX), x1 = min(max(Int(x0f) + 1, 0), lastX)
                let upper = source.row(min(max(Int(y0f), 0), lastY)), lower = source.row(min(max(Int(y0f) + 1, 0), lastY))
                let top = channels(upper[x0]) &* wx0 &+ channels(upper[x1]) &* wx1
                let bottom = channels(lower[x0]) &* wx0 &+ channels(lower[x1]) &* wx1
                let v = (top &* wy0 &+ bottom &* UInt32(wy1) &+ roundingHalf) &>> 24
                let pixel = unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: v), to: UInt32.self)
                out[i] = stores ? pixel : PixelBlend.over(pixel, out[i])
            }
        }
    }

    /// The four channels of a packed pixel, one a lane (B, G, R, A in memory order).
    @inline(__always)
    private static func channels(_ pixel: UInt32) -> SIMD4<UInt32> {
        SIMD4<UInt32>(truncatingIfNeeded: unsafeBitCast(pixel, to: SIMD4<UInt8>.self))
    }
}
