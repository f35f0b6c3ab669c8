import RiffleGeometry
import RiffleImageIO
import RiffleInteraction
import RiffleLibrary
import RifflePipeline
import RiffleRaster

/// The timeline's Years, Months and Days drawn: their `TimelineLevelInteraction` in the window,
/// each cell the centre crop of its photo's thumbnail (the grid's store, cropped once per cell
/// size by `GridCellImages` and drawn by a plain copy while the level scrolls), Days' "+N" cells
/// darkened under their count, Months' and Days' headers (the date, and for a day the folder its
/// photos came from) with the header of the section under the window's top pinned there until
/// the next one pushes it up, and Years' tiles titled with their year.
final class TimelineLevelView {
    /// Header and title text sizes, points; the header's text sits this far above its bottom.
    static let headerPoints = 20.0
    static let detailPoints = 13.0
    static let yearPoints = 34.0
    /// The "+N" cell's shade over its photo.
    static let moreShade = 0.45

    private(set) var interaction: TimelineLevelInteraction
    private let library: PhotoLibrary
    private let thumbnails: ThumbnailStore
    private let crops: GridCellImages
    private var drawnScroll: Double?
    private var damaged = true
    private let lines: RenderedLines

    /// `level` of `library` (its photos in time order, `days` their days) in `viewport` at
    /// `scale` pixels a point with `insets` of room for the bars above and below, photo
    /// `anchorPhoto` under window point `anchor` (the end without).
    init(
        library: PhotoLibrary, days: TimelineDays, level: TimelineLayout.Level, viewport: Size, scale: Double,
        insets: (top: Double, bottom: Double), aspects: [Double]? = nil, thumbnails: ThumbnailStore, lines: RenderedLines,
        rasterPath: RasterPath, anchorPhoto: Int?, anchor: Point?, time: Double
    ) {
        self.library = library
        self.thumbnails = thumbnails
        crops = GridCellImages(path: rasterPath)
        self.lines = lines
        interaction = TimelineLevelInteraction(
            days: days, level: level, viewport: viewport, scale: scale, insets: insets, aspects: aspects, anchorPhoto: anchorPhoto,
            anchor: anchor, time: time)
    }

    var level: TimelineLayout.Level { interaction.layout.level }

    /// Hands `event` to the level; what it asks of the scene.
    func handle(_ event: InputEvent, now: Double) -> [TimelineLevelInteraction.Command] {
        interaction.handle(event)
    }

    /// Moves the level's clock, and asks for the thumbnails of the cells in view.
    func advance(to now: Double) {
        interaction.advance(to: now)
        let cells = interaction.visibleCells
        let side = cells.map { max($0.frame.width, $0.frame.height) }.max() ?? 0
        thumbnails.resize(cellSize: Int(side.rounded(.up)))
        thumbnails.show(visible: 0..<0, ahead: 0..<0, picked: cells.map(Self.photo(of:)))
        if !thumbnails.absorbResults(at: now).isEmpty { damaged = true }
    }

    /// Changes the level's scroll with `change` (a key's page or end).
    func scroll(_ change: (inout TimelineLevelInteraction) -> Void) { change(&interaction) }

    /// Blocks until the thumbnails asked for so far are made, then takes them in (replays).
    func settleThumbnails(at now: Double) {
        thumbnails.waitForThumbnails()
        if !thumbnails.absorbResults(at: now).isEmpty { damaged = true }
    }

    /// True when the next frame differs from the last drawn.
    var needsDisplay: Bool { damaged || drawnScroll != interaction.scrollPosition || interaction.isAnimating }

    /// The cells drawn now, as a change of level sees them: photo and window rect.
    var visibleCells: [LevelMorph.Cell] {
        interaction.visibleCells.map { LevelMorph.Cell(photo: Self.photo(of: $0), rect: onPixels($0.frame)) }
    }

    /// Photo `photo`'s cell in window pixels (what stands for it at this level).
    func cellRect(ofPhoto photo: Int) -> Rect? { interaction.windowFrame(ofPhoto: photo).map(onPixels) }

