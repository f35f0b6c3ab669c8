import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster

/// The library grid of a 10,000-photo folder (hard links to the 30 distinct 24-megapixel bench
/// photos, under other names), with the real binary headless in real time at 1920×1080: the
/// grid's first frame, every visible cell sharp with an empty thumbnail cache and again with the
/// cache it filled, scrolling top to bottom by flicks (frame times), opening a photo from the
/// grid (first flight frame after the click, sharp on landing), peak RSS; then the pager's
/// navigator strip over the same folder scrubbed and flicked (frame times, the photo it rests on
/// sharp how long after). The pager's paging figures for the same photos are the `paging`
/// benchmark's.
enum GridBenchmark {
    static let count = 10_000

    /// What one thumbnail costs in this process, beside libjpeg-turbo's 1/8-scaled decode of the
    /// same file (the cheapest decode there is: every coefficient still Huffman-decoded): the
    /// thumbnail's decode (1/8 scale, streamed from the file, Lanczos-3 to 256 px) and its PNG
    /// encoding. The grid's first screen of 60 cells takes 60 of them on two cores.
    static func thumbnailAnchors(originals: URL) {
        let path = originals.appendingPathComponent("photo00.jpg").path
        guard let bytes = try? FileBytes.read(atPath: path) else { return }
        let eighth = Stopwatch.median(minimumRuns: 5, minimumSeconds: 1) {
            _ = try? ImageDecoder.decode(bytes, atLeast: PixelSize(width: 1, height: 1))
        }
        var thumbnail: PixelBuffer?
        let decode = Stopwatch.median(minimumRuns: 5, minimumSeconds: 1) {
            thumbnail = try? ImageDecoder.decodeFile(
                atPath: path, shrunkTo: { _ in PixelSize(width: 256, height: 171) }).pixels
        }
        guard let thumbnail else { return }
        let small = Stopwatch.median(minimumRuns: 5, minimumSeconds: 0.5) { _ = try? PNGEncoder.encode(thumbnail) }
        let fast = Stopwatch.median(minimumRuns: 5, minimumSeconds: 0.5) { _ = try? PNGEncoder.encode(thumbnail, compression: .fast) }
        let sizes = (small: (try? PNGEncoder.encode(thumbnail).count) ?? 0, fast: (try? PNGEncoder.encode(thumbnail, compression: .fast).count) ?? 0)
        print("grid: one 256x171 thumbnail of a 24 MP JPEG: decoded \(ms(decode)) (\(ratio(decode, eighth)) libjpeg's 1/8 decode of "
            + "the bytes in memory, \(ms(eighth))); PNG-encoded as stored (fast) \(ms(fast)), \(sizes.fast) bytes, "
            + "at libpng's defaults \(ms(small)), \(sizes.small) bytes")
        print("grid: a first screen of 60 such cells on 2 cores needs at least 30 x the decode: \(ms(30 * decode))")
    }

    static func run(workspace: URL, riffle: String) throws {
        let originals = try PagingBenchmark.originals(in: workspace)
        thumbnailAnchors(originals: originals)
        let folder = workspace.appendingPathComponent("ten-thousand")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        print("grid: linking \(count) photos…")
        for k in 0..<count {
            let link = folder.appendingPathComponent(String(format: "img%05d.jpg", k))
            if FileManager.default.fileExists(atPath: link.path) { continue }
            try FileManager.default.linkItem(
                at: originals.appendingPathComponent(String(format: "photo%02d.jpg", k % 30)), to: link)
        }
        // 4 s to fill the first screen (so the second run finds all of it cached), then 40 flicks
        // of 800 px in 100 ms (8000 px/s: each coasts about 4000 px), End for what is left, then
        // a photo opened from the top.
        var lines = ["wait 4000"]
        for _ in 0..<40 { lines += ["down 960 950", "move 960 150 100", "up", "wait 400"] }
        lines += ["key End", "wait 1000", "key Home", "wait 1500", "click 100 100", "wait 1500"]
        let script = try PagingBenchmark.script(named: "grid-flicks", in: workspace, lines: lines)
        let cache = workspace.appendingPathComponent("cache")
        try? FileManager.default.removeItem(at: cache)
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        PagingBenchmark.report("grid of \(count) photos, empty thumbnail cache", riffle: riffle, script: script, library: folder, cacheHome: cache)
        PagingBenchmark.report("grid of \(count) photos, thumbnail cache from the run before", riffle: riffle, script: script, library: folder, cacheHome: cache)
        // The navigator strip of the same folder, opened on its middle photo: the bars shown by a
        // hover, then six scrubs of 900 px (30 photos) in 0.6 s held still before letting go, each
        // left to rest 1.5 s, and two flicks of 500 px in 80 ms.
        var scrub = ["wait 1500", "move 900 500 100", "wait 300"]
        for k in 0..<6 {
            let (from, to) = k % 2 == 0 ? (1400, 500) : (500, 1400)
            scrub += ["down \(from) 1052", "move \(to) 1052 600", "wait 100", "up", "wait 1500"]
        }
        for _ in 0..<2 { scrub += ["down 1400 1052", "move 900 1052 80", "up", "wait 2500"] }
        let strip = try PagingBenchmark.script(named: "strip-scrubs", in: workspace, lines: scrub)
        PagingBenchmark.report(
            "navigator strip of \(count) photos: 6 scrubs and 2 flicks", riffle: riffle, script: strip,
            library: folder.appendingPathComponent(String(format: "img%05d.jpg", count / 2)), cacheHome: cache)
    }
}
