import CRiffleX11TestClients
import Foundation
import Glibc
import RiffleImageIO

/// Riffle and feh launched on a private 1920×1080 Xvfb and watched from outside, as a person
/// sees them: the middle of the screen is read back (a second client, MIT-SHM) every few
/// milliseconds from the launch. A 24 MP JPEG without an EXIF thumbnail (so no preview can stand in): the time to
/// the first frame (the screen no longer black) and until the screen stops changing (the photo
/// at its final sharpness; held for 1 s). Then "next" (Right), sent through XTest and timed
/// from when the server takes it (the watcher sees the raw key event): the first changed frame
/// and the last change. Then a drag on Riffle's photo with `--stats`: its
/// input-to-photon latency from Present's completion times. Medians of 3 runs each; feh (`feh
/// -F`, Debian's feh) only when it is installed. Targets (issue): settled (the sharp photo) ≤ 0.6× feh's, the first frame of the photo ≤ 0.5×, CPU until settled ≤ 1.5×; the first
/// moving frame after a key ≤ 1 refresh; drag input-to-photon p99 ≤ 2 refreshes; the desktop
/// path (`xdg-open` of the photo, Riffle its handler) adds ≤ 20 ms to the first frame. Beside
/// that last figure, xdg-open's own floor: the time it takes to start a handler that does nothing
/// but say it started (`XdgOpenFloor`), less the time the same handler takes started directly;
/// what the desktop path adds beyond it is Riffle's share.
enum LaunchBenchmark {
    static let screen = "1920x1080"
    static let refresh = 1.0 / 60

    struct Watch {
        var firstFrame: Double?
        /// The first change to a middle that is neither black nor flat (see `Launch`).
        var firstPhotoLike: Double?
        var lastChange: Double
        /// The watched process's CPU seconds at the last change.
        var cpuAtLastChange: Double?
    }

    static func run(workspace: URL, riffle: String) throws {
        guard let xvfb = findExecutable("Xvfb") else {
            print("launch: Xvfb is not installed (Debian package xvfb); skipped")
            return
        }
        let folder = workspace.appendingPathComponent("launch")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let photos = try (0..<2).map { k -> String in
            let path = folder.appendingPathComponent("plain\(k).jpg").path
            if !FileManager.default.fileExists(atPath: path) {
                try Data(try JPEGEncoder.encode(SyntheticPhoto.make(width: 6000, height: 4000, variant: 40 + k), quality: 90))
                    .write(to: URL(fileURLWithPath: path))
            }
            return path
        }
        let server = try PrivateXServer(xvfb: xvfb, screen: screen)
        let xdotool = findExecutable("xdotool")
        let feh = findExecutable("feh")
        print("launch: a \(screen) Xvfb, a 24 MP JPEG without an EXIF thumbnail, medians of 3 runs")
        // Each xdg-open run right after a direct one, so that a drift in the machine's load (it
        // is shared) falls on both alike.
        let opener = try desktopEnvironment(riffle: riffle, in: folder).flatMap { env in findExecutable("xdg-open").map { (xdgOpen: $0, environment: env) } }
        var riffleRuns: [Launch] = [], openRuns: [Launch] = [], fehRuns: [Launch] = [], added: [Double] = []
        for _ in 0..<3 {
            let direct = measure(["--size", "1920x1080", photos[0]], program: riffle, server: server, xdotool: xdotool)
            if let direct { riffleRuns.append(direct) }
            // feh beside each of Riffle's runs, so that a drift in the machine's load falls on both.
            if let feh, let run = measure(["-F", photos[0], photos[1]], program: feh, server: server, xdotool: xdotool) {
                fehRuns.append(run)
            }
            guard let opener,
                  let opened = measure([photos[0]], program: opener.xdgOpen, server: server, xdotool: xdotool, environment: opener.environment)
            else { continue }
            openRuns.append(opened)
            if let direct { added.append(opened.firstFrame - direct.firstFrame) }
        }
        report("riffle", riffleRuns)
        if let opener {
            report("xdg-open (riffle as image/jpeg's default)", openRuns)
            let floor = try XdgOpenFloor.measure(xdgOpen: opener.xdgOpen, photo: photos[0], in: folder, display: server.display)
            if let floor {
                print("  xdg-open's floor: a trivial handler (a shell script that only says it started) starts "
                    + "\(ms(floor.throughXdgOpen)) after xdg-open does, \(ms(floor.direct)) when started directly: "
                    + "xdg-open's own work is \(ms(floor.overhead)) (medians of \(XdgOpenFloor.runs))")
            }
            if let adds = median(added) {
                var line = "  the desktop path adds \(ms(adds)) to the first frame (median of each pair's difference; target at most 20 ms)"
                if let floor { line += "; less xdg-open's own \(ms(floor.overhead)), Riffle's share is \(ms(adds - floor.overhead))" }
                print(line)
            }
        } else {
            print("  xdg-utils is not installed (Debian packages xdg-utils, desktop-file-utils): no xdg-open run")
        }
        if feh != nil {
            report("feh -F", fehRuns)
            if let r = median(riffleRuns.map(\.settled)), let f = median(fehRuns.map(\.settled)),
               let firstR = median(riffleRuns.map(\.firstPhotoLike)), let rc = median(riffleRuns.compactMap(\.cpuUntilSettled)),
               let fc = median(fehRuns.compactMap(\.cpuUntilSettled)) {
                print("  riffle / feh: settled (the sharp photo) \(ratio(r, f)) (target at most 0.6x); "
                    + "the first frame of the photo, sharp or not, \(ratio(firstR, f)) (target at most 0.5x); "
                    + "CPU until settled \(ratio(rc, fc)) (target at most 1.5x)")
            }
        } else {
            print("  feh is not installed (Debian package feh): no comparison")
        }
        if let xdotool { dragLatency(riffle: riffle, photo: photos[0], server: server, xdotool: xdotool) }
    }

