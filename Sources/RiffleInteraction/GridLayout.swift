import RiffleGeometry

/// Where the library grid puts its items: square cells in `columns` columns filling the
/// viewport's width, `spacing` apart with none at the window's edges, in natural (row-major)
/// order, in content coordinates (the origin at the top-left of the first cell, y down).
///
/// With width W, c columns and n items: cell side a = (W − (c − 1)·spacing)/c (0 when W leaves
/// no room), pitch p = a + spacing; item i is at column i mod c, row ⌊i/c⌋, its rect
/// (col·p, top + row·p, a, a). The content is ⌈n/c⌉ rows: height top + rows·p − spacing + bottom
/// (0 without items), `top` and `bottom` the insets: room above the first row and below the
/// last where a timeline's bars float (0 for a folder's grid).
/// Columns: the requested count (Ctrl+wheel, pinch), or else `automaticColumns`, clamped into
/// `columnLimits`.
public struct GridLayout: Hashable, Sendable {
    // Riffle's choice (docs/physics.md, "Library grid"): thin enough that the photos read as
    // one sheet, as in Photos on iOS, wide enough to tell neighbours apart.
    /// 2 px between neighbouring cells, none at the window's edges.
    public static let spacing = 2.0
    // Riffle's choice (docs/physics.md, "Library grid"): 7 columns of 181 px in a 1280 px
    // window, cells drawn from the freedesktop "large" (256 px) thumbnails reduced.
    /// 180 px: the cell width the automatic column count aims at.
    public static let preferredCellWidth = 180.0
    // Riffle's choice (docs/physics.md, "Library grid"): a narrow window still shows a grid.
    /// 3: the fewest columns the automatic count gives.
    public static let minimumAutomaticColumns = 3
    // Riffle's choice (docs/physics.md, "Library grid"): smaller cells make photos hard to tell
    // apart; they are still drawn from a reduced "normal" (128 px) thumbnail.
    /// 80 px: zooming out (Ctrl+wheel, pinch) stops at the most columns with cells this wide.
    public static let minimumCellWidth = 80.0

    /// The viewport's width, pixels.
    public let viewportWidth: Double
    /// Number of items (≥ 0).
    public let itemCount: Int
    /// Number of columns, within `columnLimits(viewportWidth:)`.
    public let columns: Int
    /// Room above the first row and below the last, pixels.
    public let insets: GridInsets

    /// The layout of `itemCount` items (negative taken as 0) across `viewportWidth` pixels in
    /// `columns` columns (nil: `automaticColumns`), the count clamped into `columnLimits`, with
    /// `insets` of room above and below.
    public init(viewportWidth: Double, itemCount: Int, columns: Int? = nil, insets: GridInsets = GridInsets()) {
        self.viewportWidth = viewportWidth
        self.itemCount = max(itemCount, 0)
        self.insets = insets
        let limits = Self.columnLimits(viewportWidth: viewportWidth)
        self.columns = min(max(columns ?? Self.automaticColumns(viewportWidth: viewportWidth), limits.lowerBound), limits.upperBound)
    }

    /// max(3, round(W / 180)): 7 columns at W = 1280, 3 below W = 450.
    public static func automaticColumns(viewportWidth: Double) -> Int {
        max(minimumAutomaticColumns, Int((max(viewportWidth, 0) / preferredCellWidth).rounded()))
    }

    /// 1 ... max(automatic, ⌊(W + spacing)/(80 + spacing)⌋): from one photo a row to the most
    /// columns whose cells are at least `minimumCellWidth` wide (15 at W = 1280), never fewer
    /// than the automatic count.
    public static func columnLimits(viewportWidth: Double) -> ClosedRange<Int> {
        let fitting = Int(((max(viewportWidth, 0) + spacing) / (minimumCellWidth + spacing)).rounded(.down))
        return 1...max(automaticColumns(viewportWidth: viewportWidth), fitting)
    }

    /// The cell side a = (W − (c − 1)·spacing)/c, pixels, 0 when the width leaves no room.
    public var cellSide: Double {
        max((viewportWidth - Double(columns - 1) * Self.spacing) / Double(columns), 0)
    }

