import RiffleDisplay
import RiffleGeometry
import RiffleImageIO
import RiffleIndex
import RiffleInteraction
import RiffleLibrary
import RifflePipeline
import RiffleRaster

/// The app's scene: the library grid, the pager over it, and the flights between them (iOS
/// Photos' zoom transition).
///
/// A click on a cell (or Enter) flies the photo from its cell to its place at fit along
/// `PhotoTransition` while the grid fades to black behind it, the cell empty during the flight;
/// the pager then works as on its own. Leaving the photo — a drag down released past the
/// thresholds, a pinch or wheel burst ending well below fit, Escape, Alt+Up — flies it back into
/// the cell of the photo shown then, scrolled into view first. Input during a flight goes
/// nowhere but the window's own events (a resize, a close).
///
/// Fullscreen is the window's state, so the scene owns it, wherever the user is: f and F11
/// toggle it, and Escape leaves it before it does anything else (go back to the grid from a
/// photo, quit from the grid). These keys, and the clipboard's, never reach the pager, so they do
/// not pause its slideshow.
///
/// A photo the pager shows turned (r) flies turned: its flight is that of the turned picture,
/// its frame of the turned photo's proportions at fit, the cell showing the turned photo's
/// centre square (the grid's own thumbnail, unturned, takes over as it lands).
public final class NavigationScene: Scene {
    private enum Mode {
        case grid
        case pager
        /// Photo `index` in flight between its cell and the pager (`opening` towards the pager).
        case flight(index: Int, transition: PhotoTransition, opening: Bool)
    }

    /// The pager: the photos one at a time.
    public let pager: Viewer
    /// The grid: a folder's photos, or a timeline's All Photos.
    let grid: GridView
    /// A timeline's Years, Months or Days, shown in the grid's place; nil shows the grid.
    var levelView: TimelineLevelView?
    /// A timeline's bars (a library ordered by date taken), nil for a folder's grid.
    var bars: TimelineBars?
    let barsView: TimelineBarsView
    /// The timeline's lines of text (its headers, titles and bars), rendered once.
    let lines: RenderedLines
    /// The title the bars last drew, so that a change of it (the dating's progress) redraws.
    var drawnBarsTitle: String?
    /// True while a press that began on a bar is held: it belongs to the bar, not the cells.
    var pressOnBar = false
    /// True while the scrubber's thumb is dragged.
    var scrubbing = false
    /// The view options kept between runs (the aspect-ratio grid), and where.
    var viewSettings: ViewSettings
    let viewSettingsPath: String?
    /// Each photo's aspect ratio as the index gives it: the aspect-ratio grid's rows.
    var aspects = PhotoValues<Double>()
    /// The change of level under way, drawn in the level's place until it is done.
    var levelMorph: LevelMorph?
    /// Whether the content moves, for the decode workers' priorities (`SceneMotion`).
    private var motion = SceneMotion()
    let labels: PageLabels
    private(set) var library: PhotoLibrary
    /// The library's folders watched while the app runs (`watchFolders`); nil when not.
    var liveFolders: LiveFolders?
    /// Dates the photos of a library ordered by date taken (`PhotoOrdering.byDateTaken`) from
    /// the index, off the app's thread; nil for a library in listed order.
    let dating: LibraryDating?
    /// Dates learned and not yet applied: a reorder costs a sort of the whole library, so
    /// they are applied at most every `datingInterval`, and at once when the dating is done.
    var pendingDates = PhotoValues<TakenDate?>()
    /// When dates were last applied, on the scene's clock.
    var datesAppliedAt = -Double.infinity
    /// Seconds between two reorders while the index fills: twice a second keeps a big first
    /// launch settling visibly without re-sorting 100,000 photos every frame.
    static let datingInterval = 0.5
    /// From this many photos a reorder runs off the app's thread (`LibraryReorder`): at 20,000 a
    /// sort by date costs about a frame.
    var reorderOffThreadFrom = 20_000
    /// Reorders a big library by new dates off the app's thread.
    let reorder: LibraryReorder
    /// Where the dates the index held at launch are: the grid asks for no thumbnail until they
    /// are in the library's order (or there were none). Its cells, in the order of the files'
    /// modification times until then, are mostly other photos once in date order, and their
    /// thumbnails took the cores from the recall (100,000 photos: the first frame in date order
    /// came 270 ms after the first frame, the recall's 110 ms of work spread over 250).
    var indexedDates: IndexedDates

