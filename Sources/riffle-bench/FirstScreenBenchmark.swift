import CRiffleX11TestClients
import Foundation
import Glibc
import RiffleImageIO

/// A folder's first screen of thumbnails, as a person waits for it: 30 photos of 24 MP without
/// EXIF thumbnails (so every thumbnail is a decode), opened fullscreen at 1920×1080 on a private
/// Xvfb with an empty thumbnail cache each time, timed from the launch until the whole screen
/// stops changing (held for 2 s), by the screen-reading method of `LaunchBenchmark`. Riffle
/// (`riffle --fullscreen DIR`) beside `nsxiv -t -f DIR` and gthumb (`gthumb DIR`, its window
/// at the size it chooses), each where installed; medians of 3 runs, interleaved; then all
/// again with one core of other load (a busy loop at the default priority). Target (issue):
/// Riffle at most 0.5× the faster of the other two.
enum FirstScreenBenchmark {
    static let count = 30

    static func run(workspace: URL, riffle: String) throws {
        guard let xvfb = LaunchBenchmark.findExecutable("Xvfb") else {
            print("first screen: Xvfb is not installed (Debian package xvfb); skipped")
            return
        }
        let folder = try photos(in: workspace)
        let server = try PrivateXServer(xvfb: xvfb, screen: LaunchBenchmark.screen)
        var viewers: [(name: String, program: String, arguments: [String])] = [("riffle", riffle, ["--fullscreen", folder.path])]
        if let nsxiv = LaunchBenchmark.findExecutable("nsxiv") { viewers.append(("nsxiv -t -f", nsxiv, ["-t", "-f", folder.path])) }
        if let gthumb = LaunchBenchmark.findExecutable("gthumb") { viewers.append(("gthumb", gthumb, [folder.path])) }
        let missing = ["nsxiv", "gthumb"].filter { name in !viewers.contains { $0.name.hasPrefix(name) } }
        print("first screen: \(count) photos of 24 MP without EXIF thumbnails, fullscreen at \(LaunchBenchmark.screen), "
            + "empty thumbnail caches, until the screen holds still for 2 s; medians of 3"
            + (missing.isEmpty ? "" : " (\(missing.joined(separator: ", ")) not installed: Debian packages of those names)"))
        for loaded in [false, true] {
            let load = loaded ? BusyLoop() : nil
            var times: [String: [Double]] = [:]
            for _ in 0..<3 {
                for viewer in viewers {
                    if let t = measure(viewer.program, viewer.arguments, server: server, workspace: workspace) {
                        times[viewer.name, default: []].append(t)
                    }
                }
            }
            load?.stop()
            let medians = viewers.compactMap { viewer in LaunchBenchmark.median(times[viewer.name] ?? []).map { (viewer.name, $0) } }
            var line = "  " + (loaded ? "with one core of other load: " : "quiet: ")
                + medians.map { "\($0.0) \(ms($0.1))" }.joined(separator: ", ")
            if let mine = medians.first(where: { $0.0 == "riffle" })?.1,
               let fastest = medians.filter({ $0.0 != "riffle" }).map(\.1).min() {
                line += "; riffle / the faster other \(ratio(mine, fastest)) (target at most 0.5x)"
            }
            print(line)
        }
    }

    /// The 30 photos, made once in `workspace`: camera-like 6000×4000 JPEGs, no EXIF.
    static func photos(in workspace: URL) throws -> URL {
        let folder = workspace.appendingPathComponent("first-screen")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for k in 0..<count {
            let path = folder.appendingPathComponent(String(format: "plain%02d.jpg", k)).path
            if FileManager.default.fileExists(atPath: path) { continue }
            if k == 0 { print("first screen: making \(count) 24 MP JPEGs…") }
            try Data(try JPEGEncoder.encode(SyntheticPhoto.make(width: 6000, height: 4000, variant: 100 + k), quality: 90))
                .write(to: URL(fileURLWithPath: path))
        }
        return folder
    }

    /// Seconds from launching `program arguments` on `server`, with a thumbnail cache of its
    /// own (XDG_CACHE_HOME, emptied first), until the whole screen last changed; nil when it
    /// never showed anything.
    static func measure(_ program: String, _ arguments: [String], server: PrivateXServer, workspace: URL) -> Double? {
        guard let watch = rfx_test_screen_watch_open_area(server.display, 1) else { return nil }
        defer { rfx_test_screen_watch_close(watch) }
        let cache = workspace.appendingPathComponent("first-screen-cache")
        try? FileManager.default.removeItem(at: cache)
        try? FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = server.display
        environment["XDG_CACHE_HOME"] = cache.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = LaunchBenchmark.now()
        guard (try? process.run()) != nil else { return nil }
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let watched = LaunchBenchmark.watchScreen(watch, from: start, limit: 60, holdFor: 2)
        return watched.firstFrame == nil ? nil : watched.lastChange - start
    }

    /// A child process that keeps one core busy at the default priority until stopped.
    final class BusyLoop {
        private let process = Process()

        init() {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "while :; do :; done"]
            try? process.run()
        }

        func stop() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
