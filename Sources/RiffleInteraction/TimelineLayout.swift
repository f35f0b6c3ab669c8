import RiffleGeometry

/// Where everything of one level of the timeline lies, in content points from the top of the
/// timeline (y grows down, x across a column `width` wide), as a pure function of the days,
/// the level and the width: Photos' Years, Months and Days, and All Photos.
///
/// - **All Photos:** every photo in time order in square cells, `columns` across (as many cells
///   of about `Metrics.allPhotosCell` as fit, at least 3), `Metrics.spacing` apart; or, given
///   the photos' aspect ratios (the aspect-ratio grid), whole in justified rows about
///   `Metrics.allPhotosCell` high (`JustifiedRows`).
/// - **Days:** a section per day: a header, then up to `Metrics.dayRows` rows of larger cells
///   (`Metrics.dayColumns` across); a day with more photos than fit shows the first ones and,
///   in the last cell, "+N" for the N not shown (`Content.more`), which opens the day.
/// - **Months:** a section per month: a header, one key photo across the width
///   (`Metrics.monthHeroAspect`), and up to three more below it, the month's photos taken at
///   even steps through it.
/// - **Years:** one tile per year across the width (`Metrics.yearTileAspect`), showing the
///   photo in the middle of its year.
///
/// Given the `height` the level is seen in, a Year's tile and a Month's key photos keep within
/// it (`Metrics.yearTileMostOfHeight` and the Months' shares): in a landscape window the width
/// alone would make a tile taller than the window (1,888 × 1,171 pixels at 1920 × 1080), its
/// title out of sight whenever its top is.
///
/// Building a layout costs O(days) (the sections' offsets, at most one per day: about 11,000 for
/// 30 years); every query after it (the cells in a band, a photo's frame, the photo under a
/// point, the month at an offset) is a binary search over the sections plus the cells returned,
/// so a frame's cost depends on what it shows, never on the library's size.
public struct TimelineLayout: Sendable {
    /// The four levels, coarsest first.
    public enum Level: Int, CaseIterable, Sendable {
        case years, months, days, allPhotos
    }

    /// The sizes of the layout, in points (times `scale` for pixels).
    public enum Metrics {
        /// Between cells, and between rows of cells.
        public static let spacing = 2.0
        /// The cell side All Photos aims for; the columns are as many as fit.
        public static let allPhotosCell = 150.0
        /// At least this many columns in All Photos, as in Photos.
        public static let minimumColumns = 3
        /// A section's header (its date, and the folder its photos came from) above its cells.
        public static let headerHeight = 52.0
        /// Below a section, before the next header.
        public static let sectionGap = 20.0
        /// Days: cells across, and rows at most.
        public static let dayColumns = 4
        public static let dayRows = 2
        /// Months: the key photo's height over its width; key photos at most (the first large).
        public static let monthHeroAspect = 0.56
        public static let monthKeys = 4
        /// Years: a tile's height over its width, and the gap between tiles.
        public static let yearTileAspect = 0.62
        public static let yearGap = 16.0
        /// The most of the height the level is seen in that a Year's tile takes (the next
        /// year's peeks in below it), and that a Month's first key photo and the row of the
        /// others take (with the header, a whole month is seen at once).
        public static let yearTileMostOfHeight = 0.8
        public static let monthHeroMostOfHeight = 0.55
        public static let monthKeysMostOfHeight = 0.3
    }

    /// What a cell shows.
    public enum Content: Equatable, Sendable {
        /// Photo number `photo` (time order).
        case photo(Int)
        /// "+N": the day's `hidden` photos not shown, of which `first` is the first; it stands
        /// for all of them.
        case more(hidden: Int, first: Int)
    }

    /// One cell: what it shows and where.
    public struct Cell: Equatable, Sendable {
        public let content: Content
        public let frame: Rect
    }

    /// One section (a day, a month or a year; All Photos has none): its period, its days and
    /// photos, and where it lies.
    public struct Section: Equatable, Sendable {
        /// The period's number: a day number, a month number (`CivilCalendar.monthNumber`) or a
        /// year.
        public let period: Int
        /// Its days' indices in `TimelineDays.days`.
        public let days: Range<Int>
        /// Its photos.
        public let photos: Range<Int>
        /// Its top, and its height (header, cells and the gap after it).
        public let y: Double
        public let height: Double
    }

