import Foundation

/// openbox managing a test's Xvfb, as a desktop's window manager would: it frames windows, keeps
/// them inside the screen (changing the size a window asks for when it does not fit) and makes
/// fullscreen ones the screen's size. Stopped when the value goes away.
final class WindowManager {
    private let process = Process()

    /// Starts openbox on `server` and waits until it manages the screen (it names itself on the
    /// root window: EWMH's `_NET_SUPPORTING_WM_CHECK`).
    init(on server: VirtualXServer) throws {
        let openbox = try ExternalCommand("openbox", package: "openbox")
        let xprop = try ExternalCommand("xprop", package: "x11-utils")
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = server.display
        process.executableURL = URL(fileURLWithPath: openbox.path)
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let managing = try eventually(within: 10) {
            try xprop.run(["-display", server.display, "-root", "_NET_SUPPORTING_WM_CHECK"]).stdout.contains("window id")
        }
        if !managing { throw EndToEndError("openbox did not start managing \(server.display)") }
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
