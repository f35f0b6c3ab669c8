import RiffleGeometry
import RiffleInteraction
import RiffleLibrary
import RifflePipeline
import RiffleRaster

/// The library grid on screen: its interaction model, its cells' thumbnails, and the layer tree
/// that draws them (iOS Photos' library: square centre crops 2 px apart on white).
///
/// A cell whose thumbnail is not ready is a quiet grey square; the thumbnail fades in over
/// `fadeIn` once it arrives; a file that cannot be decoded shows a mark in its cell, never a hole.
/// The store is told the visible cells and the rows ahead in the direction of scrolling every
/// frame, so cells scrolled past leave its queue.
final class GridView {
    /// 0.2 s fade-in of an arriving thumbnail (Photos fades thumbnails in quickly; UIKit's
    /// standard short animation is 0.2 to 0.25 s).
    static let fadeIn = 0.2
    /// 0.1 s: a thumbnail that arrives within this of its cell coming into view (a stored one,
    /// read in a millisecond or two) shows at once, as cached thumbnails do in Photos while it
    /// scrolls; only one the cell waited for (being made) fades in. Riffle's choice: six frames,
    /// under the 0.1 s at which a delay starts to be seen as one (Card, Moran and Newell, The
    /// Psychology of Human-Computer Interaction, 1983). It also spares a fast scroll through
    /// cached thumbnails from blending every new cell for 0.2 s.
    static let instantArrival = 0.1
    /// The grid's background and gaps: white, as Photos' light library.
    static let background = Color.white
    /// A cell waiting for its thumbnail: iOS's systemGray5 (#E5E5EA).
    static let placeholder = Color(red: 229, green: 229, blue: 234)
    /// The focus ring: iOS's systemBlue (#007AFF), `ringWidth` px inside the cell.
    static let ringColor = Color(red: 0, green: 122, blue: 255)
    static let ringWidth = 3.0
    /// How many rows beyond the window are asked for ahead of the scroll.
    static let rowsAhead = 3
    /// How many thumbnails around the pager's photo the hidden grid has stored while the pager
    /// is idle: more than a 1920×1080 window's first screen of cells (6 rows of 8 at the
    /// default size), and the pages a strip flick crosses.
    static let idleThumbnails = 50

    private(set) var interaction: GridInteraction
    /// The photos in the cells; it changes as the folders shown change (`follow(_:at:)`).
    private(set) var library: PhotoLibrary
    private let thumbnails: ThumbnailStore
    private let labels: PageLabels
    /// The last scroll position seen, for the direction rows ahead lie in.
    private var lastScroll = 0.0
    private var scrollDirection = 1
    /// Set when something the render state does not hold changed: a thumbnail arrived, the
    /// window was exposed, the photos changed.
    private var damaged = true
    /// The interaction's render state the last frame drew, nil before the first.
    private var drawnState: GridRenderState?
    /// The broken-file mark, laid out once.
    private var brokenMark: (layer: Layer, size: Size)?
    /// The page of an empty library, laid out for a window size.
    private var emptyMessage: (size: Size, layer: Layer)?
    /// The visible cells' thumbnails at their cells' pixel size.
    private let crops: GridCellImages
    /// When each visible cell's photo came into view, on the app's clock (for `instantArrival`).
    private var inViewSince: [PhotoID: Double] = [:]
    /// Each photo's turn in the pager (whole quarter turns): a cell shows the photo the way the
    /// pager shows it, so a turned photo flies back into a cell that stays turned.
    var turnOfPhoto: (Int) -> Rotation = { _ in .none }

    /// A grid of `library`'s photos in a window of `viewport`, drawing its cells' crops with
    /// `rasterPath`.
    init(
        library: PhotoLibrary, viewport: Size, thumbnails: ThumbnailStore, labels: PageLabels, rasterPath: RasterPath, time: Double,
        insets: GridInsets = GridInsets()
    ) {
        self.library = library
        self.thumbnails = thumbnails
        self.labels = labels
        crops = GridCellImages(path: rasterPath)
        interaction = GridInteraction(itemCount: library.photos.count, viewport: viewport, time: time, insets: insets)
        interaction.holdsEnd = library.ordering == .byDateTaken
        thumbnails.resize(cellSize: Int(interaction.layout.cellSide.rounded(.up)))
    }

