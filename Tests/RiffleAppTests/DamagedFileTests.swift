import Foundation
import RiffleApp
import RiffleDisplay
import RiffleGeometry
import RiffleImageIO
import RifflePipeline
import RiffleRaster
import Testing

/// A truncated photo is shown with a quiet badge that says what is missing.
@Suite struct DamagedFileTests {
    /// A copy of test photo `name` cut after `share` of its bytes, in a fresh temporary folder.
    static func truncatedCopy(of name: String = "10 hubble.jpg", share: Double) throws -> String {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: TestPaths.photos + "/" + name))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-damaged-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("cut." + (name as NSString).pathExtension).path
        try bytes.prefix(Int(Double(bytes.count) * share)).write(to: URL(fileURLWithPath: path))
        return path
    }

    // hubble.jpg is a baseline 1000×872 JPEG: its rows arrive top to bottom.
    @Test func aTruncatedJPEGSaysHowMuchOfItsBottomIsMissing() throws {
        let path = try Self.truncatedCopy(share: 0.55)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let decoded = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in PixelSize(width: 200, height: 300) })
        guard case .truncated(let missing?)? = decoded.damage else {
            Issue.record("no missing part reported: \(String(describing: decoded.damage))")
            return
        }
        #expect(missing.side == .bottom)
        // Half the bytes hold roughly half the rows (detail is uneven, so only roughly).
        #expect(missing.share > 0.2 && missing.share < 0.8, "\(missing.share)")
        // The rows past the end of the data are libjpeg's grey (128): the last row is all grey, a
        // row well above the missing share is not.
        let pixels = decoded.pixels
        let lastRow = (0..<pixels.width).map { pixels[$0, pixels.height - 1] & 0xFF_FFFF }
        #expect(lastRow.allSatisfy { $0 == 0x80_8080 })
        let keptRow = Int(Double(pixels.height) * (1 - missing.share) * 0.8)
        #expect(!(0..<pixels.width).allSatisfy { pixels[$0, keptRow] & 0xFF_FFFF == 0x80_8080 })
    }

    // coffee.png is a non-interlaced 600×400 PNG: its rows arrive top to bottom, and those after
    // the last one libpng could inflate are grey, as libjpeg's are.
    @Test func aTruncatedPNGSaysHowMuchOfItsBottomIsMissing() throws {
        let path = try Self.truncatedCopy(of: "1 coffee.png", share: 0.55)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let decoded = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in PixelSize(width: 300, height: 200) })
        guard case .truncated(let missing?)? = decoded.damage else {
            Issue.record("no missing part reported: \(String(describing: decoded.damage))")
            return
        }
        #expect(missing.side == .bottom)
        #expect(missing.share > 0.2 && missing.share < 0.8, "\(missing.share)")
        let pixels = decoded.pixels
        let lastRow = (0..<pixels.width).map { pixels[$0, pixels.height - 1] & 0xFF_FFFF }
        #expect(lastRow.allSatisfy { $0 == 0x80_8080 })
        let keptRow = Int(Double(pixels.height) * (1 - missing.share) * 0.8)
        #expect(!(0..<pixels.width).allSatisfy { pixels[$0, keptRow] & 0xFF_FFFF == 0x80_8080 })
        // The whole decode says the same.
        #expect(try ImageDecoder.decodeFile(atPath: path).damage == decoded.damage)
    }

    // friends.jpg is progressive: every scan covers the whole picture, so no one part is missing.
    @Test func aTruncatedProgressiveJPEGIsMissingNoOnePart() throws {
        let path = try Self.truncatedCopy(of: "2 friends.jpg", share: 0.55)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let decoded = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in PixelSize(width: 200, height: 300) })
        #expect(decoded.damage == .truncated(missing: nil))
    }

    @Test func badgeWords() {
        func text(_ damage: ImageDamage) -> String { DecodedPhoto.badgeText(for: damage) }
        #expect(text(.truncated(missing: .init(share: 0.4, side: .bottom))) == "Incomplete file: the bottom 40% is missing")
        #expect(text(.truncated(missing: .init(share: 0.001, side: .right))) == "Incomplete file: the right 1% is missing")
        #expect(text(.truncated(missing: .init(share: 0.9999, side: .top))) == "Incomplete file: the top 99% is missing")
        #expect(text(.truncated(missing: nil)) == "Incomplete file: parts of the picture are missing")
        #expect(text(.damagedData) == "Damaged file: parts of the picture may be wrong")
    }

    @Test func aCleanPhotoHasNoDamage() throws {
        let decoded = try ImageDecoder.decodeFile(
            atPath: TestPaths.photos + "/10 hubble.jpg", shrunkTo: { _ in PixelSize(width: 200, height: 300) })
        #expect(decoded.damage == nil && decoded.warning == nil)
    }

    @Test func theBadgeShowsOnThePage() throws {
        let path = try Self.truncatedCopy(share: 0.55)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        var h = ViewerHarness(paths: [path])
        h.viewer.settleDecodes()
        h.run(0.1)
        try GoldenImage.check(try h.display.capture(), golden: "damaged/incomplete-badge")
    }
}
