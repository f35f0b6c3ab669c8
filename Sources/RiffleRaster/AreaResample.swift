/// Shrinking to an exact size by area averaging: each output pixel is the mean of the source
/// area it covers, partial source pixels weighted by the fraction covered (a box filter exactly
/// as wide as one output pixel). Separable: a vertical pass, then a horizontal one, a row at a time.
///
/// Weights are 16-bit fixed point summing to exactly 65536 per output pixel and sums are kept
/// exact until the one final rounding, so a flat colour stays exactly flat and the error is at
/// most half a step.
public enum AreaResample {
    /// Fixed-point one: weights of one output pixel sum to this.
    static let one = 1 << 16

    /// `source` shrunk to `width` × `height` (each no larger than the source's, at least 1).
    ///
    /// Streams row by row: each output row accumulates its weighted source rows into one row of
    /// 32-bit sums (vertical pass), which is then resampled across (horizontal pass), so the
    /// only memory besides the result is a row — not a whole intermediate picture.
    public static func shrink(_ source: PixelBuffer, toWidth width: Int, height: Int) -> PixelBuffer {
        precondition(width >= 1 && height >= 1 && width <= source.width && height <= source.height,
                     "area resampling only shrinks: \(source.size) to \(width)x\(height)")
        if width == source.width && height == source.height { return source }
        let columns = weights(from: source.width, to: width)
        let rows = weights(from: source.height, to: height)
        let result = PixelBuffer(width: width, height: height)
        // Vertical sums of one output row: 4 channels a source column, in units of 1/65536.
        var sums = [Int](repeating: 0, count: source.width * 4)
        sums.withUnsafeMutableBufferPointer { acc in
            for (y, taps) in rows.enumerated() {
                acc.update(repeating: 0)
                for (k, w) in taps.weights.enumerated() {
                    let src = source.row(taps.first + k)
                    for x in 0..<source.width {
                        let p = src[x]
                        acc[4 * x] &+= Int(p & 0xFF) &* w
                        acc[4 * x + 1] &+= Int((p >> 8) & 0xFF) &* w
                        acc[4 * x + 2] &+= Int((p >> 16) & 0xFF) &* w
                        acc[4 * x + 3] &+= Int(p >> 24) &* w
                    }
                }
                let out = result.row(y)
                for (x, taps) in columns.enumerated() {
                    var b = 0, g = 0, r = 0, a = 0
                    for (k, w) in taps.weights.enumerated() {
                        let i = 4 * (taps.first + k)
                        b &+= acc[i] &* w
                        g &+= acc[i + 1] &* w
                        r &+= acc[i + 2] &* w
                        a &+= acc[i + 3] &* w
                    }
                    out[x] = pack(a) << 24 | pack(r) << 16 | pack(g) << 8 | pack(b)
                }
            }
        }
        return result
    }

    /// A channel sum in units of 1/2^32 (two 16-bit weights multiplied), rounded to 8 bits.
    @inline(__always)
    private static func pack(_ sum: Int) -> UInt32 { UInt32(min(255, (sum + (1 << 31)) >> 32)) }

    /// One output sample's source indices and weights.
    struct Taps {
        var first: Int
        var weights: [Int]
    }

    /// For each of `n` outputs over `m` inputs (n ≤ m): output i covers the source interval
    /// [i·m/n, (i+1)·m/n); each source index's weight is its covered length · n/m in fixed point,
    /// the last weight absorbing the rounding so that they sum to `one`.
    static func weights(from m: Int, to n: Int) -> [Taps] {
        (0..<n).map { i in
            // Interval ends in units of 1/n source pixels: exact integers, no drift.
            let start = i * m, end = (i + 1) * m
            let first = start / n, last = (end - 1) / n
            var ws: [Int] = []
            var total = 0
            for s in first...last {
                let covered = min(end, (s + 1) * n) - max(start, s * n)  // in 1/n pixel units
                let w = covered * one / m
                ws.append(w)
                total += w
            }
            ws[ws.count - 1] += one - total
            return Taps(first: first, weights: ws)
        }
    }
}
