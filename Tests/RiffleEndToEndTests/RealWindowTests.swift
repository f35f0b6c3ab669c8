import Foundation
import RiffleImageIO
import RiffleRaster
import Testing

/// The real binary in a real window: each replay script is run under Xvfb, and every frame the
/// app reads back from the X server must equal the headless snapshot of the same script.
/// Tolerance 0: both runs composite the same frames from the same decodes; the X server stores
/// them unchanged (a 24-bit TrueColor visual), so any difference is a presentation bug.
@Suite(.serialized) struct RealWindowTests {
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let photos = testsFolder.appendingPathComponent("Photos").path
    /// Every script in `Tests/Scripts`: the same ones the headless golden tests replay.
    static var scripts: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: testsFolder.appendingPathComponent("Scripts").path)) ?? []
        return files.filter { $0.hasSuffix(".replay") }.map { String($0.dropLast(".replay".count)) }.sorted()
    }

    /// The `riffle` executable built beside this test bundle.
    static var riffle: String {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return me.deletingLastPathComponent().appendingPathComponent("riffle").path
    }

    struct Run {
        let status: Int32
        let stderr: String
        let snapshots: URL
    }

    static func run(script: String, display: String?) throws -> Run {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-e2e-\(getpid())-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: riffle)
        var args = ["--size", "320x200", "--replay", testsFolder.appendingPathComponent("Scripts/\(script).replay").path,
                    "--snapshots", dir.path]
        var env = ProcessInfo.processInfo.environment
        if let display {
            env["DISPLAY"] = display
        } else {
            args.insert("--headless", at: 0)
            env.removeValue(forKey: "DISPLAY")
        }
        process.arguments = args + [photos]
        process.environment = env
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stderr: stderr, snapshots: dir)
    }

    static func compare(window: Run, headless: Run) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: headless.snapshots.path).sorted()
        #expect(!names.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: window.snapshots.path).sorted() == names)
        for name in names {
            let a = try ImageDecoder.decodeFile(atPath: window.snapshots.appendingPathComponent(name).path).pixels
            let b = try ImageDecoder.decodeFile(atPath: headless.snapshots.appendingPathComponent(name).path).pixels
            #expect(a.size == b.size, "\(name)")
            guard a.size == b.size else { continue }
            let diff = ImageDifference(a, b, tolerance: 0)
            #expect(diff.pixelsOverTolerance == 0, "\(name): \(diff.pixelsOverTolerance) pixels differ (worst \(diff.maxChannel))")
        }
    }

    @Test(arguments: scripts, [true, false])
    func windowShowsWhatHeadlessDraws(script: String, sharedMemory: Bool) throws {
        let server = try VirtualXServer(sharedMemory: sharedMemory)
        let window = try Self.run(script: script, display: server.display)
        let headless = try Self.run(script: script, display: nil)
        defer {
            try? FileManager.default.removeItem(at: window.snapshots)
            try? FileManager.default.removeItem(at: headless.snapshots)
        }
        #expect(window.status == 0, "riffle in a window exited \(window.status): \(window.stderr)")
        #expect(headless.status == 0, "riffle headless exited \(headless.status): \(headless.stderr)")
        #expect(window.stderr.contains("MIT-SHM unavailable") == !sharedMemory, "stderr: \(window.stderr)")
        try Self.compare(window: window, headless: headless)
    }

    @Test func badScriptLineIsAnErrorNamingTheLine() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bad-\(getpid()).replay")
        try Data("wait 10\nfly 3\n".utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.riffle)
        process.arguments = ["--headless", "--replay", script.path, Self.photos]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        #expect(stderr.contains("line 2") && stderr.contains("unknown command 'fly'"), "\(stderr)")
    }

    @Test func helpListsEveryOption() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.riffle)
        process.arguments = ["--help"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        for option in ["--size", "--headless", "--replay", "--snapshots", "--reference-raster", "--fullscreen"] {
            #expect(text.contains(option), "--help lacks \(option)")
        }
    }
}
