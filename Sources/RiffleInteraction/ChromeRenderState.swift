/// Everything needed to draw the pager's chrome in one frame, read from `ChromeInteraction`.
public struct ChromeRenderState: Hashable, Sendable {
    /// Where the bars, buttons and panel lie.
    public var layout: ChromeLayout
    /// The bars' opacity: 0 hidden … 1 shown (a navigator strip fades with the same figure).
    public var opacity: Double
    /// The button under the pointer, drawn highlighted.
    public var hovered: ChromeButton?
    /// The button held down with the pointer over it, drawn pressed.
    public var pressed: ChromeButton?
    /// The panel or overlay open over the photo.
    public var panel: ViewerPanel
    /// How far the open panel's lines are scrolled up, pixels (0 … `layout.scrollLimit(of: panel)`).
    public var panelScroll: Double = 0
}
