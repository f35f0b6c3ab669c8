import CRiffleImaging
import Dispatch
import RiffleGeometry
import RiffleRaster
import Synchronization

/// A JPEG's Lanczos-3 decode spread over two cores: the photo a person waits for, decoded by
/// both cores of a two-core machine instead of one.
///
/// A sequential JPEG's entropy-coded data has no entry points without restart markers, so the
/// picture cannot simply be cut in two: the Huffman pass must run from the top to reach any
/// row. The cut is made after it instead. The top band is decoded on the calling thread from
/// the top, as a whole decode would: Huffman pass, scaled inverse DCT, colour conversion and
/// Lanczos, row by row. The bottom band is decoded on the second core by a decoder of its own
/// that passes over the rows above it with libjpeg-turbo's skip (`JPEGRowReader.skip(rows:)`:
/// Huffman codes decoded, nothing transformed), then decodes and resamples its rows. With h the
/// Huffman pass's share of a whole decode's time and the rest r = 1 − h (transform, colour and
/// Lanczos), a top band of share s takes s·(h + r) and the bottom one h + (1 − s)·r; they end
/// together at
///
///     s = (h + r) / (h + 2r) = 1 / (2 − h),   time = s · whole
///
/// For the 24 MP photos of `make bench` decoded at 5/8 for a 1080p screen, h ≈ 0.5 (the 1/8
/// decode, which is little more than the Huffman pass, 48 ms, against the 5/8 decode with
/// Lanczos, 96 ms with the vector IDCTs of `jpeg_scaled_idct.c` and the vector Lanczos loops of
/// `lanczos_avx2.c`), so s ≈ 0.67 and the decode takes 0.67 of its time on one core; without
/// AVX2 (libjpeg's scalar IDCTs and the Swift Lanczos loops, 148 ms) h ≈ 0.33
/// and s ≈ 0.6. The Huffman pass alone is the floor no cut without restart markers can go under.
///
/// Memory: each band streams (two decoders' row buffers and two Lanczos rings beside the one
/// result), never the picture's coefficients. The bands' source rows overlap by the rows both
/// bands' Lanczos taps read (about 3·f on each side of the cut, f the reduction), decoded twice.
///
/// The result is the single-core decode's, bit for bit: libjpeg-turbo gives the same rows after
/// a skip as from the top, and `LanczosResampler(from:to:outputRows:into:)` computes each output
/// row as the whole picture's resampler does (`JPEGBandedDecodeTests`).
enum JPEGBandedDecode {
    /// The top band's share of the output rows, `1 / (2 − h)` for the Huffman share h measured
    /// on the benchmark's photos (see the type's formula), which the vector IDCTs and Lanczos
    /// loops raise.
    static let topBandShare = rfi_jpeg_vector_idct_available() != 0 && rfi_lanczos_avx2_available() != 0 ? 0.67 : 0.6

    /// A decode smaller than this many decoded pixels is not worth a second thread (the skip,
    /// the second decoder's start and the overlap outweigh the half saved).
    static let leastBandedPixels = 2_000_000

    /// What one band's decode ended with.
    private struct BandEnd: Sendable {
        var warning: String?
        var rowsWithData: Int?
    }

    /// The bottom band's way back from the second core: its end, once there, and a flag that
    /// tells it to stop when the top band has failed.
    private final class BottomBand: Sendable {
        private let end = Mutex<Result<BandEnd, ImageDecodeError>?>(nil)
        private let abandoned = Atomic<Bool>(false)
        private let ended = DispatchSemaphore(value: 0)

        var isAbandoned: Bool { abandoned.load(ordering: .relaxed) }
        func abandon() { abandoned.store(true, ordering: .relaxed) }

        func finish(with result: Result<BandEnd, ImageDecodeError>) {
            end.withLock { $0 = result }
            ended.signal()
        }

        /// Blocks until the band has ended, and returns how.
        func waitForEnd() -> Result<BandEnd, ImageDecodeError> {
            ended.wait()
            return end.withLock { $0! }
        }
    }

    /// The bottom band's decoder found another file than the top band's.
    private static let changed = ImageDecodeError(reason: "The file changed while it was read")