    /// The level's layer at `now`; `hidden`'s cell (a photo flying from or to it) drawn empty.
    func layer(now: Double, hiding hidden: Int? = nil) -> Layer {
        let viewport = interaction.viewport
        let window = Rect(origin: .zero, size: viewport)
        var layers: [Layer] = []
        for cell in interaction.visibleCells {
            let rect = onPixels(cell.frame)
            switch cell.content {
            case .photo(let photo):
                layers.append(photo == hidden ? Layer(content: .fill(rect, GridView.placeholder)) : image(of: photo, in: rect))
            case let .more(hidden: count, first):
                layers.append(image(of: first, in: rect))
                layers.append(Layer(opacity: Self.moreShade, content: .fill(rect, .black)))
                layers.append(centred("+\(count)", points: Self.headerPoints, bold: true, in: rect, color: .white))
            }
        }
        crops.frameDone()
        layers += headers()
        drawnScroll = interaction.scrollPosition
        damaged = false
        return Layer(clip: window, content: .fill(window, GridView.background), sublayers: layers)
    }

    // MARK: - Cells

    /// Photo `photo`'s thumbnail in its cell `rect` (whole pixels, `GridCellImages`), over the
    /// placeholder only where the thumbnail lets it show through.
    private func image(of photo: Int, in rect: Rect) -> Layer {
        let plate = Layer(content: .fill(rect, GridView.placeholder))
        guard library.photos.indices.contains(photo),
            case let .thumbnail(image, _, _) = thumbnails.state(of: library.photos[photo].id)
        else {
            return plate
        }
        let cell = crops.cell(of: library.photos[photo].id, thumbnail: image, in: rect, opacity: 1)
        return image.isOpaque ? cell : Layer(sublayers: [plate, cell])
    }

    /// The photo a cell shows (a "+N" cell's first hidden one).
    static func photo(of cell: TimelineLayout.Cell) -> Int {
        switch cell.content {
        case .photo(let photo): photo
        case .more(_, let first): first
        }
    }

    /// `rect`, a cell in the window, with its edges on whole pixels, keeping its size while the
    /// level scrolls (`GridCellImages.onPixels`).
    func onPixels(_ rect: Rect) -> Rect { GridCellImages.onPixels(rect, scroll: interaction.contentTop) }

    // MARK: - Headers and titles

    private func headers() -> [Layer] {
        let layout = interaction.layout
        let top = interaction.contentTop
        let bottom = top + interaction.viewport.height
        guard let first = layout.section(atOffset: top) else { return [] }
        var layers: [Layer] = []
        var index = first
        // Pinned under the top bar: the layout's y there is the scroll position.
        let sticky = layout.stickyHeader(atOffset: max(0, interaction.scrollPosition))
        while index < layout.sections.count, layout.sections[index].y < bottom {
            let section = layout.sections[index]
            switch layout.level {
            case .years:
                if let tile = layout.cells(ofSection: index).first {
                    let rect = interaction.windowRect(tile.frame)
                    let inset = 16 * interaction.scale
                    layers.append(text(
                        "\(section.period)", points: Self.yearPoints, bold: true,
                        at: Point(x: rect.minX + inset, y: rect.minY + inset), color: .white, shadow: true))
                }
            case .months, .days:
                // The pinned header is drawn last, over the cells scrolling under it.
                if sticky?.section != index { layers += header(of: index, contentY: section.y) }
            case .allPhotos:
                break
            }
            index += 1
        }
        if let sticky { layers += header(of: sticky.section, contentY: sticky.y, pinned: true) }
        return layers
    }

