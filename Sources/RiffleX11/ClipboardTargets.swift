import RiffleDisplay

/// How the window answers a request for the CLIPBOARD selection it owns (ICCCM 2.2 and 2.6.2,
/// https://x.org/releases/X11R7.7/doc/xorg-docs/icccm/icccm.html): the targets each offer
/// converts to, and the reply for one target. Pure: the bytes are produced here, the wire work
/// is `X11Display`'s.
///
/// A photo converts to `image/png` (encoded when asked, off the window's thread) and `text/uri-list` (its `file://` URI and
/// CRLF, RFC 2483); text to `UTF8_STRING`, `text/plain;charset=utf-8` and, when Latin-1 can spell
/// it, `STRING`. Both answer `TARGETS` (that list) and `TIMESTAMP` (when the clipboard was
/// claimed); any other target (`MULTIPLE` included) is refused.
public enum ClipboardTargets {
    /// The reply to one target.
    public enum Reply: Equatable, Sendable {
        /// Atoms, named (type ATOM, format 32).
        case atoms([String])
        /// One 32-bit integer (type INTEGER, format 32).
        case integer(UInt32)
        /// Bytes of `type` (format 8).
        case bytes(type: String, [UInt8])
        /// Bytes of `type` (format 8) the offer makes when asked, slowly (a photo's PNG): the
        /// window makes them off its thread (`BackgroundConversion`) and answers when they are
        /// ready, or refuses when they cannot be made.
        case produced(type: String)
        /// The target is not offered or cannot be produced: SelectionNotify with property None.
        case refusal
    }

    /// The targets `offer` converts to, TARGETS and TIMESTAMP first.
    public static func targets(for offer: ClipboardOffer) -> [String] {
        switch offer {
        case .photo:
            ["TARGETS", "TIMESTAMP", "image/png", "text/uri-list"]
        case let .text(text):
            ["TARGETS", "TIMESTAMP", "UTF8_STRING", "text/plain;charset=utf-8"] + (latin1(text) == nil ? [] : ["STRING"])
        }
    }

    /// The reply to a request for `target` of `offer`, owned since server time `claimedAt`.
    public static func reply(to target: String, offer: ClipboardOffer, claimedAt: UInt32) -> Reply {
        switch (target, offer) {
        case ("TARGETS", _):
            return .atoms(targets(for: offer))
        case ("TIMESTAMP", _):
            return .integer(claimedAt)
        case ("image/png", .photo):
            return .produced(type: target)
        case let ("text/uri-list", .photo(uri, _)):
            return .bytes(type: target, Array((uri + "\r\n").utf8))
        case let ("UTF8_STRING", .text(text)), let ("text/plain;charset=utf-8", .text(text)):
            return .bytes(type: target, Array(text.utf8))
        case let ("STRING", .text(text)):
            return latin1(text).map { .bytes(type: target, $0) } ?? .refusal
        default:
            return .refusal
        }
    }

    /// `text` in ISO 8859-1 (what the STRING type is), or nil when a character lies outside it.
    static func latin1(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            guard scalar.value <= 0xFF else { return nil }
            bytes.append(UInt8(scalar.value))
        }
        return bytes
    }
}
