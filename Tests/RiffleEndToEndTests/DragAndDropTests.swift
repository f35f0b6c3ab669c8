import CRiffleX11TestClients
import Foundation
import Testing

/// Files dragged from another program onto Riffle's window (XDND version 5), by a drag source
/// on its own connection (the shim's test source, as a file manager does it): the window accepts
/// a URI list, whole or by INCR, refuses nothing it was not offered, and opens what was dropped as
/// the command line would.
@Suite(.timeLimit(.minutes(2))) struct DragAndDropTests {
    /// Drags `uriList` over the window and drops it, the list sent by INCR in chunks of
    /// `incrementalChunk` bytes when given; returns (accepted, finished with success).
    static func drop(_ uriList: String, on window: RunningWindow, incrementalChunk: Int? = nil) throws -> (accepted: Int32, finished: Int32) {
        guard let source = rfx_test_drag_source_open(window.server.display, uriList) else {
            throw EndToEndError("cannot open \(window.server.display) for the drag source")
        }
        defer { rfx_test_drag_source_close(source) }
        if let incrementalChunk { rfx_test_drag_source_use_incr(source, incrementalChunk) }
        let target = UInt(window.window) ?? 0
        let accepted = rfx_test_drag_source_hover(source, target, 100, 100, 10_000)
        let finished = rfx_test_drag_source_drop(source, target, 20_000)
        return (accepted, finished)
    }

    static func uri(_ path: String) -> String {
        "file://" + path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
    }

    @Test func aDroppedFileOpensThePagerOnIt() throws {
        let server = try VirtualXServer(sharedMemory: true)
        let window = try RunningWindow(paths: [RealWindowTests.photos + "/1 coffee.png"], server: server)
        #expect(try eventually(within: 10) { try window.title() == "1 coffee.png — 1 of 4" })
        let result = try Self.drop("# from a test\r\n" + Self.uri(RealWindowTests.photos + "/10 hubble.jpg") + "\r\n", on: window)
        #expect(result.accepted == 1, "the URI list was refused")
        #expect(result.finished == 1, "no successful XdndFinished")
        // The file's folder, at the file: natural order puts "10 hubble" last of four (the text file "3 notes.jpg" is probed out).
        #expect(try eventually(within: 10) { try window.title() == "10 hubble.jpg — 4 of 4" }, "title: \((try? window.title()) ?? "")")
    }

    /// A source whose list is larger than one of its requests sends it by INCR (ICCCM 2.7.2),
    /// chunk after chunk; the window gathers every chunk and opens the list as if it had come
    /// whole. Chunks of 7 bytes cut the list (a comment line, then the file's URI) everywhere,
    /// the URI included.
    @Test func aListSentByINCRIsGatheredAndOpens() throws {
        let server = try VirtualXServer(sharedMemory: true)
        let window = try RunningWindow(paths: [RealWindowTests.photos + "/1 coffee.png"], server: server)
        #expect(try eventually(within: 10) { try window.title() == "1 coffee.png — 1 of 4" })
        let list = "# sent by INCR\r\n" + Self.uri(RealWindowTests.photos + "/10 hubble.jpg") + "\r\n"
        let result = try Self.drop(list, on: window, incrementalChunk: 7)
        #expect(result.accepted == 1, "the URI list was refused")
        #expect(result.finished == 1, "no successful XdndFinished")
        #expect(try eventually(within: 10) { try window.title() == "10 hubble.jpg — 4 of 4" }, "title: \((try? window.title()) ?? "")")
    }

    @Test func aDroppedFolderOpensItsGrid() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-drop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["1 coffee.png", "2 friends.jpg"] {
            try FileManager.default.copyItem(atPath: RealWindowTests.photos + "/" + name, toPath: folder.path + "/" + name)
        }
        let server = try VirtualXServer(sharedMemory: true)
        let window = try RunningWindow(paths: [RealWindowTests.photos + "/1 coffee.png"], server: server)
        #expect(try eventually(within: 10) { try window.title() == "1 coffee.png — 1 of 4" })
        let result = try Self.drop(Self.uri(folder.path) + "\r\n", on: window)
        #expect(result.accepted == 1 && result.finished == 1, "\(result)")
        #expect(try eventually(within: 10) { try window.title() == "\(folder.lastPathComponent) — 2 photos" }, "title: \((try? window.title()) ?? "")")
    }

    @Test func aListOfRemoteURIsOpensNothing() throws {
        let server = try VirtualXServer(sharedMemory: true)
        let window = try RunningWindow(paths: [RealWindowTests.photos + "/1 coffee.png"], server: server)
        #expect(try eventually(within: 10) { try window.title() == "1 coffee.png — 1 of 4" })
        // A list of nothing but a remote URI: accepted (the type is right), opens nothing.
        let result = try Self.drop("http://example.com/a.jpg\r\n", on: window)
        #expect(result.accepted == 1 && result.finished == 1, "\(result)")
        usleep(300_000)
        #expect(try window.title() == "1 coffee.png — 1 of 4")
        #expect(window.riffle.isRunning)
    }
}
