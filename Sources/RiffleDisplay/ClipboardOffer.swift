/// What the app puts on the clipboard; the display offers it to other programs in the formats
/// they ask for (for X11: targets of the CLIPBOARD selection), producing bytes only on request.
public enum ClipboardOffer: Sendable {
    /// A photo: `uri` its file's `file://` URI (RFC 8089), `png` its pixels encoded as a PNG file,
    /// called only when a program asks for the picture, and off the display's thread (it takes a
    /// good part of a second). It may consult `isCancelled` between its steps and give up once it
    /// holds (the offer was replaced); nil when the file cannot be decoded or it gave up.
    case photo(uri: String, png: @Sendable (_ isCancelled: @Sendable () -> Bool) -> [UInt8]?)
    /// Plain text (a path), in UTF-8.
    case text(String)
}