    public let level: Level
    public let width: Double
    public let days: TimelineDays
    /// The sections, top to bottom (empty for All Photos).
    public let sections: [Section]
    /// The height of everything.
    public let contentHeight: Double
    /// Cells across (All Photos and Days), and their side.
    public let columns: Int
    public let cellSide: Double
    /// All Photos as the aspect-ratio grid: its justified rows; nil for square cells.
    public let justified: JustifiedRows?

    /// The layout of `days` at `level` in a column `width` points wide, at `scale` pixels a point
    /// (all sizes are multiplied by it); All Photos in justified rows when `aspects` gives each
    /// photo's aspect ratio (one a photo, in time order), in square cells otherwise; Years'
    /// tiles and Months' key photos within `height`, the height the level is seen in (nil: no
    /// bound).
    public init(days: TimelineDays, level: Level, width: Double, scale: Double = 1, aspects: [Double]? = nil, height: Double? = nil) {
        self.days = days
        justified = level == .allPhotos ? aspects.flatMap { aspects in
            aspects.count == days.photoCount
                ? JustifiedRows(aspects: aspects, width: width, targetHeight: Metrics.allPhotosCell * scale, spacing: Metrics.spacing * scale)
                : nil
        } : nil
        self.level = level
        self.width = width
        let spacing = Metrics.spacing * scale
        switch level {
        case .allPhotos:
            columns = max(Metrics.minimumColumns, Int((width + spacing) / (Metrics.allPhotosCell * scale + spacing)))
        case .days:
            columns = Metrics.dayColumns
        case .months, .years:
            columns = 1
        }
        cellSide = max(1, (width - spacing * Double(columns - 1)) / Double(columns))
        let rowHeight = cellSide + spacing
        var sections: [Section] = []
        var y = 0.0
        func append(period: Int, days range: Range<Int>, height: Double) {
            let photos = days.firstPhoto[range.lowerBound]..<days.firstPhoto[range.upperBound]
            sections.append(Section(period: period, days: range, photos: photos, y: y, height: height))
            y += height
        }
        let header = Metrics.headerHeight * scale, gap = Metrics.sectionGap * scale
        /// `share` of the height the level is seen in, rounded (no bound without one).
        func most(_ share: Double) -> Double { height.map { max(1, ($0 * share).rounded()) } ?? .infinity }
        yearTileHeight = min((width * Metrics.yearTileAspect).rounded(), most(Metrics.yearTileMostOfHeight))
        monthHeroHeight = min((width * Metrics.monthHeroAspect).rounded(), most(Metrics.monthHeroMostOfHeight))
        monthKeyWidth = (width - spacing * Double(Metrics.monthKeys - 2)) / Double(Metrics.monthKeys - 1)
        monthKeyHeight = min(monthKeyWidth, most(Metrics.monthKeysMostOfHeight))
        switch level {
        case .allPhotos:
            let rows = (days.photoCount + columns - 1) / columns
            y = justified?.contentHeight ?? (rows == 0 ? 0 : Double(rows) * rowHeight - spacing)
        case .days:
            for k in days.days.indices {
                let shown = min(days.photos(ofDay: k).count, columns * Metrics.dayRows)
                let rows = (shown + columns - 1) / columns
                append(period: days.days[k], days: k..<(k + 1), height: header + Double(rows) * rowHeight - spacing + gap)
            }
        case .months:
            for run in days.runs(by: CivilCalendar.monthNumber(ofDay:)) {
                let count = days.firstPhoto[run.days.upperBound] - days.firstPhoto[run.days.lowerBound]
                append(period: run.key, days: run.days, height: header + monthHeroHeight + (count > 1 ? spacing + monthKeyHeight : 0) + gap)
            }
        case .years:
            let yearGap = Metrics.yearGap * scale
            for run in days.runs(by: { CivilCalendar.date(ofDay: $0).year }) {
                append(period: run.key, days: run.days, height: yearTileHeight + yearGap)
            }
        }
        self.sections = sections
        contentHeight = y
        headerHeight = level == .days || level == .months ? header : 0
        self.spacing = spacing
    }

