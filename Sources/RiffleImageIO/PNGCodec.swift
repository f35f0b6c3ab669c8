import CRiffleImaging
import RiffleGeometry
import RiffleRaster

/// PNG through libpng, streamed row by row from the file (`ImageDecoder`'s PNG half, see
/// `PNGDecoding.swift`), its eXIf chunk's details, and tiles for huge pictures (`TileDecoder`).
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
        return ImageInfo(format: .png, header: header)
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
}
