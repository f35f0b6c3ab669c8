import ArgumentParser
import Glibc
import RiffleApp
import RiffleDisplay
import RiffleGeometry
import RiffleImageIO
import RiffleLibrary
import RifflePipeline
import RiffleRaster
import RiffleX11

/// `riffle [PATH...]`: browse photos in a window, or replay a script headless.
struct RiffleCommand: ParsableCommand {
    /// "JPEG, PNG, …, JPEG XL and camera RAW": every format Riffle reads (`ImageFormat`), as the
    /// help names them.
    static let formatNames: String = {
        let names = ImageFormat.allCases.map { $0 == .raw ? "camera RAW" : $0.displayName }
        return names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    }()

    static let configuration = CommandConfiguration(
        commandName: "riffle",
        abstract: "Browse photos with the feel of iOS Photos.",
        // One paragraph a line, no blank lines: the manual page generated from this text is mdoc,
        // where a blank line is an error groff warns about.
        discussion: """
            A folder opens as a grid of its photos in every format Riffle reads \
            (\(RiffleCommand.formatNames)) in natural order; a folder with folders in it opens as \
            one timeline of all their photos, by the date each was taken; a file opens at that \
            photo, its folder's grid behind it. With no PATH, the pictures folder \
            (xdg-user-dir PICTURES, else ~/Pictures) opens, or without one the photos bundled with Riffle.
            Grid: click or Enter opens a photo, drag/wheel scrolls, Ctrl+wheel changes the cells' \
            size, arrows move the focus, q or Escape quits.
            Photo: drag or flick to page, wheel to zoom at the pointer, double-click to zoom in \
            and back, drag a zoomed photo to pan, drag down or Escape or Alt+Up back to the grid, \
            click to toggle the bars on white (moving the pointer shows them a moment). Keys: i info, \
            ? or F1 help, Right/Space/Page Down next, Left/BackSpace/Page Up \
            previous (arrows pan a zoomed photo), Home/End first/last, +/- zoom, 0 fit, \
            1 one-to-one, r and Shift+R turn the photo a quarter clockwise and back (its view, not its \
            file), s starts or pauses a slideshow (any other input pauses it too), f or F11 \
            fullscreen (Escape leaves it), Ctrl+C copies the photo, Ctrl+Shift+C its path, q quits. \
            Files or a folder dropped on the window open as PATHs do.
            Exit status: 0 when the window is closed or the replay ends, 2 when none of the \
            PATHs exists, 64 for an invalid option, 1 when the X server goes away, 130 (SIGINT), \
            143 (SIGTERM) or 129 (SIGHUP) after closing the window on that signal.
            """,
        version: AppVersion.number)

    @Argument(help: "Photos or folders to browse.")
    var paths: [String] = []

    @Option(help: ArgumentHelp("Window size in pixels.", valueName: "WxH"))
    var size: WindowSize = WindowSize(PixelSize(width: 1280, height: 800))

    @Flag(help: "Run without an X connection (needs --replay).")
    var headless = false

    @Option(help: ArgumentHelp("Drive the app from a replay script (see the README).", valueName: "SCRIPT"))
    var replay: String?

    @Option(help: ArgumentHelp("Folder for the PNGs of the script's snapshot lines.", valueName: "DIR"))
    var snapshots: String?

    @Flag(help: "Draw images with the reference sampler instead of the fast paths.")
    var referenceRaster = false

    @Flag(help: "Open the window fullscreen.")
    var fullscreen = false

    @Option(help: ArgumentHelp("Most MiB of decoded pixels kept in memory.", valueName: "MIB"))
    var memoryBudget: Int = SessionOptions.defaultMemoryBudget >> 20

    @Flag(help: "With --headless: the replay clock follows the wall clock and never waits for decodes (for measuring).")
    var realTime = false

    @Flag(help: "With --replay in a window: the script's frames as fast as the machine goes, not at its own pace (for tests).")
    var unpaced = false

    @Option(help: ArgumentHelp("Pixels per point for the bars and their text (default: the screen's Xft.dpi / 96).", valueName: "FACTOR"))
    var scale: Double?

    @Flag(help: "Print frame times, decode times, memory and CPU at exit.")
    var stats = false

    @Option(help: ArgumentHelp("With --replay: the virtual clock's frames per second (default 60), as on a display of that refresh rate.", valueName: "RATE"))
    var hz: Double?

    @Option(help: ArgumentHelp(
        "Open on the photo (a folder's first) with a slideshow running, the next photo every SECONDS (0.5 to 3600; s starts one every \(Int(SessionOptions().slideshowInterval)) s).",
        valueName: "SECONDS"))
    var slideshow: Double?

    @Flag(help: "Slideshows go back to the first photo after the last (else they end there).")
    var loop = false

    func validate() throws {
        if headless && replay == nil { throw ValidationError("--headless needs --replay SCRIPT: there is no one to press keys") }
        if snapshots != nil && replay == nil { throw ValidationError("--snapshots goes with --replay") }
        if realTime && !headless { throw ValidationError("--real-time goes with --headless (a window always runs in real time)") }
        if unpaced && (replay == nil || headless) { throw ValidationError("--unpaced goes with --replay in a window (a headless replay is never paced)") }
        if let scale, !(0.5...4).contains(scale) { throw ValidationError("--scale must be from 0.5 to 4") }
        if hz != nil && replay == nil { throw ValidationError("--hz goes with --replay (a window follows its display's refresh)") }
        if let hz, !(1...1000).contains(hz) { throw ValidationError("--hz must be from 1 to 1000") }
        if memoryBudget < 16 { throw ValidationError("--memory-budget must be at least 16 MiB: one decoded photo must fit") }
        if let slideshow, !(0.5...3600).contains(slideshow) {
            throw ValidationError("--slideshow must be from 0.5 to 3600 seconds (a photo needs about a third of a second to slide in)")
        }
    }

