import CRiffleImaging
import RiffleGeometry
import RiffleRaster

/// JPEG XL through libjxl: the first frame decoded whole at its stored orientation (a JPEG
/// recompressed into JPEG XL decodes to pixels like any other), then shrunk to the size shown and
/// turned upright by the codestream's orientation — Riffle applies it, as it does a JPEG's or a
/// TIFF's, so `ImageInfo.orientation` is the file's. Samples deeper than 8 bits, and floats,
/// come from libjxl as 16 bits and are dithered to 8 (`DeepSamples`), before the shrink. The ICC profile is libjxl's for the pixels it
/// delivers (its "data" encoding): the one stored, or one it writes for an enumerated colour
/// encoding; a lossy (XYB) file whose own profile is an ICC one libjxl 0.7 cannot convert to is
/// delivered as sRGB. A CMYK file (C, M and Y as its colour channels, K as a black extra
/// channel, a CMYK profile) is converted through its profile to sRGB as it is decoded, as a CMYK
/// JPEG is, and its header carries no profile. The "Exif" box gives the details.
///
/// Memory: the whole picture as BGRA (libjxl writes rows straight into it) and libjxl's own
/// working frame; the file is read whole.
struct JXLCodec: ImageCodec {
    var format: ImageFormat { .jxl }

    func probe(head: [UInt8], path: String?) throws(ImageDecodeError) -> ImageInfo {
        var header = rfi_still_header()
        var message = MessageBuffer()
        let status = head.withUnsafeBufferPointer { data in
            message.withPointer { rfi_jxl_read_header(data.baseAddress, data.count, &header, $0, $1) }
        }
        try ImageDecoder.check(status, format: .jxl, message: message.text)
        return StillDecoding.info(&header, format: .jxl)
    }

    func decodeFile(
        atPath path: String, shrunkTo target: (ImageInfo) -> PixelSize, filter: DownscaleFilter, pixelLimit: Int,
        until stop: () -> Bool
    ) throws(ImageDecodeError) -> DecodedImage {
        let bytes = try FileBytes.read(atPath: path)
        let info = try probe(head: bytes, path: nil)
        if stop() { throw .stopped }
        let (pixels, translucent) = try Self.stored(bytes, info: info, pixelLimit: pixelLimit)
        if stop() { throw .stopped }
        return StillDecoding.decoded(pixels, info: info, translucent: translucent, target: target(info), filter: filter)
    }

    func decode(_ bytes: [UInt8], atLeast target: PixelSize?, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage {
        let info = try probe(head: bytes, path: nil)
        let (pixels, translucent) = try Self.stored(bytes, info: info, pixelLimit: pixelLimit)
        return StillDecoding.whole(pixels, info: info, translucent: translucent)
    }

    func exifDetails(head: [UInt8], path: String?) -> ExifDetails? {
        // The box can come after the codestream: read the whole file when there is one.
        let bytes = path.flatMap { try? FileBytes.read(atPath: $0) } ?? head
        var exif = rfi_bytes()
        let status = bytes.withUnsafeBufferPointer { rfi_jxl_exif($0.baseAddress, $0.count, &exif) }
        guard status == RFI_STATUS_OK, let data = exif.data else { return nil }
        defer { rfi_bytes_free(data) }
        return ExifDetails.read(segment: UnsafeBufferPointer(start: data, count: exif.length))
    }

    /// The first frame of `bytes` (whose header is `info`) at its stored orientation.
    private static func stored(_ bytes: [UInt8], info: ImageInfo, pixelLimit: Int) throws(ImageDecodeError) -> (PixelBuffer, Bool) {
        var pixels = rfi_image_pixels()
        var message = MessageBuffer()
        let status = bytes.withUnsafeBufferPointer { data in
            message.withPointer { rfi_jxl_decode(data.baseAddress, data.count, Int64(pixelLimit), &pixels, $0, $1) }
        }
        try StillDecoding.check(status, info: info, message: message.text, pixelLimit: pixelLimit)
        guard let buffer = StillDecoding.buffer(pixels) else {
            throw ImageDecodeError(reason: "The JPEG XL decoder returned no pixels")
        }
        return (buffer, pixels.translucent != 0)
    }
}
