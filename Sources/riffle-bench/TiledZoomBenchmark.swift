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
        print("tiled zoom: generating a \(width)x\(height) JPEG with an EXIF thumbnail, and one with restart markers…")
        let withRestarts: [UInt8]
        do {
            let picture = SyntheticPhoto.make(width: width, height: height, variant: 3)
            try SyntheticPhoto.cameraFile(picture, quality: 85, toPath: path)
            withRestarts = try JPEGEncoder.encode(picture, quality: 85, restarts: .everyRows(1))
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
        restartMarkers(withRestarts, width: width, height: height)
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

    /// The same picture with a restart marker every MCU row, as many cameras and phones write:
    /// indexed by finding its markers, then a 512² tile near the bottom through the index
    /// beside libjpeg's skip from the top.
    static func restartMarkers(_ bytes: [UInt8], width: Int, height: Int) {
        let indexing = Stopwatch.median(minimumRuns: 1, minimumSeconds: 0) { _ = try? JPEGScanIndex(bytes) }
        guard let index = try? JPEGScanIndex(bytes) else {
            print("  with restart markers: not indexed")
            return
        }
        let tile = PixelRect(x: width / 2, y: height - 1024, width: 512, height: 512)
        let entered = Stopwatch.median(minimumRuns: 3, minimumSeconds: 0) {
            _ = try? JPEGRegionDecoder.decode(bytes, index: index, region: tile, scaleDenominator: 1)
        }
        let skipped = Stopwatch.median(minimumRuns: 1, minimumSeconds: 0) {
            _ = try? JPEGRegionDecoder.decode(bytes, region: tile, scaleDenominator: 1)
        }
        print("  with a restart marker every MCU row (\(bytes.count >> 20) MiB): indexing \(ms(indexing)); a 512x512 tile near the bottom "
            + "through the index \(ms(entered)), by libjpeg's skip from the top \(ms(skipped)) (\(ratio(entered, skipped)))")
    }
}