    /// The header's height in this layout (0 for All Photos and Years, whose tiles are titled).
    public let headerHeight: Double
    private let spacing: Double
    /// A Year's tile's height; a Month's first key photo's height, and the others' size.
    private let yearTileHeight: Double
    private let monthHeroHeight: Double
    private let monthKeyWidth: Double
    private let monthKeyHeight: Double

    // MARK: - Queries

    /// The cells that meet the band of content from `top` to `bottom`, top to bottom.
    public func cells(from top: Double, to bottom: Double) -> [Cell] {
        guard bottom > top else { return [] }
        if let justified {
            guard var row = justified.row(atOffset: top) else { return [] }
            var cells: [Cell] = []
            while row < justified.rowCount, justified.rowTops[row] < bottom {
                cells += justified.frames(ofRow: row).filter { $0.frame.maxY > top }.map { Cell(content: .photo($0.photo), frame: $0.frame) }
                row += 1
            }
            return cells
        }
        if level == .allPhotos {
            let rowHeight = cellSide + spacing
            let first = max(0, Int((top / rowHeight).rounded(.down)))
            let last = min((days.photoCount - 1) / columns, Int((bottom / rowHeight).rounded(.down)))
            guard days.photoCount > 0, first <= last else { return [] }
            var cells: [Cell] = []
            for photo in (first * columns)..<min(days.photoCount, (last + 1) * columns) {
                cells.append(Cell(content: .photo(photo), frame: allPhotosFrame(photo)))
            }
            return cells
        }
        var cells: [Cell] = []
        var index = section(atOffset: top) ?? 0
        while index < sections.count, sections[index].y < bottom {
            cells += self.cells(ofSection: index).filter { $0.frame.maxY > top && $0.frame.minY < bottom }
            index += 1
        }
        return cells
    }

    /// Every cell of section `index`.
    public func cells(ofSection index: Int) -> [Cell] {
        let section = sections[index]
        let top = section.y + headerHeight
        switch level {
        case .allPhotos:
            return []
        case .days:
            let count = section.photos.count, capacity = columns * Metrics.dayRows
            let shown = min(count, capacity)
            return (0..<shown).map { i in
                let frame = Rect(
                    x: Double(i % columns) * (cellSide + spacing), y: top + Double(i / columns) * (cellSide + spacing),
                    width: cellSide, height: cellSide)
                if count > capacity, i == shown - 1 {
                    return Cell(content: .more(hidden: count - (shown - 1), first: section.photos.lowerBound + shown - 1), frame: frame)
                }
                return Cell(content: .photo(section.photos.lowerBound + i), frame: frame)
            }
        case .months:
            let keys = monthKeys(section.photos)
            var cells = [Cell(content: .photo(keys[0]), frame: Rect(x: 0, y: top, width: width, height: monthHeroHeight))]
            for (i, photo) in keys.dropFirst().enumerated() {
                cells.append(Cell(
                    content: .photo(photo),
                    frame: Rect(
                        x: Double(i) * (monthKeyWidth + spacing), y: top + monthHeroHeight + spacing, width: monthKeyWidth,
                        height: monthKeyHeight)))
            }
            return cells
        case .years:
            let photos = section.photos
            return [Cell(
                content: .photo(photos.lowerBound + photos.count / 2), frame: Rect(x: 0, y: section.y, width: width, height: yearTileHeight))]
        }
    }

    /// The key photos of a month of `photos`: at most `Metrics.monthKeys`, at even steps through
    /// it, the first at its start.
    func monthKeys(_ photos: Range<Int>) -> [Int] {
        let count = min(photos.count, Metrics.monthKeys)
        return (0..<count).map { photos.lowerBound + $0 * photos.count / count }
    }

