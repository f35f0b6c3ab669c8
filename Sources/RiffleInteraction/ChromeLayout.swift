import RiffleGeometry

/// Where the pager's chrome lies in a window, in window pixels, and what a point hits.
///
/// Sizes are points multiplied by `scale` (1 on a 96 dpi screen, 2 at 192 dpi) and rounded to
/// whole pixels. The top bar spans the width, `barHeight` tall: the back button at its left,
/// then (from the right edge) fullscreen, zoom and info buttons, the title between. The info
/// panel is a card under the bar at the right when the window is at least `wideWindowWidth`
/// wide, else a sheet across the bottom. Along the bottom edge lies the navigator strip's band
/// (`NavigatorStripLayout.band`), which the sheet covers while it is open.
public struct ChromeLayout: Hashable, Sendable {
    /// 44 pt: UIKit's navigation bar height and the smallest hit target Apple recommends
    /// (https://developer.apple.com/design/human-interface-guidelines/buttons, "at least 44x44 pt").
    public static let barHeightPoints = 44.0
    /// 44 pt square buttons, for the same reason.
    public static let buttonPoints = 44.0
    /// 104 pt: "‹ Photos" at 15 pt with its padding (Riffle's choice).
    public static let backButtonPoints = 104.0
    /// 4 pt between the bar's ends and its outermost buttons (Riffle's choice).
    public static let edgeInsetPoints = 4.0
    /// 8 pt between the title and the buttons (Riffle's choice).
    public static let titleGapPoints = 8.0
    /// 320 pt: the info card's width (iPad Photos' info card is about this wide; Riffle's reading).
    public static let infoWidthPoints = 320.0
    /// 12 pt between the info card and the window's edge and bar (Riffle's choice).
    public static let infoMarginPoints = 12.0
    /// 22 pt a row of the info panel, 12 pt above and below its rows (Riffle's choice).
    public static let infoRowPoints = 22.0
    public static let infoPaddingPoints = 12.0
    /// 18 pt a line of the help overlay, 12 pt between it and the bar and the window's edges
    /// (Riffle's choice).
    public static let helpRowPoints = 18.0
    public static let helpMarginPoints = 12.0
    /// A window at least 720 pt wide gets the side card; a narrower one the bottom sheet (so the
    /// card never covers more than half of it; Riffle's choice).
    public static let wideWindowPoints = 720.0

    /// The window size, pixels.
    public let viewport: Size
    /// Pixels per point.
    public let scale: Double
    /// How many lines of text the info panel holds (a value wrapped onto two lines counts two).
    public let infoRows: Int
    /// How many lines of text the help overlay's tallest column holds (its titles count two).
    public let helpRows: Int

    /// The layout of a `viewport` window at `scale` pixels per point (clamped to at least 0.5)
    /// whose info panel has `infoRows` rows and help overlay `helpRows`.
    public init(viewport: Size, scale: Double = 1, infoRows: Int = 0, helpRows: Int = 0) {
        self.viewport = viewport
        self.scale = max(scale, 0.5)
        self.infoRows = max(infoRows, 0)
        self.helpRows = max(helpRows, 0)
    }

    /// This layout with `infoRows` and `helpRows` lines in its panels.
    public func with(infoRows: Int? = nil, helpRows: Int? = nil) -> ChromeLayout {
        ChromeLayout(viewport: viewport, scale: scale, infoRows: infoRows ?? self.infoRows, helpRows: helpRows ?? self.helpRows)
    }

    /// Where the help overlay's text lies: under the bar, `helpMarginPoints` in from the
    /// window's sides, down to its bottom (the text scrolls inside it when taller).
    public var helpPanel: Rect {
        let margin = pixels(Self.helpMarginPoints)
        return Rect(x: margin, y: bar.height, width: max(viewport.width - 2 * margin, 0), height: max(viewport.height - bar.height, 0))
    }

    /// The height of the help's lines with a margin above and below them, pixels.
    public var helpContentHeight: Double { pixels(Self.helpMarginPoints) * 2 + pixels(Self.helpRowPoints) * Double(helpRows) }

    /// How far the panel `panel`'s lines can scroll, pixels (0 when they fit, or for none).
    public func scrollLimit(of panel: ViewerPanel) -> Double {
        switch panel {
        case .info: infoScrollLimit
        case .help: max(helpContentHeight - helpPanel.height, 0)
        case .none: 0
        }
    }

    /// `points` in whole pixels at this scale.
    public func pixels(_ points: Double) -> Double { (points * scale).rounded() }

    /// The top bar: the window's width, `barHeightPoints` tall.
    public var bar: Rect { Rect(x: 0, y: 0, width: viewport.width, height: pixels(Self.barHeightPoints)) }

    /// Button `button`'s rectangle (its hit target), inside the bar.
    public func frame(of button: ChromeButton) -> Rect {
        let inset = pixels(Self.edgeInsetPoints), side = pixels(Self.buttonPoints), height = bar.height
        switch button {
        case .back: return Rect(x: inset, y: 0, width: pixels(Self.backButtonPoints), height: height)
        case .fullscreen: return Rect(x: viewport.width - inset - side, y: 0, width: side, height: height)
        case .zoom: return Rect(x: viewport.width - inset - 2 * side, y: 0, width: side, height: height)
        case .info: return Rect(x: viewport.width - inset - 3 * side, y: 0, width: side, height: height)
        }
    }

    /// Between the back button and the info button, less `titleGapPoints` each side (empty on a
    /// window too narrow for it).
    public var titleFrame: Rect {
        let gap = pixels(Self.titleGapPoints)
        let left = frame(of: .back).maxX + gap, right = frame(of: .info).minX - gap
        return Rect(x: left, y: 0, width: max(right - left, 0), height: bar.height)
    }

    /// True when the window is wide enough for the info panel as a side card.
    public var infoPanelIsSide: Bool { viewport.width >= pixels(Self.wideWindowPoints) }

    /// The height of the info panel's rows with their padding, pixels: the panel's height when
    /// the window has room for it.
    public var infoContentHeight: Double { pixels(Self.infoPaddingPoints) * 2 + pixels(Self.infoRowPoints) * Double(infoRows) }

    /// How far the info panel's rows can scroll, pixels: what of `infoContentHeight` the panel
    /// cannot show (0 when they all fit).
    public var infoScrollLimit: Double { max(infoContentHeight - infoPanel.height, 0) }

    /// The info panel: a card under the bar at the right, or a sheet across the window's bottom,
    /// `infoRows` rows tall but never reaching above the bar (its rows then scroll inside it).
    public var infoPanel: Rect {
        let margin = pixels(Self.infoMarginPoints)
        let rows = infoContentHeight
        if infoPanelIsSide {
            let width = pixels(Self.infoWidthPoints)
            let height = max(min(rows, viewport.height - bar.height - 2 * margin), 0)
            return Rect(x: viewport.width - margin - width, y: bar.height + margin, width: width, height: height)
        }
        let height = max(min(rows, viewport.height - bar.height), 0)
        return Rect(x: 0, y: viewport.height - height, width: viewport.width, height: height)
    }

    /// The navigator strip's band (`NavigatorStripLayout.band`, which does not depend on the
    /// number of photos).
    public var stripBand: Rect { NavigatorStripLayout(viewport: viewport, scale: scale, count: 0).band }

    /// The button under `point`, or nil (a point between buttons, or off the bar).
    /// Rectangles are half-open (`Rect.contains`), so neighbouring buttons never both claim a point.
    public func button(at point: Point) -> ChromeButton? {
        ChromeButton.allCases.first { frame(of: $0).contains(point) }
    }
}
