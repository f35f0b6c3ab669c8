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
    private let grid: GridView
    /// A timeline's Years, Months or Days, shown in the grid's place; nil shows the grid.
    private(set) var levelView: TimelineLevelView?
    /// A timeline's bars (a library ordered by date taken), nil for a folder's grid.
    private var bars: TimelineBars?
    private let barsView: TimelineBarsView
    /// The title the bars last drew, so that a change of it (the dating's progress) redraws.
    private var drawnBarsTitle: String?
    /// True while a press that began on a bar is held: it belongs to the bar, not the cells.
    private var pressOnBar = false
    /// True while the scrubber's thumb is dragged.
    private var scrubbing = false
    /// The view options kept between runs (the aspect-ratio grid), and where.
    private(set) var viewSettings: ViewSettings
    private let viewSettingsPath: String?
    /// Each photo's aspect ratio as the index gives it: the aspect-ratio grid's rows.
    private var aspects: [PhotoID: Double] = [:]
    /// The change of level under way, drawn in the level's place until it is done.
    private var levelMorph: LevelMorph?
    private let labels: PageLabels
    private(set) var library: PhotoLibrary
    /// The library's folders watched while the app runs (`watchFolders`); nil when not.
    private var liveFolders: LiveFolders?
    /// Dates the photos of a library ordered by date taken (`PhotoOrdering.byDateTaken`) from
    /// the index, off the app's thread; nil for a library in listed order.
    private let dating: LibraryDating?
    /// Dates learned and not yet applied: a reorder costs a sort of the whole library, so
    /// they are applied at most every `datingInterval`, and at once when the dating is done.
    private var pendingDates: [PhotoID: TakenDate?] = [:]
    /// When dates were last applied, on the scene's clock.
    private var datesAppliedAt = -Double.infinity
    /// Seconds between two reorders while the index fills: twice a second keeps a big first
    /// launch settling visibly without re-sorting 100,000 photos every frame.
    static let datingInterval = 0.5
    /// Reads the heads of the photos listed by their names alone, from the scene's start, and of
    /// those the live folders bring or rewrite; those that hold no image leave the library as
    /// deleted files do (`takeProbed`).
    private let probe: PhotoProbe
    private let display: Display
    private let compositor: Compositor
    private let pipeline: PhotoPipeline
    private var mode: Mode
    private var now = 0.0
    private var needsDisplay = true
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
        self.viewSettingsPath = viewSettingsPath
        viewSettings = ViewSettings.load(from: viewSettingsPath)
        isFullscreen = fullscreen
        cursor = PointerCursorModel()
        self.display = display
        self.compositor = compositor
        self.pipeline = pipeline
        self.labels = labels
        barsView = TimelineBarsView(labels: labels)
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
        case let .key(key, modifiers, _):
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
            if case let .key(key, modifiers, _) = event, KeyMap.command(for: key, modifiers: modifiers, in: .flight) == .window(.quit) {
                return [.quit]
            }
            return []
        }
    }

    /// Takes `event` when it is the bars': a press on a bar, and what follows it until its
    /// release, which shows the level of the segment it is released on. False for the rest.
    private func routeToBars(_ event: InputEvent, _ bars: TimelineBars) -> Bool {
        switch event {
        case let .pointerDown(position, _, _, _) where bars.contains(position):
            pressOnBar = true
            return true
        case .pointerMove where pressOnBar:
            return true
        case let .pointerUp(position, _, _, _) where pressOnBar:
            pressOnBar = false
            if bars.aspectSwitch.contains(position) {
                toggleAspectGrid()
            } else if let level = bars.level(at: position) {
                let photo = levelView?.interaction.photoAtMiddle ?? grid.itemNearMiddle
                showLevel(level, photo: photo, anchor: nil)
            }
            return true
        default:
            return false
        }
    }

    /// The scrubber of a timeline whose scroll is long enough for one, nil otherwise.
    private func scrubber(_ bars: TimelineBars) -> TimelineScrubber? {
        let scrubber = TimelineScrubber(viewport: bars.viewport, scale: bars.scale, insets: bars.insets)
        let length = levelView?.interaction.scrollLength ?? grid.scrollLength
        return scrubber.isShown(contentLength: length) ? scrubber : nil
    }

    /// Takes `event` when it is the scrubber's: a press in its strip, the moves that drag the
    /// thumb, and the release. The scroll goes where the pointer's height says, at once.
    private func routeToScrubber(_ event: InputEvent, _ bars: TimelineBars) -> Bool {
        switch event {
        case let .pointerDown(position, .left, _, _):
            guard let scrubber = scrubber(bars), scrubber.strip.contains(position) else { return false }
            scrubbing = true
            scrub(to: scrubber.fraction(atY: position.y))
            return true
        case let .pointerMove(position, _, _) where scrubbing:
            if let scrubber = scrubber(bars) { scrub(to: scrubber.fraction(atY: position.y)) }
            return true
        case .pointerUp where scrubbing:
            scrubbing = false
            needsDisplay = true
            return true
        default:
            return false
        }
    }

    /// The grid's or the level's scroll as a fraction of its range (0 the top, 1 the end).
    var shownScrollFraction: Double { levelView?.interaction.scrollFraction ?? grid.scrollFraction }

    /// Puts the grid or the level shown at `fraction` of its scroll.
    private func scrub(to fraction: Double) {
        if let levelView { levelView.scroll { $0.scroll(toFraction: fraction) } } else { grid.scroll(toFraction: fraction) }
        needsDisplay = true
    }

    /// The month shown at window height `y` ("June 2021"): the scrubber's label beside its
    /// thumb, so the month named is the one under the pointer.
    private func monthShown(atWindowY y: Double) -> String? {
        let month: Int?
        if let levelView {
            month = levelView.interaction.month(atWindowY: y)
        } else {
            month = grid.visibleCells.min { abs($0.rect.center.y - y) < abs($1.rect.center.y - y) }
                .flatMap { library.photos.indices.contains($0.photo) ? library.dates[library.photos[$0.photo].id] : nil }
                .map { CivilCalendar.monthNumber(ofDay: TimelineDays.day(of: $0)) }
        }
        return month.map { "\(TimelineDates.monthNames[$0 % 12]) \($0 / 12)" }
    }

    /// The scrubber's thumb, and while it is dragged the month it has reached beside it.
    private func scrubberLayer(_ bars: TimelineBars) -> Layer? {
        guard let scrubber = scrubber(bars) else { return nil }
        let fraction = shownScrollFraction
        let thumb = scrubber.thumb(atFraction: fraction, dragged: scrubbing)
        var layers = [Layer(opacity: scrubbing ? 0.75 : 0.45, content: .fill(thumb, .black))]
        if scrubbing, let month = monthShown(atWindowY: thumb.center.y) {
            let badge = labels.badge(month)
            let origin = Point(x: (thumb.minX - 8 * bars.scale - badge.size.width).rounded(), y: (thumb.center.y - badge.size.height / 2).rounded())
            layers.append(Layer(transform: ScaleTranslate(offset: origin), sublayers: [badge.layer]))
        }
        return Layer(sublayers: layers)
    }

    /// Hands `event` to the timeline's level shown: the grid's keys that mean something there
    /// (a screen down or up, the ends, the levels, quit), the rest to the level itself.
    private func route(_ event: InputEvent, toLevel view: TimelineLevelView, now: Double) -> [AppCommand] {
        if case let .key(key, modifiers, _) = event {
            guard case let .grid(command) = KeyMap.command(for: key, modifiers: modifiers, in: .grid) else { return [] }
            switch command {
            case .pageDown: view.scroll { $0.scroll(pages: 1) }
            case .pageUp: view.scroll { $0.scroll(pages: -1) }
            case .home: view.scroll { $0.scrollToStart() }
            case .end: view.scroll { $0.scrollToEnd() }
            case .showLevel(let level): showLevel(level, photo: view.interaction.photoAtMiddle, anchor: nil)
            case .toggleAspectGrid: toggleAspectGrid()
            case .quit: return [.quit]
            case .arrow, .open: break
            }
            return []
        }
        for command in view.handle(event, now: now) {
            switch command {
            case let .showLevel(level, photo, anchor): showLevel(level, photo: photo, anchor: anchor)
            case .open(let photo): open(photo)
            }
        }
        return []
    }

    /// Shows the timeline's `level` with photo `photo` (time order) under window point `anchor`
    /// (the middle without one): All Photos is the grid, the others a level view. Only a library
    /// ordered by date taken has levels.
    private func showLevel(_ level: TimelineLayout.Level, photo: Int?, anchor: Point?) {
        guard library.ordering == .byDateTaken, level != levelView?.level ?? .allPhotos else { return }
        let outgoing = shownLevelCells
        let oldFrame = shownLevelFrame
        if level == .allPhotos && !viewSettings.aspectGrid {
            levelView = nil
            grid.activate(at: now)
            if let photo { grid.reveal(photo, at: now) }
        } else {
            levelView = makeLevelView(level, anchorPhoto: photo, anchor: anchor)
        }
        let newFrame = shownLevelFrame
        levelMorph = LevelMorph(
            outgoing: outgoing.map { ($0, newFrame($0.photo)) }, incoming: shownLevelCells.map { ($0, oldFrame($0.photo)) }, start: now)
        needsDisplay = true
    }

    /// Switches All Photos between square cells (the grid) and the aspect-ratio grid, and keeps
    /// the choice for the next run; shown at All Photos, the change morphs from one to the other.
    private func toggleAspectGrid() {
        guard bars != nil else { return }
        viewSettings.aspectGrid.toggle()
        if let viewSettingsPath, !viewSettings.save(to: viewSettingsPath) {
            StandardError.write("riffle: cannot keep the view options in \(viewSettingsPath)")
        }
        guard (levelView?.level ?? .allPhotos) == .allPhotos else { return }
        let photo = levelView?.interaction.photoAtMiddle ?? grid.itemNearMiddle
        let outgoing = shownLevelCells
        let oldFrame = shownLevelFrame
        if viewSettings.aspectGrid {
            levelView = makeLevelView(.allPhotos, anchorPhoto: photo, anchor: nil)
        } else {
            levelView = nil
            grid.activate(at: now)
            if let photo { grid.reveal(photo, at: now) }
        }
        let newFrame = shownLevelFrame
        levelMorph = LevelMorph(
            outgoing: outgoing.map { ($0, newFrame($0.photo)) }, incoming: shownLevelCells.map { ($0, oldFrame($0.photo)) }, start: now)
        needsDisplay = true
    }

    /// A view of the timeline's `level` (All Photos only as the aspect-ratio grid) over the library as it is, with
    /// `anchorPhoto` under window point `anchor` (the end without a photo, the middle without a
    /// point), leaving room for the bars.
    private func makeLevelView(_ level: TimelineLayout.Level, anchorPhoto: Int?, anchor: Point?) -> TimelineLevelView {
        let bars = bars ?? TimelineBars(viewport: Size(display.size), scale: chromeScale)
        return TimelineLevelView(
            library: library, days: TimelineDays(library: library), level: level, viewport: Size(display.size), scale: bars.scale,
            insets: (bars.insets.top, bars.insets.bottom),
            aspects: level == .allPhotos ? library.photos.map { aspects[$0.id] ?? 1 } : nil, thumbnails: pipeline.thumbnailStore,
            labels: labels, anchorPhoto: anchorPhoto, anchor: anchor, time: now)
    }

    /// Pixels per point of the window's chrome (the bars' and the levels' text).
    private var chromeScale: Double { pager.renderState.chrome.layout.scale }

    /// The timeline's bars over the grid or its level, with the title and the level shown.
    private func barsLayer(_ bars: TimelineBars) -> Layer {
        barsView.layer(bars, title: barsTitle, level: levelView?.level ?? .allPhotos, aspectGrid: viewSettings.aspectGrid)
    }

    /// What the top bar says now.
    private var barsTitle: String {
        // At All Photos the title leads with the month of the row under the bar: the quiet date
        // over the rows that Photos shows as they scroll.
        let month = (levelView?.level ?? .allPhotos) == .allPhotos ? bars.flatMap { monthShown(atWindowY: $0.top.maxY + 1) } : nil
        return TimelineTitle.text(library: library, progress: dating.map { $0.progress }, month: month)
    }

    /// `content` (the grid, a level, or the change between levels) with the timeline's bars
    /// over it, for a library that has them.
    private func withBars(_ content: Layer) -> Layer {
        guard let bars else { return content }
        return Layer(sublayers: [content, barsLayer(bars)] + (scrubberLayer(bars).map { [$0] } ?? []))
    }

    /// Photo `photo`'s cell (or what stands for it) in the level shown, the grid for All Photos,
    /// window pixels; nil when the grid's cell is off screen.
    func shownCellRect(ofPhoto photo: Int) -> Rect? {
        levelView?.cellRect(ofPhoto: photo) ?? grid.cellRect(photo)
    }

    /// The grid's cells drawn now, window pixels.
    var visibleGridCells: [LevelMorph.Cell] { grid.visibleCells }

    /// The cells the level shown (the grid for All Photos) draws now, window pixels.
    private var shownLevelCells: [LevelMorph.Cell] {
        levelView?.visibleCells ?? grid.visibleCells
    }

    /// Where the level shown (the grid for All Photos) draws a photo now: its cell or what
    /// stands for it, window pixels; nil where it has none (a grid cell off screen).
    private var shownLevelFrame: (Int) -> Rect? {
        if let levelView { return { [levelView] in levelView.cellRect(ofPhoto: $0) } }
        return { [grid] in grid.cellRect($0) }
    }

    /// The change of level at `now`: its cells, each the centre crop of its photo's thumbnail.
    private func morphLayer(_ morph: LevelMorph) -> Layer {
        let window = Rect(origin: .zero, size: Size(display.size))
        let store = pipeline.thumbnailStore
        let cells = morph.frames(at: now).compactMap { frame -> Layer? in
            guard library.photos.indices.contains(frame.photo) else { return nil }
            let plate = Layer(opacity: frame.opacity, content: .fill(frame.rect, GridView.placeholder))
            guard case let .thumbnail(image, _, _) = store.state(of: library.photos[frame.photo].id) else { return plate }
            return Layer(sublayers: [plate, GridView.centreCrop(image, in: frame.rect, opacity: frame.opacity)])
        }
        return Layer(clip: window, content: .fill(window, GridView.background), sublayers: cells)
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
        applyDates(all: false)
        if let levelView { levelView.advance(to: now) } else { grid.advance(to: now, visible: isGridSeen) }
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

    /// The folders of `library` named in `names` (every folder when nil) as whole folders to
    /// date: each with the photos of its run in the listing.
    static func datingFolders(of library: PhotoLibrary, named names: Set<String>? = nil) -> [LibraryDating.Folder] {
        library.folders.filter { names?.contains($0.path) ?? true }.map { folder in
            LibraryDating.Folder(
                path: folder.path, photos: folder.range.map { (library.listing[$0].id, library.listing[$0].path) }, isWhole: true)
        }
    }

    /// Takes in the dates the dating has learned and reorders the library by them: when
    /// `datingInterval` has passed since the last reorder, when the dating is done, or (`all`)
    /// now.
    private func applyDates(all: Bool) {
        guard let dating else { return }
        pendingDates.merge(dating.takeDates()) { _, new in new }
        aspects.merge(dating.takeShapes()) { _, new in new }
        guard !pendingDates.isEmpty, all || now - datesAppliedAt >= Self.datingInterval || dating.progress.isDone else { return }
        let dates = pendingDates
        pendingDates = [:]
        datesAppliedAt = now
        follow(library.dating(dates))
    }

    /// Takes the folders `paths`, made or moved into the tree while it is shown, into the library
    /// with every folder under them: their photos appear, their folders are watched, their
    /// photos dated.
    private func takeIn(folders paths: [String]) {
        var problems: [String] = []
        let walked = paths.flatMap { PhotoTree.folders(under: $0, skipping: PhotoLibrary.foldersNeverWalked, problems: &problems) }
        for problem in problems { StandardError.write("riffle: \(problem)") }
        let update = library.addingFolders(walked)
        follow(update)
        probe.add(update.photosToProbe)
        liveFolders?.watch(walked.map(\.path), at: now)
        dating?.date(Self.datingFolders(of: library, named: Set(walked.map(\.path))))
    }

    /// Stops dating the library (a scene replaced by another).
    func stopDating() { dating?.stop() }

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

    /// True when every photo of the library has a date (a timeline the index has dated, if not
    /// yet verified every file of), or the library is not a timeline.
    public var isDated: Bool { library.ordering != .byDateTaken || library.dates.count == library.photos.count }

    /// Blocks until the index has dated every photo of a timeline, then reorders by the dates
    /// (nothing for a folder's grid).
    public func settleDates() {
        dating?.waitUntilDone()
        applyDates(all: true)
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
    private func open(_ index: Int) {
        guard let cell = shownCellRect(ofPhoto: index) else { return }
        pager.setSeen(true)
        pager.show(photo: index, at: now)
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