    /// The launch's indexed dates: being recalled (or taken in), being sorted in off the app's
    /// thread, or in order.
    enum IndexedDates { case awaited, sorting, inOrder }
    /// Counts the library's changes: a reorder made from an older library is not applied.
    var libraryGeneration = 0
    /// Reads the heads of the photos listed by their names alone, from the scene's start, and of
    /// those the live folders bring or rewrite; those that hold no image leave the library as
    /// deleted files do (`takeProbed`).
    let probe: PhotoProbe
    let display: Display
    let compositor: Compositor
    let pipeline: PhotoPipeline
    private var mode: Mode
    var now = 0.0
    var needsDisplay = true
    /// When the photo in flight was clicked open, on the runtime's clock, until its first frame.
    private var openedAt: Double?
    /// True once the scene asked for fullscreen (or the window opened so) and not to leave it:
    /// the one place the window's fullscreen state is kept. The pager's bars and the pointer's
    /// model read it from here; a change redraws the bars and restarts the pointer's rest.
    public private(set) var isFullscreen: Bool {
        didSet {
            guard isFullscreen != oldValue else { return }
            // The scene's time is already the event's (`route` takes it first).
            cursor.fullscreenChanged(at: now)
            pager.setNeedsDisplay()
        }
    }
    /// Which pointer shape the window should show, and the one last asked of the display.
    private var cursor: PointerCursorModel
    private var shownCursor = PointerCursor.arrow
    /// The title last asked of the window (`AppCommand.setTitle`); nil before the first.
    private var shownTitle: String?
    /// Where the pointer last was, for events that carry no position (keys, resizes).
    private var pointer: Point?
    /// True while a drag the window would accept hovers over it (`InputEvent.dropHighlight`).
    public private(set) var showsDropHighlight = false

    /// A scene on `library` in `display`, opening on the grid, or on the pager at the library's
    /// start photo when it was opened on a file (`PhotoLibrary.opensOnPhoto`). The library's
    /// photos listed by name are probed from now on (`PhotoProbe`), `wake` waking the runtime's
    /// wait when one is found to hold no image.
    init(
        library: PhotoLibrary, pager: Viewer, pipeline: PhotoPipeline, labels: PageLabels, display: Display, compositor: Compositor,
        fullscreen: Bool = false, dating: LibraryDating? = nil, viewSettingsPath: String? = nil,
        wake: @escaping @Sendable () -> Void = {}
    ) {
        probe = PhotoProbe(photos: { library.photosToProbe }, wake: wake)
        self.pager = pager
        self.dating = dating
        indexedDates = dating == nil ? .inOrder : .awaited
        reorder = LibraryReorder(wake: wake)
        self.viewSettingsPath = viewSettingsPath
        viewSettings = ViewSettings.load(from: viewSettingsPath)
        isFullscreen = fullscreen
        cursor = PointerCursorModel()
        self.display = display
        self.compositor = compositor
        self.pipeline = pipeline
        self.labels = labels
        lines = RenderedLines(labels: labels)
        barsView = TimelineBarsView(lines: lines)
        let bars = library.ordering == .byDateTaken
            ? TimelineBars(viewport: Size(display.size), scale: pager.renderState.chrome.layout.scale) : nil
        self.bars = bars
        grid = GridView(
            library: library, viewport: Size(display.size), thumbnails: pipeline.thumbnailStore, labels: labels,
            rasterPath: compositor.path, time: 0, insets: bars?.insets ?? GridInsets())
        grid.turnOfPhoto = { pager.rotation(ofPhoto: $0) }
        self.library = library
        mode = library.opensOnPhoto ? .pager : .grid
        pager.isWindowFullscreen = { [unowned self] in isFullscreen }
        if bars != nil, viewSettings.aspectGrid {
            levelView = makeLevelView(.allPhotos, anchorPhoto: nil, anchor: nil)
        }
        if library.opensOnPhoto {
            grid.reveal(library.startIndex, at: 0)
        } else {
            pipeline.setFront(.grid)
            pager.setSeen(false)
        }
    }

    deinit { probe.stop() }

    /// True while the grid is what the window shows (at rest, not under a photo).
    public var isShowingGrid: Bool {
        if case .grid = mode { return true }
        return false
    }

