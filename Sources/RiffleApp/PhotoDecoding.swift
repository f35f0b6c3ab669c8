import RiffleGeometry
import RiffleImageIO
import RiffleRaster

/// What the viewer holds for one photo.
public enum PhotoContent: Sendable {
    /// Decoded pixels: `pixels` stand for the upright full-resolution `fullSize`.
    case image(pixels: PixelBuffer, fullSize: PixelSize, isOpaque: Bool)
    /// The file could not be shown; `reason` says why in words for a person.
    case failure(reason: String)
}

/// Decodes one photo for a window size: the header first (cheap), then the pixels at no less
/// than the size the photo is shown at (fitted, times the zoom's `detail`), never at full size
/// when less will do.
public enum PhotoDecoding {
    /// Largest number of pixels Riffle decodes into one buffer (24 MP · 4 B ≈ 96 MiB; 64 MP is
    /// 256 MiB). Larger images are decoded DCT-scaled or refused with a message.
    public static let pixelLimit = 64_000_000

    /// The pixel size a photo of `fullSize` occupies when fitted in `viewport`, rounded up
    /// (at least 1×1).
    public static func shownSize(of fullSize: PixelSize, in viewport: PixelSize) -> PixelSize {
        let s = AspectFit.scale(content: Size(fullSize), viewport: Size(viewport))
        return PixelSize(
            width: max(1, Int((Double(fullSize.width) * s).rounded(.up))),
            height: max(1, Int((Double(fullSize.height) * s).rounded(.up))))
    }

    /// Reads and decodes the file at `request.path` for `request.viewport`.
    @Sendable public static func decode(_ request: DecodeRequest) -> PhotoContent {
        do throws(ImageDecodeError) {
            let bytes = try FileBytes.read(atPath: request.path)
            let info = try ImageDecoder.probe(bytes)
            let fit = shownSize(of: info.uprightSize, in: request.viewport)
            let target = PixelSize(
                width: min(info.uprightSize.width, Int((Double(fit.width) * request.detail).rounded(.up))),
                height: min(info.uprightSize.height, Int((Double(fit.height) * request.detail).rounded(.up))))
            let decoded = try ImageDecoder.decode(bytes, atLeast: target, pixelLimit: pixelLimit)
            // DCT scaling stops at 1/8 and PNG has none: halve further with a box filter while
            // the result still covers the shown size, so the sampler never skips pixels.
            let pixels = BoxDownsample.shrink(decoded.pixels, toAtLeast: target.width, target.height)
            let isOpaque = decoded.format == .jpeg || pixels.isOpaque
            return .image(pixels: pixels, fullSize: decoded.fullSize, isOpaque: isOpaque)
        } catch {
            return .failure(reason: error.reason)
        }
    }
}
