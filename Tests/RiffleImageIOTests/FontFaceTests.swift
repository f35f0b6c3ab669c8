import Foundation
import Glibc
import RiffleImageIO
import RiffleRaster
import Testing

@Suite("Text rendering")
struct FontFaceTests {
    // One face for the suite: opening runs fontconfig's matching, which is the slow part. A
    // failure to open it fails each test that uses it.
    static func face() throws -> FontFace { try opened.get() }
    private static let opened = Result { try FontFace() }

    @Test("Text renders as anti-aliased coverage with a baseline inside the mask")
    func antiAliased() throws {
        let text = try Self.face().render("Riffle", pixelHeight: 24)
        let coverage = Set(text.mask.coverage)
        #expect(text.mask.width >= text.advance && text.advance > 24)
        #expect(text.mask.height >= 24)
        #expect(text.baseline > 0 && text.baseline < text.mask.height)
        #expect(coverage.contains(0))
        #expect(coverage.contains(255))
        #expect(coverage.contains { $0 > 0 && $0 < 255 }, "no anti-aliased edge values")
        // Nothing of "Riffle" hangs below the baseline by more than a pixel (no descenders).
        let belowBaseline = (text.baseline + 1..<text.mask.height).flatMap { y in
            (0..<text.mask.width).map { text.mask[$0, y] }
        }
        #expect(belowBaseline.allSatisfy { $0 == 0 })
    }

    @Test("Longer text advances further", arguments: [12, 24, 48])
    func widerText(pixelHeight: Int) throws {
        let short = try Self.face().render("Riffle", pixelHeight: pixelHeight)
        let long = try Self.face().render("Riffle Photos", pixelHeight: pixelHeight)
        #expect(long.advance > short.advance)
        #expect(long.mask.width > short.mask.width)
    }

    @Test("Bigger sizes make bigger text")
    func biggerSize() throws {
        let small = try Self.face().render("Riffle", pixelHeight: 12)
        let big = try Self.face().render("Riffle", pixelHeight: 36)
        #expect(big.advance > 2 * small.advance)
        #expect(big.mask.height > 2 * small.mask.height)
    }

    @Test("DejaVu Sans kerns AV tighter than A and V set apart")
    func kerning() throws {
        let face = try Self.face()
        let pair = face.render("AV", pixelHeight: 48).advance
        let apart = face.render("A", pixelHeight: 48).advance + face.render("V", pixelHeight: 48).advance
        #expect(pair < apart)
    }

    @Test("Rendering is repeatable (cached glyphs equal fresh ones)")
    func cached() throws {
        let first = try Self.face().render("Riffle", pixelHeight: 20)
        let fresh = try FontFace().render("Riffle", pixelHeight: 20)
        let again = try Self.face().render("Riffle", pixelHeight: 20)
        #expect(first.mask.coverage == again.mask.coverage)
        #expect(first.mask.coverage == fresh.mask.coverage)
    }

    @Test("A character missing from the face still draws the replacement glyph")
    func missingCharacter() throws {
        // U+E000 is private use: DejaVu Sans has no glyph for it.
        let missing = try Self.face().render("\u{E000}", pixelHeight: 24)
        let replacement = try Self.face().render("\u{FFFD}", pixelHeight: 24)
        #expect(missing.advance > 0)
        #expect(missing.mask.coverage.contains { $0 > 0 })
        #expect(missing.mask.coverage == replacement.mask.coverage)
    }

    @Test("Bold is wider than regular")
    func bold() throws {
        let bold = try FontFace(bold: true).render("Riffle", pixelHeight: 24)
        let regular = try Self.face().render("Riffle", pixelHeight: 24)
        #expect(bold.advance > regular.advance)
    }

    /// A folder holding a fontconfig configuration, fonts.conf, whose only font folder is
    /// fonts/ beside it (created empty) and whose cache is its own, so a child process that
    /// points FONTCONFIG_FILE at it sees those fonts and no others.
    static func fontconfigFolder() -> TemporaryFolder {
        let folder = TemporaryFolder()
        let configuration = """
            <?xml version="1.0"?>
            <fontconfig><dir>\(folder.path)/fonts</dir><cachedir>\(folder.path)/cache</cachedir></fontconfig>
            """
        try? FileManager.default.createDirectory(atPath: folder.path + "/fonts", withIntermediateDirectories: false)
        _ = FileManager.default.createFile(atPath: folder.path + "/fonts.conf", contents: Data(configuration.utf8))
        return folder
    }

    @Test("With no font installed, opening a face fails with fontconfig's reason")
    func noFontInstalled() async {
        let folder = Self.fontconfigFolder()
        defer { folder.remove() }
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) { [path = folder.path as String] in
            setenv("FONTCONFIG_FILE", path + "/fonts.conf", 1)
            do {
                _ = try FontFace()
                ChildProcess.report("opened")
            } catch {
                ChildProcess.report("\(error)")
            }
        }
        #expect(result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) }
            == "Cannot open the font \"DejaVu Sans\": fontconfig found no font for \"DejaVu Sans\"\n")
    }

    @Test("A font file fontconfig lists but FreeType cannot read fails with FreeType's reason", arguments: [
        ("not a font", "unknown file format"),
        ("gone", "cannot open resource"),
    ])
    func unreadableFontFile(damage: String, freeTypeReason: String) async throws {
        let folder = Self.fontconfigFolder()
        defer { folder.remove() }
        let system = try #require(FileManager.default.enumerator(atPath: "/usr/share/fonts")?
            .compactMap { $0 as? String }.first { $0.hasSuffix("/DejaVuSans.ttf") })
        let font = folder.path + "/fonts/DejaVuSans.ttf"
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/" + system, toPath: font)
        // fontconfig lists its fonts once, at its first use: damaging the file afterwards is a
        // font removed or replaced under a running app (or a stale fontconfig cache).
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            [path = folder.path as String, font = font as String, damage = damage as String] in
            setenv("FONTCONFIG_FILE", path + "/fonts.conf", 1)
            do {
                _ = try FontFace()
            } catch {
                ChildProcess.report("not even the good font opened: \(error)")
            }
            if damage == "gone" {
                unlink(font)
            } else {
                _ = FileManager.default.createFile(atPath: font, contents: Data("not a font\n".utf8))
            }
            do {
                _ = try FontFace()
                ChildProcess.report("opened")
            } catch {
                ChildProcess.report("\(error)")
            }
        }
        #expect(result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) }
            == "Cannot open the font \"DejaVu Sans\": cannot open \(font): \(freeTypeReason)\n")
    }

    @Test("Empty text renders an empty line with the face's height")
    func emptyText() throws {
        let text = try Self.face().render("", pixelHeight: 24)
        #expect(text.advance == 0)
        #expect(text.mask.width == 0)
        #expect(text.mask.height > 0)
    }
}
