import RiffleGeometry

/// The pager's chrome as input sees it: the bars' layout and visibility, the open panel, the
/// button under the pointer and the one pressed.
///
/// Hit testing: a press on the navigator strip's band while the chrome shows is the strip's
/// (`stripTakes`), never the photo's; a press the chrome claims (on the shown bar, on the open info panel, anywhere
/// while the help shows) is the chrome's until its release, which never reaches the photo's
/// recognizers; a press it does not claim is the photo's until its release, and never becomes a
/// button's. A button acts on release over the same button (UIKit's touch-up-inside); the help
/// overlay closes on the release of any press.
public struct ChromeInteraction: Hashable, Sendable {
    /// Where the chrome lies.
    public private(set) var layout: ChromeLayout
    /// The panel or overlay open over the photo; while one is open the bars show.
    public private(set) var panel: ViewerPanel = .none
    /// When the bars show.
    public private(set) var visibility: ChromeVisibility
    /// The button under the pointer (no button held), while the bars show.
    public private(set) var hovered: ChromeButton?
    /// How far the open panel's lines are scrolled up, pixels (0 … `layout.scrollLimit(of:
    /// panel)`): a panel or help taller than the window scrolls rather than cutting lines off.
    public private(set) var panelScroll = 0.0
    /// The press the chrome claimed, in progress: on which button (nil: on the bar between
    /// buttons, the panel, or the help), and whether the pointer is still over it.
    private var press: Press?

    private struct Press: Hashable, Sendable {
        var button: ChromeButton?
        var inside: Bool
    }

    /// Chrome in `layout`, pinned (the bars mode) or hidden.
    public init(layout: ChromeLayout, pinned: Bool) {
        self.layout = layout
        visibility = ChromeVisibility(pinned: pinned)
    }

    /// True while a press the chrome claimed is held.
    public var isPressed: Bool { press != nil }

    /// The button drawn pressed: the one the held press began on, while the pointer is over it.
    public var pressedButton: ChromeButton? {
        guard let press, press.inside else { return nil }
        return press.button
    }

    /// True when a press at `point` at `t` is the chrome's: on the bars while they show, fade in
    /// or have not quite faded out, on the open info panel, or anywhere while the help shows.
    public func claims(_ point: Point, at t: Double) -> Bool {
        switch panel {
        case .help: return true
        case .info where layout.infoPanel.contains(point): return true
        default: return (visibility.isShown(at: t) || visibility.opacity(at: t) > 0) && layout.bar.contains(point)
        }
    }

    /// True when a press or wheel at `point` at `t` is the navigator strip's: on its band while
    /// the chrome shows or fades (as the bar's), unless the help or the info sheet covers it.
    public func stripTakes(_ point: Point, at t: Double) -> Bool {
        switch panel {
        case .help: return false
        case .info where layout.infoPanel.contains(point): return false
        default: return (visibility.isShown(at: t) || visibility.opacity(at: t) > 0) && layout.stripBand.contains(point)
        }
    }

    /// The pointer moved to `point` at `t` with no button held, or with the chrome's press held.
    public mutating func pointerMoved(to point: Point, at t: Double) {
        if let held = press {
            press = Press(button: held.button, inside: held.button.map { layout.button(at: point) == $0 } ?? false)
            return
        }
        let onBar = layout.bar.contains(point)
        let onPanel = panel == .info && layout.infoPanel.contains(point)
        visibility.pointerMoved(at: t, onChrome: onBar || onPanel || layout.stripBand.contains(point))
        hovered = onBar ? layout.button(at: point) : nil
    }

    /// The left button went down at `point` at `t`; true when the chrome takes the press.
    public mutating func pressed(at point: Point, at t: Double) -> Bool {
        guard claims(point, at: t) else { return false }
        let button = panel == .help ? nil : layout.button(at: point)
        press = Press(button: button, inside: button != nil)
        return true
    }

    /// The chrome's press was released at `point`: the button it activates, if any (the help
    /// overlay closes instead).
    public mutating func released(at point: Point, at t: Double) -> ChromeButton? {
        guard let held = press else { return nil }
        press = nil
        if panel == .help {
            open(.none, at: t)
            return nil
        }
        guard let button = held.button, layout.button(at: point) == button else { return nil }
        return button
    }

    /// Pins or unpins the bars at `t` (the bars mode a click toggles).
    public mutating func setPinned(_ pinned: Bool, at t: Double) {
        visibility.setPinned(pinned, at: t)
        if !pinned { hovered = nil }
    }

    /// Opens `panel` at `t`, or closes it when it is the one open.
    public mutating func toggle(_ panel: ViewerPanel, at t: Double) {
        open(self.panel == panel ? .none : panel, at: t)
    }

    /// Closes the open panel or overlay at `t`; false when none was open.
    public mutating func closePanel(at t: Double) -> Bool {
        guard panel != .none else { return false }
        open(.none, at: t)
        return true
    }

    // Shows `panel`, holding the bars shown while it is open; the info panel opens at its top.
    private mutating func open(_ panel: ViewerPanel, at t: Double) {
        self.panel = panel
        panelScroll = 0
        visibility.setHeld(panel != .none, at: t)
    }

    /// True when a wheel at `point` scrolls the open panel: anywhere while the help shows (it
    /// covers the window), on the info panel while it is open.
    public func panelTakesWheel(at point: Point) -> Bool {
        panel == .help || (panel == .info && layout.infoPanel.contains(point))
    }

    /// Pixels the open panel's lines move for one wheel notch: one of its lines (Riffle's
    /// choice: a small window may show only a few).
    public var scrollPerNotch: Double {
        layout.pixels(panel == .help ? ChromeLayout.helpRowPoints : ChromeLayout.infoRowPoints)
    }

    /// Scrolls the open panel's lines by `notches` of the wheel (y > 0, away from the user,
    /// shows earlier lines), held within its lines.
    public mutating func scrollPanel(notches: Double) {
        panelScroll = min(max(panelScroll - notches * scrollPerNotch, 0), layout.scrollLimit(of: panel))
    }

    /// The info panel now holds `rows` lines (another photo's details): it keeps its scroll
    /// when they are as many, else starts at its top.
    public mutating func setInfoRows(_ rows: Int) {
        guard rows != layout.infoRows else { return }
        layout = layout.with(infoRows: rows)
        if panel == .info { panelScroll = 0 }
    }

    /// The help overlay's tallest column now holds `rows` lines (the window's width decides
    /// how its columns stand).
    public mutating func setHelpRows(_ rows: Int) {
        guard rows != layout.helpRows else { return }
        layout = layout.with(helpRows: rows)
        panelScroll = min(panelScroll, layout.scrollLimit(of: panel))
    }

    /// The window is now `viewport`.
    public mutating func resize(viewport: Size) {
        layout = ChromeLayout(viewport: viewport, scale: layout.scale, infoRows: layout.infoRows, helpRows: layout.helpRows)
        panelScroll = min(panelScroll, layout.scrollLimit(of: panel))
    }

    /// True while the bars fade or their idle timer runs at `t`.
    public func isAnimating(at t: Double) -> Bool { visibility.isAnimating(at: t) }

    /// What to draw at `t`.
    public func renderState(at t: Double) -> ChromeRenderState {
        let opacity = visibility.opacity(at: t)
        return ChromeRenderState(
            layout: layout, opacity: opacity, hovered: opacity > 0 ? hovered : nil, pressed: pressedButton, panel: panel,
            panelScroll: panelScroll)
    }
}
