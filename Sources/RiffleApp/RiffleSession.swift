import Dispatch
import FoundationEssentials
import RiffleDisplay
import RiffleImageIO
import RiffleIndex
import RiffleInteraction
import RiffleLibrary
import RifflePipeline
import RiffleRaster

/// How a session runs, from the command line's options.
public struct SessionOptions: Sendable {
    /// Default cap on decoded pixels held, bytes: 192 MiB, Riffle's budget (the `--memory-budget`
    /// default in README.md).
    public static let defaultMemoryBudget = 192 << 20

    public var rasterPath: RasterPath
    /// Most bytes of decoded pixels held at once.
    public var memoryBudget: Int
    /// Keep frame and decode statistics for `--stats`.
    public var statistics: Bool
    /// The window opens fullscreen (the scene then knows Escape must first leave it).
    public var fullscreen = false
    /// Pixels per point for the chrome and its text; nil: the display's (`Xft.dpi` / 96).
    public var scale: Double?
    /// The Freedesktop thumbnails folder the grid reads and writes (by default
    /// `$XDG_CACHE_HOME/thumbnails`); nil: thumbnails are made in memory only.
    public var thumbnailFolder: String?
    /// Seconds between photos in a slideshow (`--slideshow SECONDS`; s starts one).
    public var slideshowInterval = Slideshow.defaultInterval
    /// Slideshows go back to the first photo after the last (`--loop`).
    public var slideshowLoops = false
    /// The window opens on the pager with a slideshow running (`--slideshow`): on the photo
    /// opened, or a folder's first.
    public var startsSlideshow = false
    /// Where the library's index is kept (`LibraryIndex`: by default
    /// `$XDG_CACHE_HOME/riffle/library.sqlite`); nil: in memory, for this run only. Opened only
    /// for a library ordered by date taken (a tree of folders).
    public var libraryIndexPath: String? = LibraryIndex.standardPath()
    /// Where the view options a person chooses are kept between runs (`ViewSettings`: by
    /// default `$XDG_STATE_HOME/riffle/view`); nil: for this run only.
    public var viewSettingsPath: String? = ViewSettings.standardPath()
    /// The command line's photo, decoding since the process began (`riffle FILE`): the pager's
    /// first fit decode of it takes this one.
    package var headStart: HeadStartDecode?
    /// The index at `libraryIndexPath`, read under the command line's tree while it was walked
    /// (`TreeReadAhead`): the timeline's first recall takes its rows.
    package var indexReadAhead: TreeReadAhead?

    /// Starts reading what the index at `libraryIndexPath` holds of the tree `root` (nil: none),
    /// on a thread of its own, so that it is read while the tree is walked (`TreeReadAhead`;
    /// nothing is started before the first launch has made the index).
    public mutating func readIndexAhead(under root: String?) {
        indexReadAhead = root.flatMap { TreeReadAhead(root: $0, indexPath: libraryIndexPath, report: { StandardError.write($0) }) }
    }

    /// `$XDG_CACHE_HOME/thumbnails` (or `~/.cache/thumbnails`), as the Thumbnail Managing
    /// Standard places it; nil without an absolute XDG_CACHE_HOME or HOME.
    public static var standardThumbnailFolder: String? { ThumbnailCache.standardFolder() }

    public init(
        rasterPath: RasterPath = .fast, memoryBudget: Int = defaultMemoryBudget, statistics: Bool = false,
        thumbnailFolder: String? = SessionOptions.standardThumbnailFolder
    ) {
        self.rasterPath = rasterPath
        self.memoryBudget = memoryBudget
        self.statistics = statistics
        self.thumbnailFolder = thumbnailFolder
    }
}

