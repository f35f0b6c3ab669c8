/// An effect the viewer model asks of the app around it: things outside the model's state (the
/// process, the window manager). Returned by `ViewerInteraction.handle`, never polled.
public enum ViewerCommand: Hashable, Sendable {
    /// End the app (q, Escape with nothing left to close, the window manager's close).
    case quit
    /// Ask the window manager for fullscreen (true) or to leave it (false).
    case setFullscreen(Bool)
}
