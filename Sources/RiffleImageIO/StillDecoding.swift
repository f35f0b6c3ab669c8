import CRiffleImaging
import RiffleGeometry
import RiffleRaster

/// What the still formats decoded whole (HEIF, AVIF, JPEG XL, a developed RAW) share: the shim's
/// pixels wrapped without a copy, their header as an `ImageInfo`, and the shrink from the whole
/// picture to the size shown.
enum StillDecoding {
    /// The shim's `pixels` as a buffer that releases them (libheif's image, or a malloc'ed
    /// block) when it goes away; nil when the shim delivered none.
    static func buffer(_ pixels: rfi_image_pixels) -> PixelBuffer? {
        guard let base = pixels.pixels, pixels.width > 0, pixels.height > 0 else {
            var empty = pixels
            rfi_image_pixels_release(&empty)
            return nil
        }
        let owned = ShimPixels(pixels)
        return PixelBuffer(
            wrapping: base, width: Int(pixels.width), height: Int(pixels.height), rowPixels: Int(pixels.row_pixels),
            release: { _ in owned.release() })
    }

    /// The header the shim read for a still of `format`, its ICC profile copied out (and freed
    /// in the shim's header).
    static func info(_ header: inout rfi_still_header, format: ImageFormat) -> ImageInfo {
        defer { rfi_still_header_free(&header) }
        var icc: [UInt8]?
        if let data = header.icc.data, header.icc.length > 0 {
            icc = Array(UnsafeBufferPointer(start: data, count: header.icc.length))
        }
        let image = header.image
        return ImageInfo(
            format: format, storedSize: PixelSize(width: Int(image.width), height: Int(image.height)),
            orientation: ImageOrientation(rawValue: Int(image.orientation)) ?? .topLeft, hasAlpha: image.has_alpha != 0,
            iccProfile: icc)
    }

    /// `stored`, a whole picture as the file stores it (described by `info`), shrunk by `filter`
    /// to `target` (upright; each side capped at the picture's) and turned upright.
    ///
    /// A picture far larger than the target is first box-halved (2×2 means) while the halved
    /// picture still covers `ImageDecoder.jpegOversampling(for: filter)` times the target —
    /// twice it for Lanczos-3 — which is what a JPEG's DCT scaling does before the same filter
    /// (a 1/2 IDCT is close to a 2×2 mean), so the formats decoded whole come out as sharp as a
    /// JPEG and the Lanczos pass runs over a quarter or a sixteenth of the pixels. Shrinking
    /// happens in the stored orientation, the turn after, on the small result.
    static func shrink(_ stored: PixelBuffer, info: ImageInfo, to target: PixelSize, filter: DownscaleFilter) -> PixelBuffer {
        let storedTarget = info.orientation.storedSize(ofUpright: target)
        let size = PixelSize(width: min(storedTarget.width, stored.width), height: min(storedTarget.height, stored.height))
        let margin = ImageDecoder.jpegOversampling(for: filter)
        var picture = stored
        while (picture.width + 1) / 2 >= size.width * margin && (picture.height + 1) / 2 >= size.height * margin
            && picture.width > 1 && picture.height > 1
        {
            picture = BoxDownsample.halved(picture)
        }
        return info.orientation.upright(filter.shrink(picture, to: size, kernels: .fastest))
    }

    /// A decoded whole picture as `ImageCodec.decodeFile(atPath:shrunkTo:filter:pixelLimit:until:)`
    /// delivers it: `stored` shrunk to `target(info)` and turned upright.
    static func decoded(
        _ stored: PixelBuffer, info: ImageInfo, translucent: Bool, target: PixelSize, filter: DownscaleFilter
    ) -> DecodedImage {
        DecodedImage(pixels: shrink(stored, info: info, to: target, filter: filter), info: info, warning: nil, isOpaque: !translucent)
    }

    /// The upright picture at full size (for the decodes of bytes in memory).
    static func whole(_ stored: PixelBuffer, info: ImageInfo, translucent: Bool) -> DecodedImage {
        DecodedImage(pixels: info.orientation.upright(stored), info: info, warning: nil, isOpaque: !translucent)
    }

    /// The error of a whole decode that the shim refused as too large: the picture is more than
    /// `pixelLimit` pixels.
    static func check(_ status: rfi_status, info: ImageInfo, message: String, pixelLimit: Int) throws(ImageDecodeError) {
        try ImageDecoder.check(status, format: info.format, message: message, size: info.uprightSize, pixelLimit: pixelLimit)
    }
}

/// The shim's pixels and their owner, released once.
private final class ShimPixels: @unchecked Sendable {
    // Touched only by `release`, which the buffer's deinit runs once.
    private var pixels: rfi_image_pixels

    init(_ pixels: rfi_image_pixels) { self.pixels = pixels }

    func release() { rfi_image_pixels_release(&pixels) }
}
