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
        DownscaleFilter.area.shrink(source, to: PixelSize(width: width, height: height))
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
}

/// Area-averages a picture to a smaller exact size as its rows arrive, top to bottom — straight
/// from a decoder's scanlines — so the picture is never held whole at its source size.
///
/// Output row y is Σₖ wₖ·(source row firstᵧ + k) (the vertical weights of `AreaResample.weights`),
/// then resampled across with the horizontal weights; the results equal
/// `AreaResample.shrink` of the whole picture bit for bit. Since the output is no taller than the
/// source, each source row falls in at most two output rows, so two rows of weighted sums are
/// all the state besides the result. At equal width and height rows are copied through.
///
/// The sums are exact integers: a vertical sum of one channel is at most 255 · 65536 < 2³² (the
/// weights of an output row add up to 65536), so it is kept in 32 bits, byte for byte beside the
/// source row's channels, which lets the compiler vectorise the vertical pass; the horizontal
/// pass multiplies it by 16-bit weights into 64 bits, four channels at a time.
public struct AreaResampler {
    /// The picture being filled, `to` in size; complete once every source row is pushed.
    public let result: PixelBuffer
    private let sourceSize: PixelSize
    /// Horizontal taps, flattened: output x reads source columns `columnFirst[x]`… with the
    /// weights `columnWeights[columnStart[x] ..< columnStart[x + 1]]`.
    private let columnFirst: [Int]
    private let columnStart: [Int]
    private let columnWeights: [UInt64]
    private let rows: [AreaResample.Taps]
    /// Vertical sums for the output rows in progress: 4 channels a source column (the source's
    /// byte order), in units of 1/65536, for output row y in half y % 2.
    private var sums: [UInt32]
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
        let columns = AreaResample.weights(from: source.width, to: target.width)
        columnFirst = columns.map(\.first)
        columnStart = columns.reduce(into: [0]) { $0.append($0.last! + $1.weights.count) }
        columnWeights = columns.flatMap { $0.weights.map(UInt64.init) }
        rows = AreaResample.weights(from: source.height, to: target.height)
        sums = target == source ? [] : [UInt32](repeating: 0, count: 2 * 4 * source.width)
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
        let channels = 4 * sourceSize.width
        let s = sourceRow
        var y = outputRow
        let bytes = UnsafeRawPointer(row).assumingMemoryBound(to: UInt8.self)
        sums.withUnsafeMutableBufferPointer { all in
            // The source row adds to each output row whose taps include it: the one in
            // progress and, where it straddles the boundary, the next.
            while y < rows.count, rows[y].first <= s {
                let taps = rows[y]
                let w = UInt32(taps.weights[s - taps.first])
                let acc = all.baseAddress! + (y & 1) * channels
                for i in 0..<channels { acc[i] &+= UInt32(bytes[i]) &* w }
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
        let channels = 4 * sourceSize.width
        let out = result.row(y)
        let width = result.width
        sums.withUnsafeMutableBufferPointer { all in
            columnFirst.withUnsafeBufferPointer { firsts in
                columnStart.withUnsafeBufferPointer { starts in
                    columnWeights.withUnsafeBufferPointer { weights in
                        let acc = all.baseAddress! + (y & 1) * channels
                        for x in 0..<width {
                            var sum = SIMD4<UInt64>(repeating: 0)
                            var column = acc + 4 * firsts[x]
                            for k in starts[x]..<starts[x + 1] {
                                let v = SIMD4<UInt32>(column[0], column[1], column[2], column[3])
                                sum &+= SIMD4<UInt64>(truncatingIfNeeded: v) &* weights[k]
                                column += 4
                            }
                            // Channel sums in units of 1/2^32, rounded to 8 bits.
                            let rounded = (sum &+ (1 << 31)) &>> 32
                            let c = SIMD4<UInt32>(truncatingIfNeeded: rounded.replacing(with: 255, where: rounded .> 255))
                            out[x] = c[3] << 24 | c[2] << 16 | c[1] << 8 | c[0]
                        }
                        acc.update(repeating: 0, count: channels)
                    }
                }
            }
        }
    }
}
