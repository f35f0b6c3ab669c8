import RiffleGeometry

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
    /// The source's rows go through an `AreaResampler` one at a time, so the only memory besides
    /// the result is two rows of sums — never a whole intermediate picture.
    public static func shrink(_ source: PixelBuffer, toWidth width: Int, height: Int) -> PixelBuffer {
        if width == source.width && height == source.height { return source }
        var resampler = AreaResampler(from: source.size, to: PixelSize(width: width, height: height))
        for y in 0..<source.height { resampler.push(source.row(y)) }
        return resampler.result
    }

    /// A channel sum in units of 1/2^32 (two 16-bit weights multiplied), rounded to 8 bits.
    @inline(__always)
    static func pack(_ sum: Int) -> UInt32 { UInt32(min(255, (sum + (1 << 31)) >> 32)) }

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

/// Area-averages a picture to a smaller exact size as its rows arrive, top to bottom — straight
/// from a decoder's scanlines — so the picture is never held whole at its source size.
///
/// Output row y is Σₖ wₖ·(source row firstᵧ + k) (the vertical weights of `AreaResample.weights`),
/// then resampled across with the horizontal weights; the results equal
/// `AreaResample.shrink` of the whole picture bit for bit. Since the output is no taller than the
/// source, each source row falls in at most two output rows, so two rows of 32-bit-weighted sums
/// are all the state besides the result. At equal width and height rows are copied through.
public struct AreaResampler {
    /// The picture being filled, `to` in size; complete once every source row is pushed.
    public let result: PixelBuffer
    private let sourceSize: PixelSize
    private let columns: [AreaResample.Taps]
    private let rows: [AreaResample.Taps]
    /// Vertical sums for the output rows in progress: 4 channels a source column, in units of
    /// 1/65536, for output row y in half y % 2.
    private var sums: [Int]
    /// Source rows pushed so far.
    private(set) var sourceRow = 0
    /// The first output row not yet complete.
    private var outputRow = 0

    /// A resampler from pictures of `source` size to `target` (each side no larger, at least 1).
    public init(from source: PixelSize, to target: PixelSize) {
        precondition(target.width >= 1 && target.height >= 1 && target.width <= source.width && target.height <= source.height,
                     "area resampling only shrinks: \(source) to \(target)")
        sourceSize = source
        result = PixelBuffer(width: target.width, height: target.height)
        columns = AreaResample.weights(from: source.width, to: target.width)
        rows = AreaResample.weights(from: source.height, to: target.height)
        sums = target == source ? [] : [Int](repeating: 0, count: 2 * 4 * source.width)
    }

    /// True once every source row has been pushed.
    public var isComplete: Bool { sourceRow == sourceSize.height }

    /// Takes the next source row (`from` width pixels, premultiplied BGRA).
    public mutating func push(_ row: UnsafePointer<UInt32>) {
        precondition(sourceRow < sourceSize.height, "more than \(sourceSize.height) rows pushed")
        defer { sourceRow += 1 }
        if sums.isEmpty {
            result.row(sourceRow).update(from: row, count: sourceSize.width)
            return
        }
        let width = sourceSize.width
        let s = sourceRow
        var y = outputRow
        sums.withUnsafeMutableBufferPointer { all in
            // The source row adds to each output row whose taps include it: the one in
            // progress and, where it straddles the boundary, the next.
            while y < rows.count, rows[y].first <= s {
                let taps = rows[y]
                let w = taps.weights[s - taps.first]
                let acc = all.baseAddress! + (y & 1) * 4 * width
                for x in 0..<width {
                    let p = row[x]
                    acc[4 * x] &+= Int(p & 0xFF) &* w
                    acc[4 * x + 1] &+= Int((p >> 8) & 0xFF) &* w
                    acc[4 * x + 2] &+= Int((p >> 16) & 0xFF) &* w
                    acc[4 * x + 3] &+= Int(p >> 24) &* w
                }
                if taps.first + taps.weights.count - 1 > s { break }
                y += 1
            }
        }
        // Output rows whose last source row this was are complete.
        while outputRow < rows.count, rows[outputRow].first + rows[outputRow].weights.count - 1 == s {
            emit(outputRow)
            outputRow += 1
        }
    }

    /// Resamples the vertical sums of output row `y` across into the result and clears them.
    private mutating func emit(_ y: Int) {
        let width = sourceSize.width
        let out = result.row(y)
        let columns = self.columns
        sums.withUnsafeMutableBufferPointer { all in
            let acc = all.baseAddress! + (y & 1) * 4 * width
            for (x, taps) in columns.enumerated() {
                var b = 0, g = 0, r = 0, a = 0
                for (k, w) in taps.weights.enumerated() {
                    let i = 4 * (taps.first + k)
                    b &+= acc[i] &* w
                    g &+= acc[i + 1] &* w
                    r &+= acc[i + 2] &* w
                    a &+= acc[i + 3] &* w
                }
                out[x] = AreaResample.pack(a) << 24 | AreaResample.pack(r) << 16 | AreaResample.pack(g) << 8 | AreaResample.pack(b)
            }
            acc.update(repeating: 0, count: 4 * width)
        }
    }
}
