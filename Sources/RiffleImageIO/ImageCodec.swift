import RiffleGeometry
import RiffleRaster

/// One file format's decoder, as the pipeline uses it: the app never asks which format a file
/// is, only what its codec can do (`ImageCodecs.codec(for:)` picks the codec from the data's
/// signature).
///
/// Every codec delivers upright premultiplied BGRA at a size asked for. The required part is
/// the header probe and a decode shrunk to a target; the rest is optional, each with a default
/// that says "not this format": a cheap reduced decode (`decodesReduced`), an embedded
/// thumbnail, EXIF details, tiles for huge pictures (`cutsTiles`), frames (`animation`).
///
/// A codec is a value without state; its decodes are safe to run on several threads at once.
package protocol ImageCodec: Sendable {
    /// The format this codec reads.
    var format: ImageFormat { get }

    /// Reads the header of an image of this format: stored size, orientation, transparency,
    /// colour profile, whether it moves. `head` is the start of the data
    /// (`ImageCodecs.headBytes`, or all of it when shorter); `path` names the file it came from,
    /// for a format whose header can lie past the head (a TIFF's directory may sit at the end),
    /// nil for data held in memory. Cheap: no pixel is decoded.
    func probe(head: [UInt8], path: String?) throws(ImageDecodeError) -> ImageInfo

    /// Decodes the file at `path` into an upright picture shrunk by `filter` to `target(info)`
    /// (each side capped at the full size), `info` being its header. A result over
    /// `pixelLimit` pixels is decoded smaller or refused; a decode that would need more memory
    /// than the format's own limit allows is refused with the reason. `stop` is asked between
    /// pieces of the decode; once it says true the decode ends with `ImageDecodeError.stopped`.
    func decodeFile(
        atPath path: String, shrunkTo target: (ImageInfo) -> PixelSize, filter: DownscaleFilter, pixelLimit: Int,
        until stop: () -> Bool
    ) throws(ImageDecodeError) -> DecodedImage

    /// Decodes `bytes`, held in memory, at full size (within `pixelLimit`), or at the least
    /// reduction still at least `target` (upright) where the format decodes reduced sizes
    /// cheaply (`decodesReduced`), e.g. for the fuzzers and an image on the clipboard.
    func decode(_ bytes: [UInt8], atLeast target: PixelSize?, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage

    /// Decodes the file at `path` as `decode(_:atLeast:pixelLimit:)` decodes its bytes.
    func decodeFile(atPath path: String, atLeast target: PixelSize?, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage

    /// True when a decode much smaller than the picture costs much less than a full one (a
    /// JPEG's DCT scaling), so that a coarse preview and a draft are worth decoding beside the
    /// real decode; false when any decode reads every pixel at full size.
    var decodesReduced: Bool { get }

    /// A small picture the file carries besides the image (a JPEG's EXIF thumbnail, a RAW
    /// file's preview), upright, from `head` (the file's first `ImageCodecs.headBytes`) or the
    /// file at `path`; nil when it has none.
    func embeddedThumbnail(head: [UInt8], path: String, info: ImageInfo) -> PixelBuffer?

    /// The camera's EXIF details in `head`, the start of the file; nil when there are none.
    func exifDetails(head: [UInt8]) -> ExifDetails?

    /// The camera's EXIF details of the file that starts with `head`, read from `path` where
    /// the format keeps them past the head (a TIFF's EXIF directory, a HEIF's Exif item, a JPEG
    /// XL's Exif box); nil when there are none. By default, `exifDetails(head:)`.
    func exifDetails(head: [UInt8], path: String?) -> ExifDetails?

    /// True when a huge picture of this format can be cut into tiles (`TileDecoder`) for
    /// zooming in past what one decode holds.
    var cutsTiles: Bool { get }

    /// The frames of the animated image at `path` (`ImageInfo.isAnimated`), each shrunk to fit
    /// `size` (upright); nil for a still picture.
    func animation(atPath path: String, fitting size: PixelSize, pixelLimit: Int) throws(ImageDecodeError) -> (any ImageAnimation)?
}

extension ImageCodec {
    package var decodesReduced: Bool { false }
    package var cutsTiles: Bool { false }
    package func embeddedThumbnail(head: [UInt8], path: String, info: ImageInfo) -> PixelBuffer? { nil }
    package func exifDetails(head: [UInt8]) -> ExifDetails? { nil }
    package func exifDetails(head: [UInt8], path: String?) -> ExifDetails? { exifDetails(head: head) }
    package func animation(
        atPath path: String, fitting size: PixelSize, pixelLimit: Int
    ) throws(ImageDecodeError) -> (any ImageAnimation)? { nil }

    /// Reads the whole file, then decodes its bytes.
    package func decodeFile(atPath path: String, atLeast target: PixelSize?, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage {
        try decode(FileBytes.read(atPath: path), atLeast: target, pixelLimit: pixelLimit)
    }

    /// For a format decoded whole: reads the file and decodes it at full size
    /// (`decode(_:atLeast:pixelLimit:)`), then shrinks it by `filter` to `target(info)`. Holds the file
    /// and the full-size picture while it runs; `stop` is asked before and after the decode.
    package func decodeFile(
        atPath path: String, shrunkTo target: (ImageInfo) -> PixelSize, filter: DownscaleFilter, pixelLimit: Int,
        until stop: () -> Bool
    ) throws(ImageDecodeError) -> DecodedImage {
        let bytes = try FileBytes.read(atPath: path)
        if stop() { throw .stopped }
        let whole = try decode(bytes, atLeast: nil, pixelLimit: pixelLimit)
        if stop() { throw .stopped }
        return whole.shrunk(by: filter, to: target(whole.info))
    }
}

/// An animated image's frames, decoded one after another: each whole canvas as it is shown
/// (earlier frames composited and disposed as the format says), upright, with how long it stays.
///
/// Order of use: `nextFrame()` again and again; after the last frame it starts over from the
/// first. One thread at a time.
package protocol ImageAnimation: AnyObject {
    /// The upright size of every frame delivered.
    var frameSize: PixelSize { get }
    /// How many frames a loop has.
    var frameCount: Int { get }
    /// How many times the animation plays; 0 for forever.
    var loopCount: Int { get }
    /// The next frame, and how long to show it (in seconds, after the format's minimum).
    func nextFrame() throws(ImageDecodeError) -> AnimationFrame
}

/// One frame of an animation, ready to show.
package struct AnimationFrame: Sendable {
    /// The whole canvas at this frame: upright premultiplied BGRA, `ImageAnimation.frameSize`.
    package let pixels: PixelBuffer
    /// Which frame of the loop, from 0.
    package let index: Int
    /// How long it is shown, in seconds.
    package let duration: Double

    package init(pixels: PixelBuffer, index: Int, duration: Double) {
        self.pixels = pixels
        self.index = index
        self.duration = duration
    }
}

extension DecodedImage {
    /// This picture shrunk by `filter` to `target` (upright; each side capped at the current
    /// size, so never enlarged), its header, warning and damage kept.
    package func shrunk(by filter: DownscaleFilter, to target: PixelSize) -> DecodedImage {
        let size = PixelSize(width: min(target.width, pixels.width), height: min(target.height, pixels.height))
        guard size != pixels.size else { return self }
        return DecodedImage(
            pixels: filter.shrink(pixels, to: size, kernels: .fastest), info: info, warning: warning, isOpaque: isOpaque, damage: damage)
    }
}
