/// What a key bound for the whole window asks of the scene, whatever it shows (the grid, the
/// pager, a flight between them): `KeyMap`'s everywhere and flight bindings.
public enum WindowKeyCommand: Hashable, Sendable {
    /// f, F11 (with any modifiers): enter fullscreen, or leave it.
    case toggleFullscreen
    /// Escape while fullscreen: leave it. The scene declines it (and the key goes on to the grid's
    /// or the pager's binding) when the window is not fullscreen or a panel is open over the photo.
    case leaveFullscreen
    /// Ctrl+C: the photo shown (its pixels and its file's URI) on the clipboard, as GNOME's and
    /// KDE's viewers and file managers do.
    case copyPhoto
    /// Ctrl+Shift+C: the photo's path on the clipboard as text.
    case copyPath
    /// q during a flight.
    case quit
}