/// Everything one run of Riffle needs, built from its options: the library, the photo pipeline,
/// the compositor, and the scene (the grid and the pager) on a given display. Files dropped on
/// the window replace the library, and with it the pipeline and the scene.
public final class RiffleSession {
    /// What the runtime drives: the grid, the pager and the flights between them.
    public private(set) var scene: NavigationScene
    public let display: Display
    /// The photo pipeline: the pager's and the grid's stores over the decode workers.
    private(set) var pipeline: PhotoPipeline
    private let options: SessionOptions

    /// The pager.
    public var viewer: Viewer { scene.pager }
    /// The one monotonic clock of the run: the live loop's time, the wall time replays keep up
    /// with, the statistics' frame times (and, made by the caller, the X display's event times).
    public let clock: MonotonicClock
    /// Frame, decode and presentation figures for `--stats`, kept over the whole run (drops
    /// included) when the options ask for them.
    private let statistics: FrameStatistics?

    /// The library's index, opened for the first library that dates its photos and kept for
    /// the run (a drop that opens another tree uses it too).
    private var index: LibraryIndex?

    /// Decode threads: one per core, at most two (the frame loop needs a core too); as many
    /// again decode only what is on screen, at the app's own priority (`PhotoPipeline`'s
    /// `focusWorkers`).
    public static var defaultDecodeWorkers: Int { min(2, max(1, ProcessInfo.processInfo.activeProcessorCount)) }
    /// One more thread for quick work only (EXIF thumbnails, a few ms each): it mostly sleeps,
    /// and pages flown past while paging fast get their thumbnails while both decoders are busy.
    public static let quickDecodeWorkers = 1

    /// Builds a session showing `library` on `display`, on `clock` (the one the display stamps
    /// its events on).
    public init(library: PhotoLibrary, display: Display, options: SessionOptions = SessionOptions(), clock: MonotonicClock = MonotonicClock()) {
        self.display = display
        self.clock = clock
        statistics = options.statistics ? FrameStatistics() : nil
        display.presentationObserver = statistics
        // Files dropped later open as they would without a slideshow.
        var kept = options
        kept.startsSlideshow = false
        kept.indexReadAhead = nil
        self.options = kept
        // A slideshow shows photos: a folder opens on its first photo, the grid behind it.
        var library = library
        if options.startsSlideshow { library.opensOnPhoto = true }
        index = Self.index(for: library, options: options, opened: nil)
        (pipeline, scene) = Self.makeScene(
            library: library, display: display, options: options, statistics: statistics, clock: clock, index: index)
        if options.fullscreen { display.setFullscreen(true) }
    }

    /// The index `library` needs: `opened` when there is one, else the one at the options'
    /// path, opened now (a problem with it said on stderr); nil for a library in listed order.
    private static func index(for library: PhotoLibrary, options: SessionOptions, opened: LibraryIndex?) -> LibraryIndex? {
        guard library.ordering == .byDateTaken else { return opened }
        return opened ?? options.indexReadAhead?.index ?? LibraryIndex(path: options.libraryIndexPath, report: { StandardError.write($0) })
    }

