/// The date taken that an XMP packet gives (XMP Specification Part 1; the properties of Part 2,
/// 3.2.1 and 3.3.1), found in a file's first bytes: a JPEG's APP1 "http://ns.adobe.com/xap/1.0/"
/// segment, a PNG's uncompressed iTXt "XML:com.adobe.xmp" chunk, a WebP's XMP chunk and a TIFF's
/// tag 700 all hold the packet as plain UTF-8, which is searched as text.
///
/// exif:DateTimeOriginal (when the shutter was pressed) is believed before photoshop:DateCreated
/// (when the content was created, which an editor may set to a day or a year). A property is
/// read written as an attribute (`exif:DateTimeOriginal="2019-07-14T10:22:05+02:00"`) or as an
/// element (`<exif:DateTimeOriginal>…</exif:DateTimeOriginal>`), the two forms RDF/XML allows.
public enum XMPDates {
    /// The properties read, in the order they are believed.
    static let properties = ["exif:DateTimeOriginal", "photoshop:DateCreated"]
    /// A value longer than this is not a date.
    static let longestValue = 40

    /// The first plausible date taken among `properties` in `head`; nil when there is none.
    public static func taken(inHead head: [UInt8]) -> TakenDate? {
        for property in properties {
            for value in values(of: Array(property.utf8), in: head) {
                if let date = TakenDate.xmp(value) { return date }
            }
        }
        return nil
    }

    /// Every value written for the property `name` in `bytes`, in order.
    static func values(of name: [UInt8], in bytes: [UInt8]) -> [String] {
        var found: [String] = []
        var start = 0
        while let at = firstIndex(of: name, in: bytes, from: start) {
            start = at + name.count
            // A longer name that merely starts with this one ("…DateCreatedX") is another property.
            guard start < bytes.count else { break }
            var i = start
            while i < bytes.count, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\n") || bytes[i] == UInt8(ascii: "\t")
                || bytes[i] == UInt8(ascii: "\r") { i += 1 }
            guard i < bytes.count else { break }
            let end: UInt8
            switch bytes[i] {
            case UInt8(ascii: "="):
                i += 1
                while i < bytes.count, bytes[i] == UInt8(ascii: " ") { i += 1 }
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else { continue }
                end = bytes[i]
                i += 1
            case UInt8(ascii: ">"):
                // Only an opening tag: "<name>" (a closing "</name>" is preceded by '/').
                guard at > 0, bytes[at - 1] == UInt8(ascii: "<") else { continue }
                end = UInt8(ascii: "<")
                i += 1
            default:
                continue
            }
            var j = i
            while j < bytes.count, bytes[j] != end, j - i <= longestValue { j += 1 }
            guard j < bytes.count, bytes[j] == end else { continue }
            let value = String(decoding: bytes[i..<j], as: UTF8.self).trimmingSpaces
            found.append(value)
        }
        return found
    }

    /// The first index at or after `from` where `needle` starts in `bytes`.
    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var i = from
        let last = bytes.count - needle.count
        while i <= last {
            if bytes[i] == first, bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}

extension String {
    /// The text without leading and trailing spaces and line breaks.
    fileprivate var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