    /// The pointer's shape follows what the event left under it: an open hand over a zoomed
    /// photo, a closed hand while a drag holds one, hidden after a rest in fullscreen.
    public func handle(_ event: InputEvent, now: Double) -> [AppCommand] {
        var commands = route(event, now: now)
        switch event {
        case let .pointerDown(position, _, _, _), let .pointerMove(position, _, _), let .pointerUp(position, _, _, _),
             let .scroll(_, position, _, _, _):
            pointer = position
        case let .pinch(_, center, _, _):
            pointer = center
        default:
            break
        }
        cursor.handle(event, now: self.now, overZoomedPhoto: pointer.map { isShowingPager && pager.isOverZoomedPhoto($0) } ?? false)
        commands += titleCommands() + cursorCommands()
        return commands
    }

    /// Hands `event` to the fullscreen toggle, the grid, the pager or the flight; their commands.
    private func route(_ event: InputEvent, now: Double) -> [AppCommand] {
        self.now = max(self.now, now)
        switch event {
        case .resize, .expose:
            if case let .resize(size) = event, bars != nil { bars = TimelineBars(viewport: Size(size), scale: chromeScale) }
            if case .resize = event, let shown = levelView {
                // The level laid out again for the window's size, on the photo in its middle, or
                // at its end (the newest) when it was there; a change of level under way ends
                // where it was going.
                levelMorph = nil
                let atEnd = shown.interaction.scrollFraction >= 1
                levelView = makeLevelView(shown.level, anchorPhoto: atEnd ? nil : shown.interaction.photoAtMiddle, anchor: nil)
            }
            // Both places keep what they show; a flight lands where it was going.
            _ = grid.handle(event, now: now)
            _ = pager.handle(event, now: now)
            needsDisplay = true
            return []
        case .close:
            return [.quit]
        case let .dropHighlight(on):
            showsDropHighlight = on
            needsDisplay = true
            pager.setNeedsDisplay()
            return []
        case let .drop(uriList):
            // Dropped files open as the command line's PATHs do, whatever shows now.
            let paths = URIList.paths(in: uriList)
            return paths.isEmpty ? [] : [.open(paths: paths)]
        case let .key(key, modifiers, _, _):
            guard case let .window(command) = KeyMap.command(for: key, modifiers: modifiers, in: .everywhere) else { break }
            switch command {
            case .copyPhoto, .copyPath:
                // The photo shown in the pager; the grid has no photo to copy.
                guard isShowingPager, library.photos.indices.contains(pager.current) else { return [] }
                let path = library.photos[pager.current].path
                // Nothing else shows that the clipboard took it: say so, as Loupe does.
                pager.showNotice(command == .copyPhoto ? "Copied" : "Path copied")
                return [command == .copyPhoto ? .copyPhoto(path: path) : .copyPath(path)]
            case .toggleFullscreen:
                return [toggleFullscreen()]
            case .leaveFullscreen:
                // A panel open over the photo closes before Escape does anything else.
                guard isFullscreen, !(isShowingPager && pager.panel != .none) else { break }
                isFullscreen = false
                return [.setFullscreen(false)]
            case .quit:
                return [.quit]
            }
        default:
            break
        }
        switch mode {
        case .grid:
            if let bars, routeToBars(event, bars) || routeToScrubber(event, bars) { return [] }
            if let levelView { return route(event, toLevel: levelView, now: now) }
            var commands: [AppCommand] = []
            for command in grid.handle(event, now: now) {
                switch command {
                case .open(let index): open(index)
                case .quit: commands.append(.quit)
                case let .showLevel(level, item): showLevel(level, photo: item ?? grid.itemNearMiddle, anchor: nil)
                case .toggleAspectGrid: toggleAspectGrid()
                }
            }
            return commands
        case .pager:
            var commands: [AppCommand] = []
            for command in pager.handle(event, now: now) {
                switch command {
                case .app(let app): commands.append(app)
                case .dismiss(let from): close(from: from)
                case .toggleFullscreen: commands.append(toggleFullscreen())
                }
            }
            return commands
        case .flight:
            if case let .key(key, modifiers, _, _) = event, KeyMap.command(for: key, modifiers: modifiers, in: .flight) == .window(.quit) {
                return [.quit]
            }
            return []
        }
    }

