import Dispatch
import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleIndex
import RiffleInteraction
import RiffleLibrary
import Synchronization

/// The library: its index over a generated tree of photos with EXIF dates (cold, beside
/// `exiftool -fast2 -DateTimeOriginal -r` on the same tree in the same run; warm; its size a
/// photo), and its timeline layout fed a synthetic million photos over 30 years with one day of
/// 50,000, each figure beside the same one for 10,000 photos (the layout's cost must not grow
/// with the library). RIFFLE_BENCH_LIBRARY_PHOTOS sets the tree's size (10,000 by default;
/// the issue's figure is for 100,000).
enum LibraryBenchmark {
    static func run(workspace: URL) throws {
        let count = ProcessInfo.processInfo.environment["RIFFLE_BENCH_LIBRARY_PHOTOS"].flatMap(Int.init) ?? 10_000
        let (tree, database) = try indexing(count: count, workspace: workspace)
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) } }
        print("")
        let thumbnails = workspace.appendingPathComponent("library-thumbnails").path
        TimelineSessionBenchmark.run(tree: tree, database: database, thumbnails: thumbnails)
        TimelineSessionBenchmark.runFlat(folder: try TimelineSessionBenchmark.flatFolder(of: tree, workspace: workspace), thumbnails: thumbnails)
        print("")
        layout()
    }

    // MARK: - The index

    /// The tree and its index, warm (kept for the session's figures; the caller removes it).
    static func indexing(count: Int, workspace: URL) throws -> (tree: URL, database: String) {
        let tree = try makeTree(count: count, workspace: workspace)
        var problems: [String] = []
        let walkStart = DispatchTime.now().uptimeNanoseconds
        let folders = PhotoTree.folders(under: tree.path, problems: &problems)
        let walk = seconds(since: walkStart)
        let database = workspace.appendingPathComponent("library-\(getpid()).sqlite").path
        func indexAll() -> (seconds: Double, read: Int) {
            let index = LibraryIndex(path: database, report: { print($0) })
            let start = DispatchTime.now().uptimeNanoseconds
            let read = Mutex(0)
            DispatchQueue.concurrentPerform(iterations: folders.count) { k in
                let done = FolderIndexing.index(folders[k], in: index).read
                read.withLock { $0 += done }
            }
            return (seconds(since: start), read.withLock { $0 })
        }
        let cold = indexAll()
        let warm = indexAll()
        let exiftoolStart = DispatchTime.now().uptimeNanoseconds
        let exiftool = Process()
        exiftool.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        exiftool.arguments = ["exiftool", "-q", "-fast2", "-DateTimeOriginal", "-r", tree.path]
        exiftool.standardOutput = FileHandle.nullDevice
        try exiftool.run()
        exiftool.waitUntilExit()
        let anchor = seconds(since: exiftoolStart)
        try? FileManager.default.removeItem(atPath: database + "-wal")
        let bytes = ((try? FileManager.default.attributesOfItem(atPath: database)[.size]) as? Int) ?? 0
        let photos = folders.reduce(0) { $0 + $1.photos.count }
        print("library index, \(photos) photos in \(folders.count) folders: walking the tree \(ms(walk))")
        print("  cold (every head read, \(cold.read) files): \(rate(photos, cold.seconds)) files/s; exiftool -fast2 -DateTimeOriginal -r: "
            + "\(rate(photos, anchor)) files/s; riffle at \(ratio(anchor, cold.seconds)) exiftool's rate (target ≥ 5x)")
        print("  warm (stamps unchanged, \(warm.read) files read): \(ms(warm.seconds)), \(rate(photos, warm.seconds)) files/s")
        print("  database: \(bytes / max(photos, 1)) bytes a photo (target ≤ 400)")
        return (tree, database)
    }

    /// A tree of `count` small JPEGs with EXIF dates (hard links to 30 originals written by
    /// exiftool) in folders of 50, by year and month over ten years; kept in the workspace.
    static func makeTree(count: Int, workspace: URL) throws -> URL {
        let tree = workspace.appendingPathComponent("library-\(count)")
        let marker = tree.appendingPathComponent(".complete")
        if FileManager.default.fileExists(atPath: marker.path) { return tree }
        print("library: generating a tree of \(count) photos…")
        let originals = workspace.appendingPathComponent("library-originals")
        try FileManager.default.createDirectory(at: originals, withIntermediateDirectories: true)
        for k in 0..<30 {
            let path = originals.appendingPathComponent("o\(k).jpg").path
            guard !FileManager.default.fileExists(atPath: path) else { continue }
            let jpeg = try JPEGEncoder.encode(SyntheticPhoto.make(width: 640, height: 480, variant: k), quality: 85)
            FileManager.default.createFile(atPath: path, contents: Data(jpeg))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["exiftool", "-q", "-overwrite_original", "-Make=Riffle", "-Model=Bench \(k)",
                                 "-DateTimeOriginal=\(2015 + k % 10):\(String(format: "%02d", 1 + k % 12)):\(String(format: "%02d", 1 + k)) 12:00:00", path]
            try process.run()
            process.waitUntilExit()
        }
        for k in 0..<count {
            let folder = tree.appendingPathComponent(String(format: "%d/%02d/batch%04d", 2015 + (k / 50) % 10, 1 + (k / 500) % 12, k / 50))
            if k % 50 == 0 { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
            let link = folder.appendingPathComponent(String(format: "IMG_%06d.jpg", k))
            if !FileManager.default.fileExists(atPath: link.path) {
                try FileManager.default.linkItem(at: originals.appendingPathComponent("o\(k % 30).jpg"), to: link)
            }
        }
        FileManager.default.createFile(atPath: marker.path, contents: Data())
        return tree
    }

    // MARK: - The layout

    static func layout() {
        let million = syntheticDays(photos: 950_000, burst: 50_000)
        let tenThousand = syntheticDays(photos: 10_000, burst: 0)
        print("timeline layout at 1280 points, \(million.photoCount) photos over \(years(million)) years with one day of 50,000, "
            + "beside \(tenThousand.photoCount) photos:")
        for level in TimelineLayout.Level.allCases {
            let big = figures(million, level: level), small = figures(tenThousand, level: level)
            print("  \(level): level change \(ms(big.build)) (\(ms(small.build))), scrubber jump \(ms(big.jump)) (\(ms(small.jump))), "
                + "a frame's cells \(ms(big.frame)) (\(ms(small.frame))); target ≤ 2 ms for a level change and a jump")
        }
        // Scrolling into the burst day and through it in All Photos, frame by frame.
        let all = TimelineLayout(days: million, level: .allPhotos, width: 1280)
        let burst = all.days.days.indices.max { all.days.photos(ofDay: $0).count < all.days.photos(ofDay: $1).count }!
        let top = all.frame(ofPhoto: all.days.firstPhoto[burst])!.minY - 2000
        let bottom = all.frame(ofPhoto: all.days.firstPhoto[burst + 1] - 1)!.maxY
        var worst = 0.0, frames = 0
        var offset = top
        while offset < bottom {
            let start = DispatchTime.now().uptimeNanoseconds
            _ = all.cells(from: offset, to: offset + 1080)
            _ = all.month(atOffset: offset)
            worst = max(worst, seconds(since: start))
            frames += 1
            offset += 40
        }
        print("  scrolling through the 50,000-photo day in All Photos, \(frames) frames: slowest frame's layout \(ms(worst)) (budget 16.7 ms)")
    }

    static func figures(_ days: TimelineDays, level: TimelineLayout.Level) -> (build: Double, jump: Double, frame: Double) {
        var layout = TimelineLayout(days: days, level: level, width: 1280)
        let build = Stopwatch.median(minimumRuns: 5, minimumSeconds: 0.2) {
            layout = TimelineLayout(days: days, level: level, width: 1280)
            _ = layout.frame(ofPhoto: days.photoCount / 2)
        }
        let months = [days.days.first!, days.days[days.days.count / 3], days.days.last!].map(CivilCalendar.monthNumber(ofDay:))
        var k = 0
        let jump = Stopwatch.median(minimumRuns: 50, minimumSeconds: 0.1) {
            let offset = layout.offset(ofMonth: months[k % months.count])
            _ = layout.cells(from: offset, to: offset + 1080)
            _ = layout.month(atOffset: offset)
            k += 1
        }
        let frame = Stopwatch.median(minimumRuns: 50, minimumSeconds: 0.1) {
            _ = layout.cells(from: layout.contentHeight / 2, to: layout.contentHeight / 2 + 1080)
        }
        return (build, jump, frame)
    }

    /// `photos` on days over 1995–2024 (a deterministic pattern: most days empty, some with
    /// one photo, some with hundreds) and, with `burst`, one day of that many.
    static func syntheticDays(photos: Int, burst: Int) -> TimelineDays {
        let first = CivilCalendar.dayNumber(year: 1995, month: 1, day: 1)
        let burstDay = CivilCalendar.dayNumber(year: 2016, month: 8, day: 20)
        let span = 30 * 365
        let perDay = max(1, 3 * photos / span)
        var counts: [(day: Int, count: Int)] = []
        var remaining = photos
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var day = first
        while remaining > 0 || (burst > 0 && day <= burstDay) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let roll = Int(state >> 33)
            if burst > 0, day == burstDay {
                counts.append((day, burst))
            } else if remaining > 0, roll % 3 == 0 {
                let count = min(remaining, 1 + roll % (2 * perDay))
                counts.append((day, count))
                remaining -= count
            }
            day += 1
        }
        return TimelineDays(counts: counts)
    }

    private static func years(_ days: TimelineDays) -> Int {
        CivilCalendar.date(ofDay: days.days.last!).year - CivilCalendar.date(ofDay: days.days.first!).year + 1
    }

    private static func seconds(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    private static func rate(_ count: Int, _ seconds: Double) -> String { "\(Int((Double(count) / seconds).rounded()))" }
}
