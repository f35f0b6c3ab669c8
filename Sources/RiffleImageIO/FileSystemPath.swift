/// File paths as the file system holds them, byte strings that need not be UTF-8, carried in
/// Swift strings, which must be valid Unicode.
///
/// A Linux file name is any bytes but "/" and NUL: a photo copied from an old camera card or
/// unpacked from a zip may be named in Latin-1 ("caf\u{E9}.jpg" as the bytes 63 61 66 E9 ...).
/// Decoding such bytes as UTF-8 with repairs would give a string that names no file. Here the
/// bytes of valid UTF-8 sequences decode as usual, and every other byte b (necessarily 0x80 to
/// 0xFF) becomes the private-use scalar U+10FF00 + b, which `bytes(of:)` turns back into b: a
/// round trip for every byte string (Python's "surrogateescape" does the same with lone
/// surrogates, which Swift strings cannot hold). So that the mapping stays one-to-one, a name
/// whose valid UTF-8 spells one of those 128 scalars (U+10FF80 ... U+10FFFF, private-use
/// noncharacters) has that sequence's bytes escaped too.
public enum FileSystemPath {
    /// U+10FF00 + b stands for the raw byte b (0x80 ... 0xFF).
    static let escapeBase: UInt32 = 0x10_FF00
    /// The scalars that stand for raw bytes.
    static let escapes: ClosedRange<UInt32> = (escapeBase + 0x80)...(escapeBase + 0xFF)
    /// The first UTF-8 byte of every escape scalar (U+10FF80 ... U+10FFFF is F4 8F BE 80 ...
    /// F4 8F BF BF), and of no scalar below U+100000.
    static let escapeLeadByte: UInt8 = 0xF4

    /// The path whose bytes are `bytes` (without a NUL).
    public static func string(fromBytes bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        // Every escape scalar's UTF-8 starts with F4, so valid UTF-8 without that byte (nearly
        // every name) is taken as it is.
        if !bytes.contains(Self.escapeLeadByte), let plain = String(validating: bytes, as: UTF8.self) { return plain }
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < bytes.count {
            if let (scalar, length) = decodeScalar(bytes, at: i), !escapes.contains(scalar.value) {
                scalars.append(scalar)
                i += length
            } else if bytes[i] < 0x80 {
                scalars.append(Unicode.Scalar(bytes[i]))
                i += 1
            } else {
                // Only bytes 0x80 ... 0xFF reach here: ASCII always decodes above.
                scalars.append(Unicode.Scalar(escapeBase + UInt32(bytes[i]))!)
                i += 1
            }
        }
        return String(scalars)
    }

    /// The bytes `path` stands for (escapes turned back into their bytes), without a NUL.
    public static func bytes(of path: String) -> [UInt8] {
        // Without an F4 byte it holds no escape scalar: its UTF-8 is its bytes.
        if !path.utf8.contains(Self.escapeLeadByte) { return Array(path.utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if escapes.contains(scalar.value) {
                out.append(UInt8(scalar.value - escapeBase))
            } else {
                out += Array(String(scalar).utf8)
            }
        }
        return out
    }

    /// Runs `body` with `path` as the NUL-terminated bytes a system call takes.
    public static func withSystemPath<Result, Failure: Error>(
        _ path: String, _ body: (UnsafePointer<CChar>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let raw = bytes(of: path) + [0]
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: raw.count)
        defer { pointer.deallocate() }
        for (i, byte) in raw.enumerated() { pointer[i] = CChar(bitPattern: byte) }
        return try body(pointer)
    }

    /// `path` for people to read: each escaped byte shown as U+FFFD, the replacement character,
    /// as file managers show a name they cannot decode.
    public static func displayed(_ path: String) -> String {
        String(String.UnicodeScalarView(path.unicodeScalars.map { escapes.contains($0.value) ? "\u{FFFD}" : $0 }))
    }

    /// The scalar encoded in well-formed UTF-8 at `bytes[i...]` and its length in bytes; nil for
    /// an ill-formed sequence (a stray continuation byte, a truncated or overlong sequence, a
    /// surrogate, or a value above U+10FFFF), per the Unicode Standard's table 3-7.
    static func decodeScalar(_ bytes: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[i]
        let length: Int, minimum: UInt32
        var value: UInt32
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: (length, minimum, value) = (2, 0x80, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, minimum, value) = (3, 0x800, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, minimum, value) = (4, 0x1_0000, UInt32(lead & 0x07))
        default: return nil
        }
        guard i + length <= bytes.count else { return nil }
        for k in 1..<length {
            let byte = bytes[i + k]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
