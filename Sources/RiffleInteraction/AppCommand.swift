/// An effect a model (the pager's, the grid's) asks of the app around it: things outside any
/// model's state (the process, the window manager). Returned by `handle`, never polled; carried
/// out by the runtime's one performer (`AppCommandPerformer` in the app).
public enum AppCommand: Hashable, Sendable {
    /// End the app (q, Escape with nothing left to close, the window manager's close).
    case quit
    /// Title the window (UTF-8): sent when what the window shows calls for another title.
    case setTitle(String)
    /// Ask the window manager for fullscreen (true) or to leave it (false).
    case setFullscreen(Bool)
    /// Show this pointer shape (sent when it changes).
    case setCursor(PointerCursor)
    /// Open `paths` as the command line's PATHs would (files dropped on the window): a new
    /// library replaces the one shown.
    case open(paths: [String])
    /// Put the photo at `path` on the clipboard (Ctrl+C): its pixels and its `file://` URI.
    case copyPhoto(path: String)
    /// Put the text of `path` on the clipboard (Ctrl+Shift+C).
    case copyPath(String)
}