    @discardableResult
    public func advance(to now: Double) -> [AppCommand] {
        self.now = max(self.now, now)
        takeProbed()
        if let changes = liveFolders?.changes(at: self.now, in: library) {
            let update = library.applying(changes)
            follow(update)
            // What arrived or was written anew may be no image at all (a text file saved as x.jpg).
            probe.add(update.photosToProbe)
            dating?.date(Self.datingFolders(of: library, named: Set(changes.map(\.folder))))
        }
        if library.tree != nil, let arrived = liveFolders?.takeArrivedFolders(), !arrived.isEmpty { takeIn(folders: arrived) }
        takeReorder()
        applyDates(all: false)
        if let levelView {
            levelView.advance(to: now)
        } else {
            // Behind the pager, the thumbnails around its photo once the pager has nothing left
            // to decode: never beside the decode a person waits for, nor while paging goes on.
            grid.advance(to: now, visible: isGridSeen && indexedDates == .inOrder, pagerPhoto: isShowingPager && pager.isDecodingIdle ? pager.current : nil)
        }
        if bars != nil, isGridSeen {
            let title = barsTitle
            if title != drawnBarsTitle {
                drawnBarsTitle = title
                needsDisplay = true
            }
        }
        for command in pager.advance(to: now) {
            if case .pager = mode, case .dismiss(let from) = command { close(from: from) }
        }
        // The decode that made the pager idle came in just now: the hidden grid's thumbnails
        // start at once, not at the next wake.
        if levelView == nil, isShowingPager, pager.isDecodingIdle { grid.storeThumbnails(around: pager.current) }
        if case let .flight(index, transition, opening) = mode, transition.isDone(at: now) {
            mode = opening ? .pager : .grid
            if opening {
                pager.setNeedsDisplay()
                pager.frameObserver?.recordLanding(sharp: pager.isCurrentSharp)
            } else {
                grid.reveal(index, at: now)
                pipeline.setFront(.grid)
                pager.setSeen(false)
            }
            needsDisplay = true
        }
        pipeline.setSceneMoves(motion.moves(at: self.now, moving: isContentMoving, scroll: shownScrollPosition))
        cursor.advance(to: self.now)
        return titleCommands() + cursorCommands()
    }

    /// The earliest of: the pointer hiding, the live folders' next look, and (while the pager
    /// shows) the slideshow's next page turn.
    public var wakeTime: Double? {
        let slideshow = isShowingPager ? pager.slideshowWakeTime : nil
        let playing = isShowingPager ? pager.animationWakeTime : nil
        let dates = pendingDates.isEmpty ? nil : datesAppliedAt + Self.datingInterval
        let times = [shownCursor == .hidden ? nil : cursor.hideTime(fullscreen: isFullscreen), liveFolders?.wakeTime, slideshow, playing, dates]
        return times.compactMap { $0 }.min()
    }

    /// Watches the library's folders from now on: files added, removed, renamed or rewritten
    /// in them show in the grid and the pager within half a second (`LiveFolders`, then
    /// `follow`), `wake` waking the runtime's wait when something happens. Live runs only: a
    /// replay's frames must not depend on what else happens to the folder.
    func watchFolders(wake: @escaping @Sendable () -> Void) {
        liveFolders = LiveFolders(library: library, now: now, report: { StandardError.write($0) }, wake: wake)
    }

    /// Stops watching the library's folders.
    func stopWatchingFolders() {
        liveFolders?.stop()
        liveFolders = nil
    }

    /// Drops the photos the probe found to hold no image, as the live folders drop deleted files.
    private func takeProbed() {
        let gone = probe.take()
        if !gone.isEmpty { follow(library.removing(gone)) }
    }

    /// Follows the library through a change of its folders (`LibraryUpdate`), at the scene's
    /// time: the stores, the grid and the pager follow their photos; a photo in flight that
    /// is gone lands at once where it was going.
    func follow(_ update: LibraryUpdate) {
        guard !update.changesNothing else { return }
        library = update.library
        libraryGeneration += 1
        pipeline.follow(update)
        grid.follow(update, at: now)
        if let shown = levelView {
            // The level laid out again over the library as it is, on the photo it showed.
            let middle = shown.interaction.photoAtMiddle.flatMap(update.index(ofOld:))
            levelView = makeLevelView(shown.level, anchorPhoto: middle, anchor: nil)
        }
        pager.follow(update, at: now)
        if case let .flight(index, transition, opening) = mode {
            if let moved = update.index(ofOld: index) {
                mode = .flight(index: moved, transition: transition, opening: opening)
            } else if opening {
                mode = .pager
            } else {
                mode = .grid
                pipeline.setFront(.grid)
                pager.setSeen(false)
            }
        }
        needsDisplay = true
    }

    /// The window's title for what it shows: the grid's folder and count at rest on the grid,
    /// else the pager's photo (in a flight too: it names the photo flying open, and the one
    /// flying back until it lands).
    var title: String {
        if case .grid = mode { return WindowTitle.grid(library: library) }
        return pager.title
    }

