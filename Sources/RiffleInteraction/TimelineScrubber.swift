import RiffleGeometry

/// The timeline's scrubber: a thumb at the window's right edge, between the bars, that stands
/// for the whole scroll; pressing in its strip and dragging moves the scroll with the pointer,
/// the pointer's height over the track the scroll's fraction, as Google Photos' and iOS's
/// scroll indicators do when dragged. Across 100,000 photos it is the one way to travel far: a
/// pixel of track is a few hundred photos.
///
/// With the track from y₀ to y₁ (the room between the bars) and the thumb h high, a pointer at y
/// asks for fraction f = clamp((y − y₀ − h/2) / (y₁ − y₀ − h), 0, 1) of the scroll (0 the top,
/// 1 the end), and the thumb for fraction f has its top at y₀ + f·(y₁ − y₀ − h): the thumb
/// stays centred under the pointer while it is dragged.
public struct TimelineScrubber: Sendable, Equatable {
    /// The strip along the right edge a press must land in, points.
    public static let stripPoints = 28.0
    /// The thumb's width at rest and while dragged, its height, and its gap to the edge, points.
    public static let thumbPoints = 5.0
    public static let draggedThumbPoints = 9.0
    public static let thumbHeightPoints = 44.0
    public static let edgePoints = 3.0
    /// The scroll must be this many windows long for the scrubber to show: a short library
    /// scrolls well enough by hand.
    public static let windowsForAScrubber = 3.0

    public let viewport: Size
    public let scale: Double
    /// The room the bars take above and below.
    public let insets: GridInsets

    public init(viewport: Size, scale: Double, insets: GridInsets) {
        self.viewport = viewport
        self.scale = scale
        self.insets = insets
    }

    /// True when a scroll of `contentLength` in this window is long enough for a scrubber.
    public func isShown(contentLength: Double) -> Bool { contentLength >= Self.windowsForAScrubber * viewport.height }

    /// The strip a press starts a scrub in, window pixels.
    public var strip: Rect {
        let width = Self.stripPoints * scale
        return Rect(x: viewport.width - width, y: insets.top, width: width, height: max(0, viewport.height - insets.top - insets.bottom))
    }

    private var thumbHeight: Double { Self.thumbHeightPoints * scale }

    /// The fraction of the scroll a pointer at window height `y` asks for.
    public func fraction(atY y: Double) -> Double {
        let travel = strip.height - thumbHeight
        guard travel > 0 else { return 0 }
        return min(max((y - strip.minY - thumbHeight / 2) / travel, 0), 1)
    }

    /// The thumb at fraction `fraction` of the scroll, window pixels (wider while `dragged`).
    public func thumb(atFraction fraction: Double, dragged: Bool) -> Rect {
        let width = (dragged ? Self.draggedThumbPoints : Self.thumbPoints) * scale
        let travel = max(0, strip.height - thumbHeight)
        let f = min(max(fraction, 0), 1)
        return Rect(
            x: viewport.width - Self.edgePoints * scale - width, y: strip.minY + (f * travel).rounded(), width: width,
            height: min(thumbHeight, strip.height))
    }
}
