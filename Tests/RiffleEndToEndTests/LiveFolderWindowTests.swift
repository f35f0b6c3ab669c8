import Foundation
import Glibc
import Testing

/// The real binary in a real window under Xvfb, its folder changing under it: the photo shown
/// is deleted, and the window's title (read back by a second client, `xdotool getwindowname`)
/// names the next photo within half a second, plus slack for a loaded machine.
@Suite(.serialized, .timeLimit(.minutes(2))) struct LiveFolderWindowTests {
    @Test func deletingThePhotoShownTitlesTheWindowWithTheNextOne() throws {
        let xdotool = try ExternalCommand("xdotool", package: "xdotool")
        let server = try VirtualXServer(sharedMemory: true)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-live-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["1 coffee.png", "2 friends.jpg", "10 hubble.jpg"] {
            try FileManager.default.copyItem(atPath: RealWindowTests.photos + "/" + name, toPath: folder + "/" + name)
        }
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = server.display
        env["XDG_CACHE_HOME"] = folder + "/.cache"
        let riffle = Process()
        riffle.executableURL = URL(fileURLWithPath: RealWindowTests.riffle)
        riffle.arguments = ["--size", "320x200", folder + "/2 friends.jpg"]
        riffle.environment = env
        riffle.standardOutput = FileHandle.nullDevice
        riffle.standardError = FileHandle.nullDevice
        try riffle.run()
        defer {
            if riffle.isRunning { kill(riffle.processIdentifier, SIGKILL) }
            riffle.waitUntilExit()
        }

        var window = ""
        func title() throws -> String {
            try xdotool.run(["getwindowname", window], environment: env).stdout.trimmingCharacters(in: .newlines)
        }
        #expect(try eventually(within: 10) {
            window = try xdotool.run(["search", "--classname", "riffle"], environment: env).stdout
                .split(separator: "\n").first.map(String.init) ?? ""
            return !window.isEmpty
        })
        #expect(try eventually(within: 10) { try title() == "2 friends.jpg — 2 of 3" })

        let start = ContinuousClock.now
        #expect(unlink(folder + "/2 friends.jpg") == 0)
        #expect(try eventually(within: 10) { try title() == "10 hubble.jpg — 2 of 2" })
        let elapsed = ContinuousClock.now - start
        // Half a second promised; a second of slack for the title's round trip and a busy machine.
        #expect(elapsed < .milliseconds(1500), "the title changed after \(elapsed)")

        _ = try xdotool.run(["windowfocus", "--sync", window, "key", "q"], environment: env)
        #expect(eventually(within: 10) { !riffle.isRunning }, "q did not quit")
        if !riffle.isRunning { #expect(riffle.terminationStatus == 0) }
    }
}
