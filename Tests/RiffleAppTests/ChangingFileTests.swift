import Foundation
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

/// A photo rewritten while it decodes (a camera card being copied, an editor saving over it)
/// never shows a picture torn between its two states: the decode is done again from the file as
/// it is now, and a file that changes during every read says so on its error page.
@Suite struct ChangingFileTests {
    /// A JPEG of `width`×`height` in one flat colour, written to `path`.
    static func write(_ colour: UInt32, width: Int, height: Int, to path: String) throws {
        let picture = PixelBuffer(width: width, height: height)
        for y in 0..<height { for x in 0..<width { picture.row(y)[x] = colour } }
        try Data(try JPEGEncoder.encode(picture, quality: 95)).write(to: URL(fileURLWithPath: path))
    }

    static func scratchPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("riffle-changing-\(UUID().uuidString).jpg").path
    }

    /// The file is replaced (red by blue, another size) during the first decode: the second
    /// decode sees it steady, and that is what comes back.
    @Test func aFileRewrittenDuringItsDecodeIsDecodedAgain() throws {
        let path = Self.scratchPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.write(0xFFFF_0000, width: 64, height: 48, to: path)
        var reads = 0
        let output = PhotoDecoding.steadily(path: path) {
            reads += 1
            let read = PhotoDecoding.photo(
                path: path, viewport: PixelSize(width: 640, height: 480), detail: 1, isPreview: false,
                colour: ColourManagement(displayProfile: nil), cancellation: DecodeCancellation())
            if reads == 1 { try! Self.write(0xFF00_00FF, width: 80, height: 40, to: path) }
            return read
        }
        #expect(reads == 2)
        guard case .photo(.image(let photo)) = output else {
            Issue.record("no picture: \(output)")
            return
        }
        #expect(photo.fullSize == PixelSize(width: 80, height: 40))
        let centre = photo.pixels.row(photo.pixels.height / 2)[photo.pixels.width / 2]
        #expect(centre & 0xFF > 0xE0 && centre >> 16 & 0xFF < 0x20, "not the blue of the new file: \(String(centre, radix: 16))")
    }

    /// A file that changes during every read: after `readAttempts` reads, the reason says so.
    @Test func aFileThatNeverHoldsStillSaysSo() throws {
        let path = Self.scratchPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Self.write(0xFFFF_0000, width: 64, height: 48, to: path)
        var reads = 0
        let output = PhotoDecoding.steadily(path: path) {
            reads += 1
            try! Self.write(reads % 2 == 0 ? 0xFFFF_0000 : 0xFF00_FF00, width: 64 + reads, height: 48, to: path)
            return .redundantPreview
        }
        #expect(reads == PhotoDecoding.readAttempts)
        guard case .photo(.failure(let reason)) = output else {
            Issue.record("no failure: \(output)")
            return
        }
        #expect(reason.contains("kept changing while it was read"))
    }

    /// A stamp tells a rewrite in place and a replacement by rename apart from an untouched file.
    @Test func stampsSeeRewritesAndReplacements() throws {
        let path = Self.scratchPath(), other = Self.scratchPath()
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: other)
        }
        try Self.write(0xFFFF_0000, width: 8, height: 8, to: path)
        let first = try #require(FileStamp.current(ofFileAt: path))
        #expect(FileStamp.current(ofFileAt: path) == first)
        try Self.write(0xFFFF_0000, width: 8, height: 8, to: other)
        #expect(rename(other, path) == 0)
        #expect(FileStamp.current(ofFileAt: path) != first, "a replacement by rename")
        #expect(FileStamp.current(ofFileAt: "/no/such/file") == nil)
    }
}
