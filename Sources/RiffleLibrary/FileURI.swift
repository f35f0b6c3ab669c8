import Glibc
import RiffleImageIO

/// The `file://` URI of a local file spelled exactly as GLib spells it, since the thumbnail
/// standard names a thumbnail by the MD5 of that URI and eog, Nautilus and gthumb take it from
/// GLib's `g_filename_to_uri`: a thumbnail they made is found only under the same spelling
/// (https://specifications.freedesktop.org/thumbnail-spec/latest/thumbsave.html).
package enum FileURI {
    /// "file://" and `absolutePath`'s bytes (`FileSystemPath`: a name that is not UTF-8 keeps
    /// its own, as GLib's filenames do) with every byte percent-encoded (uppercase hex) except
    /// ASCII letters, digits, "/" and `-._~!$&'()*+,:=@`: "/a b/Ü;1.jpg" gives
    /// "file:///a%20b/%C3%9C%3B1.jpg".
    ///
    /// That is RFC 3986's `pchar` left as it is, except ";" (a sub-delimiter GLib escapes too):
    /// GLib's `g_filename_to_uri` escapes with the UNSAFE_PATH mask of the `acceptable` table
    /// in glib/gconvert.c. `absolutePath` must start with "/" and be canonical
    /// (`absolutePath(of:workingDirectory:)`); it is not checked.
    package static func uri(forAbsolutePath absolutePath: String) -> String {
        var uri = Array("file://".utf8)
        for byte in FileSystemPath.bytes(of: absolutePath) {
            if isKept(byte) {
                uri.append(byte)
            } else {
                uri += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: uri, as: UTF8.self)
    }

    /// `path` made absolute against `workingDirectory` (itself absolute) and cleaned the way
    /// GLib's `g_canonicalize_filename` cleans it, which is how a GFile, and so Nautilus, holds
    /// a path: "." components and repeated slashes dropped, ".." taking away the component
    /// before it (never above "/"), no trailing slash; a path that starts with exactly two
    /// slashes keeps them (POSIX lets "//" mean something of its own). Symbolic links are not
    /// followed: "/photos/../a.jpg" is "/a.jpg" whatever "/photos" is.
    static func absolutePath(of path: String, workingDirectory: String) -> String {
        let joined = path.hasPrefix("/") ? path : workingDirectory + "/" + path
        let leadingSlashes = joined.prefix { $0 == "/" }.count
        var components: [Substring] = []
        for component in joined.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return (leadingSlashes == 2 ? "//" : "/") + components.joined(separator: "/")
    }

    /// `absolutePath(of:workingDirectory:)` against the process's working directory; nil for a
    /// relative path when that cannot be read (getcwd(3) fails when it has been removed).
    package static func absolutePath(of path: String) -> String? {
        if path.hasPrefix("/") { return absolutePath(of: path, workingDirectory: "/") }
        guard let directory = getcwd(nil, 0) else { return nil }
        defer { free(directory) }
        return absolutePath(of: path, workingDirectory: FileSystemPath.string(fromBytes: UnsafeBufferPointer(
            start: UnsafeRawPointer(directory).assumingMemoryBound(to: UInt8.self), count: strlen(directory))))
    }

    /// The local path a `file://` URI names (RFC 8089), or nil for another scheme, a host other
    /// than none, "localhost" or this machine's name, or a broken %-escape: "%XX" escapes become
    /// their bytes, which need not be UTF-8 (`FileSystemPath` carries them), so
    /// "file:///a%20b/caf%E9.jpg" is the path of the bytes "/a b/caf\xE9.jpg".
    static func path(fromURI uri: String) -> String? {
        let bytes = Array(uri.utf8)
        let scheme = Array("file://".utf8)
        guard bytes.count > scheme.count, bytes.prefix(scheme.count).map({ $0 | 0x20 }) == scheme.map({ $0 | 0x20 }) else {
            return nil
        }
        let rest = bytes[scheme.count...]
        guard let slash = rest.firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let host = String(decoding: rest[..<slash], as: UTF8.self)
        guard host.isEmpty || host == "localhost" || host == hostName() else { return nil }
        var path: [UInt8] = []
        var i = slash
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2]) else { return nil }
                path.append(high << 4 | low)
                i += 3
            } else {
                path.append(bytes[i])
                i += 1
            }
        }
        // A NUL ends a C path early: no file is named so.
        guard !path.contains(0) else { return nil }
        return FileSystemPath.string(fromBytes: path)
    }

    /// This machine's name (gethostname(2)), as a file manager may write it in a URI's host.
    private static func hostName() -> String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
    private static let keptPunctuation = Array("/-._~!$&'()*+,:=@".utf8)

    /// Whether GLib leaves `byte` of a path as it is.
    private static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            keptPunctuation.contains(byte)
        }
    }
}
