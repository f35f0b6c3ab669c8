import CRiffleImaging
import RiffleGeometry
import RiffleRaster

/// PNG through libpng, streamed row by row from the file (`ImageDecoder`'s PNG half, see
/// `PNGDecoding.swift`), its eXIf chunk's details, tiles for huge pictures (`TileDecoder`), and
/// the colour profile its iCCP, sRGB, gAMA and cHRM chunks give it. An APNG's frames play as an
/// animation (`CanvasFrames` over `rfi_apng_*`); its still picture is the IDAT image, what every
/// PNG decoder shows: the first frame, or, when the first fcTL comes after the IDAT, the default
/// image the animation leaves out.
struct PNGCodec: ImageCodec {
    var format: ImageFormat { .png }
    /// Interlaced PNGs of up to this many pixels are decoded whole, then shrunk; larger ones
    /// read only the passes the target needs (`ImageDecoder.decodePNG`).
    var wholeInterlacedPixels = ImageDecoder.wholeInterlacedPixels
    var cutsTiles: Bool { true }

    func probe(head: [UInt8], path: String?) throws(ImageDecodeError) -> ImageInfo {
        var header = rfi_image_header()
        var message = MessageBuffer()
        let status = head.withUnsafeBufferPointer { data in
            message.withPointer { rfi_png_read_header(data.baseAddress, data.count, &header, $0, $1) }
        }
        try ImageDecoder.check(status, format: .png, message: message.text)
        return completing(ImageInfo(format: .png, header: header), head: head)
    }

    /// `info`, the header of the PNG whose first bytes are `head`, with what the chunks before
    /// its image data add: the colour profile, and that it moves when an acTL announces more
    /// than one frame (an APNG).
    func completing(_ info: ImageInfo, head: [UInt8]) -> ImageInfo {
        let profiled = info.with(iccProfile: colourProfile(head: head))
        guard let frames = PNGChunks.announcedFrames(inPNGHead: head), frames > 1 else { return profiled }
        return ImageInfo(
            format: .png, storedSize: profiled.storedSize, orientation: profiled.orientation,
            hasMultipleScans: profiled.hasMultipleScans, hasAlpha: profiled.hasAlpha, iccProfile: profiled.iccProfile,
            isAnimated: true)
    }

    /// The profile the chunks before the image data of the PNG whose first bytes are `head`
    /// give it (`rfi_png_read_colour_profile`); nil for sRGB, or when they say nothing.
    func colourProfile(head: [UInt8]) -> [UInt8]? {
        let read = head.withUnsafeBufferPointer { data in
            ShimBytes.read { rfi_png_read_colour_profile(data.baseAddress, data.count, $0, $1, $2) }
        }
        return read.status == RFI_STATUS_OK ? read.bytes : nil
    }

    func decodeFile(
        atPath path: String, shrunkTo target: (ImageInfo) -> PixelSize, filter: DownscaleFilter, pixelLimit: Int,
        until stop: () -> Bool
    ) throws(ImageDecodeError) -> DecodedImage {
        let head = try FileBytes.read(atPath: path, upTo: ImageCodecs.headBytes)
        let decoded = try ImageDecoder.decodePNG(
            PNGRowReader(path: path), shrunkTo: target, filter: filter, pixelLimit: pixelLimit,
            wholeInterlacedPixels: wholeInterlacedPixels, until: stop)
        return decoded.with(info: completing(decoded.info, head: head))
    }

    /// The whole picture at full size: libpng has no cheaper smaller decode.
    func decode(_ bytes: [UInt8], atLeast target: PixelSize?, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage {
        let decoded = try PNGRowReader.reading(bytes) { reader throws(ImageDecodeError) in
            try ImageDecoder.decodeWholePNG(reader, pixelLimit: pixelLimit).image
        }
        return decoded.with(info: completing(decoded.info, head: bytes))
    }

    /// The whole picture at full size, read from the file as it decodes, without holding the file.
    func decodeFile(atPath path: String, atLeast target: PixelSize?, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage {
        let head = try FileBytes.read(atPath: path, upTo: ImageCodecs.headBytes)
        let decoded = try ImageDecoder.decodeWholePNG(PNGRowReader(path: path), pixelLimit: pixelLimit).image
        return decoded.with(info: completing(decoded.info, head: head))
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
