import CRiffleImaging
import RiffleGeometry
import RiffleRaster

/// JPEG through libjpeg-turbo: DCT-scaled decodes streamed from the file (`ImageDecoder`'s JPEG
/// half), the EXIF thumbnail, and tiles for huge photos (`TileDecoder`).
struct JPEGCodec: ImageCodec {
    var format: ImageFormat { .jpeg }
    var decodesReduced: Bool { true }
    var cutsTiles: Bool { true }

    func probe(head: [UInt8], path: String?) throws(ImageDecodeError) -> ImageInfo {
        var header = rfi_image_header()
        var message = MessageBuffer()
        let status = head.withUnsafeBufferPointer { data in
            message.withPointer { rfi_jpeg_read_header(data.baseAddress, data.count, &header, $0, $1) }
        }
        try ImageDecoder.check(status, format: .jpeg, message: message.text)
        return ImageInfo(format: .jpeg, header: header)
    }

    func decodeFile(
        atPath path: String, shrunkTo target: (ImageInfo) -> PixelSize, filter: DownscaleFilter, pixelLimit: Int,
        until stop: () -> Bool
    ) throws(ImageDecodeError) -> DecodedImage {
        try ImageDecoder.decodeJPEG(JPEGRowReader(path: path), shrunkTo: target, filter: filter, pixelLimit: pixelLimit, until: stop)
    }

    func decode(_ bytes: [UInt8], atLeast target: PixelSize?, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage {
        try ImageDecoder.decodeJPEG(bytes, info: probe(head: bytes, path: nil), atLeast: target, pixelLimit: pixelLimit)
    }

    func embeddedThumbnail(head: [UInt8], path: String, info: ImageInfo) -> PixelBuffer? {
        ExifThumbnail.decode(fromJPEGHead: head, info: info)
    }

    func exifDetails(head: [UInt8]) -> ExifDetails? { ExifDetails.read(fromJPEGHead: head) }
}
