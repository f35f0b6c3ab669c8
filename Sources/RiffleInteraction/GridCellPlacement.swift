import RiffleGeometry

/// Where the grid draws every cell, in window coordinates: a layout scrolled to a position, or,
/// during a column change, a blend between two placements.
///
/// - `layout(L, scroll: y)`: item i at L.rect(i) moved up by y.
/// - `blend(from, to, progress: p)`: each cell's origin and size interpolated linearly,
///   R = R_from + (R_to − R_from)·p. A point at the same fraction of a cell in both placements
///   stays at that fraction of the blended cell, at the same blend of the two positions; so an
///   item whose cell has the pointer at one fraction in both keeps it there at every p.
///
/// Culling: in a layout, the items above a window band precede the visible ones and those
/// below follow them (row-major order). A blended cell is a convex combination of its leaves'
/// cells, so it lies wholly above (below) the window when it does in every leaf; hence the
/// items outside the hull of the leaves' visible ranges (each an empty range at the split when
/// nothing shows) are off screen, and only that hull is searched.
indirect enum GridCellPlacement: Hashable, Sendable {
    case layout(GridLayout, scroll: Double)
    case blend(from: GridCellPlacement, to: GridCellPlacement, progress: Double)

    /// Item `index`'s cell in window coordinates.
    func rect(ofItem index: Int) -> Rect {
        switch self {
        case let .layout(layout, scroll):
            let content = layout.rect(ofItem: index)
            return Rect(x: content.minX, y: content.minY - scroll, width: content.width, height: content.height)
        case let .blend(from, to, p):
            let a = from.rect(ofItem: index), b = to.rect(ofItem: index)
            return Rect(
                x: a.minX + (b.minX - a.minX) * p, y: a.minY + (b.minY - a.minY) * p,
                width: a.width + (b.width - a.width) * p, height: a.height + (b.height - a.height) * p)
        }
    }

    /// The same placement with every cell moved up by `distance` pixels (scrolled further).
    func scrolled(by distance: Double) -> GridCellPlacement {
        switch self {
        case let .layout(layout, scroll):
            return .layout(layout, scroll: scroll + distance)
        case let .blend(from, to, p):
            return .blend(from: from.scrolled(by: distance), to: to.scrolled(by: distance), progress: p)
        }
    }

    /// A range of items holding every cell that overlaps window rows 0 ..< `height` (see the
    /// type's notes on culling).
    func candidates(height: Double) -> Range<Int> {
        switch self {
        case let .layout(layout, scroll):
            return layout.items(inContentY: scroll..<(scroll + max(height, 0)))
        case let .blend(from, to, _):
            let a = from.candidates(height: height), b = to.candidates(height: height)
            return min(a.lowerBound, b.lowerBound)..<max(a.upperBound, b.upperBound)
        }
    }

    /// The cells that overlap the window (0, 0, viewport) with positive area, in index order.
    func visibleCells(in viewport: Size) -> [(index: Int, rect: Rect)] {
        let window = Rect(origin: .zero, size: viewport)
        return candidates(height: viewport.height).compactMap { index in
            let rect = self.rect(ofItem: index)
            return rect.intersection(window) == nil ? nil : (index, rect)
        }
    }

    /// The item whose drawn cell contains window point `point` (the lowest index where blended
    /// cells overlap), or nil in a gap or past the last item.
    func item(at point: Point, viewport: Size) -> Int? {
        switch self {
        case let .layout(layout, scroll):
            return layout.item(at: Point(x: point.x, y: point.y + scroll))
        case .blend:
            return visibleCells(in: viewport).first { $0.rect.contains(point) }?.index
        }
    }

    /// The visible cell nearest window point `point` (distance 0 inside a cell; the lowest index
    /// among equals) with its rect, or nil when no cell is visible.
    func nearestItem(to point: Point, viewport: Size) -> (index: Int, rect: Rect)? {
        func distance(_ rect: Rect) -> Double {
            let dx = max(rect.minX - point.x, point.x - rect.maxX, 0)
            let dy = max(rect.minY - point.y, point.y - rect.maxY, 0)
            return (dx * dx + dy * dy).squareRoot()
        }
        return visibleCells(in: viewport).min { distance($0.rect) < distance($1.rect) }
    }
}
