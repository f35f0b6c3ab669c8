import Foundation

/// An Xvfb server for one test: started on a display number it picks itself (`-displayfd`),
/// stopped when the value goes away.
final class VirtualXServer {
    let display: String
    private let process: Process

    /// Starts `Xvfb` with a 24-bit screen; `sharedMemory: false` starts it without the MIT-SHM
    /// extension, so the app must fall back to XPutImage. `maxRequestMiB` caps a request's size
    /// (BIG-REQUESTS; the server's default is 16 MiB), so that smaller replies need INCR.
    init(sharedMemory: Bool, maxRequestMiB: Int? = nil) throws {
        guard let xvfb = Self.findExecutable("Xvfb") else {
            throw EndToEndError("Xvfb is not installed (Debian package xvfb; `make test` installs it)")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: xvfb)
        var args = ["-displayfd", "1", "-screen", "0", "1024x768x24", "-nolisten", "tcp", "-noreset"]
        if !sharedMemory { args += ["-extension", "MIT-SHM"] }
        if let maxRequestMiB { args += ["-maxbigreqsize", "\(maxRequestMiB)"] }
        process.arguments = args
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Xvfb writes the display number it chose once it accepts connections.
        var number = ""
        while !number.hasSuffix("\n") {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty { throw EndToEndError("Xvfb exited before it was ready") }
            number += String(decoding: byte, as: UTF8.self)
        }
        display = ":" + number.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Kills the server at once (SIGKILL), as a crash or a lost session would; its clients see
    /// their connection close.
    func killNow() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        // SIGKILL, not terminate(): the child inherits the test thread's signal mask, in which
        // SIGTERM can be blocked, and a blocked SIGTERM leaves Xvfb (and this wait) hanging.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

struct EndToEndError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