    /// True while the grid moves, or a thumbnail fades in.
    func isAnimating(at now: Double) -> Bool {
        interaction.isAnimating || interaction.renderState.cells.contains { cell in
            let photo = library.photos[cell.index].id
            if case .thumbnail(_, let arrived, _) = thumbnails.state(of: photo) {
                return Self.opacity(arrivedAt: arrived, inViewSince: inViewSince[photo] ?? now, now: now) < 1
            }
            return false
        }
    }

    /// Applies one input event at clock time `now`; returns the grid's commands.
    func handle(_ event: InputEvent, now: Double) -> [GridCommand] {
        switch event {
        case .resize(let size):
            interaction.resize(viewport: Size(size), at: now)
            thumbnails.resize(cellSize: Int(interaction.layout.cellSide.rounded(.up)))
            damaged = true
            return []
        case .expose:
            damaged = true
            return []
        default:
            return interaction.handle(event)
        }
    }

    /// Moves the grid to clock `now`, takes in arrived thumbnails and, when it can be seen
    /// (`visible`), asks for the visible cells' and those of the rows ahead. Hidden behind the
    /// pager on photo `pagerPhoto`, it only has the thumbnails of the photos nearest it stored
    /// in the cache, `idleThumbnails` of them, holding none (`ThumbnailStore.store(around:count:)`;
    /// `riffle FILE`'s folder): behind every request of the pager's, so they are made when the
    /// pager has nothing to decode, and never hold a decoder the pager needs; the grid behind it
    /// and fast paging then find them (`PhotoDecoding.cachedPreview`).
    func advance(to now: Double, visible isSeen: Bool, pagerPhoto: Int? = nil) {
        interaction.step(to: now)
        let state = interaction.renderState
        if !thumbnails.absorbResults(at: now).isEmpty { damaged = true }
        guard isSeen else {
            if let photo = pagerPhoto {
                storeThumbnails(around: photo)
            } else {
                thumbnails.show(visible: 0..<0, ahead: 0..<0)
            }
            return
        }
        let position = interaction.scrollPosition
        if position != lastScroll { scrollDirection = position > lastScroll ? 1 : -1 }
        lastScroll = position
        guard let first = state.cells.first?.index, let last = state.cells.last?.index else {
            thumbnails.show(visible: 0..<0, ahead: 0..<0)
            return
        }
        let visible = first..<(last + 1)
        // The cells' size class follows their size however it changed: a resize, and the
        // columns Ctrl+wheel or a pinch ask for (those kept the class the window opened with, so
        // 426-pixel cells at 3 columns showed crops of the 181-pixel cells' thumbnails).
        thumbnails.resize(cellSize: Int(interaction.layout.cellSide.rounded(.up)))
        inViewSince = Dictionary(uniqueKeysWithValues: visible.map { library.photos[$0].id }.map { ($0, inViewSince[$0] ?? now) })
        let extra = Self.rowsAhead * interaction.layout.columns
        let ahead = scrollDirection > 0
            ? visible.upperBound..<min(library.photos.count, visible.upperBound + extra)
            : max(0, visible.lowerBound - extra)..<visible.lowerBound
        thumbnails.show(visible: visible, ahead: ahead)
    }

    /// Hidden behind the pager, has the `idleThumbnails` thumbnails nearest photo `photo`
    /// stored in the thumbnail cache (none without a cache that writes).
    func storeThumbnails(around photo: Int) {
        if thumbnails.writesCache { thumbnails.store(around: photo, count: Self.idleThumbnails) }
    }

    /// Follows the library through a change of its folders at clock `now`: the cells are
    /// renumbered with the scroll anchored on what the window shows (`GridInteraction.renumberItems`);
    /// what is known of each photo stays with it.
    func follow(_ update: LibraryUpdate, at now: Double) {
        library = update.library
        interaction.renumberItems(count: library.photos.count, newItem: update.index(ofOld:), at: now)
        inViewSince = inViewSince.filter { library.order.contains($0.key) }
        emptyMessage = nil
        damaged = true
    }

