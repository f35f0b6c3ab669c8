import RiffleGeometry
import RiffleRaster

/// What a decode recovered from, as the viewer shows it.
public enum ImageDamage: Sendable, Hashable {
    /// The file ends early; `missing` is the part of the picture its data never reached, or nil
    /// when the loss is spread over the whole picture (a progressive JPEG) or not known.
    case truncated(missing: MissingPart?)
    /// Some of the data is corrupt; parts of the picture may be wrong.
    case damagedData

    /// A band along one side of the upright picture.
    public struct MissingPart: Sendable, Hashable {
        /// Its share of the picture's extent across that side, 0...1.
        public var share: Double
        /// Which side it lies along.
        public var side: PictureSide

        /// A band of `share` of the picture along `side`.
        public init(share: Double, side: PictureSide) {
            self.share = share
            self.side = side
        }
    }
}

/// A decoded, upright picture.
public struct DecodedImage: Sendable {
    /// Upright premultiplied BGRA pixels; smaller than `fullSize` when the decode was asked for
    /// a smaller size.
    public let pixels: PixelBuffer
    /// The header the pixels were decoded from.
    public let info: ImageInfo
    /// A problem the decoder recovered from, e.g. "The PNG data ends early (the file is
    /// truncated); the missing part is grey"; nil for a clean decode.
    public let warning: String?
    /// True when every pixel the decoder delivered has alpha 255, whatever size `pixels` was
    /// made: always for a JPEG, and for a PNG without transparency; a PNG's rows are checked as
    /// they come (for an interlaced one shown small, the passes it was decoded from).
    public let isOpaque: Bool
    /// What the decoder recovered from, for the app to show; nil for a clean decode.
    public var damage: ImageDamage? = nil

    /// This picture with `info` as its header (the same pixels).
    package func with(info: ImageInfo) -> DecodedImage {
        DecodedImage(pixels: pixels, info: info, warning: warning, isOpaque: isOpaque, damage: damage)
    }

    /// Upright size at full resolution, whatever size `pixels` is.
    public var fullSize: PixelSize { info.uprightSize }
    /// The format the data was in.
    public var format: ImageFormat { info.format }
}
