import Foundation
import RiffleImageIO
import RiffleRaster

/// The real `riffle` binary showing `paths` in a window on its own Xvfb, for tests that play
/// another client against it (a drag source, a clipboard reader, a signal, a dying server);
/// killed when the value goes.
final class RunningWindow {
    // Declared before the server, so the app goes first.
    let riffle: Process
    let server: VirtualXServer
    /// The environment aimed at the server, for the X tools the tests run.
    let environment: [String: String]
    /// The window's id in decimal, as xdotool prints it.
    let window: String
    private let cache: URL
    /// The Freedesktop thumbnail cache the window writes (`$XDG_CACHE_HOME/thumbnails`, a
    /// folder of this run's own).
    var thumbnails: URL { cache.appendingPathComponent("thumbnails") }
    private let stdout = Pipe(), stderr = Pipe()

    /// The window's size, pixels.
    static let size = (width: 640, height: 400)

    /// - Parameters:
    ///   - options: riffle's options before the paths (`--stats`); the window is `size`.
    ///   - environment: variables added to this process's (`RIFFLE_PRESENT=0`).
    init(paths: [String], server: VirtualXServer, options: [String] = [], environment extra: [String: String] = [:]) throws {
        self.server = server
        var env = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        env["DISPLAY"] = server.display
        cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-cache-\(UUID().uuidString)")
        env["XDG_CACHE_HOME"] = cache.path
        // The defaults' view options, never the user's.
        env["XDG_STATE_HOME"] = cache.path + "/state"
        environment = env
        riffle = Process()
        riffle.executableURL = URL(fileURLWithPath: RealWindowTests.riffle)
        riffle.arguments = ["--size", "\(Self.size.width)x\(Self.size.height)"] + options + paths
        riffle.environment = env
        riffle.standardOutput = stdout
        riffle.standardError = stderr
        try riffle.run()
        let xdotool = try ExternalCommand("xdotool", package: "xdotool")
        var found = ""
        _ = try eventually(within: 10) {
            found = try xdotool.run(["search", "--classname", "riffle"], environment: env).stdout
                .split(separator: "\n").first.map(String.init) ?? ""
            return !found.isEmpty
        }
        guard !found.isEmpty else { throw EndToEndError("riffle's window did not appear") }
        window = found
    }

    deinit {
        if riffle.isRunning { kill(riffle.processIdentifier, SIGKILL) }
        riffle.waitUntilExit()
        try? FileManager.default.removeItem(at: cache)
    }

    /// Waits up to `seconds` for riffle to end; false (and killed) when it does not.
    func ended(within seconds: Double) -> Bool {
        let ended = eventually(within: seconds) { !riffle.isRunning }
        if !ended { kill(riffle.processIdentifier, SIGKILL) }
        riffle.waitUntilExit()
        return ended
    }

    /// What riffle printed, once it has ended.
    func output() -> (stdout: String, stderr: String) {
        (String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
         String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    /// The window's title (_NET_WM_NAME), as xprop reads it.
    func title() throws -> String {
        let xprop = try ExternalCommand("xprop", package: "x11-utils")
        let line = try xprop.run(["-display", server.display, "-id", window, "_NET_WM_NAME"]).stdout
        guard let equals = line.range(of: " = ") else { return "" }
        return String(line[equals.upperBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
            .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    /// What the window shows now, read back from the server by ImageMagick's `import`.
    func shot() throws -> PixelBuffer {
        let command = try ExternalCommand("import", package: "imagemagick")
        let file = cache.appendingPathComponent("shot-\(UUID().uuidString).png").path
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try command.run(["-display", server.display, "-window", window, "png:" + file], environment: environment)
        guard result.status == 0 else { throw EndToEndError("import: \(result.output)") }
        return try ImageDecoder.decodeFile(atPath: file).pixels
    }

    /// Runs one `xdotool` command chain against the window's server ("mousemove 320 200",
    /// "click 4"), as a person's mouse would act; with no window manager the window sits at the
    /// screen's top-left, so screen and window coordinates agree.
    func xdotool(_ arguments: [String]) throws {
        let xdotool = try ExternalCommand("xdotool", package: "xdotool")
        let result = try xdotool.run(arguments, environment: environment)
        guard result.status == 0 else { throw EndToEndError("xdotool \(arguments.joined(separator: " ")): \(result.output)") }
    }

    /// Presses `keys` (xdotool's spelling, "ctrl+c") in the focused window.
    func press(_ keys: String) throws {
        let xdotool = try ExternalCommand("xdotool", package: "xdotool")
        let result = try xdotool.run(["windowfocus", "--sync", window, "key", keys], environment: environment)
        guard result.status == 0 else { throw EndToEndError("xdotool key \(keys): \(result.output)") }
    }
}
