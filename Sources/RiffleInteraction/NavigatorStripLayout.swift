import RiffleGeometry

/// Where the pager's navigator strip lies in a window, in window pixels, as a function of the
/// strip's fractional position f (in photos: f = i when photo i is centred; the pager's
/// position divided by its page width while the strip follows the pager).
///
/// Every cell is `cellWidthPoints` × `cellHeightPoints` (a centre crop), `gapPoints` apart,
/// except the open ones: photo j is open by o_j = max(0, 1 − |f − j|), so at most the two
/// photos either side of f are, and at whole f only photo f. An open cell's width is
/// w + o_j·(W_j − w), W_j = h · aspect_j its true aspect at the strip's height, with a margin of
/// o_j·m on each side; its slot is that width plus both margins. Slots follow each other `gap`
/// apart, cell 0's slot starting at content x = 0: slot j starts at
/// L_j = j·(w + g) + Σ_{k<j} o_k·(W_k − w + 2m). The content point under the window's centre is
/// c(f) = (1 − s)·mid_i + s·mid_{i+1}, i = clamp(⌊f⌋, 0, n − 2), s = f − i, mid_j the middle of
/// slot j (the open cell is centred at whole f; past either end s extrapolates at that pitch,
/// so a rubber-banded strip keeps moving). Content x maps to window x = viewport.width/2 + x − c(f).
/// The layout is continuous in f: the opening hands over from one cell to the next as the page
/// slides, without a jump.
public struct NavigatorStripLayout: Hashable, Sendable {
    /// 28 × 40 pt cells, 2 pt apart: the proportions of iOS Photos' scrubber cells (Riffle's
    /// reading of it; narrow enough to show about 45 photos in a 1280 px window).
    public static let cellWidthPoints = 28.0
    public static let cellHeightPoints = 40.0
    public static let gapPoints = 2.0
    /// 8 pt either side of the open cell, so it reads as separate (Riffle's choice).
    public static let openMarginPoints = 8.0
    /// 8 pt between the strip and the window's bottom edge (Riffle's choice).
    public static let bottomMarginPoints = 8.0
    /// 6 pt of the band (the strip's plate and hit area) above the cells (Riffle's choice).
    public static let bandPaddingPoints = 6.0

    /// The window size, pixels.
    public let viewport: Size
    /// Pixels per point.
    public let scale: Double
    /// How many photos the strip holds.
    public let count: Int

    /// The strip of `count` photos in a `viewport` window at `scale` pixels per point (clamped to
    /// at least 0.5, as `ChromeLayout` does).
    public init(viewport: Size, scale: Double = 1, count: Int) {
        self.viewport = viewport
        self.scale = max(scale, 0.5)
        self.count = max(count, 0)
    }

    /// `points` in whole pixels at this scale.
    public func pixels(_ points: Double) -> Double { (points * scale).rounded() }

    /// w: a closed cell's width, pixels.
    public var cellWidth: Double { pixels(Self.cellWidthPoints) }
    /// h: every cell's height, pixels.
    public var cellHeight: Double { pixels(Self.cellHeightPoints) }
    /// g: between slots, pixels.
    public var gap: Double { pixels(Self.gapPoints) }
    /// m: the open cell's margin on each side, pixels (times its openness).
    public var openMargin: Double { pixels(Self.openMarginPoints) }
    /// w + g: the distance between closed cells, pixels; a strip scroll of one photo.
    public var pitch: Double { cellWidth + gap }

    /// The window y of the cells' top edge.
    public var cellTop: Double { viewport.height - pixels(Self.bottomMarginPoints) - cellHeight }

    /// The strip's band: the window's width, from `bandPaddingPoints` above the cells to the
    /// window's bottom edge. Its plate is drawn here, and a press here is the strip's.
    public var band: Rect {
        let top = cellTop - pixels(Self.bandPaddingPoints)
        return Rect(x: 0, y: top, width: viewport.width, height: viewport.height - top)
    }

    /// o_j = max(0, 1 − |f − j|): how far photo `index` is open at position `f`, 0…1.
    public static func openness(of index: Int, at f: Double) -> Double {
        max(0, 1 - abs(f - Double(index)))
    }