    /// From one row's top to the next: cellSide + spacing, pixels.
    public var rowPitch: Double { cellSide + Self.spacing }

    /// ⌈n / c⌉.
    public var rowCount: Int { (itemCount + columns - 1) / columns }

    /// top + rows·pitch − spacing + bottom, pixels; 0 without items.
    public var contentHeight: Double {
        rowCount == 0 ? 0 : insets.top + Double(rowCount) * rowPitch - Self.spacing + insets.bottom
    }

    /// ⌊index / c⌋: the row of item `index`.
    public func row(ofItem index: Int) -> Int { index / columns }

    /// Item `index`'s cell in content coordinates: (col·pitch, top + row·pitch, side, side).
    public func rect(ofItem index: Int) -> Rect {
        Rect(
            x: Double(index % columns) * rowPitch, y: insets.top + Double(row(ofItem: index)) * rowPitch,
            width: cellSide, height: cellSide)
    }

    /// The items whose cells overlap the content rows in `range` (content y, pixels): whole rows
    /// in order, each with its top above range's upper bound and its bottom below its lower one.
    /// When none does, an empty range at the first item below `range`: the items before the
    /// result lie wholly above `range`, those after it wholly below (drawing culls with it).
    public func items(inContentY range: Range<Double>) -> Range<Int> {
        guard itemCount > 0 else { return 0..<0 }
        // The rows' own coordinates, from the first row's top.
        let range = (range.lowerBound - insets.top)..<(range.upperBound - insets.top)
        let rows = rowCount
        // Rows r with r·pitch + side > lower and r·pitch < upper. The estimates from division
        // are corrected with the same sums `rect(ofItem:)` uses, so the two never disagree.
        var first = rowEstimate((range.lowerBound - cellSide) / rowPitch, rounded: .down)
        while first > 0, rowBottom(first - 1) > range.lowerBound { first -= 1 }
        while first < rows, rowBottom(first) <= range.lowerBound { first += 1 }
        var end = max(rowEstimate(range.upperBound / rowPitch, rounded: .up), first)
        while end > first, rowTop(end - 1) >= range.upperBound { end -= 1 }
        while end < rows, rowTop(end) < range.upperBound { end += 1 }
        return min(first * columns, itemCount)..<min(end * columns, itemCount)
    }

    /// The item whose cell contains `point` (content coordinates; left and top edges inside,
    /// right and bottom outside), or nil in a gap, beside the grid or past the last item.
    public func item(at point: Point) -> Int? {
        guard point.x < viewportWidth, point.y < contentHeight - insets.bottom,
            let column = slot(point.x), column < columns, let row = slot(point.y - insets.top)
        else { return nil }
        let index = row * columns + column
        return index < itemCount ? index : nil
    }

    // A row number from a quotient, clamped into 0...rowCount before it becomes an Int.
    private func rowEstimate(_ quotient: Double, rounded rule: FloatingPointRoundingRule) -> Int {
        Int(min(max(quotient.rounded(rule), 0), Double(rowCount)))
    }

    private func rowTop(_ row: Int) -> Double { Double(row) * rowPitch }

    private func rowBottom(_ row: Int) -> Double { rowTop(row) + cellSide }

    // The k ≥ 0 with k·pitch ≤ v < k·pitch + side, or nil in a gap or before 0; the division's
    // estimate is checked against the sums `rect(ofItem:)` uses.
    private func slot(_ v: Double) -> Int? {
        guard v >= 0, rowPitch > 0 else { return nil }
        var k = Int((v / rowPitch).rounded(.down))
        if v < rowTop(k) { k -= 1 } else if v >= rowTop(k + 1) { k += 1 }
        return v < rowBottom(k) ? k : nil
    }
}

/// Room a grid leaves above its first row and below its last, pixels: where bars float over it.
public struct GridInsets: Hashable, Sendable {
    public var top: Double
    public var bottom: Double

    public init(top: Double = 0, bottom: Double = 0) {
        self.top = top
        self.bottom = bottom
    }
}
