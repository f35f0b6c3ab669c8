import Dispatch
import Foundation
import Glibc
import RiffleApp
import RiffleDisplay
import RiffleGeometry
import RiffleInteraction
import RiffleLibrary
import RiffleRaster

/// A timeline as a person meets it, headless at 1920×1080 over the benchmark's tree with its
/// index warm: the launch to the first frame and to the first dated frame; then each level's
/// frames while it scrolls (a wheel notch a frame), while the scrubber is dragged over the whole
/// library, and while the levels morph into one another (y, m, d, a), each frame's build and
/// composite timed on the wall clock while the thumbnails are made on the workers beside it,
/// the frames paced at 60 Hz as `LiveLoop` paces them (`FramePacer`); a
/// photo clicked open from Days, the click to the flight's first frame; the peak RSS of the
/// process after it all. Beside it, the same launch, All Photos' frames and click for the same
/// photos in one flat folder (hard links), the grid a folder opened as before timelines.
enum TimelineSessionBenchmark {
    static let window = PixelSize(width: 1920, height: 1080)
    static let frame = 1.0 / 60

    /// A folder of hard links to every photo of `tree`, made once in `workspace`.
    static func flatFolder(of tree: URL, workspace: URL) throws -> URL {
        let flat = workspace.appendingPathComponent(tree.lastPathComponent + "-flat")
        let marker = flat.appendingPathComponent(".complete")
        if FileManager.default.fileExists(atPath: marker.path) { return flat }
        try FileManager.default.createDirectory(at: flat, withIntermediateDirectories: true)
        var problems: [String] = []
        for (k, path) in PhotoTree.folders(under: tree.path, problems: &problems).flatMap(\.photos).enumerated() {
            let link = flat.appendingPathComponent(String(format: "IMG_%06d.jpg", k)).path
            if !FileManager.default.fileExists(atPath: link) { try FileManager.default.linkItem(atPath: path, toPath: link) }
        }
        FileManager.default.createFile(atPath: marker.path, contents: Data())
        return flat
    }

    /// The same photos in one folder: launch to the grid's first frame, and its frames while it
    /// scrolls, as a folder opened before timelines (the anchor of the timeline's figures).
    static func runFlat(folder: URL, thumbnails: String) {
        let launch = DispatchTime.now().uptimeNanoseconds
        var problems: [String] = []
        let library = PhotoLibrary.collect(paths: [folder.path], problems: &problems)
        let session = RiffleSession(library: library, display: HeadlessDisplay(size: window), options: SessionOptions(thumbnailFolder: thumbnails))
        let scene = session.scene
        var now = 0.0
        _ = scene.advance(to: now)
        scene.renderIfNeeded()
        let first = seconds(since: launch)
        let middle = Point(x: Double(window.width) / 2, y: Double(window.height) / 2)
        var pacer = FramePacer(interval: frame)
        let scroll = (0..<120).map { k -> Double in
            pacer.waitForSlot()
            now += frame
            _ = scene.handle(.scroll(delta: Point(x: 0, y: k < 60 ? -1 : 1), position: middle, modifiers: [], precise: false, time: now), now: now)
            let start = DispatchTime.now().uptimeNanoseconds
            _ = scene.advance(to: now)
            scene.renderIfNeeded()
            return seconds(since: start)
        }
        let flights = openingFlights(scene, now: &now)
        print("the same \(library.photos.count) photos in one folder, as before timelines: launch to the first frame \(ms(first)); "
            + "the grid scrolling \(summary(scroll)); opening a photo, the click to the flight's first frame \(flights)")
    }

    /// Warm launches timed (each a session of its own, as a process's first); the last one's
    /// session goes on to the levels.
    static let launches = 5

    /// One warm launch of the timeline over `tree`: its session, and the seconds from the
    /// launch to the first frame, to the first frame in date order, and to every file's stamp
    /// verified.
    static func launch(tree: URL, database: String, thumbnails: String) -> (RiffleSession, photos: Int, first: Double, dated: Double, verified: Double) {
        let launch = DispatchTime.now().uptimeNanoseconds
        var problems: [String] = []
        var options = SessionOptions(thumbnailFolder: thumbnails)
        options.libraryIndexPath = database
        options.readIndexAhead(under: tree.path)
        let library = PhotoLibrary.collect(paths: [tree.path], problems: &problems)
        let session = RiffleSession(library: library, display: HeadlessDisplay(size: window), options: options)
        let scene = session.scene
        _ = scene.advance(to: 0)
        scene.renderIfNeeded()
        let firstFrame = seconds(since: launch)
        // The frames of the live loop until one shows every photo dated (the index's recall).
        while !scene.isDated, seconds(since: launch) < 30 {
            usleep(1000)
            _ = scene.advance(to: 0)
            scene.renderIfNeeded()
        }
        let datedFrame = seconds(since: launch)
        scene.settleDates()
        return (session, library.photos.count, firstFrame, datedFrame, seconds(since: launch))
    }

