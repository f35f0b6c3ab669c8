import CRiffleImaging
import Glibc

/// One text chunk of a PNG file: a keyword and its text, e.g. "Software" and "Riffle 0.1"
/// (PNG §11.3.4, https://www.w3.org/TR/png/#11textinfo).
///
/// Written as tEXt (Latin-1) when Latin-1 can spell the text, else as iTXt (UTF-8); read from
/// tEXt, zTXt and iTXt alike.
package struct PNGTextChunk: Sendable, Hashable {
    /// The keyword: 1 to 79 printable Latin-1 characters, no leading, trailing or double spaces
    /// (PNG §11.3.4.2).
    package let key: String
    /// The text: any characters but NUL.
    package let value: String

    /// A chunk of `key` and `value`; both are checked only when encoded.
    package init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

extension [PNGTextChunk] {
    /// The text of the first chunk whose keyword is `key`; nil when there is none.
    package func value(forKey key: String) -> String? {
        first { $0.key == key }?.value
    }
}

extension ImageDecoder {
    /// Decodes `bytes` as `decode(_:atLeast:pixelLimit:)` does at full size, together with the
    /// text chunks of a PNG, those before and after the image data, in file order (a JPEG has
    /// none). A PNG must then end properly, with its IEND chunk: one cut off anywhere throws.
    package static func decodeWithText(
        _ bytes: [UInt8], pixelLimit: Int = defaultPixelLimit
    ) throws(ImageDecodeError) -> (image: DecodedImage, text: [PNGTextChunk]) {
        guard try probe(bytes).format == .png else { return (try decode(bytes, pixelLimit: pixelLimit), []) }
        return try PNGRowReader.reading(bytes) { reader throws(ImageDecodeError) in
            try decodeWholePNG(reader, pixelLimit: pixelLimit, withText: true)
        }
    }
}

extension PNGTextChunk {
    /// The chunk the shim read into `entry`: Latin-1 or UTF-8 as it says.
    init(shimEntry entry: rfi_png_text) {
        let keyBytes = UnsafeBufferPointer(start: entry.key, count: strlen(entry.key)).map { UInt8(bitPattern: $0) }
        let textBytes = UnsafeBufferPointer(start: entry.text, count: entry.length).map { UInt8(bitPattern: $0) }
        key = Self.latin1String(keyBytes)
        value = entry.is_utf8 != 0 ? String(decoding: textBytes, as: UTF8.self) : Self.latin1String(textBytes)
    }

    /// Runs `body` with `chunks` as the shim's entries, valid only during the call: each key
    /// in Latin-1, each text in Latin-1 when it can be, else in UTF-8 (flagged for iTXt).
    /// Throws for a key that is not a PNG keyword (libpng would quietly mend it), and for a
    /// text holding a NUL.
    static func withShimEntries<Result>(
        _ chunks: [PNGTextChunk], _ body: (UnsafeBufferPointer<rfi_png_text>) -> Result
    ) throws(ImageEncodeError) -> Result {
        var strings: [UnsafeMutablePointer<CChar>] = []
        defer { strings.forEach { $0.deallocate() } }
        // A NUL-terminated copy of `bytes` that lives until the strings are freed.
        func cString(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar> {
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, byte) in bytes.enumerated() { copy[i] = CChar(bitPattern: byte) }
            copy[bytes.count] = 0
            strings.append(copy)
            return copy
        }
        var entries: [rfi_png_text] = []
        for chunk in chunks {
            guard let key = latin1Bytes(chunk.key), isKeyword(key) else {
                throw ImageEncodeError(reason: "Cannot write the PNG text key \"\(chunk.key)\": it is not a PNG keyword")
            }
            guard !chunk.value.unicodeScalars.contains("\0") else {
                throw ImageEncodeError(reason: "Cannot write the PNG text \"\(chunk.key)\": it holds a NUL character")
            }
            let latin1 = latin1Bytes(chunk.value)
            let text = latin1 ?? Array(chunk.value.utf8)
            entries.append(rfi_png_text(
                key: cString(key), text: cString(text), length: text.count, is_utf8: latin1 == nil ? 1 : 0))
        }
        return entries.withUnsafeBufferPointer(body)
    }

    /// Whether Latin-1 `bytes` make a PNG keyword: 1 to 79 printable characters (32...126,
    /// 161...255), spaces only single and inside.
    private static func isKeyword(_ bytes: [UInt8]) -> Bool {
        (1...79).contains(bytes.count) && bytes.first != 32 && bytes.last != 32
            && bytes.allSatisfy { (32...126).contains($0) || $0 >= 161 }
            && !zip(bytes, bytes.dropFirst()).contains { $0 == 32 && $1 == 32 }
    }

    /// The Latin-1 bytes of `string`; nil when it has a character beyond U+00FF.
    private static func latin1Bytes(_ string: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        for scalar in string.unicodeScalars {
            guard scalar.value <= 0xFF else { return nil }
            bytes.append(UInt8(scalar.value))
        }
        return bytes
    }

    /// The text Latin-1 `bytes` spell (each byte is the code point of the same number).
    private static func latin1String(_ bytes: [UInt8]) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return String(scalars)
    }
}
