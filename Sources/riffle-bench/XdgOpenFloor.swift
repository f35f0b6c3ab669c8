import Foundation
import Glibc

/// What `xdg-open` itself costs on this machine, apart from the program it opens: the time from
/// starting `xdg-open photo.jpg` to the start of a handler that does nothing else (a shell script
/// writing one byte into a FIFO the benchmark reads), registered as Riffle is (a desktop entry
/// in a private XDG_DATA_HOME, `Exec=... %F`, made image/jpeg's default by `xdg-mime`), less the
/// time the same script takes to start when run directly. Without a desktop environment
/// xdg-open's generic path is shell work: it asks the root window for `_DT_SAVE_MODE` (xprop),
/// `xdg-mime query filetype` (file(1)) and `query default`, reads the entry's keys with sed and
/// finds the command with `which`, each a process of its own.
enum XdgOpenFloor {
    /// Runs of each start; the medians are reported.
    static let runs = 5

    /// Medians, in seconds.
    struct Figures {
        /// From starting `xdg-open photo` to the handler's start.
        let throughXdgOpen: Double
        /// From starting the handler directly to its start.
        let direct: Double
        /// What xdg-open adds: the difference.
        var overhead: Double { throughXdgOpen - direct }
    }

    /// Measures on `display`, in a scratch folder under `folder`; nil when xdg-utils is missing or
    /// a run never reached the handler.
    static func measure(xdgOpen: String, photo: String, in folder: URL, display: String) throws -> Figures? {
        let home = folder.appendingPathComponent("desktop-floor")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let fifo = home.appendingPathComponent("started").path
        unlink(fifo)
        guard mkfifo(fifo, 0o600) == 0 else { return nil }
        defer { unlink(fifo) }
        let handler = home.appendingPathComponent("handler").path
        try "#!/bin/sh\nprintf x > '\(fifo)'\n".write(toFile: handler, atomically: true, encoding: .utf8)
        guard chmod(handler, 0o755) == 0,
              let desktop = try LaunchBenchmark.desktopEnvironment(opening: handler, in: home)
        else { return nil }
        var env = ProcessInfo.processInfo.environment.merging(desktop) { $1 }
        env["DISPLAY"] = display
        var opened: [Double] = [], direct: [Double] = []
        for _ in 0..<runs {
            guard let viaXdgOpen = timeToStart(xdgOpen, [photo], environment: env, fifo: fifo),
                  let straight = timeToStart(handler, [photo], environment: env, fifo: fifo)
            else { return nil }
            opened.append(viaXdgOpen)
            direct.append(straight)
        }
        return Figures(throughXdgOpen: LaunchBenchmark.median(opened)!, direct: LaunchBenchmark.median(direct)!)
    }

    /// Seconds from starting `program arguments` until the handler writes into `fifo` (10 s at
    /// most: nil then); the program is waited for before returning.
    static func timeToStart(_ program: String, _ arguments: [String], environment: [String: String], fifo: String) -> Double? {
        // Opened before the start, without blocking: no writer yet, and on Linux a FIFO that has
        // never had one does not poll as hung up, so poll waits for the handler's byte.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        guard reader >= 0 else { return nil }
        defer { close(reader) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = LaunchBenchmark.now()
        guard (try? process.run()) != nil else { return nil }
        defer { process.waitUntilExit() }
        var ready = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 10_000) == 1 else {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        let started = LaunchBenchmark.now() - start
        var byte: UInt8 = 0
        _ = read(reader, &byte, 1)
        return started
    }
}
