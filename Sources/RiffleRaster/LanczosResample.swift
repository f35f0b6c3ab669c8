import RealModule
import RiffleGeometry

/// Lanczos-3 shrinking to an exact size: the windowed-sinc filter that keeps detail up to the
/// output's Nyquist limit and next to none above it, so a photo shrunk with it is as sharp as
/// the output grid allows without the aliasing (moiré, ghost rings) of a box.
///
/// Kernel, with sinc(x) = sin(πx)/(πx) and sinc(0) = 1 (Duchon, "Lanczos filtering in one and
/// two dimensions", J. Appl. Meteor. 18, 1979):
///
///     L(x) = sinc(x) · sinc(x/3)   for |x| < 3,   0 otherwise
///
/// Shrinking m source pixels to n (n ≤ m) widens the kernel by the reduction f = m/n, so that it
/// cuts off at the output's Nyquist limit. Pixel centres follow the sampler's convention (pixel i
/// covers [i, i + 1), its centre is i + 0.5; written at the top of `ReferenceBilinear.swift`):
/// output pixel i, centre i + 0.5, sits at source position c = (i + 0.5)·f, and source pixel s
/// has the weight
///
///     w(s) = L((s + 0.5 − c) / f) / Σₛ L((s + 0.5 − c) / f)
///
/// over the source pixels within the support |s + 0.5 − c| < 3f that exist: at the edges the
/// support is cut at the picture and the weights renormalised to sum to 1, as Pillow's
/// `precompute_coeffs` does (python-pillow/Pillow, `src/libImaging/Resample.c`). The filter is
/// separable: rows across, then columns down, each with its own f.
///
/// Channels are premultiplied, as stored, which is what weighting colours by their coverage
/// needs. The negative lobes ring beside hard edges; each result is clamped to [0, 255] and its
/// colour channels to at most its alpha, so a pixel stays valid premultiplied BGRA.
public enum LanczosResample {
    /// Lobes on each side of the centre: Lanczos-3.
    static let lobes = 3.0

    /// The Lanczos-3 kernel L(x) = sinc(x)·sinc(x/3) inside |x| < 3, 0 outside.
    static func kernel(_ x: Double) -> Double {
        if x == 0 { return 1 }
        guard abs(x) < lobes else { return 0 }
        let px = Double.pi * x
        return lobes * Double.sin(px) * Double.sin(px / lobes) / (px * px)
    }

    /// One output sample's first source index and the normalised weights from there on.
    struct Taps {
        var first: Int
        var weights: [Float]
    }

    /// For each of `n` outputs over `m` inputs (n ≤ m) the normalised weights w(s) of the type's
    /// formula. Equal sizes need no filtering: each output is its own source pixel, weight 1.
    static func weights(from m: Int, to n: Int) -> [Taps] {
        precondition(n >= 1 && n <= m, "Lanczos resampling only shrinks: \(m) to \(n)")
        if m == n { return (0..<n).map { Taps(first: $0, weights: [1]) } }
        let f = Double(m) / Double(n)
        let support = lobes * f
        return (0..<n).map { i in
            let c = (Double(i) + 0.5) * f
            // Source pixels whose centres lie within the support, inside the picture.
            let first = max(0, Int((c - support - 0.5).rounded(.up)))
            let last = min(m - 1, Int((c + support - 0.5).rounded(.down)))
            let raw = (first...last).map { kernel((Double($0) + 0.5 - c) / f) }
            let total = raw.reduce(0, +)
            return Taps(first: first, weights: raw.map { Float($0 / total) })
        }
    }
}

/// Lanczos-3 resamples a picture to a smaller exact size as its rows arrive, top to bottom (the
/// weights, pixel-centre convention, edges and clamping of `LanczosResample`).
///
/// Each source row is resampled across as it is pushed, into a ring of as many rows as the
/// widest vertical support spans (16 rows of the output's width for a 2.5× reduction); output
/// row y is written once its last source row is in:
///
///     out(x, y) = clamp(Σₖ wᵧ(k) · Σⱼ wₓ(j) · src(firstₓ + j, firstᵧ + k))
///
/// Besides the result, memory is that ring, one source row in floats and the taps, never a
/// whole intermediate picture. Rows are copied through at equal width and height.
///
/// Arithmetic is single-precision float, four channels a pixel; the sums keep the lobes'
/// negative values and values above 255 until the final clamp, and the result is within 1 per
/// channel of the exact value rounded (`LanczosResampleTests` compares it with a
/// double-precision evaluation of the formula). Every output gets the same number of taps
/// across, a multiple of four (zero weights past its own, reading zeros past the row's end).
/// The loops themselves, across and down, are `LanczosKernels`: the Swift ones, or the same
/// arithmetic faster.
public struct LanczosResampler {
    /// The picture being filled, `to` in size; complete once every source row is pushed.
    public let result: PixelBuffer
    private let sourceSize: PixelSize
    /// Horizontal taps: output x reads `columnGroups` groups of four source pixels from
    /// `columnFirst[x]` on, weighted by `columnWeights[2 · x · columnGroups ..< 2 · (x + 1) · columnGroups]`
    /// (each group's four weights in `LanczosKernels.acrossLayout`).
    private let columnGroups: Int
    private let columnFirst: [Int]
    private let columnWeights: [SIMD4<Float>]
    private let rows: [LanczosResample.Taps]
    /// The source row being pushed, as floats: one vector a pixel, then zeros for the padded taps.
    private var sourceFloats: [SIMD4<Float>]
    /// Rows resampled across, `ringRows` of the result's width: source row s in slot s % ringRows.
    private var ring: [SIMD4<Float>]
    private let ringRows: Int
    /// Source rows pushed so far.
    private(set) var sourceRow = 0
    /// The first output row not yet written.
    private var outputRow = 0

