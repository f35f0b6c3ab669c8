import RiffleGeometry

/// The size classes of the thumbnail standard: the square a thumbnail fits in, and the folder
/// of the thumbnail cache it is kept in
/// (https://specifications.freedesktop.org/thumbnail-spec/latest/directory.html).
enum ThumbnailSize: CaseIterable, Sendable {
    /// 128 pixels, in "normal".
    case normal
    /// 256 pixels, in "large".
    case large
    /// 512 pixels, in "x-large".
    case xLarge
    /// 1024 pixels, in "xx-large".
    case xxLarge

    /// The folder inside the thumbnails folder.
    var folderName: String {
        switch self {
        case .normal: "normal"
        case .large: "large"
        case .xLarge: "x-large"
        case .xxLarge: "xx-large"
        }
    }

    /// The longest side a thumbnail may have, in pixels.
    var edge: Int {
        switch self {
        case .normal: 128
        case .large: 256
        case .xLarge: 512
        case .xxLarge: 1024
        }
    }

    /// The size of this class's thumbnail of an image of (upright) `size`: the image fitted in
    /// `edge` × `edge` with its aspect ratio kept, each side rounded to the nearest pixel and at
    /// least 1; an image that already fits keeps its size (thumbnails are never enlarged).
    func fitted(_ size: PixelSize) -> PixelSize {
        let scale = AspectFit.scale(content: Size(size), viewport: Size(width: Double(edge), height: Double(edge)))
        return PixelSize(
            width: min(edge, max(1, Int((Double(size.width) * scale).rounded()))),
            height: min(edge, max(1, Int((Double(size.height) * scale).rounded()))))
    }
}