    static func run(tree: URL, database: String, thumbnails: String) {
        let (session, photos, first, dated, verified) = launch(tree: tree, database: database, thumbnails: thumbnails)
        var timed = [(first: first, dated: dated, verified: verified)]
        let scene = session.scene
        var now = 0.0
        print("timeline session, \(photos) photos at \(window.width)×\(window.height), index warm, "
            + (FramePacer.isPacing ? "frames paced at 60 Hz:" : "frames back to back (RIFFLE_BENCH_UNPACED):"))

        var pacer = FramePacer(interval: frame)
        /// Steps `count` frames at 60 Hz, `input` giving each frame's events; each frame's time.
        func frames(_ count: Int, input: (Int) -> [InputEvent] = { _ in [] }) -> [Double] {
            (0..<count).map { k in
                pacer.waitForSlot()
                now += frame
                for event in input(k) { _ = scene.handle(event, now: now) }
                let start = DispatchTime.now().uptimeNanoseconds
                _ = scene.advance(to: now)
                scene.renderIfNeeded()
                return seconds(since: start)
            }
        }
        func key(_ name: Character) -> [InputEvent] { [.key(.character(name), modifiers: [], time: now)] }
        let middle = Point(x: Double(window.width) / 2, y: Double(window.height) / 2)
        for (name, level) in [("a", "All Photos"), ("d", "Days"), ("m", "Months"), ("y", "Years")] {
            var morph = frames(1) { _ in key(Character(name)) }
            morph += frames(30)
            let scroll = frames(120) { k in
                [.scroll(delta: Point(x: 0, y: k < 60 ? 1 : -1), position: middle, modifiers: [], precise: false, time: now)]
            }
            // The scrubber: pressed at the track's foot, dragged to its top over two seconds.
            let x = Double(window.width) - 6
            let bottom = Double(window.height) - 60, top = 40.0
            let scrub = frames(122) { k in
                switch k {
                case 0: [.pointerDown(position: Point(x: x, y: bottom), button: .left, modifiers: [], time: now)]
                case 121: [.pointerUp(position: Point(x: x, y: top), button: .left, modifiers: [], time: now)]
                default: [.pointerMove(position: Point(x: x, y: bottom + (top - bottom) * Double(k) / 120), modifiers: [], time: now)]
                }
            }
            print("  \(level): the change to it \(summary(morph)); scrolling \(summary(scroll)); scrubbing \(summary(scrub))")
        }
        _ = frames(1) { _ in key("d") }
        _ = frames(30)
        print("  opening a photo from Days: the click to the flight's first frame \(openingFlights(scene, now: &now)) (target ≤ 17 ms)")
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        print("  peak RSS of the benchmark's process after it all: \(usage.ru_maxrss / 1024) MiB (target ≤ 200 MiB)")
        // The launch again (after the peak RSS, which one session's), each a session of its own.
        for _ in 1..<launches {
            let again = launch(tree: tree, database: database, thumbnails: thumbnails)
            timed.append((again.first, again.dated, again.verified))
        }
        func spread(_ times: [Double]) -> String {
            let sorted = times.sorted()
            return "\(ms(sorted[sorted.count / 2])) (\(ms(sorted.first!))–\(ms(sorted.last!)))"
        }
        print("  \(launches) launches, median (range): launch to the first frame \(spread(timed.map(\.first))), to the first "
            + "frame in date order \(spread(timed.map(\.dated))) (target ≤ 250 ms), every file's stamp verified "
            + "\(spread(timed.map(\.verified)))")
    }

    /// Clicks the photo in the middle of what `scene` shows open ten times, each flown back
    /// (Escape) and landed before the next: from the click's release, handled, to the first
    /// frame of the flight composited (the pager's own decode beside it on the workers); "median
    /// 4.2 ms, slowest 6.0 ms".
    static func openingFlights(_ scene: NavigationScene, now: inout Double) -> String {
        func step(_ count: Int) {
            for _ in 0..<count {
                now += frame
                _ = scene.advance(to: now)
                scene.renderIfNeeded()
            }
        }
        var times: [Double] = []
        for _ in 0..<10 {
            guard let cell = scene.middleCellCentre else { break }
            now += frame
            _ = scene.handle(.pointerDown(position: cell, button: .left, modifiers: [], time: now), now: now)
            now += frame
            let start = DispatchTime.now().uptimeNanoseconds
            _ = scene.handle(.pointerUp(position: cell, button: .left, modifiers: [], time: now), now: now)
            _ = scene.advance(to: now)
            scene.renderIfNeeded()
            times.append(seconds(since: start))
            guard !scene.isShowingGrid else { return "(the click opened no photo)" }
            step(60)
            _ = scene.handle(.key(.escape, modifiers: [], time: now), now: now)
            step(60)
        }
        let sorted = times.sorted()
        guard !sorted.isEmpty else { return "(no cell to click)" }
        return "median \(ms(sorted[sorted.count / 2])), slowest \(ms(sorted.last!))"
    }

    /// "p99 3.1 ms, slowest 9.8 ms, 0 of 120 over 16.7 ms".
    static func summary(_ times: [Double]) -> String {
        let sorted = times.sorted()
        let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.down)))]
        let over = times.filter { $0 > frame }.count
        return "p99 \(ms(p99)), slowest \(ms(sorted.last ?? 0)), \(over) of \(times.count) over 16.7 ms"
    }

    private static func seconds(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
}