    /// Decodes the JPEG that `reader` has opened (not started), at `path`, shrunk with
    /// Lanczos-3 to `target(info)`, its bottom band on the thread `secondCore` starts; throws
    /// `.stopped` once `stop` says so (asked by both bands between pieces). Falls back to the
    /// single-thread `ImageDecoder.decodeJPEG` for a progressive file (whose rows all come after
    /// its whole data is read), a decode of fewer than `leastPixels` decoded pixels, or one the
    /// resampler only copies.
    static func decode(
        _ reader: JPEGRowReader, path: String, shrunkTo target: (ImageInfo) -> PixelSize, pixelLimit: Int,
        secondCore: ImageDecoder.SecondCore, leastPixels: Int = leastBandedPixels, until stop: @escaping @Sendable () -> Bool
    ) throws(ImageDecodeError) -> DecodedImage {
        let info = reader.info
        let size = target(info)
        guard let (eighths, decodedSize, resultSize) = plan(info, shrunkTo: size, pixelLimit: pixelLimit, leastPixels: leastPixels) else {
            return try ImageDecoder.decodeJPEG(reader, shrunkTo: { _ in size }, filter: .lanczos3, pixelLimit: pixelLimit, until: stop)
        }
        let cut = min(resultSize.height - 1, max(1, Int((Double(resultSize.height) * topBandShare).rounded())))
        // Zero pages faulted in by the bands' writes, so the second core starts without waiting for them.
        let result = try ImageDecoder.zeroedPixels(resultSize, for: info)

        let bottom = BottomBand()
        secondCore {
            bottom.finish(with: Result { () throws(ImageDecodeError) -> BandEnd in
                let reader = try JPEGRowReader(path: path)
                guard reader.info == info else { throw changed }
                return try decodeBand(
                    reader, eighths: eighths, pixelLimit: pixelLimit, decodedSize: decodedSize, rows: cut..<resultSize.height,
                    into: result, until: { stop() || bottom.isAbandoned })
            })
        }
        let top = Result { () throws(ImageDecodeError) -> BandEnd in
            try decodeBand(
                reader, eighths: eighths, pixelLimit: pixelLimit, decodedSize: decodedSize, rows: 0..<cut, into: result, until: stop)
        }
        if case .failure = top { bottom.abandon() }
        let bottomResult = bottom.waitForEnd()
        let topEnd = try top.get()
        let bottomEnd = try bottomResult.get()
        let warning = topEnd.warning ?? bottomEnd.warning
        return DecodedImage(
            pixels: info.orientation.upright(result), info: info, warning: warning, isOpaque: true,
            damage: ImageDecoder.jpegDamage(
                warning: warning, rowsWithData: topEnd.rowsWithData ?? bottomEnd.rowsWithData, info: info,
                decodedHeight: decodedSize.height))
    }

    /// The DCT scale, the decoded size and the result size (stored orientation) of a banded
    /// decode of the JPEG `info` shrunk to `size` (upright); nil where it would not be banded:
    /// a progressive file, fewer than `leastPixels` decoded pixels, a result the resampler only
    /// copies, or one row.
    static func plan(
        _ info: ImageInfo, shrunkTo size: PixelSize, pixelLimit: Int, leastPixels: Int = leastBandedPixels
    ) -> (eighths: Int, decodedSize: PixelSize, resultSize: PixelSize)? {
        guard info.format == .jpeg, !info.hasMultipleScans,
              let eighths = try? ImageDecoder.jpegScaleEighths(for: info, shrunkTo: size, filter: .lanczos3, pixelLimit: pixelLimit)
        else { return nil }
        let decodedSize = ImageDecoder.scaledSize(info.storedSize, eighths: eighths)
        let storedTarget = info.orientation.storedSize(ofUpright: size)
        let resultSize = PixelSize(
            width: min(storedTarget.width, decodedSize.width), height: min(storedTarget.height, decodedSize.height))
        guard decodedSize.area >= leastPixels, resultSize != decodedSize, resultSize.height >= 2 else { return nil }
        return (eighths, decodedSize, resultSize)
    }

    /// Decodes output rows `rows` of `result` with `reader`, started at `eighths`: passes over the source rows above the band's first tap, then pushes the
    /// band's source rows through a `LanczosResampler` for those rows alone, then ends the
    /// reader (skipping whatever lies below the band).
    private static func decodeBand(
        _ reader: JPEGRowReader, eighths: Int, pixelLimit: Int, decodedSize: PixelSize, rows: Range<Int>, into result: PixelBuffer,
        until stop: () -> Bool
    ) throws(ImageDecodeError) -> BandEnd {
        guard try reader.start(eighths: eighths, pixelLimit: pixelLimit) == decodedSize else { throw changed }
        var resampler = LanczosResampler(
            from: decodedSize, to: result.size, outputRows: rows, into: result, kernels: .fastest)
        let sources = LanczosResampler.sourceRows(from: decodedSize, to: result.size, outputRows: rows)
        // In one call: libjpeg-turbo 2.1.5 gives other rows after a second skip that starts
        // inside an iMCU row at some scales (256 then 18 rows at 5/8, unlike 274 at once; seen
        // in `JPEGBandedDecodeTests`). One skip is at most the Huffman pass of the rows above.
        if stop() { throw .stopped }
        // The source row the reader is at.
        var position = sources.lowerBound > 0 ? try reader.skip(rows: sources.lowerBound) : 0
        let buffer = PixelBuffer(width: decodedSize.width, height: ImageDecoder.streamedRows)
        while !resampler.isComplete {
            if stop() { throw .stopped }
            let count = try reader.read(into: buffer.pixels, rowPixels: buffer.rowPixels, maxRows: buffer.height)
            guard count > 0 else { break }
            for y in 0..<min(count, sources.upperBound - position) { resampler.push(buffer.row(y)) }
            position += count
        }
        let rowsWithData = reader.rowsBeforeEndOfData
        return BandEnd(warning: reader.finish(), rowsWithData: rowsWithData)
    }
}