    /// Section `index`'s header with its top at content y `contentY`: on the background's
    /// colour when pinned (cells pass under it).
    private func header(of index: Int, contentY: Double, pinned: Bool = false) -> [Layer] {
        let layout = interaction.layout
        let section = layout.sections[index]
        let area = interaction.windowRect(Rect(x: 0, y: contentY, width: layout.width, height: layout.headerHeight))
        var layers: [Layer] = []
        if pinned {
            layers.append(Layer(content: .fill(Rect(x: 0, y: area.minY, width: interaction.viewport.width, height: area.height), GridView.background)))
        }
        let title: String, detail: String?
        if layout.level == .months {
            let date = CivilCalendar.date(ofDay: layout.days.days[section.days.lowerBound])
            title = "\(TimelineDates.monthNames[date.month - 1]) \(date.year)"
            detail = nil
        } else {
            title = TimelineDates.dayTitle(layout.days.days[section.days.lowerBound])
            detail = folderLine(of: section.photos)
        }
        let baseline = area.maxY - 10 * interaction.scale
        if let detail {
            let size = Double(Int((Self.detailPoints * interaction.scale).rounded()))
            layers.append(Layer(opacity: PageLabels.detailOpacity, sublayers: [
                text(detail, points: Self.detailPoints, bold: false, at: Point(x: area.minX, y: baseline - size * 1.2), color: .black),
            ]))
            layers.append(text(title, points: Self.headerPoints, bold: true, at: Point(x: area.minX, y: baseline - size * 1.2 - Self.headerPoints * interaction.scale * 1.3), color: .black))
        } else {
            layers.append(text(title, points: Self.headerPoints, bold: true, at: Point(x: area.minX, y: baseline - Self.headerPoints * interaction.scale * 1.3), color: .black))
        }
        return layers
    }

    /// The folder a day's photos came from ("Holiday"), or the first and how many more.
    private func folderLine(of photos: Range<Int>) -> String? {
        let shown = photos.clamped(to: library.photos.indices)
        guard let first = shown.first else { return nil }
        let folder = FilePaths.folder(of: library.photos[first].path)
        var others = Set<String>()
        for photo in shown.prefix(TimelineDates.foldersCounted) {
            let other = FilePaths.folder(of: library.photos[photo].path)
            if other != folder { others.insert(other) }
        }
        let name = FileSystemPath.displayed(FilePaths.name(of: folder))
        return others.isEmpty ? name : "\(name) and \(others.count) more"
    }

    /// One line of `text` at `points` with its top-left at `origin` (window pixels).
    private func text(_ text: String, points: Double, bold: Bool, at origin: Point, color: Color, shadow: Bool = false) -> Layer {
        guard let line = rendered(text, points: points, bold: bold) else { return Layer() }
        let at = Point(x: origin.x.rounded(), y: origin.y.rounded())
        let glyphs = Layer(content: .text(line.mask, origin: at, color: color))
        guard shadow else { return glyphs }
        // A soft dark copy under white text keeps it readable on any photo.
        let under = Layer(opacity: 0.5, content: .text(line.mask, origin: Point(x: at.x + 1, y: at.y + 1), color: .black))
        return Layer(sublayers: [under, glyphs])
    }

    /// `text` centred in `rect`.
    private func centred(_ text: String, points: Double, bold: Bool, in rect: Rect, color: Color) -> Layer {
        guard let line = rendered(text, points: points, bold: bold) else { return Layer() }
        let height = Double(Int((points * interaction.scale).rounded()))
        return self.text(
            text, points: points, bold: bold,
            at: Point(x: rect.center.x - Double(line.width) / 2, y: rect.center.y - height * 0.7), color: color)
    }

    private func rendered(_ text: String, points: Double, bold: Bool) -> RenderedLines.Line? {
        lines.line(text, points: points, scale: interaction.scale, bold: bold)
    }
}

/// How the timeline names its days and months: "Saturday 1 May 2024", "May 2024".
enum TimelineDates {
    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]
    static let weekdayNames = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"]
    /// How many of a day's photos are looked at to name the folders they came from.
    static let foldersCounted = 200

    /// Day `day` (days since 1970-01-01, a Thursday) as a header says it.
    static func dayTitle(_ day: Int) -> String {
        let date = CivilCalendar.date(ofDay: day)
        let weekday = weekdayNames[((day % 7) + 7) % 7]
        return "\(weekday) \(date.day) \(monthNames[date.month - 1]) \(date.year)"
    }
}