    /// The section whose span holds content offset `y` (the last one for offsets past the end,
    /// the first before the start); nil without sections.
    public func section(atOffset y: Double) -> Int? {
        guard !sections.isEmpty else { return nil }
        var low = 0, high = sections.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if sections[middle].y <= y { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The section holding photo `photo`.
    public func section(ofPhoto photo: Int) -> Int? {
        guard !sections.isEmpty, (0..<days.photoCount).contains(photo) else { return nil }
        let day = days.dayIndex(ofPhoto: photo)
        var low = 0, high = sections.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if sections[middle].days.lowerBound <= day { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Where photo `photo` is, or what stands for it: its own cell where it has one, else the
    /// "+N" cell of its day, its month's key photo, its year's tile.
    public func frame(ofPhoto photo: Int) -> Rect? {
        guard (0..<days.photoCount).contains(photo) else { return nil }
        if let justified { return justified.frame(ofPhoto: photo) }
        if level == .allPhotos { return allPhotosFrame(photo) }
        guard let index = section(ofPhoto: photo) else { return nil }
        let cells = cells(ofSection: index)
        for cell in cells {
            switch cell.content {
            case .photo(photo): return cell.frame
            case .more(_, let first) where photo >= first: return cell.frame
            default: continue
            }
        }
        return cells.first?.frame
    }

    /// The photo at content point `point`: a cell's photo, the first hidden one of a "+N" cell;
    /// nil between cells and on headers.
    public func photo(at point: Point) -> Int? {
        for cell in cells(from: point.y, to: point.y + 1e-9) where cell.frame.contains(point) {
            switch cell.content {
            case .photo(let photo): return photo
            case .more(_, let first): return first
            }
        }
        return nil
    }

    /// The month (`CivilCalendar.monthNumber`) shown at content offset `y`: its section's first
    /// month, or in All Photos, the month of the row's first photo. What the scrubber and the
    /// date label say; nil for an empty timeline.
    public func month(atOffset y: Double) -> Int? {
        guard days.photoCount > 0 else { return nil }
        if let justified, let row = justified.row(atOffset: y) {
            return CivilCalendar.monthNumber(ofDay: days.days[days.dayIndex(ofPhoto: justified.rowStarts[row])])
        }
        if level == .allPhotos {
            let row = max(0, min((days.photoCount - 1) / columns, Int((y / (cellSide + spacing)).rounded(.down))))
            return CivilCalendar.monthNumber(ofDay: days.days[days.dayIndex(ofPhoto: row * columns)])
        }
        guard let index = section(atOffset: y) else { return nil }
        let section = sections[index]
        return level == .years ? section.period * 12 : CivilCalendar.monthNumber(ofDay: days.days[section.days.lowerBound])
    }

    /// The content offset where month `month` begins: the top of the first section or row that
    /// holds a photo of it or a later month (the end of the content after the last).
    public func offset(ofMonth month: Int) -> Double {
        // The first day of the month or after.
        var low = 0, high = days.days.count
        while low < high {
            let middle = (low + high) / 2
            if CivilCalendar.monthNumber(ofDay: days.days[middle]) < month { low = middle + 1 } else { high = middle }
        }
        guard low < days.days.count else { return contentHeight }
        let photo = days.firstPhoto[low]
        if let justified { return justified.row(ofPhoto: photo).map { justified.rowTops[$0] } ?? 0 }
        if level == .allPhotos { return Double(photo / columns) * (cellSide + spacing) }
        return section(ofPhoto: photo).map { sections[$0].y } ?? 0
    }

    /// The header pinned at the top of a view scrolled to `offset`: the section under the top
    /// edge, its header at the top unless the next section's header pushes it up. Nil for
    /// levels without headers.
    public func stickyHeader(atOffset offset: Double) -> (section: Int, y: Double)? {
        guard headerHeight > 0, let index = section(atOffset: offset) else { return nil }
        var y = max(sections[index].y, offset)
        if index + 1 < sections.count { y = min(y, sections[index + 1].y - headerHeight) }
        return (index, y)
    }

    private func allPhotosFrame(_ photo: Int) -> Rect {
        Rect(
            x: Double(photo % columns) * (cellSide + spacing), y: Double(photo / columns) * (cellSide + spacing),
            width: cellSide, height: cellSide)
    }
}
