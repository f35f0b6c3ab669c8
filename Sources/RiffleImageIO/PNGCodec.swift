import CRiffleImaging
import RiffleGeometry
import RiffleRaster

/// PNG through libpng, streamed row by row from the file (`ImageDecoder`'s PNG half, see
/// `PNGDecoding.swift`), its eXIf chunk's details, tiles for huge pictures (`TileDecoder`), and
/// the colour profile its iCCP, sRGB, gAMA and cHRM chunks give it.
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
        return ImageInfo(format: .png, header: header).with(iccProfile: colourProfile(head: head))
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
        let profile = colourProfile(head: try FileBytes.read(atPath: path, upTo: ImageCodecs.headBytes))
        let decoded = try ImageDecoder.decodePNG(
            PNGRowReader(path: path), shrunkTo: target, filter: filter, pixelLimit: pixelLimit,
            wholeInterlacedPixels: wholeInterlacedPixels, until: stop)
        return decoded.with(info: decoded.info.with(iccProfile: profile))
    }

    /// The whole picture at full size: libpng has no cheaper smaller decode.
    func decode(_ bytes: [UInt8], atLeast target: PixelSize?, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage {
        let decoded = try PNGRowReader.reading(bytes) { reader throws(ImageDecodeError) in
            try ImageDecoder.decodeWholePNG(reader, pixelLimit: pixelLimit).image
        }
        return decoded.with(info: decoded.info.with(iccProfile: colourProfile(head: bytes)))
    }

    /// The whole picture at full size, read from the file as it decodes, without holding the file.
    func decodeFile(atPath path: String, atLeast target: PixelSize?, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage {
        let profile = colourProfile(head: try FileBytes.read(atPath: path, upTo: ImageCodecs.headBytes))
        let decoded = try ImageDecoder.decodeWholePNG(PNGRowReader(path: path), pixelLimit: pixelLimit).image
        return decoded.with(info: decoded.info.with(iccProfile: profile))
    }

    func exifDetails(head: [UInt8]) -> ExifDetails? { ExifDetails.read(fromPNGHead: head) }
}
