import CRiffleX11TestClients
import Foundation
import RiffleImageIO
import RiffleRaster
import Testing

/// Ctrl+C and Ctrl+Shift+C in the real window, read back by a second client (`xclip`) as a
/// paste into another program reads them: the targets offered, the photo as a PNG (by INCR when
/// it is larger than the server's requests), its URI, and the path as text; the window goes on
/// drawing and answering while the PNG is made.
@Suite(.timeLimit(.minutes(2))) struct ClipboardTests {
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

    /// While a photo's PNG is being made for a paste, the window answers other requests
    /// (TARGETS), takes keys and draws the page slide they start; a new Ctrl+C then replaces the
    /// offer, the paste still waiting is refused, and a paste gets the new photo.
    ///
    /// No clock: the PNG is held until the test opens the gate (`RIFFLE_TEST_CLIPBOARD_GATE`, a
    /// file the making waits for), so what the window does meanwhile is seen on any machine,
    /// however fast or loaded; a window that made the PNG on its own thread would stop there, and
    /// draw and answer nothing. The paste (a client of the test's own, asking and not waiting) is
    /// asked first, so its SelectionRequest is in the window's queue before any of what follows.
    @Test func theWindowDrawsAndAnswersWhileThePNGIsMade() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-clip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("a friends.jpg").path, small = folder.appendingPathComponent("b coffee.png").path
        let gate = folder.appendingPathComponent("gate").path
        try FileManager.default.copyItem(atPath: Self.photo, toPath: first)
        try FileManager.default.copyItem(atPath: RealWindowTests.photos + "/1 coffee.png", toPath: small)

        let server = try VirtualXServer(sharedMemory: true)
        let window = try RunningWindow(paths: [first], server: server, environment: ["RIFFLE_TEST_CLIPBOARD_GATE": gate])
        #expect(try eventually(within: 10) { try window.title() == "a friends.jpg — 1 of 2" })
        try window.press("ctrl+c")
        #expect(try eventually(within: 10) { !(try Self.text("TARGETS", from: window) ?? "").isEmpty })
        guard let paste = rfx_test_requestor_open(server.display), let screen = rfx_test_screen_watch_open(server.display) else {
            throw EndToEndError("cannot open \(server.display) for the paste and the screen reader")
        }
        defer {
            rfx_test_requestor_close(paste)
            rfx_test_screen_watch_close(screen)
        }
        var hash: UInt64 = 0, blank: Int32 = 0
        _ = rfx_test_screen_watch_read(screen, &hash, &blank)
        let atRest = hash

        rfx_test_requestor_ask(paste, "image/png")
        #expect(rfx_test_requestor_poll(paste, 0) == 0)
        // Another program asks for the targets meanwhile: answered while the PNG is not.
        #expect(try Set((Self.text("TARGETS", from: window) ?? "").split(separator: "\n")) == ["TARGETS", "TIMESTAMP", "image/png", "text/uri-list"])
        #expect(rfx_test_requestor_poll(paste, 0) == 0, "the PNG came before TARGETS was asked")

        // Right: the next page slides in, frame by frame, and the title follows it.
        try window.press("Right")
        var frames: Set<UInt64> = []
        var titled = false
        var answered: Int32 = 0
        _ = try eventually(within: 20) {
            if rfx_test_screen_watch_read(screen, &hash, &blank) != 0, hash != atRest { frames.insert(hash) }
            titled = try window.title() == "b coffee.png — 2 of 2"
            // After the screen and the title were read: what they showed came before any answer.
            answered = rfx_test_requestor_poll(paste, 0)
            return answered != 0 || (titled && frames.count >= 2)
        }
        #expect(answered == 0, "the PNG was answered (\(answered)) before the window drew the slide")
        #expect(titled, "the title did not follow the Right key while the PNG was being made")
        #expect(frames.count >= 2, "\(frames.count) new frames shown while the PNG was being made")

        // Ctrl+C on the next photo replaces the offer: the paste still waiting is refused.
        try window.press("ctrl+c")
        var outcome: Int32 = 0
        _ = eventually(within: 20) {
            outcome = rfx_test_requestor_poll(paste, 0)
            return outcome != 0
        }
        #expect(outcome == -1, "the paste of the replaced offer ended with \(outcome), not a refusal")
        // The gate opens: the new offer's PNG is made.
        #expect(FileManager.default.createFile(atPath: gate, contents: Data()))
        let png = try Self.paste("image/png", from: window)
        #expect(png.status == 0)
        let pasted = try ImageDecoder.decode(png.bytes).pixels
        let expected = try ImageDecoder.decodeFile(atPath: small).pixels
        #expect(pasted.size == expected.size)
        if pasted.size == expected.size {
            #expect(ImageDifference(pasted, expected, tolerance: 0).pixelsOverTolerance == 0)
        }
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
