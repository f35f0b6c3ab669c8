import Foundation
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing

/// The real binary in a real window: each replay script is run under Xvfb, and every frame the
/// app reads back from the X server must equal the headless snapshot of the same script.
/// Tolerance 0: both runs composite the same frames from the same decodes; the X server stores
/// them unchanged (a 24-bit TrueColor visual), so any difference is a presentation bug.
///
/// The window's replays run unpaced (`--unpaced`): the same frames as at the script's pace, since
/// the replay lets every decode finish before each frame either way, without sleeping through the
/// script's virtual time; `pacedScript` is also run at its pace. Each script is replayed headless
/// once, and its window runs compared with that: on Present every script, on XShmPutImage and
/// XPutImage the few of `scriptsOnEveryPath`. Each case starts servers of its own, so the cases
/// run in parallel.
///
/// Time limits, so a hung window fails instead of stalling the run: each test (each case of a
/// table) has two minutes, against a few seconds taken; each `riffle` it starts is killed after
/// `processTimeLimit`, since a test blocked waiting on a process cannot be interrupted.
@Suite(.timeLimit(.minutes(2))) struct RealWindowTests {
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let photos = testsFolder.appendingPathComponent("Photos").path
    /// Seconds a `riffle` run may take before it is killed (a replay takes well under one).
    static let processTimeLimit = 60

    /// Every script in `Tests/Scripts`: the same ones the headless golden tests replay. Throws
    /// when the folder cannot be read, rather than making a table of no cases.
    static func scripts() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: testsFolder.appendingPathComponent("Scripts").path)
            .filter { $0.hasSuffix(".replay") }.map { String($0.dropLast(".replay".count)) }.sorted()
    }

    /// The `riffle` executable built beside this test bundle.
    static var riffle: String {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return me.deletingLastPathComponent().appendingPathComponent("riffle").path
    }

    /// How a `riffle` run ended.
    /// Runs `riffle` with `arguments` and `environment` (this process's when nil) to its end,
    /// killing it after `processTimeLimit` seconds (its status is then SIGKILL's).
    static func runRiffle(_ arguments: [String], environment: [String: String]? = nil) throws -> ExternalCommand.Result {
        // A cache folder of the run's own: the grid's thumbnails never land in the user's cache,
        // and every run starts from none (the headless and window runs alike).
        var env = environment ?? ProcessInfo.processInfo.environment
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: cache) }
        env["XDG_CACHE_HOME"] = cache.path
        // Nor the user's view options: every run starts from the defaults.
        env["XDG_STATE_HOME"] = cache.path + "/state"
        return try ExternalCommand(path: riffle).run(arguments, environment: env, timeLimit: processTimeLimit)
    }

    struct Run {
        let status: Int32
        let stderr: String
        let snapshots: URL
    }

    /// How the window's frames reach the server: Present with MIT-SHM pixmaps, XShmPutImage
    /// (Present turned off with RIFFLE_PRESENT=0), or XPutImage (a server without MIT-SHM).
    enum PresentationPath: String, CaseIterable, Sendable {
        case present, sharedImage, image
    }

    /// The scripts run on every presentation path, chosen to differ: a resize (the pixmaps or
    /// images remade), twice the scale (a 640×400 window), the grid and its thumbnails, an
    /// animation's frames. Every other script runs on Present only: the paths differ in how a
    /// frame reaches the server, not in what the frame holds.
    static let scriptsOnEveryPath = ["resize", "chrome-2x", "grid-open-and-back", "animation-play"]

    /// The script also run in a window at its own pace (Present), as a person watching sees it:
    /// a flick, whose frames follow one another quickest.
    static let pacedScript = "flick"

    /// Runs `script` headless (`display` nil) or in a window on `display` by `path`, unpaced
    /// unless `paced`.
    static func run(script: String, display: String?, path: PresentationPath = .present, paced: Bool = false) throws -> Run {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-e2e-\(getpid())-\(UUID().uuidString)")
        let size = ScriptLibrary.windowSize(forScript: script)
        var args = ["--size", "\(size.width)x\(size.height)", "--scale", "\(ScriptLibrary.scale(forScript: script))", "--replay", testsFolder.appendingPathComponent("Scripts/\(script).replay").path,
                    "--snapshots", dir.path]
        try PinnedPhotoDates.pin(photos: photos)
        var env = ProcessInfo.processInfo.environment
        env["TZ"] = PinnedPhotoDates.zone
        if let display {
            env["DISPLAY"] = display
            if path == .sharedImage { env["RIFFLE_PRESENT"] = "0" }
            if !paced { args.insert("--unpaced", at: 0) }
        } else {
            args.insert("--headless", at: 0)
            env.removeValue(forKey: "DISPLAY")
        }
        let exit = try runRiffle(args + [ScriptLibrary.path(forScript: script, photos: photos)], environment: env)
        return Run(status: exit.status, stderr: exit.stderr, snapshots: dir)
    }

    static func compare(window: Run, headless: Run, how: String) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: headless.snapshots.path).sorted()
        #expect(!names.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: window.snapshots.path).sorted() == names, "\(how)")
        for name in names {
            let a = try ImageDecoder.decodeFile(atPath: window.snapshots.appendingPathComponent(name).path).pixels
            let b = try ImageDecoder.decodeFile(atPath: headless.snapshots.appendingPathComponent(name).path).pixels
            #expect(a.size == b.size, "\(how): \(name)")
            guard a.size == b.size else { continue }
            let diff = ImageDifference(a, b, tolerance: 0)
            #expect(diff.pixelsOverTolerance == 0, "\(how): \(name): \(diff.pixelsOverTolerance) pixels differ (worst \(diff.maxChannel))")
        }
    }

    /// The table below has a case per script: never none; and the scripts named for the other
    /// paths and for the paced run are among them (a renamed script must not drop them unseen).
    @Test func everyScriptIsFound() throws {
        let scripts = try Self.scripts()
        #expect(!scripts.isEmpty)
        for script in Self.scriptsOnEveryPath + [Self.pacedScript] {
            #expect(scripts.contains(script), "no script \(script).replay")
        }
    }

    @Test(arguments: try scripts())
    func windowShowsWhatHeadlessDraws(script: String) throws {
        let headless = try Self.run(script: script, display: nil)
        defer { try? FileManager.default.removeItem(at: headless.snapshots) }
        #expect(headless.status == 0, "riffle headless exited \(headless.status): \(headless.stderr)")
        let paths = Self.scriptsOnEveryPath.contains(script) ? PresentationPath.allCases : [.present]
        for path in paths { try Self.check(script: script, path: path, paced: false, against: headless) }
        if script == Self.pacedScript { try Self.check(script: script, path: .present, paced: true, against: headless) }
    }

    /// Runs `script` in a window on a server of its own by `path` and compares its frames with
    /// the `headless` run's.
    static func check(script: String, path: PresentationPath, paced: Bool, against headless: Run) throws {
        let sharedMemory = path != .image
        let server = try VirtualXServer(sharedMemory: sharedMemory)
        let window = try run(script: script, display: server.display, path: path, paced: paced)
        defer { try? FileManager.default.removeItem(at: window.snapshots) }
        let how = "\(path)\(paced ? ", paced" : "")"
        #expect(window.status == 0, "riffle in a window (\(how)) exited \(window.status): \(window.stderr)")
        #expect(window.stderr.contains("MIT-SHM unavailable") == !sharedMemory, "\(how): stderr: \(window.stderr)")
        try compare(window: window, headless: headless, how: how)
    }

    @Test func badScriptLineIsAnErrorNamingTheLine() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bad-\(getpid()).replay")
        try Data("wait 10\nfly 3\n".utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }
        let exit = try Self.runRiffle(["--headless", "--replay", script.path, Self.photos])
        #expect(exit.status != 0)
        #expect(exit.stderr.contains("line 2") && exit.stderr.contains("unknown command 'fly'"), "\(exit.stderr)")
    }

    /// Every option of `riffle` (Sources/riffle/main.swift), and no other: an option added
    /// there and not here fails too.
    @Test func helpListsEveryOption() throws {
        let options: Set = [
            "--size", "--headless", "--replay", "--snapshots", "--reference-raster", "--fullscreen",
            "--memory-budget", "--real-time", "--unpaced", "--stats", "--scale", "--hz", "--slideshow", "--loop", "--help", "--version",
        ]
        let exit = try Self.runRiffle(["--help"])
        #expect(exit.status == 0)
        let listed = Set(exit.stdout.matches(of: #/--[a-z][a-z-]*/#).map { String($0.output) })
        #expect(listed == options, "not listed: \(options.subtracting(listed).sorted()); not tested: \(listed.subtracting(options).sorted())")
    }
}
