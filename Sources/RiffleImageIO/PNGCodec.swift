import CRiffleImaging
import RiffleGeometry
import RiffleRaster

/// PNG through libpng, streamed row by row from the file (`ImageDecoder`'s PNG half, see
/// `PNGDecoding.swift`), its eXIf chunk's details, and tiles for huge pictures (`TileDecoder`).
/// An APNG's frames play as an animation (`CanvasFrames` over `rfi_apng_*`); its still picture
/// is the IDAT image, what every PNG decoder shows: the first frame, or, when the first fcTL
/// comes after the IDAT, the default image the animation leaves out.
struct PNGCodec: ImageCodec {
    var format: ImageFormat { .png }
    var cutsTiles: Bool { true }

    func probe(head: [UInt8], path: String?) throws(ImageDecodeError) -> ImageInfo {
        var header = rfi_image_header()
        var message = MessageBuffer()
        let status = head.withUnsafeBufferPointer { data in
            message.withPointer { rfi_png_read_header(data.baseAddress, data.count, &header, $0, $1) }
        }
        try ImageDecoder.check(status, format: .png, message: message.text)
        return Self.markingAnimation(ImageInfo(format: .png, header: header), head: head)
    }

    /// `info`, the header of the PNG whose first bytes are `head`, saying it moves when an acTL
    /// there announces more than one frame (an APNG).
    static func markingAnimation(_ info: ImageInfo, head: [UInt8]) -> ImageInfo {
        guard let frames = PNGChunks.announcedFrames(inPNGHead: head), frames > 1 else { return info }
        return ImageInfo(
            format: .png, storedSize: info.storedSize, orientation: info.orientation, hasMultipleScans: info.hasMultipleScans,
            hasAlpha: info.hasAlpha, iccProfile: info.iccProfile, isAnimated: true)
    }

    func decodeFile(
        atPath path: String, shrunkTo target: (ImageInfo) -> PixelSize, filter: DownscaleFilter, pixelLimit: Int,
        until stop: () -> Bool
    ) throws(ImageDecodeError) -> DecodedImage {
        try ImageDecoder.decodePNG(
            PNGRowReader(path: path), shrunkTo: target, filter: filter, pixelLimit: pixelLimit,
            wholeInterlacedPixels: ImageDecoder.wholeInterlacedPixels, until: stop)
    }

    /// The whole picture at full size: libpng has no cheaper smaller decode.
    func decode(_ bytes: [UInt8], atLeast target: PixelSize?, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage {
        try PNGRowReader.reading(bytes) { reader throws(ImageDecodeError) in
            try ImageDecoder.decodeWholePNG(reader, pixelLimit: pixelLimit).image
        }
    }

    /// The whole picture at full size, read from the file as it decodes, without holding the file.
    func decodeFile(atPath path: String, atLeast target: PixelSize?, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage {
        try ImageDecoder.decodeWholePNG(PNGRowReader(path: path), pixelLimit: pixelLimit).image
    }

    func exifDetails(head: [UInt8]) -> ExifDetails? { ExifDetails.read(fromPNGHead: head) }

    /// The APNG's frames (turned upright as the eXIf orientation says); nil for a still PNG.
    func animation(atPath path: String, fitting size: PixelSize, pixelLimit: Int) throws(ImageDecodeError) -> (any ImageAnimation)? {
        let bytes = try FileBytes.read(atPath: path)
        let info = try probe(head: bytes, path: nil)
        guard info.isAnimated else { return nil }
        let frames = try CanvasFrames(
            bytes: bytes, format: .png, pixelLimit: pixelLimit, open: rfi_apng_open, next: rfi_apng_next, close: rfi_apng_close)
        guard frames.frameCount > 1 else { return nil }
        return CanvasAnimation(frames, info: info, fitting: size)
    }
}
