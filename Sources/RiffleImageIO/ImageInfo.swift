import CRiffleImaging
import RiffleGeometry
import RiffleRaster

/// What an image's header says, learned without decoding its pixels.
public struct ImageInfo: Sendable, Hashable {
    /// The format found from the data's signature.
    public let format: ImageFormat
    /// Width and height of the pixels as stored in the file, before orientation.
    public let storedSize: PixelSize
    /// The EXIF orientation (`topLeft` when the file has none).
    public let orientation: ImageOrientation
    /// True for a JPEG with more than one scan (progressive) or an Adam7-interlaced PNG: any
    /// part of it at full resolution needs data from the whole file (every coefficient, every
    /// pass), so it cannot be cut into tiles as it is read.
    public let hasMultipleScans: Bool
    /// True for a picture that stores transparency (a PNG's alpha channel or tRNS chunk, a
    /// WebP's alpha, a GIF's transparent index), whose pixels may be translucent; false for a JPEG.
    public let hasAlpha: Bool
    /// The embedded ICC colour profile, as stored (a JPEG's APP2 chunks reassembled, a PNG's
    /// iCCP inflated, …); nil when the file has none.
    public let iccProfile: [UInt8]?
    /// True for an image with more than one frame to play (an animated GIF, WebP or PNG).
    public let isAnimated: Bool

    /// Width and height once the orientation is applied: what the viewer shows.
    public var uprightSize: PixelSize { orientation.uprightSize(ofStored: storedSize) }

    /// A header with these properties.
    public init(
        format: ImageFormat, storedSize: PixelSize, orientation: ImageOrientation = .topLeft, hasMultipleScans: Bool = false,
        hasAlpha: Bool = false, iccProfile: [UInt8]? = nil, isAnimated: Bool = false
    ) {
        self.format = format
        self.storedSize = storedSize
        self.orientation = orientation
        self.hasMultipleScans = hasMultipleScans
        self.hasAlpha = hasAlpha
        self.iccProfile = iccProfile
        self.isAnimated = isAnimated
    }

    /// This header with `iccProfile` as its profile.
    package func with(iccProfile: [UInt8]?) -> ImageInfo {
        ImageInfo(
            format: format, storedSize: storedSize, orientation: orientation, hasMultipleScans: hasMultipleScans, hasAlpha: hasAlpha,
            iccProfile: iccProfile, isAnimated: isAnimated)
    }

    /// What the shim read from a header of `format`.
    init(format: ImageFormat, header: rfi_image_header) {
        self.init(
            format: format, storedSize: PixelSize(width: Int(header.width), height: Int(header.height)),
            orientation: ImageOrientation(rawValue: Int(header.orientation)) ?? .topLeft,
            hasMultipleScans: header.multiple_scans != 0, hasAlpha: header.has_alpha != 0)
    }
}
