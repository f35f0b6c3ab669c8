import RiffleGeometry

/// The fast path for an image turned by an angle between quarter turns (a photo while it turns),
/// which must match `ReferenceBilinear.drawTurned` within the raster tests' tolerance.
///
/// Each row draws exactly the pixels the reference draws: its first and last are found with
/// `TurnedMapping.sourcePoint`'s double-precision expression, the reference's own test (along a
/// row the source point moves on a line, so the pixels inside the source are one run). Within
/// the run the source point steps by the row's constant increment in 32.32 fixed point, whose
/// error after n steps is at most n · 2⁻³³ px (under 10⁻⁶ px across any window). The four taps
/// are blended in integers, two channels of a pixel in the two 32-bit halves of a 64-bit word
/// (blue and red, green and alpha): weights are fractions of 4096 (12 bits), so
///
///     top = a·wx0 + b·wx1,  bottom = c·wx0 + d·wx1       (≤ 255 · 4096)
///     v   = top·wy0 + bottom·wy1                         (≤ 255 · 4096², a half never carries)
///     out = (v + 2²³) >> 24
///
/// with wx0 + wx1 = 4096 and wy0 + wy1 = opacity · 4096 (rounded half up). Each weight is within
/// 1/8192 of its exact value (and the stepping's error), which moves a channel by at most
/// 255/8192 ≈ 0.03 per weight, so before the one rounding v is within 0.1 of the exact bilinear
/// value: within 1 of the reference per channel, plus what the source-over blend (the
/// reference's own `PixelBlend.over`) turns that into.
/// Nearest-neighbour runs the same code with every weight 0 or 4096. Rows are independent: the
/// compositor runs this in row bands.
enum TurnedBilinear {
    /// A weight of 1: 2¹² (the products above then fit 32-bit lanes).
    static let weightScale = 4096.0
    /// Half an output step in the 8.24 fixed point of v, for rounding to nearest.
    static let roundingHalf: UInt32 = 1 << 23
    /// One source pixel in the 32.32 fixed point the source point steps in.
    static let unit = 4_294_967_296.0

    /// Draws `source` turned and placed by `mapping` into `target` within `clip`, rows `band`
    /// only, source-over with `opacity`.
    static func draw(
        _ source: PixelBuffer, mapping: TurnedMapping, filter: SamplingFilter = .bilinear, opaque: Bool, opacity: Double,
        clip: PixelRect, rows band: Range<Int>, into target: PixelBuffer
    ) {
        let box = clip.clipped(to: PixelRect(covering: mapping.bounds(of: source.size)))
        let rows = box.rows.clamped(to: band)
        guard !box.isEmpty, !rows.isEmpty, source.width > 0, source.height > 0, opacity > 0 else { return }
        let stores = opaque && opacity >= 1
        let w = Double(source.width), h = Double(source.height)
        let lastX = source.width - 1, lastY = source.height - 1
        let gain = UInt64((min(1, opacity) * weightScale).rounded())
        let bilinear = filter == .bilinear
        let pixels = source.pixels, stride = source.rowPixels
        func inside(_ i: Int, _ y: Double) -> Bool {
            let s = mapping.source(x: Double(i) + 0.5, y: y)
            return s.x >= 0 && s.x < w && s.y >= 0 && s.y < h
        }
        // The source point's step along a row, one destination pixel to the right.
        let origin = mapping.source(x: 0, y: 0), next = mapping.source(x: 1, y: 0)
        let stepX = Int64(((next.x - origin.x) * unit).rounded()), stepY = Int64(((next.y - origin.y) * unit).rounded())
        for j in rows {
            let out = target.row(j)
            let y = Double(j) + 0.5
            let candidates = mapping.candidateColumns(row: j, size: source.size, clip: box.columns)
            guard var first = candidates.first, var last = candidates.last else { continue }
            while first <= last, !inside(first, y) { first += 1 }
            while last > first, !inside(last, y) { last -= 1 }
            guard first <= last, inside(first, y) else { continue }
            // The sample at s − 0.5 lies between taps ⌊s − 0.5⌋ and the one after: s + 0.5 is
            // positive inside the source, so its integer part is the second tap.
            let start = mapping.source(x: Double(first) + 0.5, y: y)
            var sx = Int64(((start.x + 0.5) * unit).rounded()), sy = Int64(((start.y + 0.5) * unit).rounded())
            for i in first...last {
                let x1i = Int(sx >> 32), y1i = Int(sy >> 32)
                let fx = UInt64(UInt32(truncatingIfNeeded: sx)), fy = UInt64(UInt32(truncatingIfNeeded: sy))
                sx &+= stepX
                sy &+= stepY
                // f · 4096 and f · gain rounded to nearest (nearest-neighbour: 0 below f = 1/2).
                let wx1 = bilinear ? (fx + (1 << 19)) >> 20 : (fx >> 31) << 12
                let wy1 = bilinear ? (fy * gain + (1 << 31)) >> 32 : (fy >> 31) * gain
                let wx0 = 4096 - wx1, wy0 = gain - wy1
                let x0 = max(x1i - 1, 0), x1 = min(x1i, lastX)
                let upper = pixels + max(y1i - 1, 0) * stride, lower = pixels + min(y1i, lastY) * stride
                let a = upper[x0], b = upper[x1], c = lower[x0], d = lower[x1]
                let blueRed = blend(blueRed(a), blueRed(b), blueRed(c), blueRed(d), wx0, wx1, wy0, wy1)
                let greenAlpha = blend(greenAlpha(a), greenAlpha(b), greenAlpha(c), greenAlpha(d), wx0, wx1, wy0, wy1)
                let pixel = UInt32(truncatingIfNeeded:
                    (blueRed & 0xFF) | (greenAlpha & 0xFF) << 8 | (blueRed >> 32) << 16 | (greenAlpha >> 32) << 24)
                out[i] = stores ? pixel : PixelBlend.over(pixel, out[i])
            }
        }
    }

    /// Blue and red of a packed pixel in the low and high 32-bit halves of a word.
    @inline(__always)
    private static func blueRed(_ p: UInt32) -> UInt64 { UInt64(p & 0xFF) | UInt64(p & 0xFF_0000) << 16 }

    /// Green and alpha of a packed pixel in the low and high 32-bit halves of a word.
    @inline(__always)
    private static func greenAlpha(_ p: UInt32) -> UInt64 { UInt64((p >> 8) & 0xFF) | UInt64(p >> 24) << 32 }

    /// The four taps (two channels each) weighted and rounded: ((a·wx0 + b·wx1)·wy0 +
    /// (c·wx0 + d·wx1)·wy1 + 2²³) >> 24 in each half.
    @inline(__always)
    private static func blend(
        _ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64, _ wx0: UInt64, _ wx1: UInt64, _ wy0: UInt64, _ wy1: UInt64
    ) -> UInt64 {
        let top = a &* wx0 &+ b &* wx1, bottom = c &* wx0 &+ d &* wx1
        let v = top &* wy0 &+ bottom &* wy1 &+ (UInt64(roundingHalf) | UInt64(roundingHalf) << 32)
        return (v >> 24) & 0xFF | ((v >> 56) & 0xFF) << 32
    }
}
