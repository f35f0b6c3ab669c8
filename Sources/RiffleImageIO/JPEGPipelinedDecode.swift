import CRiffleImaging
import Dispatch
import RiffleGeometry
import RiffleRaster
import Synchronization

/// A JPEG's Lanczos-3 decode spread over two cores: the photo a person waits for, decoded by
/// both cores of a two-core machine instead of one.
///
/// A sequential JPEG's entropy-coded data has no entry points without restart markers, so the
/// Huffman pass must run from the top to reach any row, on one thread. Everything after it can
/// run beside it. So the decode is a pipeline of two readers of the file: on the second core,
/// one entropy-decodes the scan into a feed of coefficient blocks, MCU row after MCU row
/// (`JPEGCoefficientFeed`); on the calling thread, the other takes those blocks in place of its
/// own entropy decoding and dequantises, inverse-transforms, upsamples and converts them to
/// rows, which Lanczos-3 shrinks as they come, exactly as a decode on one core does
/// (`ImageDecoder.decodeJPEG`). With h the Huffman pass's share of a whole decode's time and
/// r = 1 − h the rest, the decode takes
///
///     max(h, r) · whole   (plus the time to fill the pipeline: one MCU row)
///
/// For the 24 MP photos of `make bench` decoded at 5/8 for a 1080p screen, the Huffman pass is
/// 48 ms and the rest 48 ms (the vector IDCTs of `jpeg_scaled_idct.c` and Lanczos loops of
/// `lanczos_avx2.c`): h ≈ r ≈ 0.5, the best split two cores can have, and the Huffman pass is
/// the floor. The cores do the whole decode's work once between them, where bands would each
/// have decoded the Huffman codes above their first row.
///
/// Memory: the feed holds a few MCU rows of coefficients (`RFI_JPEG_FEED_ROWS`: 1.7 MiB for a
/// 6000-pixel-wide 4:2:0 photo), never the picture's (72 MiB); the rows stream into the
/// resampler as in a one-core decode.
///
/// The result is the one-core decode's, bit for bit: the taking reader's blocks are the ones its
/// own entropy decoder would have given, and the warnings and the rows with data are met at the
/// same rows (`JPEGPipelinedDecodeTests`).
enum JPEGPipelinedDecode {
    /// A decode smaller than this many decoded pixels is not worth a second thread (the second
    /// reader's start and the hand-over outweigh the half saved).
    static let leastPipelinedPixels = 2_000_000

    /// How the feeding reader ended (its failure before it began feeding, if it had one), and a
    /// way to wait for it.
    private final class FeedingEnd: Sendable {
        private let end = Mutex<ImageDecodeError??>(nil)
        private let ended = DispatchSemaphore(value: 0)

        func finish(with failure: ImageDecodeError?) {
            end.withLock { $0 = .some(failure) }
            ended.signal()
        }

        /// Blocks until the feeding reader has ended; its failure before feeding, if it had one.
        func waitForEnd() -> ImageDecodeError? {
            ended.wait()
            return end.withLock { $0! }
        }
    }

    /// The feeding reader found another file than the taking reader's.
    private static let changed = ImageDecodeError(reason: "The file changed while it was read")

    /// Decodes the JPEG that `reader` has opened (not started), at `path`, shrunk with
    /// Lanczos-3 to `target(info)`, its Huffman pass on the thread `secondCore` starts; throws
    /// `.stopped` once `stop` says so. Falls back to the one-core `ImageDecoder.decodeJPEG` for a
    /// progressive file (whose rows all come after its whole data is read), a decode of fewer
    /// than `leastPixels` decoded pixels, or one the resampler only copies.
    static func decode(
        _ reader: JPEGRowReader, path: String, shrunkTo target: (ImageInfo) -> PixelSize, pixelLimit: Int,
        secondCore: ImageDecoder.SecondCore, leastPixels: Int = leastPipelinedPixels, until stop: @escaping @Sendable () -> Bool
    ) throws(ImageDecodeError) -> DecodedImage {
        let info = reader.info
        let size = target(info)
        guard let eighths = plan(info, shrunkTo: size, pixelLimit: pixelLimit, leastPixels: leastPixels) else {
            return try ImageDecoder.decodeJPEG(reader, shrunkTo: { _ in size }, filter: .lanczos3, pixelLimit: pixelLimit, until: stop)
        }
        let feed = try JPEGCoefficientFeed(for: info)
        reader.takeCoefficients(from: feed)
        let feeding = FeedingEnd()
        secondCore {
            // A failure before the feeding began: the taker meets only a feed that stopped.
            var failureBeforeFeeding: ImageDecodeError?
            do throws(ImageDecodeError) {
                let feeder = try JPEGRowReader(path: path)
                guard feeder.info == info else { throw changed }
                _ = try feeder.start(eighths: eighths, pixelLimit: pixelLimit)
                // A failure while feeding is handed to the taker at the MCU it happened at.
                try? feeder.feed(feed)
            } catch {
                failureBeforeFeeding = error
                feed.abandon()
            }
            feeding.finish(with: failureBeforeFeeding)
        }
        let decoded = Result { () throws(ImageDecodeError) -> DecodedImage in
            try ImageDecoder.decodeJPEG(reader, shrunkTo: { _ in size }, filter: .lanczos3, pixelLimit: pixelLimit, until: stop)
        }
        // A taker that stopped or failed leaves the feeding reader waiting for room: release it.
        if case .failure = decoded { feed.abandon() }
        let failureBeforeFeeding = feeding.waitForEnd()
        switch decoded {
        case .success(let image):
            return image
        case .failure(.stopped):
            throw .stopped
        case .failure(let error):
            throw failureBeforeFeeding ?? error
        }
    }

    /// The DCT scale of a pipelined decode of the JPEG `info` shrunk to `size` (upright); nil
    /// where it would decode on one core: a progressive file, fewer than `leastPixels` decoded
    /// pixels, or a result the resampler only copies.
    static func plan(_ info: ImageInfo, shrunkTo size: PixelSize, pixelLimit: Int, leastPixels: Int = leastPipelinedPixels) -> Int? {
        guard info.format == .jpeg, !info.hasMultipleScans,
              let eighths = try? ImageDecoder.jpegScaleEighths(for: info, shrunkTo: size, filter: .lanczos3, pixelLimit: pixelLimit)
        else { return nil }
        let decodedSize = ImageDecoder.scaledSize(info.storedSize, eighths: eighths)
        let storedTarget = info.orientation.storedSize(ofUpright: size)
        let resultSize = PixelSize(
            width: min(storedTarget.width, decodedSize.width), height: min(storedTarget.height, decodedSize.height))
        guard decodedSize.area >= leastPixels, resultSize != decodedSize else { return nil }
        return eighths
    }
}