    /// The loops across and down: the Swift ones below, or functions that give the same bits.
    private let kernels: LanczosKernels

    /// A resampler from pictures of `source` size to `target` (each side no larger, at least 1),
    /// its loops `kernels`.
    public init(from source: PixelSize, to target: PixelSize, kernels: LanczosKernels = .reference) {
        precondition(target.width >= 1 && target.height >= 1 && target.width <= source.width && target.height <= source.height,
                     "Lanczos resampling only shrinks: \(source) to \(target)")
        sourceSize = source
        result = PixelBuffer(width: target.width, height: target.height)
        self.kernels = kernels
        let columns = LanczosResample.weights(from: source.width, to: target.width)
        // Closures rather than key paths here: a key path's first use instantiates its runtime
        // metadata, about 0.7 ms of a launch's first decode.
        let groups = ((columns.map { $0.weights.count }.max() ?? 1) + 3) / 4
        columnGroups = groups
        columnFirst = columns.map { $0.first }
        columnWeights = columns.flatMap { taps in
            let padded = taps.weights + [Float](repeating: 0, count: 4 * groups - taps.weights.count)
            return (0..<groups).flatMap { LanczosKernels.acrossLayout(SIMD4(padded[4 * $0 ..< 4 * $0 + 4])) }
        }
        rows = LanczosResample.weights(from: source.height, to: target.height)
        // Output rows start and end in order, so the rows an unfinished output needs are always
        // among the last (its tap count) pushed.
        ringRows = rows.map { $0.weights.count }.max() ?? 1
        let copies = target == source
        sourceFloats = copies ? [] : [SIMD4<Float>](repeating: .zero, count: source.width + 4 * groups)
        ring = copies ? [] : [SIMD4<Float>](repeating: .zero, count: ringRows * target.width)
    }

    /// True once every source row has been pushed.
    public var isComplete: Bool { sourceRow == sourceSize.height }

    /// Takes the next source row (`from` width pixels, premultiplied BGRA).
    public mutating func push(_ row: UnsafePointer<UInt32>) {
        precondition(sourceRow < sourceSize.height, "more than \(sourceSize.height) rows pushed")
        defer { sourceRow += 1 }
        if ring.isEmpty {
            result.row(sourceRow).update(from: row, count: sourceSize.width)
            return
        }
        resampleAcross(row, intoSlot: sourceRow % ringRows)
        // Output rows whose last source row this was are complete.
        while outputRow < result.height, rows[outputRow].first + rows[outputRow].weights.count - 1 == sourceRow {
            emit(outputRow)
            outputRow += 1
        }
    }

    /// Converts `row` to floats and resamples it across into ring slot `slot`.
    private mutating func resampleAcross(_ row: UnsafePointer<UInt32>, intoSlot slot: Int) {
        let sourceWidth = sourceSize.width, width = result.width, groups = columnGroups, across = kernels.across
        sourceFloats.withUnsafeMutableBufferPointer { floats in
            ring.withUnsafeMutableBufferPointer { ring in
                columnFirst.withUnsafeBufferPointer { firsts in
                    columnWeights.withUnsafeBufferPointer { weights in
                        across(
                            row, sourceWidth, Self.floats(floats.baseAddress!), firsts.baseAddress,
                            UnsafeRawPointer(weights.baseAddress!).assumingMemoryBound(to: Float.self), groups, width,
                            Self.floats(ring.baseAddress! + slot * width))
                    }
                }
            }
        }
    }

    /// Resamples output row `y` down from the ring's rows into the result.
    private mutating func emit(_ y: Int) {
        let width = result.width, taps = rows[y], out = result.row(y), down = kernels.down
        ring.withUnsafeMutableBufferPointer { ring in
            taps.weights.withUnsafeBufferPointer { weights in
                let slots = (0..<weights.count).map { Optional(UnsafePointer(Self.floats(ring.baseAddress! + ((taps.first + $0) % ringRows) * width))) }
                down(slots, weights.baseAddress, weights.count, width, out)
            }
        }
    }

    /// The floats of the pixels from `pixels` on, four a pixel.
    private static func floats(_ pixels: UnsafeMutablePointer<SIMD4<Float>>) -> UnsafeMutablePointer<Float> {
        UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: Float.self)
    }
}
