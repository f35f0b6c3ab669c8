import RiffleImageIO
import RiffleTestSupport
import Testing

/// File names that are not UTF-8 keep their bytes through Swift strings.
@Suite("File system paths")
struct FileSystemPathTests {
    static let seeds = [PropertySeed.forRun(fixed: 20_261_124)]

    @Test("Valid UTF-8 reads as itself", arguments: ["photo.jpg", "Ferien 2024/Meer & Sand.jpg", "Ü;1.jpg", "写真.png", "🌅.jpg"])
    func utf8IsUnchanged(name: String) {
        #expect(FileSystemPath.string(fromBytes: Array(name.utf8)) == name)
        #expect(FileSystemPath.bytes(of: name) == Array(name.utf8))
        #expect(FileSystemPath.displayed(name) == name)
    }

    @Test("A Latin-1 name keeps its byte, and people see U+FFFD for it")
    func latin1() {
        let bytes: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)
        let path = FileSystemPath.string(fromBytes: bytes)
        #expect(FileSystemPath.bytes(of: path) == bytes)
        #expect(FileSystemPath.displayed(path) == "caf\u{FFFD}.jpg")
        #expect(path.unicodeScalars.map(\.value).contains(0x10_FFE9))
    }

    @Test("Ill-formed sequences are escaped byte by byte", arguments: [
        [0xC0, 0xAF] as [UInt8],          // overlong "/"
        [0xED, 0xA0, 0x80],               // a UTF-16 surrogate
        [0xF4, 0x90, 0x80, 0x80],         // above U+10FFFF
        [0xE2, 0x82],                     // cut short
        [0x80],                           // a stray continuation byte
    ])
    func illFormed(bytes: [UInt8]) {
        let path = FileSystemPath.string(fromBytes: bytes)
        #expect(path.unicodeScalars.count == bytes.count)
        #expect(FileSystemPath.bytes(of: path) == bytes)
    }

    // U+10FFE9 spelled in valid UTF-8 must not come back as the single byte E9.
    @Test("A valid name spelling an escape scalar keeps its four bytes")
    func escapeScalarsInValidUTF8() {
        let bytes = Array(String(Unicode.Scalar(0x10_FFE9)!).utf8)
        #expect(bytes.count == 4)
        #expect(FileSystemPath.bytes(of: FileSystemPath.string(fromBytes: bytes)) == bytes)
    }

    @Test("Any bytes but NUL come back as they went in", arguments: seeds)
    func roundTrip(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<2000 {
            let count = Int(random.next() % 24)
            // Uniform bytes, NUL (which no name holds) taken as "A": mostly ill-formed UTF-8.
            let bytes = (0..<count).map { _ -> UInt8 in
                let byte = UInt8(truncatingIfNeeded: random.next())
                return byte == 0 ? 0x41 : byte
            }
            let path = FileSystemPath.string(fromBytes: bytes)
            #expect(FileSystemPath.bytes(of: path) == bytes, "RIFFLE_PROPERTY_SEED=\(seed): \(bytes)")
        }
    }
}