    struct Launch {
        let firstFrame: Double
        /// The first frame that shows the photo (its draft or the sharp photo): the first whose
        /// middle is neither black nor one flat tone (Riffle's placeholder plate).
        let firstPhotoLike: Double
        let settled: Double
        /// CPU seconds (every thread) the program had used when the screen last changed.
        let cpuUntilSettled: Double?
        let keyFirstChange: Double?
        let keySettled: Double?
    }

    /// The CPU seconds, user and system, of every thread of process `pid` so far: fields 14 and
    /// 15 of /proc/PID/stat (utime, stime), in clock ticks (man 5 proc); nil once it is gone.
    static func cpuSeconds(of pid: pid_t) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")")
        else { return nil }
        // After the command's closing parenthesis: field 3 (state) onwards.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func report(_ name: String, _ runs: [Launch]) {
        guard !runs.isEmpty else {
            print("  \(name): no run showed a frame")
            return
        }
        var line = "  \(name): first frame \(ms(median(runs.map(\.firstFrame))!)), of the photo \(ms(median(runs.map(\.firstPhotoLike))!)), "
            + "settled \(ms(median(runs.map(\.settled))!))"
        if let cpu = median(runs.compactMap(\.cpuUntilSettled)) { line += " (CPU until then \(ms(cpu)))" }
        if let first = median(runs.compactMap(\.keyFirstChange)), let rest = median(runs.compactMap(\.keySettled)) {
            line += "; Right: first changed frame \(ms(first)) (\(fixed(first / refresh)) refreshes), settled \(ms(rest))"
        }
        print(line)
    }

    /// Launches `program arguments` on `server`, watches the screen until it holds still, then
    /// presses Right and watches again; the program is then killed.
    static func measure(
        _ arguments: [String], program: String, server: PrivateXServer, xdotool: String?, environment: [String: String] = [:]
    ) -> Launch? {
        guard let watch = rfx_test_screen_watch_open(server.display) else { return nil }
        defer { rfx_test_screen_watch_close(watch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        env["DISPLAY"] = server.display
        env["XDG_CACHE_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bench-launch-cache").path
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = now()
        guard (try? process.run()) != nil else { return nil }
        defer {
            // xdg-open (a shell script) waits for the viewer it started as its child: end that
            // child too, by its id (a kill by name would reach other programs' windows).
            if program.hasSuffix("xdg-open") {
                for child in children(of: process.processIdentifier) { kill(child, SIGKILL) }
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let launch = watchScreen(watch, from: start, limit: 20, pid: process.processIdentifier)
        guard let firstFrame = launch.firstFrame else { return nil }
        var keyFirst: Double?, keyRest: Double?
        if let xdotool {
            run(xdotool, ["mousemove", "960", "540"], display: server.display)
            usleep(300_000)
            if let key = watchKey(watch, xdotool: xdotool, display: server.display) {
                keyFirst = key.firstChange
                keyRest = key.lastChange
            }
        }
        return Launch(
            firstFrame: firstFrame, firstPhotoLike: launch.firstPhotoLike ?? launch.lastChange - start, settled: launch.lastChange - start,
            cpuUntilSettled: launch.cpuAtLastChange, keyFirstChange: keyFirst, keySettled: keyRest)
    }

    /// Presses Right through xdotool and reads the screen until it has held still for 1 s (at
    /// most 10 s), timing from the moment the server took the key (a raw key event the watcher
    /// sees), not from xdotool's launch: seconds to the first change and to the last; nil when
    /// the key was never seen.
    static func watchKey(_ watch: OpaquePointer, xdotool: String, display: String) -> (firstChange: Double?, lastChange: Double)? {
        var hash: UInt64 = 0, blank: Int32 = 1
        _ = rfx_test_screen_watch_key_pressed(watch)
        guard rfx_test_screen_watch_read(watch, &hash, &blank) != 0 else { return nil }
        let before = hash
        let process = Process()
        process.executableURL = URL(fileURLWithPath: xdotool)
        process.arguments = ["key", "Right"]
        process.environment = ["DISPLAY": display]
        guard (try? process.run()) != nil else { return nil }
        defer { process.waitUntilExit() }
        let start = now()
        var pressed: Double?
        while pressed == nil, now() - start < 5 {
            if rfx_test_screen_watch_key_pressed(watch) != 0 { pressed = now() } else { usleep(500) }
        }
        guard let pressed else { return nil }
        var first: Double?, last = pressed, previous = before
        while now() - pressed < 10 {
            guard rfx_test_screen_watch_read(watch, &hash, &blank) != 0 else { break }
            let t = now()
            if hash != previous {
                last = t
                if first == nil { first = t - pressed }
                previous = hash
            }
            if first != nil, t - last > 1 { break }
            usleep(1_000)
        }
        return (first, last - pressed)
    }

    /// Reads the screen until it has held still for 1 s (or `limit` s pass): when it first
    /// showed a frame after `start` (not black, or with `blankIsAFrame` any change) and when it
    /// last changed.
    static func watchScreen(
        _ watch: OpaquePointer, from start: Double, limit: Double, blankIsAFrame: Bool = false, pid: pid_t? = nil,
        holdFor hold: Double = 1
    ) -> Watch {
        var hash: UInt64 = 0, blank: Int32 = 1
        _ = rfx_test_screen_watch_read(watch, &hash, &blank)
        var previous = hash
        var result = Watch(firstFrame: nil, lastChange: start)
        while now() - start < limit {
            guard rfx_test_screen_watch_read(watch, &hash, &blank) != 0 else { break }
            let t = now()
            if hash != previous {
                result.lastChange = t
                if result.firstFrame == nil, blank == 0 || blankIsAFrame { result.firstFrame = t - start }
                if result.firstPhotoLike == nil, blank == 0, rfx_test_screen_watch_is_flat(watch) == 0 { result.firstPhotoLike = t - start }
                if let pid { result.cpuAtLastChange = cpuSeconds(of: pid) }
                previous = hash
            }
            if result.firstFrame != nil, t - result.lastChange > hold { break }
            // A read every 2 ms or so, not a busy loop: the watcher must not take a core from
            // what it watches (two cores in all here).
            usleep(2_000)
        }
        return result
    }

    /// The environment of a desktop without a desktop environment of its own, in which
    /// `xdg-open` of a JPEG runs Riffle: a desktop entry for it (as `make install` writes one, its
    /// Exec naming this build with the benchmark's window size) in a private XDG_DATA_HOME, made
    /// image/jpeg's default with `xdg-mime`; nil when xdg-utils is missing.
    static func desktopEnvironment(riffle: String, in folder: URL) throws -> [String: String]? {
        try desktopEnvironment(opening: "\(riffle) --size 1920x1080", in: folder.appendingPathComponent("desktop"))
    }

    /// The environment of a desktop (as above) whose private XDG_DATA_HOME under `home` holds a
    /// desktop entry running `command` with `%F`, made image/jpeg's default with `xdg-mime`;
    /// nil when xdg-utils is missing.
    static func desktopEnvironment(opening command: String, in home: URL) throws -> [String: String]? {
        guard let xdgMime = findExecutable("xdg-mime") else { return nil }
        let applications = home.appendingPathComponent("share/applications"), config = home.appendingPathComponent("config")
        let empty = home.appendingPathComponent("system-share")
        for made in [applications, config, empty] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        // The system's MIME database without its applications: where xdg-mime asks
        // `mimetype` (File::MimeInfo, which xdg-utils recommends) for a file's type, that reads
        // the database from XDG_DATA_DIRS, and without it xdg-open opens nothing.
        let mime = empty.appendingPathComponent("mime")
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: mime.path)) == nil {
            try FileManager.default.createSymbolicLink(atPath: mime.path, withDestinationPath: "/usr/share/mime")
        }
        let entry = "[Desktop Entry]\nType=Application\nName=Riffle\nExec=\(command) %F\nMimeType=image/jpeg;\n"
        try entry.write(to: applications.appendingPathComponent("riffle-bench.desktop"), atomically: true, encoding: .utf8)
        var env: [String: String] = [
            "XDG_DATA_HOME": home.appendingPathComponent("share").path, "XDG_DATA_DIRS": empty.path,
            "XDG_CONFIG_HOME": config.path, "XDG_CONFIG_DIRS": config.path,
        ]
        for desktop in ["XDG_CURRENT_DESKTOP", "DESKTOP_SESSION", "KDE_FULL_SESSION", "GNOME_DESKTOP_SESSION_ID", "BROWSER"] {
            env[desktop] = ""
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: xdgMime)
        process.arguments = ["default", "riffle-bench.desktop", "image/jpeg"]
        process.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? env : nil
    }

    /// A horizontal drag on Riffle's photo (20 XTest motions 16 ms apart), then its `--stats`
    /// input-to-photon line.
    static func dragLatency(riffle: String, photo: String, server: PrivateXServer, xdotool: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: riffle)
        process.arguments = ["--stats", "--size", "1920x1080", photo]
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = server.display
        env["XDG_CACHE_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bench-launch-cache").path
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return }
        usleep(2_000_000)
        var chain = ["mousemove", "1400", "540", "sleep", "0.2", "mousedown", "1"]
        for _ in 0..<20 { chain += ["mousemove_relative", "--", "-30", "0", "sleep", "0.016"] }
        chain += ["mouseup", "1", "sleep", "1"]
        run(xdotool, chain, display: server.display)
        kill(process.processIdentifier, SIGTERM)
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = text.split(separator: "\n")
        for prefix in ["presentation:", "input to photon"] {
            if let line = lines.first(where: { $0.hasPrefix(prefix) }) { print("  drag: \(line)") }
        }
        print("  (targets: first changed frame after a key at most 1 refresh, \(ms(refresh)); drag input to photon p99 at most 2, \(ms(2 * refresh)))")
    }

    /// The ids of the running processes whose parent is `parent` (from /proc/PID/stat, whose
    /// fourth field is the parent's id; the second, the name in parentheses, may hold spaces).
    static func children(of parent: pid_t) -> [pid_t] {
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { pid_t($0) } ?? []
        return ids.filter { id in
            guard let stat = try? String(contentsOfFile: "/proc/\(id)/stat", encoding: .utf8),
                  let nameEnd = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == parent
        }
    }

    static func run(_ program: String, _ arguments: [String], display: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = ["DISPLAY": display, "PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return }
        process.waitUntilExit()
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        return values.sorted()[values.count / 2]
    }

    static func fixed(_ value: Double) -> String { String(format: "%.1f", value) }

    static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// An Xvfb of the benchmark's own, on the display number it picks (`-displayfd`), killed when
/// the value goes away.
final class PrivateXServer {
    let display: String
    private let process = Process()

    init(xvfb: String, screen: String) throws {
        process.executableURL = URL(fileURLWithPath: xvfb)
        process.arguments = ["-displayfd", "1", "-screen", "0", "\(screen)x24", "-nolisten", "tcp", "-noreset"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var number = ""
        while !number.hasSuffix("\n") {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty { throw CocoaError(.fileReadUnknown) }
            number += String(decoding: byte, as: UTF8.self)
        }
        display = ":" + number.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
