import RiffleGeometry
import RiffleImageIO
import RiffleInteraction
import RiffleRaster

/// A timeline's bars drawn (`TimelineBars`): translucent white over the cells passing under
/// them, a hairline at their inner edge; the top one names the library ("2,431 photos ·
/// 2019–2024") and, while the index fills, how far it has come; the bottom one the levels, the
/// one shown on a grey plate in bold.
final class TimelineBarsView {
    /// The bars' whiteness over the cells (iOS's bars are a blur at about this opacity).
    static let barOpacity = 0.92
    static let hairline = Color(red: 198, green: 198, blue: 200)
    static let selectedPlate = Color(red: 229, green: 229, blue: 234)
    /// Text sizes, points.
    static let titlePoints = 14.0
    static let segmentPoints = 13.0
    /// The aspect-ratio grid's switch, as the top bar names it.
    static let aspectSwitchName = "Aspect ratio"
    /// The levels as the bottom bar names them.
    static func name(of level: TimelineLayout.Level) -> String {
        switch level {
        case .years: "Years"
        case .months: "Months"
        case .days: "Days"
        case .allPhotos: "All Photos"
        }
    }

    private let lines: RenderedLines

    /// Bars drawing their text with `lines`.
    init(lines: RenderedLines) { self.lines = lines }

    /// The bars of `bars` with `title` in the top one and `level` marked in the bottom one.
    func layer(_ bars: TimelineBars, title: String, level: TimelineLayout.Level, aspectGrid: Bool) -> Layer {
        var layers: [Layer] = []
        let line = max(1, bars.scale.rounded())
        for (bar, edge) in [(bars.top, bars.top.maxY - line), (bars.bottom, bars.bottom.minY)] {
            layers.append(Layer(opacity: Self.barOpacity, content: .fill(bar, .white)))
            layers.append(Layer(content: .fill(Rect(x: 0, y: edge, width: bar.width, height: line), Self.hairline)))
        }
        let margin = TimelineLevelInteraction.margin * bars.scale
        layers.append(text(title, points: Self.titlePoints, bold: false, left: margin, centreY: bars.top.center.y, scale: bars.scale))
        // The aspect-ratio grid's switch: on a plate while it is on.
        let switchRect = bars.aspectSwitch
        if aspectGrid { layers.append(Layer(content: .fill(switchRect, Self.selectedPlate))) }
        if let rendered = rendered(Self.aspectSwitchName, points: Self.segmentPoints, bold: aspectGrid, scale: bars.scale) {
            layers.append(Layer(clip: switchRect, sublayers: [
                text(Self.aspectSwitchName, points: Self.segmentPoints, bold: aspectGrid,
                     left: switchRect.center.x - Double(rendered.width) / 2, centreY: switchRect.center.y, scale: bars.scale),
            ]))
        }
        for (segment, rect) in bars.segments {
            let selected = segment == level
            if selected { layers.append(Layer(content: .fill(rect, Self.selectedPlate))) }
            let name = Self.name(of: segment)
            guard let rendered = rendered(name, points: Self.segmentPoints, bold: selected, scale: bars.scale) else { continue }
            layers.append(Layer(clip: rect, sublayers: [
                text(name, points: Self.segmentPoints, bold: selected, left: rect.center.x - Double(rendered.width) / 2, centreY: rect.center.y,
                     scale: bars.scale),
            ]))
        }
        return Layer(sublayers: layers)
    }

    /// One line of `text` whose left edge is at `left` and whose middle is at `centreY`.
    private func text(_ text: String, points: Double, bold: Bool, left: Double, centreY: Double, scale: Double) -> Layer {
        guard let line = rendered(text, points: points, bold: bold, scale: scale) else { return Layer() }
        let height = Double(line.mask.height)
        return Layer(content: .text(line.mask, origin: Point(x: left.rounded(), y: (centreY - height / 2).rounded()), color: .black))
    }

    private func rendered(_ text: String, points: Double, bold: Bool, scale: Double) -> RenderedLines.Line? {
        lines.line(text, points: points, scale: scale, bold: bold)
    }
}