    /// The grid shows again after a timeline level stood in its place: its cells' thumbnail size
    /// asked for again (the level's cells wanted another) and its frame drawn anew.
    func activate(at now: Double) {
        thumbnails.resize(cellSize: Int(interaction.layout.cellSide.rounded(.up)))
        interaction.step(to: now)
        damaged = true
    }

    /// The cells drawn now, as a change of timeline level sees them: photo and window rect.
    var visibleCells: [LevelMorph.Cell] {
        interaction.renderState.cells.map { LevelMorph.Cell(photo: $0.index, rect: onPixels($0.rect)) }
    }

    /// The scroll as a fraction of its range, and its whole length (the scrubber's).
    var scrollFraction: Double { interaction.scrollFraction }
    var scrollLength: Double { interaction.scrollLength }

    /// Puts the scroll at `fraction` of its range at once (the scrubber).
    func scroll(toFraction fraction: Double) { interaction.scroll(toFraction: fraction) }

    /// The item whose cell is nearest the middle of the window, nil without items.
    var itemNearMiddle: Int? {
        let cells = interaction.renderState.cells
        return cells.isEmpty ? nil : cells[cells.count / 2].index
    }

    /// Scrolls item `index`'s cell into view at once and gives it the focus (behind a photo
    /// flying back to it).
    func reveal(_ index: Int, at now: Double) {
        interaction.reveal(index: index, animated: false, at: now)
        damaged = true
    }

    /// Blocks until the thumbnails asked for so far are made, then takes them in (replays).
    func settleThumbnails(at now: Double) {
        thumbnails.waitForThumbnails()
        if !thumbnails.absorbResults(at: now).isEmpty { damaged = true }
    }

    /// Item `index`'s thumbnail as an image, if it has one (a flight's stand-in while the photo
    /// itself is not decoded).
    func thumbnailImage(of index: Int) -> ImageContent? {
        guard let photo = library.order.photo(at: index), case let .thumbnail(image, _, _) = thumbnails.state(of: photo.id) else {
            return nil
        }
        return image
    }

    /// True when every visible cell shows its real thumbnail or its broken-file mark.
    var allVisibleSharp: Bool {
        interaction.renderState.cells.allSatisfy { cell in
            switch thumbnails.state(of: library.photos[cell.index].id) {
            case .waiting: false
            case let .thumbnail(_, _, isStandIn): !isStandIn
            case .failed: true
            }
        }
    }

    /// True when the next frame differs from the last one drawn: the interaction's render state
    /// (scroll, focus ring, cells, columns) changed since, whatever input or timer changed it, or
    /// the grid was damaged. Input that moves the grid without animating it (a key moving the
    /// focus, a drag holding the content) asks for its frame through the state alone.
    var needsDisplay: Bool { damaged || interaction.renderState != drawnState }

    /// Called once a frame with the grid drawn: the next frame needs drawing only if something
    /// changes.
    func didDraw() {
        damaged = false
        drawnState = interaction.renderState
    }

    /// Item `index`'s square as drawn, window pixels: on whole pixels unless the columns are
    /// changing (`onPixels(_:)`); nil when it is off screen or not an item.
    func cellRect(_ index: Int) -> Rect? {
        interaction.cellRect(index).map(onPixels)
    }

    /// `rect`, a cell as the interaction places it, as the grid draws it: while the columns
    /// stay, on whole pixels and keeping its size while the grid scrolls
    /// (`GridCellImages.onPixels`: its crop is drawn by a plain copy); mid column change, as it is.
    private func onPixels(_ rect: Rect) -> Rect {
        interaction.isChangingColumns ? rect : GridCellImages.onPixels(rect, scroll: interaction.scrollPosition)
    }

