import CRiffleImaging
import RiffleGeometry
import RiffleRaster

/// Camera RAW through LibRaw: RAF, CRW, CR3, ORF, RW2 and CR2 by their own signatures, and the
/// TIFF-based ones (DNG, NEF, ARW, PEF, …) handed over by `TIFFCodec` (`CameraTIFF`'s rule).
///
/// What is shown: the camera's embedded preview (`libraw_unpack_thumb`, usually a full-size
/// JPEG) decoded through Riffle's JPEG path, DCT-scaled, whenever it covers the size asked for
/// — at fit, that is always — and the full development (`libraw_dcraw_process`: camera white
/// balance, AHD demosaicing, sRGB, 8 bits) only when a zoom asks for more pixels than the
/// preview has; at half size each way (LibRaw's half_size: no demosaicing, 4× fewer pixels)
/// when that is enough. The development runs only when its working memory (`rfi_raw_develop`:
/// about 2 bytes a sensor pixel and 15 an output pixel; ~360 MB for 24 MP at full size) stays
/// within 8 bytes a pixel of the pixel limit plus 16 MiB — the allowance a JPEG decode has
/// (`rfi_jpeg_working_memory_limit`); past it the preview is shown at its own resolution instead.
/// A development takes seconds (LibRaw's AHD on one core); `stop` is asked at each of its
/// steps. A file that ends before its picture data (a copy of a camera file's metadata alone)
/// is not developed: the preview stands in, with a warning saying so, or the error says so.
///
/// Orientation, the rule: the header's orientation is the RAW's (LibRaw's flip, from the
/// camera's Orientation tag). The preview is stored as the sensor is, so Riffle turns it
/// upright by that orientation — never by an EXIF orientation inside the preview JPEG itself;
/// the developed picture comes from LibRaw already upright.
struct RAWCodec: ImageCodec {
    var format: ImageFormat { .raw }

    func probe(head: [UInt8], path: String?) throws(ImageDecodeError) -> ImageInfo {
        try RAWFile(path: path, bytes: head).info
    }

    func decodeFile(
        atPath path: String, shrunkTo target: (ImageInfo) -> PixelSize, filter: DownscaleFilter, pixelLimit: Int,
        until stop: () -> Bool
    ) throws(ImageDecodeError) -> DecodedImage {
        let file = try RAWFile(path: path, bytes: [])
        let size = target(file.info)
        return try Self.decode(
            file, reopen: { () throws(ImageDecodeError) in try RAWFile(path: path, bytes: []) }, target: size, filter: filter,
            pixelLimit: pixelLimit, until: stop)
    }

