import CRiffleImaging
import Glibc
import RiffleGeometry
import RiffleRaster

/// A JPEG decoded a few rows at a time from an open file, through libjpeg-turbo: the file is read
/// 64 KiB at a time and the rows go wherever the caller puts them, so neither the file nor the
/// picture at its decoded scale need ever be held whole.
///
/// Order of use: `start(eighths:pixelLimit:)`, then `read(into:rowPixels:maxRows:)` until it
/// returns 0, then `finish()`; the file stays open until the reader goes away. One thread at a
/// time. Two readers of one file may split a decode between two threads: one `feed(_:)`s the
/// coefficients the other `takeCoefficients(from:)` before its `start` (`JPEGPipelinedDecode`).
package final class JPEGRowReader {
    /// The header: stored size, EXIF orientation, scans.
    package let info: ImageInfo
    private var reader: OpaquePointer?
    private let descriptor: Int32
    /// The limit `start` was given, for the words of a failure while reading.
    private var pixelLimit = 0
    /// The feed the reader takes its coefficients from, kept until the reader is closed.
    private var takenFeed: JPEGCoefficientFeed?

    /// Opens the file at `path` and reads its JPEG header. Throws with the OS's reason for a file
    /// that cannot be opened, and the decoder's for data that is not a readable JPEG.
    /// `vectorIDCT` false decodes a 5/8 scale with libjpeg-turbo's own scalar IDCTs instead of
    /// Riffle's AVX2 ones (`jpeg_scaled_idct.c`): the same samples, for tests and benchmarks.
    package init(path: String, vectorIDCT: Bool = true) throws(ImageDecodeError) {
        let opened = try ShimFileReader(path: path, format: .jpeg) { rfi_jpeg_reader_open_file($0, $1, $2, $3, $4) }
        descriptor = opened.descriptor
        reader = opened.reader
        info = opened.info
        rfi_jpeg_reader_set_vector_idct(reader, vectorIDCT ? 1 : 0)
    }

    deinit {
        rfi_jpeg_reader_close(reader, nil, 0)
        close(descriptor)
    }

    /// Starts decoding at `eighths`/8 of the stored size and returns the stored-orientation size
    /// of what `read` will deliver. Throws for an output over `pixelLimit` pixels.
    package func start(eighths: Int, pixelLimit: Int) throws(ImageDecodeError) -> PixelSize {
        var width: Int32 = 0, height: Int32 = 0
        var message = MessageBuffer()
        let status = message.withPointer {
            rfi_jpeg_reader_start(reader, Int32(eighths), Int64(pixelLimit), &width, &height, $0, $1)
        }
        self.pixelLimit = pixelLimit
        try ImageDecoder.check(status, format: .jpeg, message: message.text, size: info.uprightSize, pixelLimit: pixelLimit)
        return PixelSize(width: Int(width), height: Int(height))
    }

    /// Decodes up to `maxRows` next rows into `rows`, `rowPixels` apart, and returns how many
    /// (0 once every row is in). Throws for data libjpeg cannot get past.
    package func read(into rows: UnsafeMutablePointer<UInt32>, rowPixels: Int, maxRows: Int) throws(ImageDecodeError) -> Int {
        var count: Int32 = 0
        var message = MessageBuffer()
        let status = message.withPointer {
            rfi_jpeg_reader_read(reader, rows, Int32(rowPixels), Int32(maxRows), &count, $0, $1)
        }
        try ImageDecoder.check(status, format: .jpeg, message: message.text, size: info.uprightSize, pixelLimit: pixelLimit)
        return Int(count)
    }

    /// Before `start`: the reader's coefficients come from `feed`, whose feeding reader decodes
    /// the scan on another thread; its rows are the ones it would decode itself, bit for bit,
    /// and it fails where that reader fails (`rfi_jpeg_reader_consume_feed`).
    func takeCoefficients(from feed: JPEGCoefficientFeed) {
        takenFeed = feed
        rfi_jpeg_reader_consume_feed(reader, feed.pointer)
    }

    /// Once started, at the taking reader's scale: entropy-decodes the whole scan into `feed`,
    /// then reads the markers after it; returns when done or when the feed is given up
    /// (`rfi_jpeg_reader_feed`). Throws what stopped it, which the taker meets too.
    func feed(_ feed: JPEGCoefficientFeed) throws(ImageDecodeError) {
        var message = MessageBuffer()
        let status = message.withPointer { rfi_jpeg_reader_feed(reader, feed.pointer, $0, $1) }
        try ImageDecoder.check(status, format: .jpeg, message: message.text, size: info.uprightSize, pixelLimit: pixelLimit)
    }

    /// How many of the image's components decode through Riffle's vector IDCTs since `start`
    /// (`rfi_jpeg_use_vector_idct`: at 5/8, on a CPU with AVX2).
    package var vectorIDCTComponents: Int { Int(rfi_jpeg_reader_vector_idct_components(reader)) }

    /// How many rows had been read when the file's data ran out, or nil while it has not (see
    /// `rfi_jpeg_reader_rows_before_end_of_data`).
    var rowsBeforeEndOfData: Int? {
        let rows = rfi_jpeg_reader_rows_before_end_of_data(reader)
        return rows >= 0 ? Int(rows) : nil
    }

    /// Ends the decode (early, if rows remain: those are skipped unread) and returns the words
    /// for what it recovered from, as `DecodedImage.warning`; nil for a clean decode.
    package func finish() -> String? {
        var message = MessageBuffer()
        let warning = message.withPointer { rfi_jpeg_reader_close(reader, $0, $1) }
        reader = nil
        return ImageDecoder.warningText(warning, format: .jpeg, message: message.text)
    }
}