    /// A `.setTitle` when the title for what the window shows is not the one last asked: the
    /// first `handle` or `advance` titles the window.
    private func titleCommands() -> [AppCommand] {
        let wanted = title
        guard wanted != shownTitle else { return [] }
        shownTitle = wanted
        return [.setTitle(wanted)]
    }

    /// A `.setCursor` when the shape the model wants now is not the one the display shows.
    private func cursorCommands() -> [AppCommand] {
        let wanted = cursor.cursor(at: now, fullscreen: isFullscreen)
        guard wanted != shownCursor else { return [] }
        shownCursor = wanted
        return [.setCursor(wanted)]
    }

    @discardableResult
    public func renderIfNeeded(presentedAt time: Double?) -> Bool {
        let start = pager.statisticsClock()
        switch mode {
        case .pager:
            let dragging = pager.renderState.dismissBackgroundAlpha < 1
            guard let frame = pager.frameIfNeeded(
                backdrop: dragging ? backdropLayer(hiding: pager.current) : nil, presentedAt: time) else { return false }
            draw(frame, startedAt: start)
        case .grid:
            if let morph = levelMorph {
                draw(withBars(morphLayer(morph)), startedAt: start)
                // The level itself from the next frame on.
                if morph.isDone(at: now) {
                    levelMorph = nil
                    needsDisplay = true
                }
            } else if let levelView {
                guard needsDisplay || levelView.needsDisplay else { return false }
                draw(withBars(levelView.layer(now: now)), startedAt: start)
            } else {
                guard needsDisplay || grid.needsDisplay || grid.isAnimating(at: now) else { return false }
                draw(withBars(grid.layer(now: now)), startedAt: start)
            }
        case let .flight(index, transition, _):
            draw(flightLayer(index: index, transition: transition), startedAt: start)
        }
        return true
    }

    /// True while the pager is what the window shows (not a flight).
    private var isShowingPager: Bool {
        if case .pager = mode { return true }
        return false
    }

    /// Enters or leaves fullscreen; the command that asks the window manager.
    private func toggleFullscreen() -> AppCommand {
        isFullscreen.toggle()
        return .setFullscreen(isFullscreen)
    }

    /// True when any of the grid shows: at rest, behind a flight, or through a photo dragged down.
    private var isGridSeen: Bool {
        switch mode {
        case .grid, .flight: true
        case .pager: pager.renderState.dismissBackgroundAlpha < 1
        }
    }

    /// What shows behind the pager and its flights: the level shown, else the grid, with the
    /// cell of `hidden` empty.
    private func backdropLayer(hiding hidden: Int?) -> Layer {
        withBars(levelView?.layer(now: now, hiding: hidden) ?? grid.layer(now: now, hiding: hidden))
    }

    public var isAnimating: Bool {
        switch mode {
        case .grid: levelMorph != nil || (levelView.map { $0.interaction.isAnimating } ?? grid.isAnimating(at: now))
        case .pager: pager.isAnimating
        case .flight: true
        }
    }

    /// True while the scene's content moves by itself: a change of level, a flight, the grid or
    /// a level scrolling (coasting, rubber band, a jump); a thumbnail fading in does not count.
    private var isContentMoving: Bool {
        switch mode {
        case .grid: levelMorph != nil || (levelView.map { $0.interaction.isAnimating } ?? grid.interaction.isAnimating)
        case .pager: false
        case .flight: true
        }
    }

    /// The scroll position of the grid or the level shown, nil while the pager shows.
    private var shownScrollPosition: Double? {
        guard case .grid = mode else { return nil }
        return levelView?.interaction.scrollPosition ?? grid.interaction.scrollPosition
    }

    /// Also waits for the index's dates and for the probe of the library's photos, and takes in
    /// what they found, so that a replay's frames count and order the same photos however fast
    /// the files are read.
    public func settleDecodes() {
        settleDates()
        probe.settle()
        takeProbed()
        pager.settleDecodes()
        if let levelView { levelView.settleThumbnails(at: now) } else { grid.settleThumbnails(at: now) }
    }

    // MARK: - Flights

