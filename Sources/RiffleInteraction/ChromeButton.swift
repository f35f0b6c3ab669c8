/// A button of the pager's top bar.
public enum ChromeButton: Hashable, Sendable, CaseIterable {
    /// "‹ Photos": back to the library grid, with the dismiss transition.
    case back
    /// (i): shows or hides the info panel.
    case info
    /// Zoom to fit when the photo is zoomed, else to one image pixel per screen pixel.
    case zoom
    /// Enters or leaves fullscreen.
    case fullscreen
}
