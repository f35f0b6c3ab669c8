import RiffleImageIO
import RiffleRaster

/// Single lines of text rendered once and kept while they are shown again and again (a
/// timeline's headers, its bars): FreeType's pass costs a fraction of a millisecond a line,
/// which a frame of forty headers should not pay. Bounded: past `limit` lines it starts anew.
final class RenderedLines {
    /// A line's coverage and how far it advances, pixels.
    typealias Line = (mask: AlphaMask, width: Int)

    /// Most lines kept: a screen's headers and titles many times over.
    static let limit = 400

    private let labels: PageLabels
    private var lines: [String: Line] = [:]

    /// Lines in the faces `labels` opens.
    init(labels: PageLabels) { self.labels = labels }

    /// `text` at `points` × `scale` pixels high, bold or regular; nil when no font is found.
    func line(_ text: String, points: Double, scale: Double, bold: Bool) -> Line? {
        let pixels = max(1, Int((points * scale).rounded()))
        let key = "\(bold ? "b" : "r")\(pixels) \(text)"
        if let known = lines[key] { return known }
        guard let faces = labels.faces else { return nil }
        if lines.count >= Self.limit { lines = [:] }
        let image = (bold ? faces.bold : faces.regular).render(text, pixelHeight: pixels)
        lines[key] = (image.mask, image.advance)
        return lines[key]
    }
}
