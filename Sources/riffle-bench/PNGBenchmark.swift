import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster

/// A 54-megapixel PNG opened with the real binary (headless, real time, 1920×1080), its first
/// view and peak RSS beside those of a JPEG of the same picture and beside libpng's full decode
/// of the same file in this process (the anchor); then a 100-megapixel PNG opened and zoomed to
/// 1:1 at three places through its tiles.
enum PNGBenchmark {
    static func run(workspace: URL, riffle: String) throws {
        let width = 9000, height = 6000
        print("png: generating a \(width)x\(height) camera-like picture as a PNG and as a JPEG (quality 90)…")
        // Each photo in a folder of its own: riffle opens a file's folder, and neighbours would
        // be decoded too.
        let png = try folder("png-54mp", in: workspace).appendingPathComponent("photo.png").path
        let jpeg = try folder("jpeg-54mp", in: workspace).appendingPathComponent("photo.jpg").path
        do {
            let picture = SyntheticPhoto.make(width: width, height: height)
            try PNGEncoder.write(picture, toPath: png)
            try JPEGEncoder.write(picture, quality: 90, toPath: jpeg)
        }
        let anchor = Stopwatch.median(minimumRuns: 3, minimumSeconds: 0) {
            _ = try? ImageDecoder.decodeFile(atPath: png)
        }
        print("  PNG \(fileMiB(png)), JPEG \(fileMiB(jpeg)); libpng's full decode of the PNG (every row into one "
            + "\((width * height * 4) >> 20) MiB buffer; the anchor): \(ms(anchor))")
        var cacheBytes = 0
        let cut = Stopwatch.median(minimumRuns: 1, minimumSeconds: 0) {
            cacheBytes = (try? TileDecoder(path: png))?.tileCacheBytes ?? 0
        }
        print("  opening the PNG's tiles (one decode, every level cut and deflated): \(ms(cut)) (\(ratio(cut, anchor)) the anchor), "
            + "\(cacheBytes >> 20) MiB in the temporary folder")
        // Long enough for the tiles to be cut too, so the peak includes the cut.
        let open = try script(named: "open", in: workspace, lines: ["wait 10000"])
        for (name, path) in [("PNG", png), ("JPEG", jpeg)] {
            let stats = runRiffle(riffle, script: open, photo: path)
            print("  riffle on the \(name): first photo on screen \(stats.field("first photo on screen")); peak RSS \(stats.field("peak RSS"))")
        }

        let bigWidth = 12000, bigHeight = 8400
        let big = try folder("png-100mp", in: workspace).appendingPathComponent("photo.png").path
        print("png: generating a \(bigWidth)x\(bigHeight) (\(bigWidth * bigHeight / 1_000_000) MP) PNG…")
        try PNGEncoder.write(SyntheticPhoto.make(width: bigWidth, height: bigHeight, variant: 5), toPath: big)
        let zoom = try script(named: "zoom-png", in: workspace, lines: [
            "wait 20000", "key 1", "wait 2500",                         // 1:1 at the centre
            "down 1800 540", "move 200 540 300", "up", "wait 2500",     // pan right
            "down 960 1000", "move 960 100 300", "up", "wait 2500",     // pan down
        ])
        print("  PNG \(fileMiB(big)); riffle, first view, then 1:1 at three places once its tiles are cut:")
        for line in runRiffle(riffle, script: zoom, photo: big).lines { print("    \(line)") }
    }

    /// `riffle --stats` output, a figure a line.
    struct Statistics {
        let lines: [String]

        /// What follows "`name`:" on its line, e.g. "1234.5 ms after launch; …"; "n/a" when missing.
        func field(_ name: String) -> String {
            guard let line = lines.first(where: { $0.hasPrefix(name) }) else { return "n/a" }
            return String(line.dropFirst(name.count).drop { $0 == ":" || $0 == " " })
        }
    }

    private static func runRiffle(_ riffle: String, script: URL, photo: String) -> Statistics {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: riffle)
        process.arguments = ["--headless", "--real-time", "--stats", "--size", "1920x1080", "--replay", script.path, photo]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return Statistics(lines: ["cannot run riffle: \(error)"]) }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Statistics(lines: text.split(separator: "\n").map(String.init))
    }

    private static func script(named name: String, in workspace: URL, lines: [String]) throws -> URL {
        let url = workspace.appendingPathComponent(name + ".replay")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    private static func folder(_ name: String, in workspace: URL) throws -> URL {
        let url = workspace.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static func fileMiB(_ path: String) -> String {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return "\(bytes >> 20) MiB"
    }
}
