import RiffleGeometry

// MARK: Pixel-centre convention (the one place it is written)
//
// A pixel with index i covers the interval [i, i + 1) and is sampled at its centre i + 0.5, in
// source and destination alike. Destination pixel i, centre d = i + 0.5, maps back to the
// source position s = (d − offset) / scale; the bilinear sample at s blends the source pixels
// whose centres surround it: x0 = floor(s − 0.5), x1 = x0 + 1, weight of x1 = (s − 0.5) − x0.
// Indices outside the source are clamped to the nearest edge pixel. A destination pixel is drawn
// when its centre lies inside the source's destination frame [offset, offset + size · scale).
// A turned draw (`TurnedMapping`) maps the centre back through the turn and the scales,
// s = `sourcePoint(d)`, and draws the pixel when s lies inside the source, [0, w) × [0, h); the
// sample is then taken at s − 0.5 on each axis exactly as above. (Whole quarter turns are not
// drawn this way but exactly: `QuarterTurnedImage`.)
// Every path (reference, fixed-point, copy) follows this convention and must agree with the
// reference within the tolerance stated in the raster tests.

/// The slow, obviously right sampler (bilinear, or nearest-neighbour through `SamplingFilter`'s
/// weights): double precision per pixel, no tables, no shortcuts. Fast paths are measured
/// against it; `RasterPath.reference` forces it.
enum ReferenceBilinear {
    /// Draws `source` mapped by `mapping` into `target`, limited to `clip` (destination pixel
    /// indices), blended source-over with the given `opacity` (0...1), sampled with `filter`.
    static func draw(
        _ source: PixelBuffer, mapping: ImageMapping, filter: SamplingFilter = .bilinear, opacity: Double,
        clip: PixelRect, into target: PixelBuffer
    ) {
        let frame = mapping.frame(of: source.size)
        let cols = coveredPixels(lower: frame.minX, upper: frame.maxX, clipLower: clip.x, clipUpper: clip.maxX)
        let rows = coveredPixels(lower: frame.minY, upper: frame.maxY, clipLower: clip.y, clipUpper: clip.maxY)
        guard !cols.isEmpty, !rows.isEmpty, source.width > 0, source.height > 0 else { return }
        let alpha = max(0, min(1, opacity))
        for j in rows {
            let sy = (Double(j) + 0.5 - mapping.offsetY) / mapping.scaleY - 0.5
            let y0f = sy.rounded(.down)
            let fy = filter.secondWeight(sy - y0f)
            let y0 = clampIndex(Int(y0f), source.height), y1 = clampIndex(Int(y0f) + 1, source.height)
            let out = target.row(j)
            for i in cols {
                let sx = (Double(i) + 0.5 - mapping.offsetX) / mapping.scaleX - 0.5
                let x0f = sx.rounded(.down)
                let fx = filter.secondWeight(sx - x0f)
                let x0 = clampIndex(Int(x0f), source.width), x1 = clampIndex(Int(x0f) + 1, source.width)
                let packed = blend(source, x0: x0, x1: x1, fx: fx, y0: y0, y1: y1, fy: fy, alpha: alpha)
                out[i] = PixelBlend.over(packed, out[i])
            }
        }
    }

    /// The four source pixels (x0, y0), (x1, y0), (x0, y1), (x1, y1) weighted by their second
    /// weights `fx` and `fy`, each channel lerped across, then down, times `alpha`, rounded to
    /// nearest and clamped to 0...255: the one sample both draws take.
    static func blend(
        _ source: PixelBuffer, x0: Int, x1: Int, fx: Double, y0: Int, y1: Int, fy: Double, alpha: Double
    ) -> UInt32 {
        var packed: UInt32 = 0
        for shift: UInt32 in [0, 8, 16, 24] {
            func ch(_ x: Int, _ y: Int) -> Double { Double((source[x, y] >> shift) & 0xFF) }
            let top = ch(x0, y0) * (1 - fx) + ch(x1, y0) * fx
            let bottom = ch(x0, y1) * (1 - fx) + ch(x1, y1) * fx
            let v = (top * (1 - fy) + bottom * fy) * alpha
            packed |= UInt32(min(255, max(0, v.rounded()))) << shift
        }
        return packed
    }

    /// Draws `source` turned and placed by `mapping` into `target`, limited to `clip`, blended
    /// source-over with `opacity` (0...1), sampled with `filter`: the pixels whose centres map
    /// inside the source.
    static func drawTurned(
        _ source: PixelBuffer, mapping: TurnedMapping, filter: SamplingFilter = .bilinear, opacity: Double, clip: PixelRect,
        into target: PixelBuffer
    ) {
        let box = clip.clipped(to: PixelRect(covering: mapping.bounds(of: source.size)))
        guard !box.isEmpty, source.width > 0, source.height > 0 else { return }
        let alpha = max(0, min(1, opacity))
        let w = Double(source.width), h = Double(source.height)
        for j in box.rows {
            let out = target.row(j)
            for i in box.columns {
                let s = mapping.sourcePoint(Point(x: Double(i) + 0.5, y: Double(j) + 0.5))
                guard s.x >= 0, s.x < w, s.y >= 0, s.y < h else { continue }
                let sx = s.x - 0.5, sy = s.y - 0.5
                let x0f = sx.rounded(.down), y0f = sy.rounded(.down)
                let fx = filter.secondWeight(sx - x0f), fy = filter.secondWeight(sy - y0f)
                let x0 = clampIndex(Int(x0f), source.width), x1 = clampIndex(Int(x0f) + 1, source.width)
                let y0 = clampIndex(Int(y0f), source.height), y1 = clampIndex(Int(y0f) + 1, source.height)
                let packed = blend(source, x0: x0, x1: x1, fx: fx, y0: y0, y1: y1, fy: fy, alpha: alpha)
                out[i] = PixelBlend.over(packed, out[i])
            }
        }
    }

    @inline(__always)
    private static func clampIndex(_ i: Int, _ n: Int) -> Int { min(max(i, 0), n - 1) }
}
