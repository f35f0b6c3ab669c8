/// What a clipboard key asks for, from its X keysym name and modifiers: Ctrl+C copies the photo
/// shown, Ctrl+Shift+C its path (as GNOME's and KDE's viewers and file managers do).
public enum ClipboardKeyCommand: Hashable, Sendable {
    /// Ctrl+C: the photo (its pixels and its file's URI).
    case copyPhoto
    /// Ctrl+Shift+C: the photo's path as text.
    case copyPath

    /// The command for keysym `name` with `modifiers`, or nil for any other key. Shift turns the
    /// keysym "c" into "C" (XLookupString applies it), so both spellings are read.
    public init?(keyName name: String, modifiers: Modifiers) {
        guard modifiers.contains(.control), !modifiers.contains(.alt), name == "c" || name == "C" else { return nil }
        self = modifiers.contains(.shift) ? .copyPath : .copyPhoto
    }
}
