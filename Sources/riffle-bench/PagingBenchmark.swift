import Foundation
import RiffleApp
import RiffleImageIO
import RiffleRaster

/// Paging through many 24-megapixel photos with the real binary, headless in real time at
/// 1920×1080, reading its `--stats`: frame times, slow frames, sharp arrivals, peak RSS.
/// 30 distinct camera-like JPEGs are generated once, then linked under other names to make
/// libraries of 30 and 300 (the 300 are the 30 files' bytes under ten names each).
enum PagingBenchmark {
    static func run(workspace: URL, riffle: String) throws {
        let originals = try Self.originals(in: workspace)
        let thirty = try library(named: "thirty", count: 30, originals: originals, in: workspace)
        let threeHundred = try library(named: "three-hundred", count: 300, originals: originals, in: workspace)

        let flick = try script(named: "flick-300", in: workspace, lines: ["wait 300"] + Array(repeating: ["key Right", "wait 250"], count: 299).flatMap { $0 } + ["wait 500"])
        let flick30 = try script(named: "flick-30", in: workspace, lines: ["wait 300"] + Array(repeating: ["key Right", "wait 250"], count: 29).flatMap { $0 } + ["wait 500"])
        let twoPerSecond = try script(named: "flick-2-per-second", in: workspace, lines: ["wait 300"] + Array(repeating: ["key Right", "wait 500"], count: 29).flatMap { $0 } + ["wait 500"])
        let presses = try script(named: "presses", in: workspace, lines: Array(repeating: ["key Right", "wait 100"], count: 29).flatMap { $0 } + ["wait 1000"])
        let open = try script(named: "open", in: workspace, lines: ["wait 1000"])

        // A library's first photo opens the pager on it (a folder would open the grid).
        let first300 = threeHundred.appendingPathComponent("img000.jpg"), first30 = thirty.appendingPathComponent("img000.jpg")
        report("300 photos, one page per 250 ms", riffle: riffle, script: flick, library: first300, photos: 300)
        report("30 photos, one page per 250 ms", riffle: riffle, script: flick30, library: first30, photos: 30)
        report("30 photos, two pages a second", riffle: riffle, script: twoPerSecond, library: first30, photos: 30)
        report("\"next\" pressed 29 times 100 ms apart", riffle: riffle, script: presses, library: first30, photos: 30)
        report("launch on one 24 MP photo", riffle: riffle, script: open, library: originals.appendingPathComponent("photo00.jpg"))
    }

    /// 30 distinct camera-like 6000×4000 JPEGs with 160×107 EXIF thumbnails in `workspace`,
    /// made once and shared by the benchmarks that page or browse them.
    static func originals(in workspace: URL) throws -> URL {
        let originals = workspace.appendingPathComponent("originals")
        if FileManager.default.fileExists(atPath: originals.appendingPathComponent("photo29.jpg").path) { return originals }
        try FileManager.default.createDirectory(at: originals, withIntermediateDirectories: true)
        print("generating 30 distinct 6000x4000 JPEGs, each with a 160x107 EXIF thumbnail…")
        for k in 0..<30 {
            let path = originals.appendingPathComponent(String(format: "photo%02d.jpg", k)).path
            try SyntheticPhoto.cameraFile(SyntheticPhoto.make(width: 6000, height: 4000, variant: k), quality: 90, toPath: path)
        }
        return originals
    }

    private static func library(named name: String, count: Int, originals: URL, in workspace: URL) throws -> URL {
        let dir = workspace.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // A kept workspace (RIFFLE_BENCH_WORKSPACE) has them from an earlier run.
        for k in 0..<count {
            let link = dir.appendingPathComponent(String(format: "img%03d.jpg", k)).path
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) != nil { continue }
            try FileManager.default.createSymbolicLink(
                atPath: link, withDestinationPath: originals.appendingPathComponent(String(format: "photo%02d.jpg", k % 30)).path)
        }
        return dir
    }

    static func script(named name: String, in workspace: URL, lines: [String]) throws -> URL {
        let url = workspace.appendingPathComponent(name + ".replay")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// CPU a photo that paging may cost (issue: ≤ 0.15 s, feh's 0.24).
    static let cpuPerPhotoTarget = 0.15

    /// Runs the real binary headless in real time at 1920×1080 on `library` with `script` and
    /// prints its `--stats`; `cacheHome` sets XDG_CACHE_HOME (the grid's thumbnail cache). With
    /// `photos`, the number the script shows, also the CPU time a photo.
    static func report(_ title: String, riffle: String, script: URL, library: URL, cacheHome: URL? = nil, photos: Int? = nil) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: riffle)
        process.arguments = ["--headless", "--real-time", "--stats", "--size", "1920x1080", "--replay", script.path, library.path]
        if let cacheHome {
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_CACHE_HOME"] = cacheHome.path
            process.environment = environment
        }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            print("paging: cannot run riffle: \(error)")
            return
        }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        print("\(title):")
        for line in text.split(separator: "\n") { print("  \(line)") }
        if let photos, let cpu = cpuSeconds(inStatistics: text) {
            print("  CPU a photo: \(FrameStatistics.fixed(cpu / Double(photos), places: 3)) s over \(photos) photos (target at most \(cpuPerPhotoTarget) s)")
        }
    }

    /// The seconds of the "CPU time: N s" line of a `--stats` report.
    static func cpuSeconds(inStatistics text: String) -> Double? {
        text.split(separator: "\n").lazy.compactMap { line -> Double? in
            guard line.hasPrefix("CPU time: ") else { return nil }
            return Double(line.dropFirst("CPU time: ".count).split(separator: " ").first ?? "")
        }.first
    }
}
