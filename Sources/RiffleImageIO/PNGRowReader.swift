import CRiffleImaging
import Glibc
import RiffleGeometry

/// Where a batch of rows from a `PNGRowReader` belongs in the picture (as stored).
struct PNGRows {
    /// Rows delivered; 0 once every row of every pass is in.
    let count: Int
    /// How many of the first rows came from the data; the rest are grey fill for a file that
    /// ends early.
    let decoded: Int
    /// Some pixel of these rows has alpha below 255.
    let isTranslucent: Bool
    /// Index within the pass of the first row delivered.
    let firstRow: Int
    /// Pixels in each row.
    let width: Int
    /// Pixel i of pass row j is stored pixel (x0 + i·dx, y0 + j·dy): (0, 0, 1, 1) without
    /// interlacing.
    let x0: Int
    let y0: Int
    let dx: Int
    let dy: Int

    init(_ rows: rfi_png_rows) {
        count = Int(rows.count)
        decoded = Int(rows.decoded)
        isTranslucent = rows.translucent != 0
        firstRow = Int(rows.first_row)
        width = Int(rows.width)
        x0 = Int(rows.x0)
        y0 = Int(rows.y0)
        dx = Int(rows.dx)
        dy = Int(rows.dy)
    }

    /// True when every pixel of these rows lies on the grid of every `step`-th stored row and
    /// column (step a power of two), i.e. in the picture subsampled by `step`.
    func lies(onGridOf step: Int) -> Bool {
        x0 % step == 0 && y0 % step == 0 && dx % step == 0 && dy % step == 0
    }
}

/// A PNG decoded a few rows at a time through libpng (`rfi_png_reader`): read from its file
/// 64 KiB at a time (or from bytes in memory), the rows going wherever the caller puts them, so
/// neither the file nor the picture need ever be held whole. An interlaced picture's rows come
/// pass by pass, each with only its pass's pixels (`PNGRows` says where they go).
///
/// Order of use: `start()`, then `read(into:rowPixels:maxRows:)` until it delivers no row, then
/// `readText()` if the text chunks are wanted, then `finish()`; a reader over a file keeps it
/// open until the reader goes away. One thread at a time.
final class PNGRowReader {
    /// The header: stored size, eXIf orientation, interlacing, transparency.
    let info: ImageInfo
    private var reader: OpaquePointer?
    /// The file read from, or −1 for bytes in memory.
    private let descriptor: Int32

    /// Opens the file at `path` and reads its PNG header. Throws with the OS's reason for a file
    /// that cannot be opened, and the decoder's for data that is not a readable PNG.
    init(path: String) throws(ImageDecodeError) {
        let opened = try ShimFileReader(path: path, format: .png) { rfi_png_reader_open_file($0, $1, $2, $3, $4) }
        descriptor = opened.descriptor
        reader = opened.reader
        info = opened.info
    }

    private init(data: UnsafeBufferPointer<UInt8>) throws(ImageDecodeError) {
        var header = rfi_image_header()
        var message = MessageBuffer()
        var opened: OpaquePointer?
        let status = message.withPointer {
            rfi_png_reader_open_memory(data.baseAddress, data.count, &opened, &header, $0, $1)
        }
        try ImageDecoder.check(status, format: .png, message: message.text)
        descriptor = -1
        reader = opened
        info = ImageInfo(format: .png, header: header)
    }

    /// Runs `body` with a reader over the PNG in `bytes`; the reader must not outlive `body`.
    static func reading<Result>(
        _ bytes: [UInt8], _ body: (PNGRowReader) throws(ImageDecodeError) -> Result
    ) throws(ImageDecodeError) -> Result {
        let outcome = bytes.withUnsafeBufferPointer { data in
            Swift.Result { () throws(ImageDecodeError) in try body(try PNGRowReader(data: data)) }
        }
        return try outcome.get()
    }

    deinit {
        rfi_png_reader_close(reader, nil, 0)
        if descriptor >= 0 { close(descriptor) }
    }

    /// Sets up the conversion of every row to premultiplied BGRA.
    func start() throws(ImageDecodeError) {
        var message = MessageBuffer()
        let status = message.withPointer { rfi_png_reader_start(reader, $0, $1) }
        try ImageDecoder.check(status, format: .png, message: message.text, size: info.uprightSize)
    }

    /// Decodes up to `maxRows` next rows, all of one pass, into `rows`, `rowPixels` apart (at
    /// least the stored width, whatever the pass's), and says where they go. Data that ends
    /// early gives grey rows (see `finish`); other damage throws.
    func read(into rows: UnsafeMutablePointer<UInt32>, rowPixels: Int, maxRows: Int) throws(ImageDecodeError) -> PNGRows {
        var batch = rfi_png_rows()
        var message = MessageBuffer()
        let status = message.withPointer {
            rfi_png_reader_read(reader, rows, Int32(rowPixels), Int32(maxRows), &batch, $0, $1)
        }
        try ImageDecoder.check(status, format: .png, message: message.text, size: info.uprightSize)
        return PNGRows(batch)
    }

    /// Once every row is read, reads the chunks after the image data up to IEND and returns
    /// every text chunk of the file, before and after the image data, in file order. Throws for
    /// a file that does not end properly (its data ended early, or IEND is missing); only
    /// `finish()` may follow.
    func readText() throws(ImageDecodeError) -> [PNGTextChunk] {
        var list = rfi_png_text_list()
        defer { rfi_png_text_free(list.entries) }
        var message = MessageBuffer()
        let status = message.withPointer { rfi_png_reader_read_text(reader, &list, $0, $1) }
        try ImageDecoder.check(status, format: .png, message: message.text, size: info.uprightSize)
        return UnsafeBufferPointer(start: list.entries, count: Int(list.count)).map(PNGTextChunk.init(shimEntry:))
    }

    /// Ends the decode (early, if rows remain: those are never inflated) and returns the words
    /// for what it recovered from, as `DecodedImage.warning`; nil for a clean decode.
    func finish() -> String? {
        var message = MessageBuffer()
        let warning = message.withPointer { rfi_png_reader_close(reader, $0, $1) }
        reader = nil
        return ImageDecoder.warningText(warning, format: .png, message: message.text)
    }
}
