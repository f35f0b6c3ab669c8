import RiffleGeometry
import RiffleImageIO
import RiffleRaster

/// Text pages: the error page of a photo that cannot be shown, the "no photos" page. Laying text
/// out costs a FreeType pass: callers keep the layer while the page stays (see `PageView`).
final class PageLabels {
    /// Title and body text sizes in pixels, and the share of the window width text may use.
    static let titlePixelHeight = 22
    static let detailPixelHeight = 16
    static let textWidthShare = 0.8
    /// The detail line is the title's colour at this opacity (secondary text).
    static let detailOpacity = 0.65

    /// The faces, opened on first use: fontconfig's start-up costs tens of milliseconds that
    /// the first photo should not wait for. Nil when no font could be found (said once on stderr).
    private lazy var faces: (regular: FontFace, bold: FontFace)? = {
        do {
            let regular = try FontFace()
            let bold = (try? FontFace(family: regular.family, bold: true)) ?? regular
            return (regular, bold)
        } catch {
            StandardError.write("riffle: no font for text (\(error)); error pages are blank — install fonts-dejavu-core")
            return nil
        }
    }()

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
