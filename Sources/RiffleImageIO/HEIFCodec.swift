import CRiffleImaging
import RiffleGeometry
import RiffleRaster

/// HEIF (HEIC from phones) and AVIF through libheif (libde265 for HEVC, dav1d or aom for AV1):
/// the primary image decoded whole — a grid's tiles assembled by libheif — then shrunk to the
/// size shown (`StillDecoding.shrink`); its embedded thumbnail (phones put a ~320-pixel one in
/// every HEIC) as the instant preview; the EXIF item's details.
///
/// A HEIC libheif 1.15 refuses to open as invalid or unsupported (an auxiliary image referring
/// to two images, as recent iPhones' gain maps do; a primary item derived by `iden`) is read by
/// the shim itself (`heif_hevc.c`): its HEVC items straight through libde265, a grid's tiles
/// assembled, the transformations and the alpha image applied. It has no thumbnail or EXIF
/// details that way.
///
/// Orientation, the rule: libheif applies the file's transformative properties (irot, imir,
/// and clap) as it decodes, so the header's size is upright — made by the shim from ispe and
/// those properties in their order (libheif 1.15's own size misses a transformation listed
/// before ispe) — and its orientation is always `topLeft`; an EXIF Orientation in the Exif item is never applied on top, as HEIF
/// (ISO/IEC 23008-12, 6.5.12) makes those properties the only orientation a reader applies.
///
/// Colour: an ICC profile (colr 'prof' or 'rICC') goes to `ImageInfo.iccProfile`; for an image
/// described by nclx code points alone (most phones' HEIC, most AVIF), whose pixels are libheif's
/// conversion by the nclx matrix coefficients, the profile is built from its primaries and
/// transfer (`rfi_colour_profile_from_code_points`: BT.709, BT.2020 or Display P3 primaries;
/// sRGB, BT.709, gamma, linear, and PQ and HLG tone-mapped to SDR), none for sRGB's own code
/// points or ones Riffle does not know, which are read as sRGB.
///
/// Range: libheif converts YCbCr by its nclx range flag, but copies a monochrome image's grey
/// and an alpha plane as coded; the shim expands a limited-range grey (colr nclx, else the AV1
/// sequence header) and a limited-range alpha (its item's AV1 sequence header) to full range
/// (ITU-T H.273, 8.3).
///
/// Deep samples (10 and 12 bits) are dithered to 8 as they are converted (`DeepSamples`), before
/// the shrink.
///
/// Memory: libheif's decoded planes and its RGBA image (4 bytes a pixel at 8 bits, 8 deeper),
/// converted to BGRA in place and held while the shrink runs; a picture over the pixel limit is
/// refused before decoding.
struct HEIFCodec: ImageCodec {
    /// `.heif` or `.avif`: one library reads both.
    let format: ImageFormat

    func probe(head: [UInt8], path: String?) throws(ImageDecodeError) -> ImageInfo {
        try HEIFFile(path: path, bytes: head, format: format).info
    }

    func decodeFile(
        atPath path: String, shrunkTo target: (ImageInfo) -> PixelSize, filter: DownscaleFilter, pixelLimit: Int,
        until stop: () -> Bool
    ) throws(ImageDecodeError) -> DecodedImage {
        let file = try HEIFFile(path: path, bytes: [], format: format)
        if stop() { throw .stopped }
        let (pixels, translucent) = try file.decode(thumbnail: false, pixelLimit: pixelLimit)
        if stop() { throw .stopped }
        return StillDecoding.decoded(pixels, info: file.info, translucent: translucent, target: target(file.info), filter: filter)
    }

    func decode(_ bytes: [UInt8], atLeast target: PixelSize?, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage {
        let file = try HEIFFile(path: nil, bytes: bytes, format: format)
        let (pixels, translucent) = try file.decode(thumbnail: false, pixelLimit: pixelLimit)
        return StillDecoding.whole(pixels, info: file.info, translucent: translucent)
    }

    func decodeFile(atPath path: String, atLeast target: PixelSize?, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage {
        let file = try HEIFFile(path: path, bytes: [], format: format)
        let (pixels, translucent) = try file.decode(thumbnail: false, pixelLimit: pixelLimit)
        return StillDecoding.whole(pixels, info: file.info, translucent: translucent)
    }

    func embeddedThumbnail(head: [UInt8], path: String, info: ImageInfo) -> PixelBuffer? {
        guard let file = try? HEIFFile(path: path, bytes: [], format: format),
              let thumbnail = try? file.decode(thumbnail: true, pixelLimit: ExifThumbnail.maximumPixels)
        else { return nil }
        return thumbnail.pixels
    }

    func exifDetails(head: [UInt8], path: String?) -> ExifDetails? {
        guard let file = try? HEIFFile(path: path, bytes: head, format: format) else { return nil }
        return file.exifDetails()
    }
}

/// An open HEIF or AVIF file (`rfi_heif`) and its primary image's header.
private final class HEIFFile {
    let info: ImageInfo
    private let heif: OpaquePointer?
    /// The file or bytes libheif reads, kept for as long as it reads them.
    private let input: LibraryInput

    /// Opens the file at `path`, or `bytes` when `path` is nil.
    init(path: String?, bytes data: [UInt8], format: ImageFormat) throws(ImageDecodeError) {
        var opened: OpaquePointer?
        var header = rfi_still_header()
        var message = MessageBuffer()
        let input = try LibraryInput(path: path, bytes: data)
        let status = message.withPointer { text, capacity in
            input.open { path, bytes, count in rfi_heif_open(path, bytes, count, &opened, &header, text, capacity) }
        }
        self.input = input
        try ImageDecoder.check(status, format: format, message: message.text)
        heif = opened
        info = StillDecoding.info(&header, format: format)
    }

    deinit {
        rfi_heif_close(heif)
    }

    /// The primary image (or its first thumbnail), upright premultiplied BGRA, and whether a
    /// pixel is translucent.
    func decode(thumbnail: Bool, pixelLimit: Int) throws(ImageDecodeError) -> (pixels: PixelBuffer, translucent: Bool) {
        var pixels = rfi_image_pixels()
        var message = MessageBuffer()
        let status = message.withPointer { rfi_heif_decode(heif, thumbnail ? 1 : 0, Int64(pixelLimit), &pixels, $0, $1) }
        try StillDecoding.check(status, info: info, message: message.text, pixelLimit: pixelLimit)
        guard let buffer = StillDecoding.buffer(pixels) else {
            throw ImageDecodeError(reason: "The \(info.format.displayName) decoder returned no pixels")
        }
        return (buffer, pixels.translucent != 0)
    }

    /// The details of the primary image's Exif item.
    func exifDetails() -> ExifDetails? {
        var exif = rfi_bytes()
        guard rfi_heif_exif(heif, &exif) == RFI_STATUS_OK, let data = exif.data else { return nil }
        defer { rfi_bytes_free(data) }
        return ExifDetails.read(segment: UnsafeBufferPointer(start: data, count: exif.length))
    }
}
