import RiffleGeometry
import RiffleImageIO
import RiffleInteraction
import RiffleRaster

/// Draws the pager's chrome from a `ChromeRenderState`: the translucent top bar (the back button,
/// the title, info, zoom and fullscreen buttons, hovered and pressed), the info panel and the
/// help overlay. Text through FreeType (`FontFace`), sizes in points times the layout's scale.
///
/// On black the bar darkens the photo under it and its text is white; on white (the bars mode)
/// it lightens it, with dark text and a hairline under it, as Photos' bars are. The layers are
/// kept while what they show stays the same; only their opacity changes during a fade.
package final class ChromeView {
    /// Text sizes, points: the title and the buttons 15, the subtitle and the panels 12 (near
    /// UIKit's 17 pt bar title and 15 pt footnotes, smaller for a desktop window: Riffle's choice).
    static let titlePoints = 15.0
    static let smallPoints = 12.0
    /// Plates: black at 0.55 over the photo on black, white at 0.85 on white (Riffle's choice:
    /// text stays readable over any photo); hover and press plates in the text colour.
    package static let darkPlateOpacity = 0.55
    static let lightPlateOpacity = 0.85
    static let hoverOpacity = 0.12
    static let pressedOpacity = 0.26
    /// Secondary text (the subtitle, the panel's labels) at this opacity of the text colour.
    static let secondaryOpacity = 0.65
    /// The help overlay darkens the window to this opacity (Riffle's choice).
    static let helpShadeOpacity = 0.8
    /// iOS's system blue for the buttons: #007AFF on light, #0A84FF on dark (Apple, Human
    /// Interface Guidelines, "Color", https://developer.apple.com/design/human-interface-guidelines/color).
    static let lightTint = Color(red: 0x00, green: 0x7A, blue: 0xFF)
    static let darkTint = Color(red: 0x0A, green: 0x84, blue: 0xFF)

    /// What the bar and panel say about the photo shown.
    struct Content: Hashable {
        var name: String
        var position: String
        var info: PhotoInfo
        var zoomed: Bool
        var fullscreen: Bool
    }

    private struct Key: Hashable {
        var state: ChromeRenderState
        var content: Content?
        var dark: Bool
    }

    private let labels: PageLabels
    private var cached: (key: Key, layer: Layer)?

    init(labels: PageLabels) { self.labels = labels }

    /// The chrome's layers over the photo for `state` (on black when `blackness` ≥ 0.5), showing
    /// `content`; empty when nothing of it shows.
    func layers(_ state: ChromeRenderState, content: Content?, blackness: Double) -> [Layer] {
        guard state.opacity > 0 || state.panel != .none else { return [] }
        var key = Key(state: state, content: content, dark: blackness >= 0.5)
        key.state.opacity = 0
        if cached?.key != key { cached = (key, build(key)) }
        guard let layer = cached?.layer else { return [] }
        return [layer.sublayers[0].withOpacity(state.opacity)] + layer.sublayers.dropFirst()
    }

    // The bar (at index 0, faded by the bars' opacity), then the open panel.
    private func build(_ key: Key) -> Layer {
        let state = key.state, layout = state.layout
        let text = key.dark ? Color.white : Color.black
        var panel: [Layer] = []
        switch state.panel {
        case .info: panel = [infoPanel(layout, info: key.content?.info, scroll: state.panelScroll, dark: key.dark, text: text)]
        case .help: panel = [help(layout, scroll: state.panelScroll)]
        case .none: break
        }
        return Layer(sublayers: [bar(state, content: key.content, dark: key.dark, text: text)] + panel)
    }

    private func bar(_ state: ChromeRenderState, content: Content?, dark: Bool, text: Color) -> Layer {
        let layout = state.layout, bar = layout.bar
        var layers = [Layer(
            opacity: dark ? Self.darkPlateOpacity : Self.lightPlateOpacity, content: .fill(bar, dark ? .black : .white))]
        if !dark {
            layers.append(Layer(opacity: 0.15, content: .fill(Rect(x: 0, y: bar.maxY - 1, width: bar.width, height: 1), .black)))
        }
        let tint = dark ? Self.darkTint : Self.lightTint
        for button in ChromeButton.allCases {
            let frame = layout.frame(of: button)
            if state.pressed == button || state.hovered == button {
                let inset = layout.pixels(4)
                let plate = Rect(x: frame.minX, y: frame.minY + inset, width: frame.width, height: frame.height - 2 * inset)
                layers.append(Layer(opacity: state.pressed == button ? Self.pressedOpacity : Self.hoverOpacity, content: .fill(plate, text)))
            }
            layers += icon(button, in: frame, layout: layout, content: content, color: tint)
        }
        if let content, let faces = labels.faces {
            let title = layout.titleFrame
            let size = pixels(Self.titlePoints, layout), small = pixels(Self.smallPoints, layout)
            let name = fitted(content.name, face: faces.bold, pixelHeight: size, width: Int(title.width))
            let detail = [content.position, content.info.date].compactMap { $0 }.joined(separator: "  ·  ")
            let sub = fitted(detail, face: faces.regular, pixelHeight: small, width: Int(title.width))
            let top = ((bar.height - Double(name.mask.height + sub.mask.height)) / 2).rounded()
            layers.append(textLayer(name, x: (title.center.x - Double(name.advance) / 2).rounded(), y: top, color: text))
            layers.append(Layer(
                opacity: Self.secondaryOpacity,
                sublayers: [textLayer(sub, x: (title.center.x - Double(sub.advance) / 2).rounded(), y: top + Double(name.mask.height), color: text)]))
        }
        return Layer(sublayers: layers)
    }

    // A button's face: "‹ Photos", a circled i, "1:1" or "Fit", four corners.
    private func icon(_ button: ChromeButton, in frame: Rect, layout: ChromeLayout, content: Content?, color: Color) -> [Layer] {
        guard let faces = labels.faces else { return [] }
        let size = pixels(Self.titlePoints, layout)
        func centred(_ image: TextImage) -> Layer {
            textLayer(image, x: (frame.center.x - Double(image.advance) / 2).rounded(), y: (frame.center.y - Double(image.mask.height) / 2).rounded(), color: color)
        }
        switch button {
        case .back:
            let image = faces.regular.render("‹ Photos", pixelHeight: size)
            return [textLayer(image, x: frame.minX + layout.pixels(8), y: (frame.center.y - Double(image.mask.height) / 2).rounded(), color: color)]
        case .info:
            let diameter = Int(layout.pixels(20))
            let ring = Self.ring(diameter: diameter, stroke: max(1, layout.scale * 1.5))
            let origin = Point(x: (frame.center.x - Double(diameter) / 2).rounded(), y: (frame.center.y - Double(diameter) / 2).rounded())
            return [Layer(content: .text(ring, origin: origin, color: color)), centred(faces.bold.render("i", pixelHeight: pixels(13, layout)))]
        case .zoom:
            return [centred(faces.bold.render(content?.zoomed == true ? "Fit" : "1:1", pixelHeight: pixels(Self.smallPoints, layout)))]
        case .fullscreen:
            return corners(in: frame, layout: layout, inward: content?.fullscreen == true, color: color)
        }
    }

    // Four L-shaped corners of a 16 pt square, 2 pt strokes: pointing out (enter fullscreen) or,
    // drawn at the square's centre lines, in (leave it).
    private func corners(in frame: Rect, layout: ChromeLayout, inward: Bool, color: Color) -> [Layer] {
        let side = layout.pixels(16), arm = layout.pixels(6), stroke = max(1, layout.pixels(2))
        let left = (frame.center.x - side / 2).rounded(), top = (frame.center.y - side / 2).rounded()
        var rects: [Rect] = []
        for (cx, sx) in [(left, 1.0), (left + side, -1.0)] {
            for (cy, sy) in [(top, 1.0), (top + side, -1.0)] {
                // The corner's vertex, and the directions its arms run.
                let vx = inward ? cx + sx * arm : cx, vy = inward ? cy + sy * arm : cy
                let hx = inward ? -sx : sx, hy = inward ? -sy : sy
                let x0 = hx > 0 ? vx : vx - arm, y0 = hy > 0 ? vy : vy - arm
                rects.append(Rect(x: x0, y: hy > 0 ? vy : vy - stroke, width: arm, height: stroke))
                rects.append(Rect(x: hx > 0 ? vx : vx - stroke, y: y0, width: stroke, height: arm))
            }
        }
        return rects.map { Layer(content: .fill($0, color)) }
    }

    /// One line of the info panel: a row's label on its first line (nil on the lines its value
    /// wraps onto) and what of the value the line holds.
    struct InfoLine: Hashable {
        var label: String?
        var value: String
    }

    /// A row's value takes at most this many lines; a longer one ends in "…" (Riffle's choice: a
    /// lens name or a folder's name wraps once or twice, never pages of text).
    static let maxLinesPerValue = 3
    /// The labels' column, points: "Focal length" at 12 pt with room to spare.
    static let infoLabelPoints = 96.0

    /// The lines of `info` in the panel of `layout`: each value wrapped at spaces to the value
    /// column's width (a word wider than the column is cut between characters). Without fonts,
    /// one line a row.
    func infoLines(_ info: PhotoInfo, layout: ChromeLayout) -> [InfoLine] {
        guard let faces = labels.faces else { return info.rows.map { InfoLine(label: $0.label, value: $0.value) } }
        let size = pixels(Self.smallPoints, layout)
        let width = Int(layout.infoPanel.width - 2 * layout.pixels(ChromeLayout.infoPaddingPoints) - layout.pixels(Self.infoLabelPoints))
        return info.rows.flatMap { row in
            Self.wrapped(row.value, width: width, maxLines: Self.maxLinesPerValue) { faces.regular.render($0, pixelHeight: size).advance }
                .enumerated().map { InfoLine(label: $0.offset == 0 ? row.label : nil, value: $0.element) }
        }
    }

    /// `text` broken into lines no wider than `width` as `measure` (pixels) finds them: at
    /// spaces where it can, else between characters; at most `maxLines`, the last cut and
    /// ended with "…" when text remains.
    static func wrapped(_ text: String, width: Int, maxLines: Int, measure: (String) -> Int) -> [String] {
        var lines: [String] = [], rest = Substring(text)
        while !rest.isEmpty {
            if lines.count == maxLines - 1 || measure(String(rest)) <= width {
                var last = String(rest)
                if measure(last) > width {
                    while !last.isEmpty, measure(last + "…") > width { last.removeLast() }
                    last += "…"
                }
                lines.append(last)
                break
            }
            // The longest prefix that fits, then back to its last space when there is one.
            var end = rest.startIndex
            while end < rest.endIndex, measure(String(rest[...end])) <= width { end = rest.index(after: end) }
            if end == rest.startIndex { end = rest.index(after: end) }
            if let space = rest[..<end].lastIndex(of: " "), space > rest.startIndex, rest[end] != " " { end = space }
            lines.append(String(rest[..<end]).trimmingSpaces)
            rest = rest[end...].drop { $0 == " " }
        }
        return lines
    }

    private func infoPanel(_ layout: ChromeLayout, info: PhotoInfo?, scroll: Double, dark: Bool, text: Color) -> Layer {
        let frame = layout.infoPanel
        var layers = [Layer(opacity: dark ? 0.75 : 0.92, content: .fill(frame, dark ? .black : .white))]
        guard let faces = labels.faces, let info else { return Layer(sublayers: layers) }
        let size = pixels(Self.smallPoints, layout), row = layout.pixels(ChromeLayout.infoRowPoints)
        let padding = layout.pixels(ChromeLayout.infoPaddingPoints)
        let labelWidth = layout.pixels(Self.infoLabelPoints)
        var rows: [Layer] = []
        for (n, line) in infoLines(info, layout: layout).enumerated() {
            let y = frame.minY + padding + Double(n) * row - scroll
            // Only the lines the panel shows, whole or in part, are drawn.
            guard y + row > frame.minY, y < frame.maxY else { continue }
            let value = faces.regular.render(line.value, pixelHeight: size)
            let top = (y + (row - Double(value.mask.height)) / 2).rounded()
            if let label = line.label {
                let name = faces.regular.render(label, pixelHeight: size)
                rows.append(Layer(opacity: Self.secondaryOpacity, sublayers: [textLayer(name, x: frame.minX + padding, y: top, color: text)]))
            }
            rows.append(textLayer(value, x: frame.minX + padding + labelWidth, y: top, color: text))
        }
        layers.append(Layer(clip: frame, sublayers: rows))
        // A panel whose rows scroll shows where they are.
        layers += scrollIndicator(in: frame, layout: layout, content: layout.infoContentHeight, scroll: scroll,
                                  limit: layout.infoScrollLimit, color: text)
        return Layer(sublayers: layers)
    }

    /// One line of the help overlay: a group's title (two lines tall), or an entry's input and
    /// what of its action the line holds (input nil on the lines an action wraps onto).
    enum HelpLine: Hashable {
        case title(String)
        case entry(input: String?, action: String)
    }

    /// The help's columns in the window of `layout`: its groups side by side when they fit
    /// across the window, else one after another in one column; an action wider than its
    /// column wraps. Without fonts, one column of unwrapped lines.
    func helpColumns(_ layout: ChromeLayout) -> [[HelpLine]] {
        func lines(_ group: HelpText.Group, actionWidth: Int, measure: (String) -> Int) -> [HelpLine] {
            [.title(group.title)] + group.entries.flatMap { entry in
                Self.wrapped(entry.action, width: actionWidth, maxLines: 3, measure: measure).enumerated().map {
                    HelpLine.entry(input: $0.offset == 0 ? entry.input : nil, action: $0.element)
                }
            }
        }
        guard let faces = labels.faces else { return [HelpText.groups.flatMap { lines($0, actionWidth: .max) { _ in 0 } }] }
        let size = pixels(Self.smallPoints, layout), gap = layout.pixels(24)
        let measureInput = { faces.bold.render($0, pixelHeight: size).advance }
        let measureAction = { faces.regular.render($0, pixelHeight: size).advance }
        let inputWidths = HelpText.groups.map { Double($0.entries.map { measureInput($0.input) }.max() ?? 0) }
        let widths = zip(HelpText.groups, inputWidths).map { group, input in
            input + gap / 2 + Double(group.entries.map { measureAction($0.action) }.max() ?? 0)
        }
        let available = layout.helpPanel.width
        if widths.reduce(0, +) + gap * Double(widths.count - 1) <= available {
            return HelpText.groups.map { lines($0, actionWidth: .max, measure: measureAction) }
        }
        // One column: each group's actions wrap to what its inputs leave of the width; a blank
        // line between groups.
        var column: [HelpLine] = []
        for (group, input) in zip(HelpText.groups, inputWidths) {
            if !column.isEmpty { column.append(.entry(input: nil, action: "")) }
            column += lines(group, actionWidth: max(Int(available - input - gap / 2), 1), measure: measureAction)
        }
        return [column]
    }

    /// How many lines tall the help's tallest column is in `layout`'s window (a title counts two).
    func helpRows(_ layout: ChromeLayout) -> Int {
        helpColumns(layout).map { column in
            column.reduce(0) { rows, line in
                if case .title = line { return rows + 2 }
                return rows + 1
            }
        }.max() ?? 0
    }

    private func help(_ layout: ChromeLayout, scroll: Double) -> Layer {
        let window = Rect(origin: .zero, size: layout.viewport)
        var layers = [Layer(opacity: Self.helpShadeOpacity, content: .fill(window, .black))]
        guard let faces = labels.faces else { return Layer(sublayers: layers) }
        let size = pixels(Self.smallPoints, layout), row = layout.pixels(ChromeLayout.helpRowPoints), gap = layout.pixels(24)
        let frame = layout.helpPanel
        let columns = helpColumns(layout).map { column in
            column.map { line -> (input: TextImage?, action: TextImage?, title: TextImage?) in
                switch line {
                case let .title(title): (nil, nil, faces.bold.render(title, pixelHeight: pixels(Self.titlePoints, layout)))
                case let .entry(input, action):
                    (input.map { faces.bold.render($0, pixelHeight: size) }, faces.regular.render(action, pixelHeight: size), nil)
                }
            }
        }
        let inputWidths = columns.map { Double($0.compactMap(\.input?.advance).max() ?? 0) }
        let widths = zip(columns, inputWidths).map { column, input in
            max(input + gap / 2 + Double(column.compactMap(\.action?.advance).max() ?? 0), Double(column.compactMap(\.title?.advance).max() ?? 0))
        }
        // Centred across the window, and down it when the lines fit; else from the top of the
        // space under the bar, scrolled.
        let margin = layout.pixels(ChromeLayout.helpMarginPoints)
        var x = max(frame.minX, ((window.width - widths.reduce(0, +) - gap * Double(columns.count - 1)) / 2).rounded())
        let height = layout.helpContentHeight - 2 * margin
        let top = max(frame.minY + margin, (frame.minY + (frame.height - height) / 2).rounded()) - scroll
        var text: [Layer] = []
        for (n, column) in columns.enumerated() {
            var y = top
            for line in column {
                if let title = line.title {
                    text.append(textLayer(title, x: x, y: y, color: .white))
                    y += row * 2
                    continue
                }
                if y + row > frame.minY, y < frame.maxY {
                    if let input = line.input { text.append(textLayer(input, x: x, y: y, color: .white)) }
                    if let action = line.action {
                        text.append(Layer(opacity: 0.8, sublayers: [textLayer(action, x: x + inputWidths[n] + gap / 2, y: y, color: .white)]))
                    }
                }
                y += row
            }
            x += widths[n] + gap
        }
        layers.append(Layer(clip: frame, sublayers: text))
        layers += scrollIndicator(in: Rect(x: 0, y: frame.minY, width: window.width, height: frame.height), layout: layout,
                                  content: layout.helpContentHeight, scroll: scroll, limit: layout.scrollLimit(of: .help), color: .white)
        return Layer(sublayers: layers)
    }

    // A thin bar at the right edge of `frame` when its lines scroll, as long as the part shown
    // is of the whole `content` (as a scroll view's indicator).
    private func scrollIndicator(in frame: Rect, layout: ChromeLayout, content: Double, scroll: Double, limit: Double, color: Color) -> [Layer] {
        guard limit > 0, content > 0 else { return [] }
        let inset = layout.pixels(3), width = max(layout.pixels(3), 2)
        let track = frame.height - 2 * inset
        let length = max((track * frame.height / content).rounded(), layout.pixels(16))
        let top = frame.minY + inset + ((track - length) * scroll / limit).rounded()
        return [Layer(opacity: 0.45, content: .fill(Rect(x: frame.maxX - inset - width, y: top, width: width, height: length), color))]
    }

    private func pixels(_ points: Double, _ layout: ChromeLayout) -> Int { Int(layout.pixels(points)) }

    private func textLayer(_ image: TextImage, x: Double, y: Double, color: Color) -> Layer {
        Layer(content: .text(image.mask, origin: Point(x: x, y: y), color: color))
    }

    /// `text` rendered on one line, cut and ended with "…" when wider than `width` pixels.
    private func fitted(_ text: String, face: FontFace, pixelHeight: Int, width: Int) -> TextImage {
        var image = face.render(text, pixelHeight: pixelHeight)
        var kept = text
        while image.advance > width, !kept.isEmpty {
            kept.removeLast()
            image = face.render(kept + "…", pixelHeight: pixelHeight)
        }
        return image
    }

    /// An anti-aliased ring `diameter` pixels across, `stroke` pixels wide: coverage
    /// clamp(stroke/2 + 0.5 − |d − r|, 0, 1) at each pixel centre, d its distance from the centre
    /// and r the stroke's middle radius.
    static func ring(diameter: Int, stroke: Double) -> AlphaMask {
        var mask = AlphaMask(width: diameter, height: diameter)
        let centre = Double(diameter) / 2, radius = centre - stroke / 2
        for y in 0..<diameter {
            for x in 0..<diameter {
                let dx = Double(x) + 0.5 - centre, dy = Double(y) + 0.5 - centre
                let d = (dx * dx + dy * dy).squareRoot()
                let coverage = min(max(stroke / 2 + 0.5 - abs(d - radius), 0), 1)
                mask[x, y] = UInt8((coverage * 255).rounded())
            }
        }
        return mask
    }
}

private extension StringProtocol {
    var trimmingSpaces: String {
        var text = String(self)
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}

private extension Layer {
    func withOpacity(_ value: Double) -> Layer {
        var layer = self
        layer.opacity = value
        return layer
    }
}
