import Foundation

/// The library grid of a 10,000-photo folder (hard links to the 30 distinct 24-megapixel bench
/// photos, under other names), with the real binary headless in real time at 1920×1080: the
/// grid's first frame, every visible cell sharp with an empty thumbnail cache and again with the
/// cache it filled, scrolling top to bottom by flicks (frame times), opening a photo from the
/// grid (first flight frame after the click, sharp on landing), peak RSS. The pager's figures
/// for the same photos are the `paging` benchmark's.
enum GridBenchmark {
    static let count = 10_000

    static func run(workspace: URL, riffle: String) throws {
        let originals = try PagingBenchmark.originals(in: workspace)
        let folder = workspace.appendingPathComponent("ten-thousand")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        print("grid: linking \(count) photos…")
        for k in 0..<count {
            try FileManager.default.linkItem(
                at: originals.appendingPathComponent(String(format: "photo%02d.jpg", k % 30)),
                to: folder.appendingPathComponent(String(format: "img%05d.jpg", k)))
        }
        // 4 s to fill the first screen (so the second run finds all of it cached), then 40 flicks
        // of 800 px in 100 ms (8000 px/s: each coasts about 4000 px), End for what is left, then
        // a photo opened from the top.
        var lines = ["wait 4000"]
        for _ in 0..<40 { lines += ["down 960 950", "move 960 150 100", "up", "wait 400"] }
        lines += ["key End", "wait 1000", "key Home", "wait 1500", "click 100 100", "wait 1500"]
        let script = try PagingBenchmark.script(named: "grid-flicks", in: workspace, lines: lines)
        let cache = workspace.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        PagingBenchmark.report("grid of \(count) photos, empty thumbnail cache", riffle: riffle, script: script, library: folder, cacheHome: cache)
        PagingBenchmark.report("grid of \(count) photos, thumbnail cache from the run before", riffle: riffle, script: script, library: folder, cacheHome: cache)
    }
}
