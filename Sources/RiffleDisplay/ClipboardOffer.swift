/// What the app puts on the clipboard; the display offers it to other programs in the formats
/// they ask for (for X11: targets of the CLIPBOARD selection), producing bytes only on request.
public enum ClipboardOffer: Sendable {
    /// A photo: `uri` its file's `file://` URI (RFC 8089), `png` its pixels encoded as a PNG file,
    /// called only when a program asks for the picture (nil when the file cannot be decoded).
    case photo(uri: String, png: @Sendable () -> [UInt8]?)
    /// Plain text (a path), in UTF-8.
    case text(String)
}
