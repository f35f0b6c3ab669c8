import RiffleGeometry

/// The codecs Riffle decodes with, one a format, and the choice of one for some data by its
/// signature (`ImageFormat.detect`), never by a file name.
package enum ImageCodecs {
    /// How much of a file a probe reads: room for a JPEG's largest EXIF segment (64 KiB), an
    /// ICC profile in APP2 chunks and what comes before the frame header, or a HEIF's meta box.
    package static let headBytes = 256 << 10

    /// The codec for data of `format`.
    package static func codec(for format: ImageFormat) -> any ImageCodec {
        switch format {
        case .jpeg: JPEGCodec()
        case .png: PNGCodec()
        case .gif: GIFCodec()
        case .webp: WebPCodec()
        case .tiff: TIFFCodec()
        case .heif, .avif: HEIFCodec(format: format)
        case .jxl: JXLCodec()
        case .raw: RAWCodec()
        }
    }

    /// The codec for the data that starts with `head`; throws for empty data and data of no
    /// format Riffle reads.
    package static func codec(forHead head: [UInt8]) throws(ImageDecodeError) -> any ImageCodec {
        guard !head.isEmpty else { throw ImageDecodeError(reason: "The file is empty") }
        guard let format = ImageFormat.detect(head) else {
            throw ImageDecodeError(reason: notAnImage)
        }
        return codec(for: format)
    }

    /// The refusal of data whose signature is none of `ImageFormat`'s.
    package static let notAnImage = "The file is not an image in a format Riffle reads"
}