    func run() throws {
        // `riffle FILE` in a window of a known size: the photo decodes from now on, beside the X
        // connection, the window and the folder's listing (`HeadStartDecode`); fullscreen, once
        // the window is made (below), as when a window manager changes the size asked for.
        let headStartPhoto = paths.count == 1 && replay == nil && !headless && isRegularFile(paths[0]) ? paths[0] : nil
        var headStart = headStartPhoto.flatMap { fullscreen ? nil : HeadStartDecode(path: $0, viewport: size.pixels) }
        var problems: [String] = []
        let script: ReplayScript?
        if let replay {
            let bytes: [UInt8]
            do throws(ImageDecodeError) { bytes = try FileBytes.read(atPath: replay) } catch {
                throw ValidationError("cannot read the replay script: \(error.reason)")
            }
            script = try ReplayScript(parsing: String(decoding: bytes, as: UTF8.self))
        } else {
            script = nil
        }
        var options = SessionOptions(
            rasterPath: referenceRaster ? .reference : .fast, memoryBudget: memoryBudget << 20, statistics: stats)
        // A tree's timeline: what the index holds under it is read beside the walk.
        options.readIndexAhead(under: paths.isEmpty ? PicturesFolder.path() : paths.count == 1 ? paths[0] : nil)
        let library = paths.isEmpty
            ? PhotoLibrary.collectDefault(bundled: BundledPhotos.folder(), problems: &problems)
            : PhotoLibrary.collect(paths: paths, problems: &problems)
        if library.everyPathIsMissing {
            // A mistyped name, as a command-line user expects: said on stderr, status 2 (what
            // ls and cat return), no window. A missing path beside real ones is only reported.
            for problem in problems { StandardError.write("riffle: \(problem)") }
            throw ExitCode(2)
        }
        // The run's one clock: X events are stamped on it, and the session steps and measures on it.
        let clock = MonotonicClock()
        let display: Display
        if headless {
            display = HeadlessDisplay(size: size.pixels)
        } else {
            display = try X11Display(size: size.pixels, fullscreen: fullscreen, title: "Riffle", now: clock.now)
        }
        options.fullscreen = fullscreen && !headless
        // The window's size is known once it is made: fullscreen, the screen's; else the size
        // asked for, unless a window manager gave it another. The photo decodes for that size
        // from then on, beside the session's making; a head start for another size stops.
        if let headStartPhoto, headStart?.viewport != display.size {
            headStart?.abandon()
            headStart = HeadStartDecode(path: headStartPhoto, viewport: display.size)
        }
        options.headStart = headStart
        options.scale = scale
        if let slideshow {
            options.slideshowInterval = slideshow
            options.startsSlideshow = true
        }
        options.slideshowLoops = loop
        let session = RiffleSession(library: library, display: display, options: options, clock: clock)
        for problem in problems { StandardError.write("riffle: \(problem)") }
        if let script {
            let folder = snapshots.map(SnapshotFolder.init(path:))
            // A window's replay keeps the script's pace for a person watching, unless a test asks
            // for its frames unpaced: the same frames, as decodes finish before each either way.
            let timing: ReplayTiming = headless ? (realTime ? .realTime : .deterministic) : unpaced ? .deterministic : .paced
            try session.replay(script, timing: timing, frameRate: hz ?? ReplayRunner.defaultFrameRate) { name, frame in
                guard let folder else { throw ValidationError("the script takes snapshot '\(name)' but no --snapshots DIR was given") }
                try folder.write(name: name, frame: frame)
            }
        } else {
            session.runLive()
        }
        if let report = session.statisticsReport() { print(report) }
        // Closed by SIGINT, SIGTERM or SIGHUP: the status a shell gives a process the signal ended.
        if let signal = (display as? X11Display)?.quitSignal { throw ExitCode(128 + signal) }
    }
}

/// True for a regular file: the head start opens nothing else (a pipe or a device could block
/// or never end; the session's decode gives those their error page).
func isRegularFile(_ path: String) -> Bool {
    var status = stat()
    return FileSystemPath.withSystemPath(path, { stat($0, &status) }) == 0 && status.st_mode & S_IFMT == S_IFREG
}

/// A window size written WxH, e.g. 1280x800.
struct WindowSize: ExpressibleByArgument {
    let pixels: PixelSize

    init(_ pixels: PixelSize) { self.pixels = pixels }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...16384).contains(w), (1...16384).contains(h) else {
            return nil
        }
        pixels = PixelSize(width: w, height: h)
    }

    var defaultValueDescription: String { "\(pixels.width)x\(pixels.height)" }
}

PixelMemory.returnLargeBuffersToTheSystem()
// The arguments as the file system spells them: a path that is not UTF-8 keeps its bytes
// (`FileSystemPath`), where CommandLine.arguments would repair it into the name of no file.
RiffleCommand.main((1..<Int(CommandLine.argc)).map { i in
    let argument = UnsafeRawPointer(CommandLine.unsafeArgv[i]!)
    return FileSystemPath.string(fromBytes: UnsafeBufferPointer(
        start: argument.assumingMemoryBound(to: UInt8.self), count: strlen(argument.assumingMemoryBound(to: CChar.self))))
})
