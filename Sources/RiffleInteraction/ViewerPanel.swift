/// What the pager shows over the photo besides its bars: nothing, the info panel, or the help
/// overlay. Escape closes an open one before it does anything else.
public enum ViewerPanel: Hashable, Sendable {
    /// Only the photo (and the bars, when shown).
    case none
    /// The photo's details: a card at the right on a wide window, a sheet at the bottom on a
    /// narrow one (`ChromeLayout.infoPanel`).
    case info
    /// Every gesture and key, over the whole window.
    case help
}
