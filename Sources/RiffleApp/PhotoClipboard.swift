import RiffleDisplay
import RiffleImageIO
import RiffleLibrary

/// What Ctrl+C and Ctrl+Shift+C put on the clipboard for a photo file.
enum PhotoClipboard {
    /// The photo at `path`: its `file://` URI (GLib's spelling, `FileURI`) and its pixels as a
    /// PNG, decoded at full size (within `ImageDecoder.defaultPixelLimit`) and encoded only when
    /// a program asks for them; nil bytes when the file cannot be decoded.
    static func photo(at path: String) -> ClipboardOffer {
        let absolute = FileURI.absolutePath(of: path) ?? path
        return .photo(uri: FileURI.uri(forAbsolutePath: absolute), png: { encodedPNG(ofFileAt: absolute, isCancelled: $0) })
    }

    /// The path of the file at `path`, absolute, as text; a byte of its name that is not UTF-8
    /// shows as U+FFFD, as in the title (clipboard text is UTF-8).
    static func path(_ path: String) -> ClipboardOffer {
        .text(FileSystemPath.displayed(FileURI.absolutePath(of: path) ?? path))
    }

    /// The PNG file of the upright photo at `path` at full size, or nil when it cannot be
    /// decoded or `isCancelled` holds after the decode (a newer copy replaced this one, and the
    /// encode, the longer half, is not worth doing). zlib's fast level: a paste waits for this,
    /// and a quarter larger costs nothing.
    static func encodedPNG(ofFileAt path: String, isCancelled: () -> Bool) -> [UInt8]? {
        guard let decoded = try? ImageDecoder.decodeFile(atPath: path), !isCancelled() else { return nil }
        return try? PNGEncoder.encode(decoded.pixels, compression: .fast)
    }
}
