import Foundation
import RiffleImageIO
import RiffleRaster
import Testing

/// Ctrl+C and Ctrl+Shift+C in the real window, read back by a second client (`xclip`) as a
/// paste into another program reads them: the targets offered, the photo as a PNG (by INCR when
/// it is larger than the server's requests), its URI, and the path as text.
@Suite(.serialized, .timeLimit(.minutes(2))) struct ClipboardTests {
    static let photo = RealWindowTests.photos + "/2 friends.jpg"

    /// `xclip -selection clipboard -t target -o` against `window`'s server: its output's bytes.
    static func paste(_ target: String, from window: RunningWindow) throws -> (status: Int32, bytes: [UInt8]) {
        let xclip = try ExternalCommand("xclip", package: "xclip")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-paste-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        // Through a file: the PNG's bytes are not text.
        let result = try ExternalCommand(path: "/bin/sh").run(
            ["-c", "\"$0\" -selection clipboard -t \"$1\" -o > \"$2\"", xclip.path, target, output.path],
            environment: window.environment, timeLimit: 30)
        return (result.status, Array((try? Data(contentsOf: output)) ?? Data()))
    }

    static func text(_ target: String, from window: RunningWindow) throws -> String? {
        let pasted = try paste(target, from: window)
        return pasted.status == 0 ? String(decoding: pasted.bytes, as: UTF8.self) : nil
    }

    /// Ctrl+C on a photo offers it; the PNG comes back pixel for pixel as a full-size decode.
    /// The server's requests are capped at 1 MiB, so the 6.3-megapixel photo's PNG (about 6.5 MB)
    /// must come by INCR.
    @Test func ctrlCOffersThePhotoAsPNGAndURI() throws {
        let server = try VirtualXServer(sharedMemory: true, maxRequestMiB: 1)
        let window = try RunningWindow(paths: [Self.photo], server: server)
        #expect(try eventually(within: 10) { try window.title().hasPrefix("2 friends.jpg") })
        try window.press("ctrl+c")
        var targets: [String] = []
        #expect(try eventually(within: 10) {
            targets = (try Self.text("TARGETS", from: window) ?? "").split(separator: "\n").map(String.init)
            return !targets.isEmpty
        })
        #expect(Set(targets) == ["TARGETS", "TIMESTAMP", "image/png", "text/uri-list"], "\(targets)")
        #expect(try Self.text("text/uri-list", from: window) == "file://" + Self.photo.replacingOccurrences(of: " ", with: "%20") + "\r\n")

        let png = try Self.paste("image/png", from: window)
        #expect(png.status == 0)
        #expect(png.bytes.count > 1 << 20, "\(png.bytes.count) bytes: small enough to need no INCR")
        let pasted = try ImageDecoder.decode(png.bytes).pixels
        let expected = try ImageDecoder.decodeFile(atPath: Self.photo).pixels
        #expect(pasted.size == expected.size)
        if pasted.size == expected.size {
            #expect(ImageDifference(pasted, expected, tolerance: 0).pixelsOverTolerance == 0)
        }
        // A target not offered is refused (xclip then fails).
        #expect(try Self.paste("text/html", from: window).status != 0)
    }

    @Test func ctrlShiftCOffersThePathAsText() throws {
        let server = try VirtualXServer(sharedMemory: true)
        let window = try RunningWindow(paths: [Self.photo], server: server)
        #expect(try eventually(within: 10) { try window.title().hasPrefix("2 friends.jpg") })
        try window.press("ctrl+shift+c")
        var targets: [String] = []
        #expect(try eventually(within: 10) {
            targets = (try Self.text("TARGETS", from: window) ?? "").split(separator: "\n").map(String.init)
            return !targets.isEmpty
        })
        #expect(Set(targets) == ["TARGETS", "TIMESTAMP", "UTF8_STRING", "text/plain;charset=utf-8", "STRING"], "\(targets)")
        for target in ["UTF8_STRING", "text/plain;charset=utf-8", "STRING"] {
            #expect(try Self.text(target, from: window) == Self.photo, "\(target)")
        }
        #expect(try Self.paste("image/png", from: window).status != 0)
    }
}