    /// One cell on screen.
    public struct Cell: Hashable, Sendable {
        /// The photo's index.
        public var index: Int
        /// The cell, window pixels (not rounded).
        public var frame: Rect
        /// o_j, 0…1: how far it is open.
        public var openness: Double
    }

    /// The cells overlapping the window at position `f`, in index order; `aspect(j)` is photo
    /// j's width / height (nil while unknown: the cell stays narrow, W_j = w).
    public func cells(at f: Double, aspect: (Int) -> Double?) -> [Cell] {
        guard count > 0, f.isFinite else { return [] }
        let centre = centreContentX(at: f, aspect: aspect)
        let shift = viewport.width / 2 - centre
        // Closed cells are a pitch apart and open ones only wider, so the cells within
        // half a window of pitches of ⌊f⌋ (one more each side for the open ones) cover it.
        let reach = Int((viewport.width / 2 / max(pitch, 1)).rounded(.up)) + 2
        let base = Int(f.rounded(.down))
        let low = max(base - reach, 0), high = min(base + reach, count - 1)
        guard low <= high else { return [] }
        return (low...high).compactMap { index in
            var frame = cellFrame(index, at: f, aspect: aspect)
            frame.origin.x += shift
            guard frame.maxX > 0, frame.minX < viewport.width else { return nil }
            return Cell(index: index, frame: frame, openness: Self.openness(of: index, at: f))
        }
    }

    /// The photo whose slot (with half the gap either side) lies under `point` at position `f`,
    /// or nil (off the band, or beyond either end).
    public func index(at point: Point, position f: Double, aspect: (Int) -> Double?) -> Int? {
        guard band.contains(point) else { return nil }
        let half = gap / 2
        return cells(at: f, aspect: aspect).first { cell in
            let margin = cell.openness * openMargin
            return point.x >= cell.frame.minX - margin - half && point.x < cell.frame.maxX + margin + half
        }?.index
    }

    /// c(f): the content x under the window's centre at position `f`.
    public func centreContentX(at f: Double, aspect: (Int) -> Double?) -> Double {
        guard count > 1 else { return slotMiddle(0, at: f, aspect: aspect) + f * pitch }
        let i = min(max(Int(f.rounded(.down)), 0), count - 2)
        let s = f - Double(i)
        return (1 - s) * slotMiddle(i, at: f, aspect: aspect) + s * slotMiddle(i + 1, at: f, aspect: aspect)
    }

    // W_j − w + 2m: how much wider than closed photo j's slot is when fully open.
    private func openExtra(_ index: Int, aspect: (Int) -> Double?) -> Double {
        let open = aspect(index).map { cellHeight * $0 } ?? cellWidth
        return open - cellWidth + 2 * openMargin
    }

    // L_j: only the (at most two) open photos before j widen the slots before it.
    private func slotStart(_ index: Int, at f: Double, aspect: (Int) -> Double?) -> Double {
        let base = Int(f.rounded(.down))
        var start = Double(index) * pitch
        for k in [base, base + 1] where k < index && k >= 0 && k < count {
            start += Self.openness(of: k, at: f) * openExtra(k, aspect: aspect)
        }
        return start
    }

    private func slotWidth(_ index: Int, at f: Double, aspect: (Int) -> Double?) -> Double {
        cellWidth + Self.openness(of: index, at: f) * openExtra(index, aspect: aspect)
    }

    private func slotMiddle(_ index: Int, at f: Double, aspect: (Int) -> Double?) -> Double {
        slotStart(index, at: f, aspect: aspect) + slotWidth(index, at: f, aspect: aspect) / 2
    }

    // Cell j in content x: its slot less the margins.
    private func cellFrame(_ index: Int, at f: Double, aspect: (Int) -> Double?) -> Rect {
        let o = Self.openness(of: index, at: f)
        let margin = o * openMargin
        let x = slotStart(index, at: f, aspect: aspect) + margin
        return Rect(x: x, y: cellTop, width: slotWidth(index, at: f, aspect: aspect) - 2 * margin, height: cellHeight)
    }
}
