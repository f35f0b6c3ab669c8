import CRiffleImaging
import RiffleGeometry
import RiffleRaster

/// GIF through giflib: the header from a walk over the blocks (no pixel decoded), the first
/// frame as the still picture, and every frame, composited as browsers do, as an animation
/// (`CanvasFrames` over `rfi_gif_*`). A GIF has no EXIF, so no orientation or details.
struct GIFCodec: ImageCodec {
    var format: ImageFormat { .gif }

    /// The header from `head`; when the head shows fewer than two frames and the file goes on
    /// past it (a first frame, or a comment, larger than the head), from the whole file, so that
    /// `isAnimated` is known.
    func probe(head: [UInt8], path: String?) throws(ImageDecodeError) -> ImageInfo {
        if head.count >= ImageCodecs.headBytes, let path, ((try? Self.layout(of: head))?.frame_count ?? 0) < 2 {
            return Self.imageInfo(try Self.layout(of: FileBytes.read(atPath: path)))
        }
        return Self.imageInfo(try Self.layout(of: head))
    }

    /// The first frame at the canvas's size; a truncated file shows what arrived.
    func decode(_ bytes: [UInt8], atLeast target: PixelSize?, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage {
        let frames = try Self.frames(bytes, pixelLimit: pixelLimit)
        return try frames.firstFrameImage(info: Self.imageInfo(from: frames))
    }

    func animation(atPath path: String, fitting size: PixelSize, pixelLimit: Int) throws(ImageDecodeError) -> (any ImageAnimation)? {
        let frames = try Self.frames(FileBytes.read(atPath: path), pixelLimit: pixelLimit)
        guard frames.frameCount > 1 else { return nil }
        return CanvasAnimation(frames, info: Self.imageInfo(from: frames), fitting: size)
    }

    /// The frames of the GIF in `bytes`.
    static func frames(_ bytes: [UInt8], pixelLimit: Int) throws(ImageDecodeError) -> CanvasFrames {
        try CanvasFrames(bytes: bytes, format: .gif, pixelLimit: pixelLimit, open: rfi_gif_open, next: rfi_gif_next, close: rfi_gif_close)
    }

    private static func layout(of bytes: [UInt8]) throws(ImageDecodeError) -> rfi_animation_info {
        var info = rfi_animation_info()
        var message = MessageBuffer()
        let status = bytes.withUnsafeBufferPointer { data in
            message.withPointer { rfi_gif_read_info(data.baseAddress, data.count, &info, $0, $1) }
        }
        try ImageDecoder.check(status, format: .gif, message: message.text)
        return info
    }

    private static func imageInfo(_ info: rfi_animation_info) -> ImageInfo {
        ImageInfo(
            format: .gif, storedSize: PixelSize(width: Int(info.width), height: Int(info.height)), hasAlpha: info.has_alpha != 0,
            isAnimated: info.frame_count > 1)
    }

    private static func imageInfo(from frames: CanvasFrames) -> ImageInfo {
        ImageInfo(format: .gif, storedSize: frames.canvasSize, hasAlpha: frames.hasAlpha, isAnimated: frames.frameCount > 1)
    }
}
