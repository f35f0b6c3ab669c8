/// Halving by 2×2 box filtering: each output pixel is the rounded mean of the four
/// premultiplied source pixels it covers (an odd last row or column is averaged with itself).
///
/// Bilinear sampling below a scale of 1/2 skips source pixels and aliases; the mip levels of
/// `ImageContent.smaller` and the tile pyramid's deeper levels are made by halving instead, so
/// every source pixel contributes.
public enum BoxDownsample {
    /// The buffer at half the size, rounded up: ⌈w/2⌉ × ⌈h/2⌉.
    public static func halved(_ source: PixelBuffer) -> PixelBuffer {
        let w = (source.width + 1) / 2, h = (source.height + 1) / 2
        let out = PixelBuffer(width: w, height: h)
        let lastY = source.height - 1
        for y in 0..<h {
            halve(source.row(min(2 * y, lastY)), source.row(min(2 * y + 1, lastY)), width: source.width, into: out.row(y))
        }
        return out
    }

    /// One row of `halved`, for pictures halved as their rows arrive: `out[x]` is the rounded mean
    /// of `upper[2x]`, `upper[2x + 1]`, `lower[2x]` and `lower[2x + 1]` for x < ⌈width/2⌉ (an odd
    /// last column averaged with itself). Pass one row as both for an odd last row.
    public static func halve(
        _ upper: UnsafePointer<UInt32>, _ lower: UnsafePointer<UInt32>, width: Int, into out: UnsafeMutablePointer<UInt32>
    ) {
        let lastX = width - 1
        for x in 0..<(width + 1) / 2 {
            let x0 = min(2 * x, lastX), x1 = min(2 * x + 1, lastX)
            let a = upper[x0], b = upper[x1], c = lower[x0], d = lower[x1]
            // Two channels per word: the sums of four 8-bit values fit in 10 bits a lane.
            let rb = (a & 0x00FF_00FF) &+ (b & 0x00FF_00FF) &+ (c & 0x00FF_00FF) &+ (d & 0x00FF_00FF) &+ 0x0002_0002
            let ag = ((a >> 8) & 0x00FF_00FF) &+ ((b >> 8) & 0x00FF_00FF) &+ ((c >> 8) & 0x00FF_00FF)
                &+ ((d >> 8) & 0x00FF_00FF) &+ 0x0002_0002
            out[x] = ((rb >> 2) & 0x00FF_00FF) | (((ag >> 2) & 0x00FF_00FF) << 8)
        }
    }
}
