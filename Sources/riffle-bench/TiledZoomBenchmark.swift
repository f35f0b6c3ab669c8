import Dispatch
import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster

/// A 30000×20000 baseline JPEG (600 MP; a whole decode would need 2.4 GB): the first view beside
/// a 1/8-scaled decode of the same file in this process, then zoom to 1:1 at three places with
/// the real binary, reading its tile decode times and peak RSS.
enum TiledZoomBenchmark {
    static func run(workspace: URL, riffle: String) throws {
        let width = 30000, height = 20000
        let path = workspace.appendingPathComponent("panorama.jpg").path
        print("tiled zoom: generating a \(width)x\(height) JPEG with an EXIF thumbnail…")
        do {
            let picture = SyntheticPhoto.make(width: width, height: height, variant: 3)
            try SyntheticPhoto.cameraFile(picture, quality: 85, toPath: path)
        }
        let bytes = try FileBytes.read(atPath: path)
        let eighth = Stopwatch.median(minimumRuns: 1, minimumSeconds: 0) {
            _ = try? ImageDecoder.decode(bytes, atLeast: PixelSize(width: 1, height: 1))
        }
        let eighthOfFile = Stopwatch.median(minimumRuns: 1, minimumSeconds: 0) {
            _ = try? ImageDecoder.decodeFile(atPath: path, atLeast: PixelSize(width: 1, height: 1))
        }
        let indexing = Stopwatch.median(minimumRuns: 1, minimumSeconds: 0) { _ = try? JPEGScanIndex(bytes) }
        print("  file \(bytes.count >> 20) MiB; libjpeg 1/8-scaled decode of its bytes in memory: \(ms(eighth)), "
            + "of the file (read, then decoded): \(ms(eighthOfFile)); indexing its scan: \(ms(indexing)) (\(ratio(indexing, eighth)) the 1/8 decode)")
        let script = workspace.appendingPathComponent("zoom.replay")
        let lines = [
            "wait 1500", "key 1", "wait 2500",           // 1:1 at the centre
            "down 1800 540", "move 200 540 300", "up", "wait 2500",   // pan right
            "down 960 1000", "move 960 100 300", "up", "wait 2500",   // pan down
        ]
        try (lines.joined(separator: "\n") + "\n").write(to: script, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: riffle)
        process.arguments = ["--headless", "--real-time", "--stats", "--size", "1920x1080", "--replay", script.path, path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        print("  riffle, first view then 1:1 at three places:")
        for line in text.split(separator: "\n") { print("    \(line)") }
    }
}
