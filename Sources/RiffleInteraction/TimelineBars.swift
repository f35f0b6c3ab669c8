import RiffleGeometry

/// Where a timeline's two bars lie, floating over its grid and levels as iOS Photos' do: a top
/// bar naming the library (its count and years), and a bottom bar of the four levels, Years ·
/// Months · Days · All Photos, the one shown marked, a click on another showing it. The grid and
/// the levels leave this much room above and below their content (`insets`), so that the first
/// and last cells can be scrolled clear of the bars while the rest pass under them.
public struct TimelineBars: Sendable, Equatable {
    /// The bars' heights, points.
    public static let topPoints = 34.0
    public static let bottomPoints = 44.0
    /// A level's segment: its widest, points, and its margin inside the bottom bar.
    public static let segmentPoints = 86.0
    public static let segmentMarginPoints = 6.0
    /// The aspect-ratio grid's switch's width, points.
    public static let aspectSwitchPoints = 104.0
    /// The levels in the bottom bar, left to right.
    public static let levels: [TimelineLayout.Level] = [.years, .months, .days, .allPhotos]

    public let viewport: Size
    public let scale: Double

    /// The bars for a window of `viewport` at `scale` pixels a point.
    public init(viewport: Size, scale: Double) {
        self.viewport = viewport
        self.scale = scale
    }

    /// The top bar, window pixels.
    public var top: Rect { Rect(x: 0, y: 0, width: viewport.width, height: (Self.topPoints * scale).rounded()) }

    /// The bottom bar, window pixels.
    public var bottom: Rect {
        let height = (Self.bottomPoints * scale).rounded()
        return Rect(x: 0, y: viewport.height - height, width: viewport.width, height: height)
    }

    /// The room the content leaves for the bars.
    public var insets: GridInsets { GridInsets(top: top.height, bottom: bottom.height) }

    /// Each level's segment of the bottom bar: as wide as `segmentPoints` allows within the
    /// window less its margins, together centred.
    public var segments: [(level: TimelineLayout.Level, rect: Rect)] {
        let margin = Self.segmentMarginPoints * scale
        let count = Double(Self.levels.count)
        let width = max(1, min(Self.segmentPoints * scale, (viewport.width - 2 * margin) / count)).rounded(.down)
        let left = ((viewport.width - width * count) / 2).rounded()
        let bar = bottom
        return Self.levels.enumerated().map { i, level in
            (level, Rect(x: left + Double(i) * width, y: bar.minY + margin, width: width, height: bar.height - 2 * margin))
        }
    }

    /// The aspect-ratio grid's switch, at the top bar's right end, window pixels.
    public var aspectSwitch: Rect {
        let margin = Self.segmentMarginPoints * scale
        let width = min(Self.aspectSwitchPoints * scale, viewport.width / 2).rounded(.down)
        let bar = top
        return Rect(x: viewport.width - margin - width, y: bar.minY + margin / 2, width: width, height: bar.height - margin)
    }

    /// True when window point `point` lies on a bar.
    public func contains(_ point: Point) -> Bool { top.contains(point) || bottom.contains(point) }

    /// The level whose segment holds window point `point`, nil elsewhere.
    public func level(at point: Point) -> TimelineLayout.Level? {
        segments.first { $0.rect.contains(point) }?.level
    }
}