    func decode(_ bytes: [UInt8], atLeast target: PixelSize?, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage {
        let file = try RAWFile(path: nil, bytes: bytes)
        return try Self.decode(
            file, reopen: { () throws(ImageDecodeError) in try RAWFile(path: nil, bytes: bytes) }, target: target ?? file.info.uprightSize,
            filter: .area, pixelLimit: pixelLimit, until: { false })
    }

    func decodeFile(atPath path: String, atLeast target: PixelSize?, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage {
        let file = try RAWFile(path: path, bytes: [])
        return try Self.decode(
            file, reopen: { () throws(ImageDecodeError) in try RAWFile(path: path, bytes: []) }, target: target ?? file.info.uprightSize,
            filter: .area, pixelLimit: pixelLimit, until: { false })
    }

    /// The preview, decoded at 1/8 (a 6000×4000 camera preview gives 750×500 in a few
    /// milliseconds), upright.
    func embeddedThumbnail(head: [UInt8], path: String, info: ImageInfo) -> PixelBuffer? {
        guard let file = try? RAWFile(path: path, bytes: []),
              let preview = try? file.preview(atLeast: PixelSize(width: 1, height: 1), pixelLimit: ExifThumbnail.maximumPixels)
        else { return nil }
        return file.info.orientation.upright(preview)
    }

    func exifDetails(head: [UInt8], path: String?) -> ExifDetails? {
        (try? RAWFile(path: path, bytes: head))?.details()
    }

    /// The picture of `file` for `target` (upright): from the preview when it covers the target,
    /// else developed (from a fresh `reopen`: LibRaw unpacks a file once), else the preview.
    private static func decode(
        _ file: RAWFile, reopen: () throws(ImageDecodeError) -> RAWFile, target: PixelSize, filter: DownscaleFilter, pixelLimit: Int,
        until stop: () -> Bool
    ) throws(ImageDecodeError) -> DecodedImage {
        let info = file.info
        let storedTarget = info.orientation.storedSize(ofUpright: target)
        let oversampled = PixelSize(
            width: storedTarget.width * ImageDecoder.jpegOversampling(for: filter),
            height: storedTarget.height * ImageDecoder.jpegOversampling(for: filter))
        let previewCovers = file.previewSize.width >= storedTarget.width && file.previewSize.height >= storedTarget.height
        if stop() { throw .stopped }
        // Why the development failed when the preview stands in for it, for the viewer to say.
        var warning: String?
        if !previewCovers {
            let half = PixelSize(width: info.storedSize.width / 2, height: info.storedSize.height / 2)
            let halfCovers = half.width >= storedTarget.width && half.height >= storedTarget.height
            do {
                let developed = try file.develop(half: halfCovers, pixelLimit: pixelLimit, until: stop)
                // Upright already: shrink it as a picture with no orientation of its own.
                let upright = ImageInfo(format: .raw, storedSize: developed.size)
                return DecodedImage(
                    pixels: StillDecoding.shrink(developed, info: upright, to: target, filter: filter), info: info, warning: nil,
                    isOpaque: true)
            } catch where error == .stopped {
                throw error
            } catch {
                // Too large to develop within the memory allowed, or LibRaw cannot develop this
                // camera's data: the preview at its own resolution is the best there is. Data
                // that is not in the file at all is said.
                guard file.previewSize.width > 0 else { throw error }
                if error.reason.contains(RAWFile.noPictureData) { warning = error.reason }
            }
        }
        let preview = try reopen().preview(atLeast: oversampled, pixelLimit: pixelLimit)
        if stop() { throw .stopped }
        let previewInfo = ImageInfo(format: .raw, storedSize: preview.size, orientation: info.orientation)
        return DecodedImage(
            pixels: StillDecoding.shrink(preview, info: previewInfo, to: target, filter: filter), info: info, warning: warning,
            isOpaque: true)
    }
}

/// An open camera RAW file (`rfi_raw`), identified.
private final class RAWFile {
    let info: ImageInfo
    /// The embedded preview's size as stored; zero when there is none.
    let previewSize: PixelSize
    private let raw: OpaquePointer?
    /// The file or bytes LibRaw reads, kept for as long as it reads them.
    private let input: LibraryInput

    /// Opens the file at `path`, or `bytes` when `path` is nil.
    init(path: String?, bytes data: [UInt8]) throws(ImageDecodeError) {
        var opened: OpaquePointer?
        var header = rfi_raw_header()
        var message = MessageBuffer()
        let input = try LibraryInput(path: path, bytes: data)
        let status = message.withPointer { text, capacity in
            input.open { path, bytes, count in rfi_raw_open(path, bytes, count, &opened, &header, text, capacity) }
        }
        self.input = input
        try ImageDecoder.check(status, format: .raw, message: message.text)
        raw = opened
        info = ImageInfo(format: .raw, header: header.image)
        previewSize = PixelSize(width: Int(header.preview_width), height: Int(header.preview_height))
    }

    deinit {
        rfi_raw_close(raw)
    }

    /// The embedded preview as stored (sensor orientation): a JPEG decoded at the least DCT
    /// reduction still at least `target` (stored), its own EXIF orientation ignored; a bitmap
    /// as it is.
    func preview(atLeast target: PixelSize, pixelLimit: Int) throws(ImageDecodeError) -> PixelBuffer {
        var jpeg = rfi_bytes()
        var bitmap = rfi_image_pixels()
        var message = MessageBuffer()
        let status = message.withPointer { rfi_raw_preview(raw, Int64(pixelLimit), &jpeg, &bitmap, $0, $1) }
        try ImageDecoder.check(status, format: .raw, message: message.text)
        if let data = jpeg.data {
            defer { rfi_bytes_free(data) }
            let bytes = Array(UnsafeBufferPointer(start: data, count: jpeg.length))
            let header = try JPEGCodec().probe(head: bytes, path: nil)
            let stored = ImageInfo(format: .jpeg, storedSize: header.storedSize)
            return try ImageDecoder.decodeJPEG(bytes, info: stored, atLeast: target, pixelLimit: pixelLimit).pixels
        }
        guard let pixels = StillDecoding.buffer(bitmap) else {
            throw ImageDecodeError(reason: "The camera file's preview holds no pixels")
        }
        return pixels
    }

    /// How the shim's message begins when the picture data is not in the file (`rfi_raw_develop`).
    static let noPictureData = "no picture data"

    /// The developed picture, upright, at half size each way when `half`; an error beginning
    /// "The camera file has no picture data" when the file ends before it.
    func develop(half: Bool, pixelLimit: Int, until stop: () -> Bool) throws(ImageDecodeError) -> PixelBuffer {
        // A JPEG decode's allowance (`rfi_jpeg_working_memory_limit`): 8 bytes a limit pixel + 16 MiB.
        let (limit, overflow) = pixelLimit.multipliedReportingOverflow(by: 8)
        let memoryLimit = overflow ? Int64.max : Int64(limit) + (16 << 20)
        var pixels = rfi_image_pixels()
        var message = MessageBuffer()
        let status = withoutActuallyEscaping(stop) { stop in
            let asker = StopAsker(stop)
            return withExtendedLifetime(asker) {
                message.withPointer {
                    rfi_raw_develop(
                        raw, half ? 1 : 0, memoryLimit, { context in
                            Unmanaged<StopAsker>.fromOpaque(context!).takeUnretainedValue().stop() ? 1 : 0
                        }, Unmanaged.passUnretained(asker).toOpaque(), &pixels, $0, $1)
                }
            }
        }
        if status == RFI_STATUS_INVALID_REQUEST && message.text == "stopped" { throw .stopped }
        if status != RFI_STATUS_OK && message.text.hasPrefix(Self.noPictureData) {
            throw ImageDecodeError(reason: "The camera file has \(message.text)")
        }
        try StillDecoding.check(status, info: info, message: message.text, pixelLimit: pixelLimit)
        guard let buffer = StillDecoding.buffer(pixels) else {
            throw ImageDecodeError(reason: "The RAW decoder returned no pixels")
        }
        return buffer
    }

    /// What LibRaw read of how the photo was taken.
    func details() -> ExifDetails? {
        var raw = rfi_exif_details()
        guard rfi_raw_details(self.raw, &raw) == RFI_STATUS_OK else { return nil }
        return ExifDetails(raw)
    }
}

/// A decode's `stop` closure, for LibRaw's progress callback to ask.
private final class StopAsker {
    let stop: () -> Bool
    init(_ stop: @escaping () -> Bool) { self.stop = stop }
}
