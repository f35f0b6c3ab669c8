import RiffleGeometry
import RiffleImageIO
import RifflePipeline
import RiffleRaster

/// Text on pages: the error page of a photo that cannot be shown, the "no photos" page, and quiet
/// badges (an incomplete file, the zoom level). Laying text out costs a FreeType pass: callers
/// keep the layer while it stays the same (see `PageView`).
final class PageLabels {
    /// Title and body text sizes in pixels, and the share of the window width text may use.
    static let titlePixelHeight = 22
    static let detailPixelHeight = 16
    static let textWidthShare = 0.8
    /// The detail line is the title's colour at this opacity (secondary text).
    static let detailOpacity = 0.65
    /// Badge text size, padding around it and the opacity of its dark plate: small enough not
    /// to compete with the photo, readable on any of it (Photos' and Loupe's overlays are
    /// white text on a translucent dark plate).
    static let badgePixelHeight = 13
    static let badgePadding = Size(width: 10, height: 5)
    static let badgePlateOpacity = 0.6

    /// The faces, opened on first use: fontconfig's start-up costs tens of milliseconds that
    /// the first photo should not wait for. Nil when no font could be found (said once on stderr).
    lazy var faces: (regular: FontFace, bold: FontFace)? = {
        do {
            let regular = try FontFace()
            let bold = (try? FontFace(family: regular.family, bold: true)) ?? regular
            return (regular, bold)
        } catch {
            StandardError.write("riffle: no font for text (\(error)); error pages are blank — install fonts-dejavu-core")
            return nil
        }
    }()

    /// A badge: one line of white `text` on a translucent dark plate, its top-left corner at
    /// (0, 0), and its size (zero when no font is found).
    func badge(_ text: String) -> (layer: Layer, size: Size) {
        guard let (font, _) = faces else { return (Layer(), .zero) }
        let line = TextBlock(text, face: font, pixelHeight: Self.badgePixelHeight, maxWidth: .max)
        let padding = Self.badgePadding
        let size = Size(
            width: Double(line.lines.map(\.width).max() ?? 0) + 2 * padding.width,
            height: Double(line.height) + 2 * padding.height)
        let plate = Layer(
            opacity: Self.badgePlateOpacity, content: .fill(Rect(origin: .zero, size: size), .black))
        let text = Layer(sublayers: line.layers(centerX: size.width / 2, top: padding.height, color: .white))
        return (Layer(sublayers: [plate, text]), size)
    }

    /// What the page shown when there is no photo says under "No photos": why (`explanation`,
    /// the library's), then how to open some, as a second paragraph.
    static func emptyPageDetail(explanation: String) -> String {
        explanation + "\nDrop photos or a folder onto this window to open them."
    }

    /// A page-sized layer with `title` above `detail` in `color`, centred in `size`.
    func message(title: String, detail: String, in size: Size, color: Color) -> Layer {
        guard let (font, boldFont) = faces else { return Layer() }
        let width = max(1, Int(size.width * Self.textWidthShare))
        let t = TextBlock(title, face: boldFont, pixelHeight: Self.titlePixelHeight, maxWidth: width)
        let d = TextBlock(detail, face: font, pixelHeight: Self.detailPixelHeight, maxWidth: width)
        let gap = Double(Self.detailPixelHeight)
        let top = ((size.height - Double(t.height) - gap - Double(d.height)) / 2).rounded()
        return Layer(sublayers: [
            Layer(sublayers: t.layers(centerX: size.width / 2, top: top, color: color)),
            Layer(opacity: Self.detailOpacity, sublayers: d.layers(centerX: size.width / 2, top: top + Double(t.height) + gap, color: color)),
        ])
    }
}