    /// The pipeline and the scene showing `library`, dating its photos from `index` when it is
    /// ordered by date taken.
    private static func makeScene(
        library: PhotoLibrary, display: Display, options: SessionOptions, statistics: FrameStatistics?, clock: MonotonicClock,
        index: LibraryIndex?
    ) -> (PhotoPipeline, NavigationScene) {
        let waker = DisplayWaker(display: display)
        let pipeline = PhotoPipeline(
            photos: library.photos, memoryBudget: options.memoryBudget, thumbnailFolder: options.thumbnailFolder,
            workers: Self.defaultDecodeWorkers, quickWorkers: Self.quickDecodeWorkers, focusWorkers: Self.defaultDecodeWorkers,
            clock: { clock.now() },
            colour: ColourManagement(displayProfile: display.colourProfile), headStart: options.headStart, onResult: { waker.wake() })
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let compositor = Compositor(
            path: options.rasterPath,
            parallel: { count, job in DispatchQueue.concurrentPerform(iterations: count, execute: job) },
            bands: cores > 1 ? cores : 1)
        let pager = Viewer(
            library: library, display: display, rasterPath: options.rasterPath, pipeline: pipeline,
            frameObserver: statistics, libraryBehind: true,
            chromeScale: options.scale ?? display.pixelsPerPoint,
            slideshow: Slideshow.Settings(interval: options.slideshowInterval, loops: options.slideshowLoops),
            startsSlideshow: options.startsSlideshow, wallClock: clock.now, wake: { waker.wake() })
        var dating: LibraryDating?
        if library.ordering == .byDateTaken, let index {
            // The read ahead, when there is one, read `index` itself (`index(for:options:opened:)`).
            dating = LibraryDating(index: index, readAhead: options.indexReadAhead, wake: { waker.wake() })
            dating?.date(NavigationScene.datingFolders(of: library))
        }
        let scene = NavigationScene(
            library: library, pager: pager, pipeline: pipeline, labels: PageLabels(), display: display, compositor: compositor,
            fullscreen: options.fullscreen, dating: dating, viewSettingsPath: options.viewSettingsPath, wake: { waker.wake() })
        return (pipeline, scene)
    }

    deinit {
        scene.stopDating()
        pipeline.shutdown()
    }

    /// The `--stats` report (nil when the session keeps no statistics): what the views and the
    /// display told the statistics, with the decode and thumbnail figures of the pipeline shown.
    public func statisticsReport() -> String? { statistics?.report(pipeline: pipeline) }

    /// Opens `paths` as the command line opens its PATHs (`PhotoLibrary.collect`: a folder shows
    /// its grid, one file the pager on it with its folder behind): a new pipeline and scene
    /// replace the ones shown, in the window's fullscreen state. The paths that are missing are
    /// named on stderr; when all are, nothing changes and nil is returned.
    public func open(paths: [String]) -> NavigationScene? {
        var problems: [String] = []
        let library = PhotoLibrary.collect(paths: paths, problems: &problems)
        for problem in problems { StandardError.write("riffle: \(problem)") }
        guard !library.everyPathIsMissing else { return nil }
        pipeline.shutdown()
        scene.stopDating()
        var options = options
        options.fullscreen = scene.isFullscreen
        index = Self.index(for: library, options: options, opened: index)
        (pipeline, scene) = Self.makeScene(
            library: library, display: display, options: options, statistics: statistics, clock: clock, index: index)
        return scene
    }

    /// Replays `script` with the given timing on a virtual clock of `frameRate` frames a
    /// second, handing each snapshot's name and frame to `snapshots`.
    public func replay(
        _ script: ReplayScript, timing: ReplayTiming = .deterministic, frameRate: Double = ReplayRunner.defaultFrameRate,
        snapshots: @escaping (String, PixelBuffer) throws -> Void
    ) throws {
        try ReplayRunner(
            script: script, scene: scene, display: display, timing: timing, frameRate: frameRate, wallClock: clock.now,
            writeSnapshot: snapshots
        ).run()
    }

    /// Runs the interactive loop until the user quits, on the session's clock, the library's
    /// folders watched meanwhile (`NavigationScene.watchFolders`); a drop opens its paths
    /// (`open(paths:)`), whose folders are then the ones watched.
    public func runLive() {
        let waker = DisplayWaker(display: display)
        scene.watchFolders { waker.wake() }
        defer { scene.stopWatchingFolders() }
        LiveLoop(scene: scene, display: display, now: clock.now, open: { [unowned self] paths in
            let shown = self.scene
            guard let opened = self.open(paths: paths) else { return nil }
            shown.stopWatchingFolders()
            opened.watchFolders { waker.wake() }
            return opened
        }).run()
    }
}

/// Lets decode workers wake the app's loop: `Display.wake()` is the one display call documented
/// as safe from any thread, and it is the only one this box makes.
private struct DisplayWaker: @unchecked Sendable {
    weak var display: Display?

    func wake() { display?.wake() }
}
