import RiffleGeometry
import RiffleImageIO
import RiffleRaster

/// Lines of anti-aliased text laid out for a width: words wrap greedily at spaces, a word longer
/// than the width is broken between characters. Rendered with FreeType through `FontFace`.
struct TextBlock {
    struct Line {
        var mask: AlphaMask
        var width: Int
    }

    var lines: [Line]
    var lineHeight: Int

    /// Total height of the block in pixels.
    var height: Int { lines.count * lineHeight }

    init(_ text: String, face: FontFace, pixelHeight: Int, maxWidth: Int) {
        lineHeight = Int((Double(pixelHeight) * 1.4).rounded())
        func measure(_ s: String) -> Int { face.render(s, pixelHeight: pixelHeight).advance }
        var rows: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if measure(candidate) <= maxWidth {
                    line = candidate
                    continue
                }
                if !line.isEmpty { rows.append(line) }
                // A single word wider than the line is cut where it no longer fits.
                var rest = String(word)
                while measure(rest) > maxWidth && rest.count > 1 {
                    var cut = rest.count - 1
                    while cut > 1 && measure(String(rest.prefix(cut))) > maxWidth { cut -= 1 }
                    rows.append(String(rest.prefix(cut)))
                    rest = String(rest.dropFirst(cut))
                }
                line = rest
            }
            rows.append(line)
        }
        lines = rows.map { row in
            let image = face.render(row, pixelHeight: pixelHeight)
            return Line(mask: image.mask, width: image.advance)
        }
    }

    /// Layers drawing the block centred horizontally on `centerX`, its top at `top`.
    func layers(centerX: Double, top: Double, color: Color) -> [Layer] {
        lines.enumerated().map { n, line in
            let x = (centerX - Double(line.width) / 2).rounded()
            return Layer(content: .text(line.mask, origin: Point(x: x, y: top + Double(n * lineHeight)), color: color))
        }
    }
}
