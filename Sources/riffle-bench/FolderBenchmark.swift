import Foundation
import Glibc
import RiffleLibrary

/// Opening a folder of 100,000 photos: the real binary launched headless on it with a 1 ms
/// replay, timed from launch to exit (listing, sorting, the grid's first frame and quitting),
/// beside the same launch on a folder of 30 and a bare readdir(3) of the big folder in this
/// process. Target (the README): the first photo within 300 ms. Then, in this process, the
/// listing by names alone (`PhotoLibrary.collect`) beside the reading of every listed file's head
/// that `PhotoProbe` does on its own thread once the window is up: what listing would cost more
/// if it looked inside each file before the first frame.
enum FolderBenchmark {
    static let count = 100_000

    static func run(workspace: URL, riffle: String) throws {
        let originals = try PagingBenchmark.originals(in: workspace)
        let big = workspace.appendingPathComponent("hundred-thousand")
        if !FileManager.default.fileExists(atPath: big.appendingPathComponent(name(count - 1)).path) {
            print("folder: linking \(count) photos…")
            try FileManager.default.createDirectory(at: big, withIntermediateDirectories: true)
            // Hard links, so the entries are regular files as in a real folder; ext4 allows 65,000
            // links to a file, so the 30 originals take turns.
            for k in 0..<count where !FileManager.default.fileExists(atPath: big.appendingPathComponent(name(k)).path) {
                try FileManager.default.linkItem(
                    at: originals.appendingPathComponent(String(format: "photo%02d.jpg", k % 30)),
                    to: big.appendingPathComponent(name(k)))
            }
        }
        let quit = try PagingBenchmark.script(named: "quit", in: workspace, lines: ["wait 1"])
        func launch(_ folder: URL) -> Double {
            Stopwatch.median(minimumRuns: 5) {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: riffle)
                process.arguments = ["--headless", "--real-time", "--size", "1920x1080", "--replay", quit.path, folder.path]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try! process.run()
                process.waitUntilExit()
            }
        }
        let readdirOnly = Stopwatch.median(minimumRuns: 5) {
            guard let directory = opendir(big.path) else { return }
            var entries = 0
            while readdir(directory) != nil { entries += 1 }
            closedir(directory)
        }
        let small = launch(originals), large = launch(big)
        print("folder of \(count) photos: launch to first grid frame and exit \(ms(large)) (target 300 ms); "
            + "a folder of 30: \(ms(small)); readdir of the big folder alone: \(ms(readdirOnly)), \(ratio(large - small, readdirOnly)) of it for the extra photos")
        var problems: [String] = []
        let listing = Stopwatch.median(minimumRuns: 5) { _ = PhotoLibrary.collect(paths: [big.path], problems: &problems) }
        let listed = PhotoLibrary.collect(paths: [big.path], problems: &problems).photosToProbe
        let probing = Stopwatch.median(minimumRuns: 3) { PhotoProbe(photos: { listed }, wake: {}).settle() }
        print("  listing the \(count) by their names: \(ms(listing)); reading each one's head (the probe, after the first frame, "
            + "at a low priority): \(ms(probing)), \(ratio(probing, listing)) the listing")
    }

    private static func name(_ k: Int) -> String { String(format: "IMG_%06d.jpg", k) }
}
