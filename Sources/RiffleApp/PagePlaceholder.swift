import RiffleGeometry
import RiffleImageIO
import RiffleRaster

/// What a page shows while its photo has nothing decoded yet: a plate of a quiet tone with the
/// photo's shape, where the photo will be at fit, so fast paging never shows a black page (as
/// iOS Photos shows grey squares until a thumbnail arrives).
///
/// The shape comes from the photo's header (`PhotoDecoding.uprightSize(path:)`: the file's first
/// `PhotoDecoding.headerBytes`, no pixels decoded); a page whose header cannot be read (a damaged
/// or vanished file) has no shape and shows nothing until its decode says why.
enum PagePlaceholder {
    /// The plate's tone on the black background (chrome hidden): iOS's `systemGray6` in dark
    /// mode, #1C1C1E (Apple Human Interface Guidelines, Color: "System gray colors"). Close to
    /// black, so the photo arriving over it is no flash, but never black.
    static let darkTone = Color(red: 0x1C, green: 0x1C, blue: 0x1E)
    /// The plate's tone on the white background (chrome shown): `systemGray5` in light mode,
    /// #E5E5EA (same source), the tone the grid's empty cells use (`GridView.placeholder`).
    static let lightTone = Color(red: 0xE5, green: 0xE5, blue: 0xEA)

    /// The plate's tone for a background `blackness` of the way from white (0) to black (1),
    /// following the background as it fades.
    static func tone(backgroundBlackness blackness: Double) -> Color { Color.mix(lightTone, darkTone, blackness) }

    /// The frame, in page coordinates, of a photo of upright size `shape` turned by `rotation` at
    /// fit in `viewport`, on whole pixels (the decoded photo at fit lands on the same rectangle
    /// within a pixel).
    static func frame(shape: PixelSize, rotation: Rotation, viewport: Size) -> Rect {
        let fit = AspectFit.frame(content: rotation.boundingSize(of: Size(shape)), viewport: viewport)
        let minX = fit.origin.x.rounded(), minY = fit.origin.y.rounded()
        let maxX = (fit.origin.x + fit.size.width).rounded(), maxY = (fit.origin.y + fit.size.height).rounded()
        return Rect(origin: Point(x: minX, y: minY), size: Size(width: maxX - minX, height: maxY - minY))
    }

    /// The placeholder's layer: the plate of `shape` at fit in `viewport`, in the tone for
    /// `backgroundBlackness`.
    static func layer(shape: PixelSize, rotation: Rotation, viewport: Size, backgroundBlackness: Double) -> Layer {
        Layer(content: .fill(frame(shape: shape, rotation: rotation, viewport: viewport), tone(backgroundBlackness: backgroundBlackness)))
    }
}
