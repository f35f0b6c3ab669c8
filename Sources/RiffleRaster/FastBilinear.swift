import RiffleGeometry

/// The fast paths of the sampler, which must match `ReferenceBilinear` (see its pixel-centre
/// convention) within the raster tests' tolerance:
///
/// - an exact 1:1 mapping at whole-pixel offsets of an opaque source is a plain row copy;
/// - everything else is fixed-point bilinear: the source positions and weights of every
///   destination column are computed once per draw (not per pixel), weights have 8 fractional
///   bits (0...256), and the four taps are blended with two channels per 64-bit lane pair so
///   the only rounding is the final one (error ≤ 1 per channel from weight quantisation, plus
///   the opacity scaling).
enum FastBilinear {
    /// Fractional bits of a weight: 256 steps between two source pixels.
    static let weightBits = 8
    static let weightOne = 1 << weightBits

    /// Draws `source` mapped by `mapping` into `target` within `clip`, rows `rows` only (so the
    /// caller can split the work in bands), source-over with `opacity`.
    static func draw(
        _ source: PixelBuffer, mapping: ImageMapping, opaque: Bool, opacity: Double, clip: PixelBox,
        rows band: Range<Int>, into target: PixelBuffer
    ) {
        let frame = mapping.frame(of: source.size)
        let cols = coveredPixels(lower: frame.minX, upper: frame.maxX, clipLower: clip.x0, clipUpper: clip.x1)
        let allRows = coveredPixels(lower: frame.minY, upper: frame.maxY, clipLower: clip.y0, clipUpper: clip.y1)
        let rows = allRows.clamped(to: band)
        guard !cols.isEmpty, !rows.isEmpty, source.width > 0, source.height > 0 else { return }
        let alpha = UInt32(max(0, min(255, (opacity * 255).rounded())))
        guard alpha > 0 else { return }

        if mapping.isIntegerTranslation(for: source.size), opaque, alpha == 255 {
            let dx = Int(mapping.offsetX.rounded()), dy = Int(mapping.offsetY.rounded())
            copyRows(
                source, dx: dx, dy: dy, cols: cols.clamped(to: dx..<(dx + source.width)),
                rows: rows.clamped(to: dy..<(dy + source.height)), into: target)
            return
        }

        let columns = ColumnTaps(cols: cols, scale: mapping.scaleX, offset: mapping.offsetX, sourceWidth: source.width)
        let srcH = source.height
        for j in rows {
            let sy = (Double(j) + 0.5 - mapping.offsetY) / mapping.scaleY - 0.5
            let y0f = sy.rounded(.down)
            let wy = UInt64((sy - y0f) * Double(weightOne) + 0.5)
            let y0 = min(max(Int(y0f), 0), srcH - 1), y1 = min(max(Int(y0f) + 1, 0), srcH - 1)
            let top = source.row(y0), bottom = source.row(y1)
            let out = target.row(j)
            let wyInv = UInt64(weightOne) - wy
            columns.taps.withUnsafeBufferPointer { taps in
                var k = 0
                for i in cols {
                    let tap = taps[k]
                    k += 1
                    let wx = UInt64(tap.weight), wxInv = UInt64(weightOne) - wx
                    let a = top[tap.x0], b = top[tap.x1], c = bottom[tap.x0], d = bottom[tap.x1]
                    // Lanes: blue and red at bits 0 and 32 of one word, green and alpha in another.
                    let rbTop = spread(a) &* wxInv &+ spread(b) &* wx
                    let rbBottom = spread(c) &* wxInv &+ spread(d) &* wx
                    let agTop = spread(a >> 8) &* wxInv &+ spread(b >> 8) &* wx
                    let agBottom = spread(c >> 8) &* wxInv &+ spread(d >> 8) &* wx
                    let rb = (rbTop &* wyInv &+ rbBottom &* wy &+ 0x0000_8000_0000_8000) >> 16
                    let ag = (agTop &* wyInv &+ agBottom &* wy &+ 0x0000_8000_0000_8000) >> 16
                    var p = gather(rb) | gather(ag) << 8
                    if alpha != 255 { p = PixelBlend.scale(p, by: alpha) }
                    out[i] = p >> 24 == 255 ? p : PixelBlend.over(p, out[i])
                }
            }
        }
    }

    /// Channels 0 and 2 of a pixel (bits 0–7 and 16–23) spread to bits 0 and 32 of a UInt64.
    @inline(__always)
    private static func spread(_ p: UInt32) -> UInt64 {
        UInt64(p & 0xFF) | UInt64(p & 0xFF_0000) << 16
    }

    /// Inverse of `spread` for 8-bit lane values.
    @inline(__always)
    private static func gather(_ v: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: v & 0xFF) | UInt32(truncatingIfNeeded: (v >> 32) & 0xFF) << 16
    }

    private static func copyRows(
        _ source: PixelBuffer, dx: Int, dy: Int, cols: Range<Int>, rows: Range<Int>, into target: PixelBuffer
    ) {
        for j in rows {
            (target.row(j) + cols.lowerBound).update(from: source.row(j - dy) + (cols.lowerBound - dx), count: cols.count)
        }
    }
}

/// For every destination column of a draw: the two source columns it blends and the weight of
/// the second, in `FastBilinear.weightBits` fixed point.
struct ColumnTaps {
    struct Tap {
        var x0: Int
        var x1: Int
        var weight: UInt32
    }

    var taps: [Tap]

    init(cols: Range<Int>, scale: Double, offset: Double, sourceWidth: Int) {
        taps = cols.map { i in
            let sx = (Double(i) + 0.5 - offset) / scale - 0.5
            let x0f = sx.rounded(.down)
            let w = UInt32((sx - x0f) * Double(FastBilinear.weightOne) + 0.5)
            let x0 = Int(x0f)
            return Tap(
                x0: min(max(x0, 0), sourceWidth - 1), x1: min(max(x0 + 1, 0), sourceWidth - 1), weight: w)
        }
    }
}
