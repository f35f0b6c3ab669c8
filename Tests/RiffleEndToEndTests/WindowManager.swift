import Foundation
import RiffleGeometry
import RiffleX11

/// openbox managing a test's Xvfb, as a desktop's window manager would: it frames windows, keeps
/// them inside the screen (changing the size a window asks for when it does not fit) and makes
/// fullscreen ones the screen's size. Stopped when the value goes away.
final class WindowManager {
    private let process = Process()

    /// Starts openbox on `server` and waits until it manages windows.
    ///
    /// openbox names itself on the root window (EWMH's `_NET_SUPPORTING_WM_CHECK`) as it takes
    /// the screen, before it has read its configuration and entered its event loop. On a loaded
    /// machine a window mapped in that interval was seen to stay unmapped and unmanaged for good
    /// (the suite's first failure of the size test). So probe windows are mapped, one after
    /// another, until openbox frames one (`_NET_FRAME_EXTENTS`, set on every window it manages).
    init(on server: VirtualXServer) throws {
        let openbox = try ExternalCommand("openbox", package: "openbox")
        let xprop = try ExternalCommand("xprop", package: "x11-utils")
        let xdotool = try ExternalCommand("xdotool", package: "xdotool")
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = server.display
        process.executableURL = URL(fileURLWithPath: openbox.path)
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let announced = try eventually(within: 10) {
            try xprop.run(["-display", server.display, "-root", "_NET_SUPPORTING_WM_CHECK"]).stdout.contains("window id")
        }
        if !announced { throw EndToEndError("openbox did not take \(server.display)") }
        for attempt in 1...Self.probes {
            let title = "openbox probe \(attempt)"
            // Closed as the iteration ends, before the server goes (or Xlib's IO error handler
            // would end the process).
            let probe = try X11Display(
                displayName: server.display, size: PixelSize(width: 64, height: 64), title: title
            ) { ProcessInfo.processInfo.systemUptime }
            let framed = try eventually(within: 5) {
                guard let id = try xdotool.run(["search", "--name", "^\(title)$"], environment: env).stdout
                    .split(separator: "\n").first else { return false }
                return try xprop.run(["-display", server.display, "-id", String(id), "_NET_FRAME_EXTENTS"]).stdout.contains(" = ")
            }
            withExtendedLifetime(probe) {}
            if framed { return }
        }
        throw EndToEndError("openbox framed none of \(Self.probes) windows on \(server.display)")
    }

    /// Probe windows mapped, 5 s each, before openbox is said not to manage windows.
    private static let probes = 4

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
