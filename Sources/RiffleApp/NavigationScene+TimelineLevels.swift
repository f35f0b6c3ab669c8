import RiffleDisplay
import RiffleGeometry
import RiffleInteraction
import RiffleLibrary
import RifflePipeline
import RiffleRaster

/// A timeline's levels in the scene: Years, Months and Days (and All Photos as the aspect-ratio
/// grid) shown in the grid's place, the changes between them as morphs, and the input they take.
extension NavigationScene {
    /// Hands `event` to the timeline's level shown: the grid's keys that mean something there
    /// (a screen down or up, the ends, the levels, quit), the rest to the level itself.
    func route(_ event: InputEvent, toLevel view: TimelineLevelView, now: Double) -> [AppCommand] {
        if case let .key(key, modifiers, _, _) = event {
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
    func showLevel(_ level: TimelineLayout.Level, photo: Int?, anchor: Point?) {
        guard library.ordering == .byDateTaken, level != levelView?.level ?? .allPhotos else { return }
        morph(to: level, photo: photo, anchor: anchor)
    }

    /// Replaces what shows by `level` (the grid for All Photos in square cells, else a level
    /// view) at `photo` under `anchor`, the cells morphing from where they were (`LevelMorph`).
    private func morph(to level: TimelineLayout.Level, photo: Int?, anchor: Point?) {
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
    func toggleAspectGrid() {
        guard bars != nil else { return }
        viewSettings.aspectGrid.toggle()
        if let viewSettingsPath, !viewSettings.save(to: viewSettingsPath) {
            StandardError.write("riffle: cannot keep the view options in \(viewSettingsPath)")
        }
        guard (levelView?.level ?? .allPhotos) == .allPhotos else { return }
        morph(to: .allPhotos, photo: levelView?.interaction.photoAtMiddle ?? grid.itemNearMiddle, anchor: nil)
    }

    /// A view of the timeline's `level` (All Photos only as the aspect-ratio grid) over the library as it is, with
    /// `anchorPhoto` under window point `anchor` (the end without a photo, the middle without a
    /// point), leaving room for the bars.
    func makeLevelView(_ level: TimelineLayout.Level, anchorPhoto: Int?, anchor: Point?) -> TimelineLevelView {
        let bars = bars ?? TimelineBars(viewport: Size(display.size), scale: chromeScale)
        return TimelineLevelView(
            library: library, days: TimelineDays(library: library), level: level, viewport: Size(display.size), scale: bars.scale,
            insets: (bars.insets.top, bars.insets.bottom),
            aspects: level == .allPhotos ? aspects.latest(of: library.photos, otherwise: 1) : nil, thumbnails: pipeline.thumbnailStore,
            lines: lines, rasterPath: compositor.path, anchorPhoto: anchorPhoto, anchor: anchor, time: now)
    }

    /// Photo `photo`'s cell (or what stands for it) in the level shown, the grid for All Photos,
    /// window pixels; nil when the grid's cell is off screen.
    func shownCellRect(ofPhoto photo: Int) -> Rect? {
        levelView?.cellRect(ofPhoto: photo) ?? grid.cellRect(photo)
    }

    /// The centre of the cell drawn nearest the window's middle in the level shown (the grid for
    /// All Photos), window pixels; nil when none is drawn: where the benchmark clicks a photo open.
    package var middleCellCentre: Point? {
        let middle = Point(x: Double(display.size.width) / 2, y: Double(display.size.height) / 2)
        func distance(_ rect: Rect) -> Double { abs(rect.center.x - middle.x) + abs(rect.center.y - middle.y) }
        return shownLevelCells.min { distance($0.rect) < distance($1.rect) }?.rect.center
    }

    /// The grid's cells drawn now, window pixels.
    var visibleGridCells: [LevelMorph.Cell] { grid.visibleCells }

    /// The cells the level shown (the grid for All Photos) draws now, window pixels.
    var shownLevelCells: [LevelMorph.Cell] {
        levelView?.visibleCells ?? grid.visibleCells
    }

    /// Where the level shown (the grid for All Photos) draws a photo now: its cell or what
    /// stands for it, window pixels; nil where it has none (a grid cell off screen).
    var shownLevelFrame: (Int) -> Rect? {
        if let levelView { return { [levelView] in levelView.cellRect(ofPhoto: $0) } }
        return { [grid] in grid.cellRect($0) }
    }

    /// The change of level at `now`: its cells, each the centre crop of its photo's thumbnail.
    func morphLayer(_ morph: LevelMorph) -> Layer {
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
}