    /// Flies photo `index` from its cell into the pager.
    func open(_ index: Int) {
        guard let cell = shownCellRect(ofPhoto: index) else { return }
        // Shown before seen: the store then focuses once, on this photo, not first on the one
        // the pager stood on behind the grid (100,000 photos: the first flight frame 26 → 5 ms).
        pager.show(photo: index, at: now)
        pager.setSeen(true)
        pipeline.setFront(.pager)
        if pager.frameObserver != nil { openedAt = pager.statisticsClock() }
        let transition = PhotoTransition(openingFrom: cell, to: fitFrame(ofPhoto: index), at: now)
        mode = .flight(index: index, transition: transition, opening: true)
        needsDisplay = true
    }

    /// Flies the pager's current photo back into its cell, from `state` (a gesture's end) or
    /// from where it is shown now.
    private func close(from state: PhotoTransition.State?) {
        let index = pager.current
        grid.reveal(index, at: now)
        if let shown = levelView, shown.cellRect(ofPhoto: index).map({ $0.intersection(Rect(origin: .zero, size: Size(display.size))) == nil }) ?? true {
            // Paged far from where it opened: the level comes back centred on the photo.
            levelView = makeLevelView(shown.level, anchorPhoto: index, anchor: nil)
        }
        guard let cell = shownCellRect(ofPhoto: index) else {
            mode = .grid
            pager.setSeen(false)
            return
        }
        let start = state ?? PhotoTransition.State(frame: pager.currentPhotoFrame, backgroundAlpha: 1)
        let transition = PhotoTransition(closingFrom: start, to: cell, fit: fitFrame(ofPhoto: index), at: now)
        mode = .flight(index: index, transition: transition, opening: false)
        needsDisplay = true
    }

    /// Photo `index`'s frame at fit in the window: from its decode, else (a photo opened before
    /// the pager has decoded it) from the size in its file's header, else the pager's guess (the
    /// window). A flight aimed at a wrong frame would land and then jump.
    private func fitFrame(ofPhoto index: Int) -> Rect {
        if pager.image(ofPhoto: index) == nil, let size = PhotoDecoding.uprightSize(path: library.photos[index].path) {
            return AspectFit.frame(content: pager.rotation(ofPhoto: index).boundingSize(of: Size(size)), viewport: Size(display.size))
        }
        return pager.fitFrame(ofPhoto: index)
    }

    /// The grid with its cell `index` empty, darkened by the flight's background, and the photo
    /// (turned as the pager shows it) at its image rect clipped to its frame: the decoded photo,
    /// else the cell's thumbnail.
    private func flightLayer(index: Int, transition: PhotoTransition) -> Layer {
        let window = Rect(origin: .zero, size: Size(display.size))
        let shade = Layer(opacity: transition.backgroundAlpha(at: now), content: .fill(window, .black))
        let imageRect = transition.imageRect(at: now)
        var photo = Layer()
        if let image = pager.image(ofPhoto: index) ?? grid.thumbnailImage(of: index) {
            let rotation = pager.rotation(ofPhoto: index)
            let scale = imageRect.width / rotation.boundingSize(of: image.size).width
            photo = Layer(
                clip: transition.frame(at: now),
                sublayers: [Viewer.photoLayer(
                    image, tiles: [], transform: ScaleTranslate(scale: scale, offset: imageRect.origin), rotation: rotation)])
        }
        return Layer(sublayers: [backdropLayer(hiding: index), shade, photo])
    }

    /// The drop highlight over the window while it shows, else nil.
    private var dropHighlightLayer: Layer? {
        guard showsDropHighlight else { return nil }
        return DropHighlight.layer(in: Size(display.size), scale: pager.renderState.chrome.layout.scale)
    }

    /// Composites `layer` with the drop highlight over it and presents it; `start` is when the
    /// frame began to be built, on the runtime's clock (for the statistics' frame time).
    private func draw(_ layer: Layer, startedAt start: Double) {
        compositor.render(dropHighlightLayer.map { Layer(sublayers: [layer, $0]) } ?? layer, into: display.frameBuffer())
        display.present()
        if case .pager = mode {} else {
            // The pager keeps its own account of what it drew (`Viewer.frameIfNeeded`).
            needsDisplay = false
            grid.didDraw()
        }
        guard let observer = pager.frameObserver else { return }
        let end = pager.statisticsClock()
        observer.recordFrame(seconds: end - start)
        switch mode {
        case .pager:
            pager.framePresented(at: end)
        case .grid:
            observer.recordGridFrame(sinceLaunch: pager.secondsSinceLaunch, allSharp: grid.allVisibleSharp)
        case .flight:
            if let opened = openedAt {
                observer.recordFlightStart(after: end - opened)
                openedAt = nil
            }
        }
    }
}