    /// The grid's layer tree at clock `now`; the cell of `hidden` (a photo in flight from or to
    /// it) is drawn empty.
    func layer(now: Double, hiding hidden: Int? = nil) -> Layer {
        let state = interaction.renderState
        let window = Rect(origin: .zero, size: state.viewport)
        var cells: [Layer] = []
        for cell in state.cells {
            guard cell.index != hidden else { continue }
            cells.append(self.cell(index: cell.index, rect: onPixels(cell.rect), now: now))
        }
        crops.frameDone()
        if state.isFocusRingVisible, let focus = state.focusIndex, let cell = state.cells.first(where: { $0.index == focus }) {
            cells.append(Self.ring(around: onPixels(cell.rect)))
        }
        if library.photos.isEmpty {
            if emptyMessage?.size != state.viewport {
                emptyMessage = (state.viewport, labels.message(
                    title: "No photos", detail: PageLabels.emptyPageDetail(explanation: library.emptyExplanation), in: state.viewport, color: .black))
            }
            cells.append(emptyMessage?.layer ?? Layer())
        }
        return Layer(clip: window, content: .fill(window, Self.background), sublayers: cells)
    }

    private func cell(index: Int, rect: Rect, now: Double) -> Layer {
        let plate = Layer(content: .fill(rect, Self.placeholder))
        let photo = library.photos[index].id
        switch thumbnails.state(of: photo) {
        case .waiting:
            return plate
        case let .thumbnail(image, arrived, _):
            let opacity = Self.opacity(arrivedAt: arrived, inViewSince: inViewSince[photo] ?? now, now: now)
            // A cell on whole pixels draws its crop 1:1; mid column change, the thumbnail scaled.
            let turn = turnOfPhoto(index)
            guard !interaction.isChangingColumns else {
                return Layer(sublayers: [plate, Self.centreCrop(image, turn: turn, in: rect, opacity: opacity)])
            }
            let picture = crops.cell(of: photo, thumbnail: image, turn: turn, in: rect, opacity: opacity)
            return opacity < 1 || !image.isOpaque ? Layer(sublayers: [plate, picture]) : picture
        case .failed:
            // A file still being written is not broken (`ArrivingPhoto`): its cell waits.
            guard !library.photos[index].isArriving else { return plate }
            if brokenMark == nil { brokenMark = labels.badge("!") }
            guard let mark = brokenMark else { return plate }
            let origin = Point(x: (rect.center.x - mark.size.width / 2).rounded(), y: (rect.center.y - mark.size.height / 2).rounded())
            return Layer(clip: rect, sublayers: [plate, Layer(transform: ScaleTranslate(offset: origin), sublayers: [mark.layer])])
        }
    }

    /// The opacity at `now` of a thumbnail that arrived at `arrived` in a cell in view since
    /// `inViewSince`: 1 when it came within `instantArrival` of the cell showing (or before), else
    /// rising linearly from 0 to 1 over `fadeIn` from its arrival.
    static func opacity(arrivedAt arrived: Double, inViewSince: Double, now: Double) -> Double {
        if arrived - inViewSince <= instantArrival { return 1 }
        return min(max((now - arrived) / fadeIn, 0), 1)
    }

    /// `image` turned by `turn` (whole quarter turns: the photo as the pager shows it), scaled
    /// to cover `rect` (its shorter side fills the square) and centred, clipped to the cell: the
    /// photo's centre crop.
    static func centreCrop(_ image: ImageContent, turn: Rotation = .none, in rect: Rect, opacity: Double) -> Layer {
        let w = image.size.width, h = image.size.height
        let turned = turn.boundingSize(of: image.size)
        let scale = max(rect.width / turned.width, rect.height / turned.height)
        let picture = Layer(
            transform: ScaleTranslate(scale: scale, offset: Point(x: -w * scale / 2, y: -h * scale / 2)), content: .image(image))
        return Layer(
            clip: rect, opacity: opacity,
            sublayers: [Layer(transform: ScaleTranslate(offset: rect.center), rotation: turn, sublayers: [picture])])
    }

    /// A ring `ringWidth` px wide just inside `rect`.
    static func ring(around rect: Rect) -> Layer {
        let w = ringWidth
        let sides = [
            Rect(x: rect.minX, y: rect.minY, width: rect.width, height: w),
            Rect(x: rect.minX, y: rect.maxY - w, width: rect.width, height: w),
            Rect(x: rect.minX, y: rect.minY + w, width: w, height: rect.height - 2 * w),
            Rect(x: rect.maxX - w, y: rect.minY + w, width: w, height: rect.height - 2 * w),
        ]
        return Layer(sublayers: sides.map { Layer(content: .fill($0, ringColor)) })
    }
}
