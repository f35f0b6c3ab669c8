/// What the pager's model asks of the scene around it, returned by `ViewerInteraction.handle`.
public enum ViewerCommand: Hashable, Sendable {
    /// An effect for the app's runtime (quit, fullscreen).
    case app(AppCommand)
    /// Leave the photo for the library grid behind it, flying from `from` (the dragged or zoomed
    /// photo's frame and motion when the gesture ended), or, when nil, from the photo as the
    /// page shows it now (Escape, Alt+Up). Only from a viewer with a library behind it.
    case dismiss(from: PhotoTransition.State?)
    /// Enter fullscreen, or leave it (the fullscreen button): the scene owns the window's state.
    case toggleFullscreen
}
