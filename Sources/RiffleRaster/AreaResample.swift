/// Shrinking to an exact size by area averaging: each output pixel is the mean of the source
/// area it covers, partial source pixels weighted by the fraction covered (a box filter exactly
/// as wide as one output pixel). Separable: a horizontal pass, then a vertical one.
///
/// Weights are 16-bit fixed point summing to exactly 65536 per output pixel, and each pass rounds
/// once, so a flat colour stays exactly flat and the error is at most one step per pass.
public enum AreaResample {
    /// Fixed-point one: weights of one output pixel sum to this.
    static let one = 1 << 16

    /// `source` shrunk to `width` × `height` (each no larger than the source's, at least 1).
    public static func shrink(_ source: PixelBuffer, toWidth width: Int, height: Int) -> PixelBuffer {
        precondition(width >= 1 && height >= 1 && width <= source.width && height <= source.height,
                     "area resampling only shrinks: \(source.size) to \(width)x\(height)")
        if width == source.width && height == source.height { return source }
        let columns = weights(from: source.width, to: width)
        let rows = weights(from: source.height, to: height)
        // Horizontal pass into width × source.height.
        let middle = PixelBuffer(width: width, height: source.height)
        for y in 0..<source.height {
            let src = source.row(y), out = middle.row(y)
            for (x, taps) in columns.enumerated() { out[x] = blend(taps) { src[$0] } }
        }
        // Vertical pass.
        let result = PixelBuffer(width: width, height: height)
        for (y, taps) in rows.enumerated() {
            let out = result.row(y)
            for x in 0..<width { out[x] = blend(taps) { middle.row($0)[x] } }
        }
        return result
    }

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

    @inline(__always)
    private static func blend(_ taps: Taps, _ pixel: (Int) -> UInt32) -> UInt32 {
        var b = 0, g = 0, r = 0, a = 0
        for (k, w) in taps.weights.enumerated() {
            let p = pixel(taps.first + k)
            b &+= Int(p & 0xFF) &* w
            g &+= Int((p >> 8) & 0xFF) &* w
            r &+= Int((p >> 16) & 0xFF) &* w
            a &+= Int(p >> 24) &* w
        }
        let half = one / 2
        return UInt32((a + half) >> 16) << 24 | UInt32((r + half) >> 16) << 16 | UInt32((g + half) >> 16) << 8 | UInt32((b + half) >> 16)
    }
}
