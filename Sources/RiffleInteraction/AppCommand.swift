/// An effect a model (the pager's, the grid's) asks of the app around it: things outside any
/// model's state (the process, the window manager). Returned by `handle`, never polled.
public enum AppCommand: Hashable, Sendable {
    /// End the app (q, Escape with nothing left to close, the window manager's close).
    case quit
    /// Ask the window manager for fullscreen (true) or to leave it (false).
    case setFullscreen(Bool)
    /// Show this pointer shape (sent when it changes).
    case setCursor(PointerCursor)
}
