import CRiffleImaging
import RiffleGeometry
import RiffleRaster

/// WebP through libwebp: lossy and lossless stills, with or without alpha, decoded to
/// premultiplied BGRA; animations through libwebpdemux (`CanvasFrames` over
/// `rfi_webp_animation_*`), whose first frame is the still picture; the EXIF chunk's orientation
/// and details and the ICCP chunk's profile (`WebPChunks`).
///
/// A still decoded for a size shown (`decodeFile(atPath:shrunkTo:...)`) is rescaled by libwebp as
/// it decodes to `oversampling(for:)` times that size, then shrunk by the filter, so the picture
/// is never held at full size (96 MiB for 24 megapixels); see `scaledDecodeSize`. libwebp decodes
/// every macroblock whatever the output size (VP8 has no DCT scaling), so a small decode costs
/// nearly as much as a full one: `decodesReduced` stays false and no preview or draft is made.
struct WebPCodec: ImageCodec {
    var format: ImageFormat { .webp }

    func probe(head: [UInt8], path: String?) throws(ImageDecodeError) -> ImageInfo {
        let features = try Self.features(head)
        return Self.imageInfo(features, chunks: WebPChunks.read(head: head, path: path))
    }

    /// The picture at full size (within `pixelLimit`: a larger one is rescaled by libwebp to
    /// fit it), or an animation's first frame.
    func decode(_ bytes: [UInt8], atLeast target: PixelSize?, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage {
        let features = try Self.features(bytes)
        let info = Self.imageInfo(features, chunks: WebPChunks.read(head: bytes, path: nil))
        if features.has_animation != 0 { return try Self.frames(bytes, pixelLimit: pixelLimit).firstFrameImage(info: info) }
        return try Self.decodeStill(bytes, info: info, at: ImageDecoder.fitting(info.storedSize, within: pixelLimit), pixelLimit: pixelLimit)
    }

    func decodeFile(
        atPath path: String, shrunkTo target: (ImageInfo) -> PixelSize, filter: DownscaleFilter, pixelLimit: Int,
        until stop: () -> Bool
    ) throws(ImageDecodeError) -> DecodedImage {
        let bytes = try FileBytes.read(atPath: path)
        if stop() { throw .stopped }
        let features = try Self.features(bytes)
        let info = Self.imageInfo(features, chunks: WebPChunks.read(head: bytes, path: nil))
        let upright = target(info)
        let decoded: DecodedImage
        if features.has_animation != 0 {
            decoded = try Self.frames(bytes, pixelLimit: pixelLimit).firstFrameImage(info: info)
        } else {
            let size = Self.scaledDecodeSize(of: info, shownAt: upright, filter: filter)
            decoded = try Self.decodeStill(bytes, info: info, at: ImageDecoder.fitting(size, within: pixelLimit), pixelLimit: pixelLimit)
        }
        if stop() { throw .stopped }
        return decoded.shrunk(by: filter, to: upright)
    }

    func exifDetails(head: [UInt8]) -> ExifDetails? { exifDetails(head: head, path: nil) }

    /// The EXIF chunk's details, read from the file at `path` when the chunk lies past `head`
    /// (a large WebP keeps it after the image data).
    func exifDetails(head: [UInt8], path: String?) -> ExifDetails? {
        WebPChunks.read(head: head, path: path).exif.flatMap { ExifDetails.read(tiff: $0) }
    }

    func animation(atPath path: String, fitting size: PixelSize, pixelLimit: Int) throws(ImageDecodeError) -> (any ImageAnimation)? {
        let bytes = try FileBytes.read(atPath: path)
        let features = try Self.features(bytes)
        guard features.has_animation != 0 else { return nil }
        let frames = try Self.frames(bytes, pixelLimit: pixelLimit)
        guard frames.frameCount > 1 else { return nil }
        return CanvasAnimation(frames, info: Self.imageInfo(features, chunks: WebPChunks.read(head: bytes, path: nil)), fitting: size)
    }

    /// How many times the size shown a still is rescaled to by libwebp before `filter` shrinks
    /// it: twice for Lanczos-3, as a JPEG is DCT-scaled (`ImageDecoder.jpegOversampling`).
    /// libwebp's rescaler averages the area each output pixel covers (`WebPRescaler`), which at
    /// 1× leaves a fit softer and more aliased than Lanczos-3; from twice the size the last
    /// octave is Lanczos-3's, and `FitQualityTests` holds the result to Lanczos-3 of the full
    /// decode.
    static func oversampling(for filter: DownscaleFilter) -> Int {
        switch filter {
        case .area: 1
        case .lanczos3: 2
        }
    }

    /// The stored size a still WebP described by `info` is decoded at to be shown at `shown`
    /// (upright) through `filter`: `oversampling(for:)` times that, capped at the stored size;
    /// the stored size for a picture with alpha, since libwebp rescales a lossy picture's colour
    /// without weighting it by alpha (`EmitRescaledRGB` in libwebp's `src/dec/io_dec.c`), which
    /// would bleed the colour of transparent pixels into their neighbours.
    static func scaledDecodeSize(of info: ImageInfo, shownAt shown: PixelSize, filter: DownscaleFilter) -> PixelSize {
        let stored = info.storedSize
        guard !info.hasAlpha else { return stored }
        let margin = oversampling(for: filter)
        let target = info.orientation.storedSize(ofUpright: shown)
        return PixelSize(width: min(stored.width, target.width * margin), height: min(stored.height, target.height * margin))
    }

    /// The frames of the animated WebP in `bytes`.
    static func frames(_ bytes: [UInt8], pixelLimit: Int) throws(ImageDecodeError) -> CanvasFrames {
        try CanvasFrames(
            bytes: bytes, format: .webp, pixelLimit: pixelLimit, open: rfi_webp_animation_open, next: rfi_webp_animation_next,
            close: rfi_webp_animation_close)
    }

    /// The still WebP in `bytes` (header `info`) decoded at `size` (stored orientation), turned
    /// upright. Rows a truncated file never reached are grey, with the warning and the band
    /// missing.
    static func decodeStill(_ bytes: [UInt8], info: ImageInfo, at size: PixelSize, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage {
        var decoded = rfi_pixels()
        var rows: Int32 = 0
        var message = MessageBuffer()
        let status = bytes.withUnsafeBufferPointer { data in
            message.withPointer {
                rfi_webp_decode(data.baseAddress, data.count, Int32(size.width), Int32(size.height), Int64(pixelLimit), &decoded, &rows, $0, $1)
            }
        }
        try ImageDecoder.check(status, format: .webp, message: message.text, size: info.uprightSize, pixelLimit: pixelLimit)
        guard let pixels = decoded.pixels else { throw ImageDecodeError(reason: "The WebP decoder returned no pixels") }
        let stored = PixelBuffer(
            wrapping: pixels, width: Int(decoded.width), height: Int(decoded.height), rowPixels: Int(decoded.width),
            release: { rfi_pixels_free($0) })
        let warning = ImageDecoder.warningText(decoded.warning, format: .webp, message: message.text)
        let damage = warning.map { _ in
            ImageDamage.truncated(missing: ImageDamage.MissingPart(
                share: 1 - Double(rows) / Double(max(1, stored.height)), side: info.orientation.sideOfLastStoredRows))
        }
        return DecodedImage(
            pixels: info.orientation.upright(stored), info: info, warning: warning, isOpaque: !info.hasAlpha || stored.isOpaque,
            damage: damage)
    }

    static func features(_ bytes: [UInt8]) throws(ImageDecodeError) -> rfi_webp_features {
        var features = rfi_webp_features()
        var message = MessageBuffer()
        let status = bytes.withUnsafeBufferPointer { data in
            message.withPointer { rfi_webp_read_features(data.baseAddress, data.count, &features, $0, $1) }
        }
        try ImageDecoder.check(status, format: .webp, message: message.text)
        return features
    }

    /// The header: the features libwebp read and what the chunks hold (orientation from the
    /// EXIF chunk, the ICCP profile, the frames).
    static func imageInfo(_ features: rfi_webp_features, chunks: WebPChunks) -> ImageInfo {
        let orientation = chunks.exif.flatMap { exif in
            ImageOrientation(rawValue: Int(exif.withUnsafeBufferPointer { rfi_webp_exif_orientation($0.baseAddress, $0.count) }))
        } ?? .topLeft
        return ImageInfo(
            format: .webp, storedSize: PixelSize(width: Int(features.width), height: Int(features.height)), orientation: orientation,
            hasAlpha: features.has_alpha != 0, iccProfile: chunks.iccProfile,
            isAnimated: features.has_animation != 0 && chunks.frameCount > 1)
    }
}
