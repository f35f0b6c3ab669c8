import RiffleDisplay
import RiffleGeometry
import RiffleImageIO
import RiffleInteraction
import RiffleLibrary
import RifflePipeline
import RiffleRaster

/// The photo viewer: input in, frames out. Wires the interaction model (paging, zoom, gestures)
/// to the decoded photos and the compositor; knows nothing of where time and input come from
/// (the live loop or a replay drives it) or where frames go (any `Display`).
public final class Viewer {
    /// The photos paged through; it changes as the folders shown change (`follow(_:at:)`).
    public private(set) var library: PhotoLibrary
    /// Pages on screen drawn with nothing decoded yet (their placeholder, and a spinner after
    /// half a second).
    public var blankPages: [Int] {
        pages.filter { store.content(of: $0.photo) == nil }.compactMap { library.order.index(of: $0.photo) }
    }
    /// Pages on screen drawn black: nothing decoded and no placeholder (their header could not
    /// be read either).
    public var blackPages: [Int] {
        pages.filter { store.content(of: $0.photo) == nil && $0.shape == nil }.compactMap { library.order.index(of: $0.photo) }
    }
    /// True while something moves on screen, a gesture timer runs or a page waits for its
    /// photo (its spinner turns), so the loop must keep stepping at 60 Hz. An animated photo
    /// playing is not: it asks for frames at its own frame times (`animationWakeTime`).
    public var isAnimating: Bool {
        interaction.isAnimating || notice.isAnimating(at: interaction.now) || pages.contains { store.content(of: $0.photo) == nil }
            || pace.isPassing
    }

    /// When the animated photo playing shows its next frame (nil when none plays, or its next
    /// frame is still being decoded, whose result wakes the loop): an idle loop sleeps until
    /// then, so a GIF of 10 frames a second costs 10 frames a second, not 60.
    public var animationWakeTime: Double? { isSeen ? store.animationWakeTime : nil }
    /// Index of the photo the viewer is on (or settling to).
    public var current: Int { interaction.currentPage }
    /// What the next frame shows: paging offset, each visible page's zoom, the background.
    public var renderState: ViewerRenderState { interaction.renderState }
    /// Page objects alive (visible and recycled): bounded whatever the library's size.
    public var pageObjects: Int { recycler.pageObjects }
    /// The most bytes of decoded pixels held at once so far.
    public var cacheHighWaterBytes: Int { store.bytesHighWater }
    /// Hears what is drawn, when the session keeps statistics.
    let frameObserver: FrameObserver?

    private let display: Display
    private let store: PhotoStore
    private let labels: PageLabels
    private let chromeView: ChromeView
    private let stripView: NavigatorStripView
    /// True while the pager is on screen (its strip's thumbnails are asked for only then).
    private var isSeen = true
    /// Reads the current photo's details for the bar and the info panel off the app's thread,
    /// once per photo shown (and again when its file is renamed or written anew).
    private let infoReader: PhotoInfoReader
    /// The photo whose details the last frame drew without having them yet: drawn again when
    /// they arrive.
    private var drawnWithoutInfo: PhotoID?
    /// The runtime's monotonic clock, for the statistics' frame times (never for motion, which
    /// runs on the times the scene is given).
    private let wallClock: () -> Double
    private let launchTime: Double
    private let recycler = PageRecycler()
    private let spinner = Spinner()
    /// Whether paging passes photos (turns faster than a decode) or rests on one.
    private var pace = PagingPace()
    private var interaction: ViewerInteraction
    private var pages: [PageView] = []
    private var focusedPage: Int
    /// The photo being slid to, until its slide ends (for `--stats`).
    private var arrivingPage: Int?
    /// The page the photo shown before was deleted from, while its successor slides in over
    /// it: drawn with `vacatedContent` (the page there now is another photo, which is not leaving).
    private var vacatedPage: Int? {
        didSet { if vacatedPage == nil { vacatedContent = nil } }
    }
    /// What the vacated page shows while the next photo slides in over it: the deleted photo as
    /// it was last drawn (`drawnCurrentContent` when it went), so the slide starts from it
    /// rather than from an empty black page.
    private var vacatedContent: Layer?
    /// The current page's content (its photo at its transform, before its place in the
    /// window) as the last frame drew it.
    private var drawnCurrentContent: Layer?
    /// When the current zoomed-in view of a huge photo came to rest still missing tiles.
    private var zoomedViewRestedAt: Double?
    /// When the navigator strip last came to rest after the user drove it (a scrub, a flick, a
    /// click, the wheel), until the photo it rests on looks sharp (a draft or its real decode),
    /// and until its real decode is there: for `--stats`.
    private var stripRestedAt: Double?
    private var stripRestRefinedAt: Double?
    /// Whether the user drove the strip at the last step.
    private var wasStripDriven = false
    private var drawnState: ViewerRenderState?
    /// The zoom label's badge, laid out for its text.
    private var zoomBadge: (text: String, badge: (layer: Layer, size: Size))?
    /// The slideshow label's badge, laid out for its text.
    private var slideshowBadge: (text: String, badge: (layer: Layer, size: Size))?
    /// The open panel's lines as last counted (`countPanelLines`), and what they were counted for.
    private var countedInfoLines: (key: PanelLinesKey, count: Int)?
    private var countedHelpRows: (key: PanelLinesKey, count: Int)?
    /// The notice of an action nothing else shows ("Copied"), and its badge.
    private var notice = NoticeLabel()
    private var noticeBadge: (text: String, badge: (layer: Layer, size: Size))?
    /// The notice's opacity in the frame last drawn: a fading notice changes no render state.
    private var drawnNoticeOpacity = 0.0
    /// True until the first `advance`, when the viewer opens on a slideshow (`--slideshow`): it
    /// starts on the runtime's clock then.
    private var startsSlideshow: Bool
    private var needsDisplay = true

    /// A viewer on `library`, drawing into `display`, its photos from `pipeline` (made for
    /// `library.photos`); its slideshows run with `slideshow`, one from its first frame when
    /// `startsSlideshow`.
    public init(
        library: PhotoLibrary, display: Display, rasterPath: RasterPath = .fast, pipeline: PhotoPipeline, frameObserver: FrameObserver?,
        libraryBehind: Bool = false, chromeScale: Double = 1, slideshow: Slideshow.Settings = Slideshow.Settings(),
        startsSlideshow: Bool = false, wallClock: @escaping () -> Double, wake: @escaping @Sendable () -> Void = {}
    ) {
        self.library = library
        self.display = display
        infoReader = PhotoInfoReader(wake: wake)
        self.frameObserver = frameObserver
        self.wallClock = wallClock
        launchTime = wallClock()
        labels = PageLabels()
        chromeView = ChromeView(labels: labels)
        stripView = NavigatorStripView(thumbnails: pipeline.stripThumbnailStore, path: rasterPath)
        interaction = ViewerInteraction(
            pageCount: library.photos.count, viewport: Size(display.size), page: library.startIndex, chromeVisible: false,
            libraryBehind: libraryBehind, chromeScale: chromeScale, infoRows: PhotoInfo.labels.count, slideshowSettings: slideshow)
        self.startsSlideshow = startsSlideshow
        focusedPage = library.startIndex
        store = pipeline.photoStore
        store.focus(on: focusedPage, viewport: display.size, direction: 0)
    }

    /// Follows the library through a change of its folders at clock `now`: the photo shown
    /// stays shown with its zoom (at its new index); when it is gone, the next photo that
    /// stayed slides in as a page turn to the next does (the last one gone: the previous one,
    /// as a turn back), over an empty page; `title` follows.
    func follow(_ update: LibraryUpdate, at now: Double) {
        let place = update.place(ofPhotoAt: current)
        library = update.library
        let count = library.photos.count
        switch place {
        case let .same(index):
            interaction.renumberPages(count: count, current: index, newPage: update.index(ofOld:), at: now)
            vacatedPage = nil
        case let .next(index):
            interaction.renumberPages(count: count, current: index, arrivingFrom: index - 1, newPage: update.index(ofOld:), at: now)
            vacatedPage = index - 1
            vacatedContent = drawnCurrentContent
        case let .previous(index):
            // From beyond the last page: nothing but black is uncovered.
            interaction.renumberPages(count: count, current: index, arrivingFrom: index + 1, newPage: update.index(ofOld:), at: now)
            vacatedPage = nil
        case .none:
            interaction.renumberPages(count: count, current: 0, newPage: update.index(ofOld:), at: now)
            vacatedPage = nil
        }
        arrivingPage = nil
        for photo in update.rewritten { infoReader.forget(photo) }
        drawnState = nil
        focusedPage = interaction.currentPage
        store.focus(on: focusedPage, viewport: display.size, direction: 1)
        needsDisplay = true
    }

    /// Applies one input event received at clock time `now`; returns the model's commands for
    /// the scene around the pager (quit, fullscreen, back to the library).
    @discardableResult
    public func handle(_ event: InputEvent, now: Double) -> [ViewerCommand] {
        // The user takes over: a page dragged into view shows what it holds.
        vacatedPage = nil
        var commands: [ViewerCommand] = []
        switch event {
        case .resize(let size):
            interaction.resize(viewport: Size(size), at: now)
            store.focus(on: current, viewport: size, direction: 0)
        case .expose:
            needsDisplay = true
        default:
            commands = interaction.handle(event)
        }
        var isRepeat = false
        if case .key(_, _, _, true) = event { isRepeat = true }
        followInteraction(now: now, byRepeat: isRepeat)
        return commands
    }

    /// Moves animations to clock time `now` and takes in finished decodes; returns what the
    /// model's timers decided (a wheel zoom ending well below fit goes back to the library).
    @discardableResult
    public func advance(to now: Double) -> [ViewerCommand] {
        if startsSlideshow {
            startsSlideshow = false
            interaction.startSlideshow(at: now)
        }
        let commands = interaction.step(to: now)
        if let vacated = vacatedPage, !interaction.renderState.pages.contains(where: { $0.index == vacated }) { vacatedPage = nil }
        store.keepInView(Self.pagesInView(interaction.renderState, pageCount: library.photos.count))
        let onScreen = Set(pages.map(\.photo) + interaction.renderState.pages.compactMap { photo(atPage: $0.index) })
        for (photo, size) in store.absorbResults() {
            guard let index = library.order.index(of: photo) else { continue }
            if let size { interaction.setContentSize(Size(size), forPage: index, at: now) }
            // A photo decoded ahead (a neighbour, an end for Home and End) changes no pixel.
            if onScreen.contains(photo) { needsDisplay = true }
        }
        if store.advanceAnimation(to: now) { needsDisplay = true }
        if notice.opacity(at: now) != drawnNoticeOpacity { needsDisplay = true }
        followInteraction(now: now)
        // Paging has come to rest on a photo: decode it (and its neighbours) in full.
        if pace.rests(at: now) { store.setPassing(false) }
        countPanelLines()
        let state = interaction.renderState
        if stripView.update(state.strip, of: library.order, visible: isSeen && state.chrome.opacity > 0, now: now) { needsDisplay = true }
        requestDetail()
        if let rested = zoomedViewRestedAt, store.hasWantedTiles {
            frameObserver?.recordZoomedViewSharp(after: now - rested)
            zoomedViewRestedAt = nil
        }
        if wasStripDriven, !interaction.isStripDriven { (stripRestedAt, stripRestRefinedAt) = (now, now) }
        wasStripDriven = interaction.isStripDriven
        if let rested = stripRestedAt, looksSharp(page: current) {
            frameObserver?.recordScrubSharp(after: now - rested)
            stripRestedAt = nil
        }
        if let rested = stripRestRefinedAt, isSharp(page: current) {
            frameObserver?.recordScrubRefined(after: now - rested)
            stripRestRefinedAt = nil
        }
        if let page = arrivingPage {
            let state = interaction.renderState
            // The slide has ended when the strip is within a pixel of the page.
            if abs(state.pagingOffset - Double(page) * state.pageWidth) < 1 {
                frameObserver?.recordArrival(sharp: looksSharp(page: page))
                arrivingPage = nil
            }
        }
        return commands
    }

    /// At most this many pages ahead of the strip are asked for while it flies to its target.
    static let pagesAheadInView = 12

    /// The pages on screen in `state`, then those the strip will cross on its way to its target
    /// page, nearest first (at most `pagesAheadInView`): a flight over many photos (keys pressed
    /// fast) shows each page's preview as it passes, never a black page.
    static func pagesInView(_ state: ViewerRenderState, pageCount: Int) -> [Int] {
        var pages = state.pages.map(\.index)
        guard state.pageWidth > 0 else { return pages }
        let position = state.pagingOffset / state.pageWidth
        let target = state.currentPage
        let ahead = target >= Int(position.rounded(.down))
            ? Array(stride(from: Int(position.rounded(.up)), through: target, by: 1))
            : Array(stride(from: Int(position.rounded(.down)), through: target, by: -1))
        for page in ahead.prefix(Self.pagesAheadInView) where !pages.contains(page) && (0..<pageCount).contains(page) {
            pages.append(page)
        }
        return pages
    }

    /// Gives every photo on screen in `state` its page object (recycling those that left) and
    /// tracks how long each has waited for pixels; a waiting page past the spinner's delay redraws.
    private func tilePages(_ state: ViewerRenderState, now: Double) {
        pages = recycler.tile(state.pages.compactMap { photo(atPage: $0.index) })
        for page in pages {
            if store.content(of: page.photo) == nil {
                if page.waitingSince == nil { page.waitingSince = now }
                if !page.isShapeRead, let path = library.order.photo(page.photo)?.path {
                    page.shape = PhotoDecoding.uprightSize(path: path)
                    page.isShapeRead = true
                }
                if now - (page.waitingSince ?? now) >= Spinner.delay { needsDisplay = true }
            } else {
                page.waitingSince = nil
            }
        }
    }

    /// The frame's layer tree if anything changed since the last one returned, else nil: the
    /// pager over `backdrop` (what shows through while a photo is dragged down). A change of
    /// what lies around it alone is returned after `setNeedsDisplay()`. With `time`, the frame
    /// is the state at that time (`presentationState(at:)`). The scene composites and presents
    /// it, then calls `framePresented(at:)`.
    public func frameIfNeeded(backdrop: Layer? = nil, presentedAt time: Double? = nil) -> Layer? {
        let state = presentationState(at: time)
        tilePages(state, now: interaction.now)
        guard needsDisplay || state != drawnState else { return nil }
        needsDisplay = false
        drawnState = state
        let frame = scene(state, now: interaction.now, backdrop: backdrop)
        drawnNoticeOpacity = notice.opacity(at: interaction.now)
        return frame
    }

    /// The frame last returned by `frameIfNeeded` was presented at `time` on the runtime's
    /// clock: the statistics hear whether it showed the current photo, sharp and refined.
    func framePresented(at time: Double) {
        guard let frameObserver, content(atPage: current) != nil else { return }
        frameObserver.recordPhotoFrame(sinceLaunch: time - launchTime, sharp: looksSharp(page: current), refined: isSharp(page: current))
    }

    /// What the screen should show at `time`, when the frame being drawn will reach it: a copy
    /// of the interaction stepped there (its motions are pure functions of time), or the
    /// interaction's own state for nil or a time not after its clock. The first frame after a
    /// key press then already shows the slide moving, as a display link draws for its target
    /// time, while the interaction itself takes input at the input's own times.
    private func presentationState(at time: Double?) -> ViewerRenderState {
        guard let time, time > interaction.now else { return interaction.renderState }
        var ahead = interaction
        ahead.step(to: time)
        return ahead.renderState
    }

    /// True when the current photo looks sharp: its real pixels, or its draft (no preview).
    public var isCurrentSharp: Bool { looksSharp(page: current) }

    /// True when the pager has nothing left to decode (`PhotoStore.isIdle`).
    var isDecodingIdle: Bool { store.isIdle }

    /// The identity of the photo on page `index`, nil past the library's ends.
    private func photo(atPage index: Int) -> PhotoID? { library.order.photo(at: index)?.id }

    /// What is known of the photo on page `index`: nil while nothing of it is decoded.
    private func content(atPage index: Int) -> PhotoContent? { photo(atPage: index).flatMap(store.content(of:)) }

    /// True when the photo on page `index` looks sharp (`PhotoStore.looksSharp`).
    private func looksSharp(page index: Int) -> Bool { photo(atPage: index).map(store.looksSharp) ?? false }

    /// True when the photo on page `index` shows its real pixels (`PhotoStore.isSharp`).
    private func isSharp(page index: Int) -> Bool { photo(atPage: index).map(store.isSharp) ?? false }

    /// Seconds since the viewer was made, on the runtime's clock (for statistics).
    var secondsSinceLaunch: Double { wallClock() - launchTime }

    /// The runtime's clock, for the statistics of the scene around the pager.
    var statisticsClock: () -> Double { wallClock }

    /// Whether the window is fullscreen, read from its owner (the scene) when the bars are
    /// drawn: the fullscreen button then shows "leave fullscreen". The owner calls
    /// `setNeedsDisplay()` when it changes.
    var isWindowFullscreen: () -> Bool = { false }

    /// The panel or overlay open over the photo (Escape closes it before anything else).
    public var panel: ViewerPanel { interaction.panel }

    /// The next `frameIfNeeded` returns a frame even if nothing changed here (what lies around
    /// it did).
    public func setNeedsDisplay() { needsDisplay = true }

    /// Whether the pager can be seen: out of sight (the grid at rest over it) it asks for no
    /// decodes (`PhotoStore.setPagerSeen(_:)`).
    func setSeen(_ seen: Bool) {
        isSeen = seen
        store.setPagerSeen(seen)
    }

    /// Shows photo `index` at once, at fit, at clock `now` (where a flight from the grid lands),
    /// `title` naming it.
    public func show(photo index: Int, at now: Double) {
        interaction.show(page: index, at: now)
        followInteraction(now: now)
        needsDisplay = true
    }

    /// Photo `index`'s frame at fit in the window, turned as it is shown (the window itself
    /// while its size is unknown).
    public func fitFrame(ofPhoto index: Int) -> Rect {
        if case .image(let photo)? = content(atPage: index) {
            return AspectFit.frame(content: rotation(ofPhoto: index).boundingSize(of: Size(photo.fullSize)), viewport: Size(display.size))
        }
        return interaction.fitFrame(ofPage: index)
    }

    /// Photo `index`'s turn at rest (r, Shift+R): whole quarter turns clockwise.
    public func rotation(ofPhoto index: Int) -> Rotation { interaction.rotation(ofPage: index) }

    /// Clock time of the slideshow's next page turn while one runs: the runtime, idle, sleeps
    /// until then.
    public var slideshowWakeTime: Double? { interaction.slideshowWakeTime }

    /// The current photo's frame as shown now, window pixels (zoom and drag included).
    public var currentPhotoFrame: Rect { interaction.currentPhotoFrame }

    /// True when `point` lies on the current photo zoomed in, under no bar or panel.
    public func isOverZoomedPhoto(_ point: Point) -> Bool { interaction.isOverZoomedPhoto(point) }

    /// Photo `index`'s pixels as held now (a preview or the real decode), for a flight to draw.
    public func image(ofPhoto index: Int) -> ImageContent? {
        guard case .image(let photo)? = content(atPage: index) else { return nil }
        return ImageContent(pixels: photo.pixels, size: Size(photo.fullSize), isOpaque: photo.isOpaque, smaller: photo.smaller)
    }

    /// Blocks until every decode asked for so far is finished and taken in, and those they
    /// asked for in turn: the neighbours, asked for once the photo in view is sharp
    /// (`PhotoStore`), then the ends' previews.
    public func settleDecodes() {
        for _ in 0..<Self.settleRounds {
            store.waitForDecodes()
            infoReader.settle()
            advance(to: interaction.now)
        }
    }

    /// The photo in view, then its neighbours, then what they ask for.
    static let settleRounds = 3

    /// Reacts to what the interaction model decided at clock time `now`: a new current page
    /// refocuses decoding (and `title` names it), passing (`PagingPace`) when it follows the
    /// last turn closely or a held key's auto-repeat made it (`byRepeat`).
    private func followInteraction(now: Double, byRepeat: Bool = false) {
        let page = interaction.currentPage
        if page != focusedPage, library.photos.indices.contains(page) {
            store.setPassing(pace.turn(at: now, byRepeat: byRepeat), refocus: false)
            store.focus(on: page, viewport: display.size, direction: page > focusedPage ? 1 : -1)
            if arrivingPage != nil { frameObserver?.recordPassed() }
            arrivingPage = page
            focusedPage = page
        }
    }

    /// Once a zoom or pan comes to rest, asks for the current photo at the size it is shown
    /// (not during the motion: a pinch or bounce would ask for a new decode every frame): decoded
    /// whole at that size, or for a huge photo, the pyramid tiles of the part in view.
    private func requestDetail() {
        guard interaction.isSettled, case .image(let photo)? = content(atPage: current),
              let shown = interaction.renderState.pages.first(where: { $0.index == current }) else { return }
        let detail = ShownDetail(
            content: Size(photo.fullSize), pyramid: photo.pyramid, viewport: Size(display.size), transform: shown.transform,
            rotation: shown.rotation)
        switch detail {
        case .whole(let detail):
            store.showFocused(atDetail: detail)
        case .tiles(let keys):
            if store.showFocusedTiles(keys), !store.hasWantedTiles { zoomedViewRestedAt = interaction.now }
        }
    }

    /// The window's title while the pager shows: the photo it is on and its place ("2 friends.jpg
    /// — 2 of 5"). The scene asks the window for it (`AppCommand.setTitle`).
    public var title: String { WindowTitle.text(library: library, index: focusedPage) }

    // MARK: scene

    /// A tile placed in full-resolution image coordinates: its pixels (margin included) over
    /// its frame, clipped to the tile proper so neighbouring tiles meet without overlap; the
    /// margin gives the bilinear sampler the neighbours' pixels at the seam.
    static func tileLayer(_ tile: TilePixels) -> Layer {
        let fx = tile.frame.width / Double(tile.pixels.width), fy = tile.frame.height / Double(tile.pixels.height)
        let inside = Rect(
            x: Double(tile.content.x) * fx, y: Double(tile.content.y) * fy,
            width: Double(tile.content.width) * fx, height: Double(tile.content.height) * fy)
        return Layer(
            transform: ScaleTranslate(offset: tile.frame.origin), clip: inside,
            content: .image(ImageContent(pixels: tile.pixels, size: tile.frame.size, isOpaque: true)))
    }

    /// The photo `image` (with `tiles` over it, in its pixels) turned by `rotation` about its
    /// centre, the box around it turned mapped by `transform`: an unturned photo is simply
    /// placed by `transform`. Turned, its centre is put at the box's: picture point p goes to
    /// R(s·p + R⁻¹(s·b/2) − s·c), c its centre and b the box's size, then by the box's offset.
    /// Tiles are left out while it turns between quarter turns (the compositor clips nothing
    /// exactly then; the base pixels cover the whole photo). `clip`, in the photo's upright
    /// full-resolution pixels, keeps only that part of it (a photo still arriving).
    static func photoLayer(
        _ image: ImageContent, tiles: [Layer], transform: ScaleTranslate, rotation: Rotation, clip: Rect? = nil
    ) -> Layer {
        if rotation.wholeQuarters == 0 {
            return Layer(transform: transform, clip: clip, content: .image(image), sublayers: tiles)
        }
        let s = transform.scale, box = rotation.boundingSize(of: image.size)
        let centre = Point(x: image.size.width / 2, y: image.size.height / 2)
        let inner = ScaleTranslate(
            scale: s, offset: rotation.inverse.apply(Point(x: box.width, y: box.height) * (s / 2)) - centre * s)
        return Layer(
            transform: ScaleTranslate(offset: transform.offset), rotation: rotation,
            sublayers: [Layer(transform: inner, clip: clip, content: .image(image), sublayers: rotation.isWholeQuarters ? tiles : [])])
    }

    /// `zoom` with its translation rounded to whole pixels, as the page origins are: a photo at
    /// 1:1 is then drawn as a plain copy (sharp, not blurred by a half-pixel phase) and one at 2×
    /// through `ExactDoubling`, wherever a pan or a centring leaves it; the scale is untouched, and
    /// the image moves by at most half a pixel (UIKit rounds scroll offsets to pixels likewise).
    static func pixelAligned(_ zoom: ScaleTranslate) -> ScaleTranslate {
        ScaleTranslate(scale: zoom.scale, offset: Point(x: zoom.offset.x.rounded(), y: zoom.offset.y.rounded()))
    }

    /// Background colour: black with the chrome hidden, white with it shown (Photos).
    static func background(_ state: ViewerRenderState) -> Color {
        Color.mix(.white, .black, state.backgroundBlackness)
    }

    /// The layer tree of the frame: background > paging layer > page > zoom > image. The
    /// background is faded by the vertical drag's alpha over `backdrop` (the library grid), or
    /// over black when there is none.
    func scene(_ state: ViewerRenderState, now: Double, backdrop: Layer? = nil) -> Layer {
        let size = state.viewport
        let window = Rect(origin: .zero, size: size)
        let foreground = state.backgroundBlackness < 0.5 ? Color.black : Color.white
        var layers: [Layer] = []
        if library.photos.isEmpty {
            layers.append(labels.message(
                title: "No photos", detail: PageLabels.emptyPageDetail(explanation: library.emptyExplanation), in: size, color: foreground))
        }
        for page in state.pages {
            // Pages move by whole pixels: a photo at fit is then composited as a plain copy
            // while it slides (motion at 60 Hz hides the quantisation, as UIKit's pixel-aligned
            // scrolling does).
            let origin = Point(x: page.originX.rounded(), y: 0)
            if page.index == vacatedPage {
                // The deleted photo, as it was, slides out as the next slides in.
                if let vacatedContent { layers.append(Layer(transform: ScaleTranslate(offset: origin), clip: window, sublayers: [vacatedContent])) }
                continue
            }
            guard let id = photo(atPage: page.index), let view = pages.first(where: { $0.photo == id }) else { continue }
            // Dragged to dismiss, the current page follows the pointer and shrinks about the
            // drag's start (whole pixels while only moved, as pages slide).
            var motion = state.dismissTransform
            if motion.scale == 1 { motion.offset = Point(x: motion.offset.x.rounded(), y: motion.offset.y.rounded()) }
            let content: Layer
            switch self.content(atPage: page.index) {
            case .image(let photo)?:
                // Pyramid tiles (the current photo only, coarse first) over the base pixels;
                // an animated photo's frame instead of its first, while it plays or is paused.
                let tiles = page.index == current ? store.focusedTiles().map(Self.tileLayer) : []
                // Turned by whole quarters, the box's corner on a whole pixel too: the compositor
                // turns the pixel grid there, exactly.
                let frame = self.photo(atPage: page.index).flatMap(store.animationFrame(of:))
                // A photo still arriving shows only the part that has arrived (`ArrivingPhoto`).
                let arriving = library.photos[page.index].isArriving
                let image = Self.photoLayer(
                    ImageContent(
                        pixels: frame?.pixels ?? photo.pixels, size: Size(photo.fullSize), isOpaque: frame?.isOpaque ?? photo.isOpaque,
                        smaller: frame == nil ? photo.smaller : []),
                    tiles: tiles, transform: Self.pixelAligned(page.transform), rotation: page.rotation,
                    clip: arriving ? photo.arrivedPart : nil)
                let badge = photo.isPreview ? nil : arriving ? photo.arrivingText : photo.damageText
                content = Layer(sublayers: [image] + damageBadge(badge, view: view, in: size))
            case .failure(let reason)?:
                // A file still being written is not broken: its page says it is arriving.
                let detail = library.photos[page.index].isArriving ? DecodedPhoto.arrivingDetail : reason
                if let cached = view.message, cached.width == size.width, cached.color == foreground, cached.detail == detail {
                    content = cached.layer
                } else {
                    content = labels.message(title: library.photos[page.index].name, detail: detail, in: size, color: foreground)
                    view.message = (size.width, foreground, detail, content)
                }
            case nil:
                // The photo's shape where it will be, never a black page; the spinner over it
                // once the wait is long.
                var waiting: [Layer] = []
                if let shape = view.shape {
                    waiting.append(PagePlaceholder.layer(
                        shape: shape, rotation: page.rotation, viewport: size, backgroundBlackness: state.backgroundBlackness))
                }
                if let since = view.waitingSince, now - since >= Spinner.delay {
                    waiting.append(spinner.layer(center: window.center, elapsed: now - since - Spinner.delay, color: foreground))
                }
                content = Layer(sublayers: waiting)
            }
            if page.index == state.currentPage { drawnCurrentContent = content }
            let placed = Layer(transform: ScaleTranslate(offset: origin), clip: window, sublayers: [content])
            layers.append(page.index == state.currentPage && motion != .identity ? Layer(transform: motion, sublayers: [placed]) : placed)
        }
        // The info sheet of a narrow window covers the strip: it is not drawn through it.
        let sheetOpen = state.chrome.panel == .info && !state.chrome.layout.infoPanelIsSide
        let stripOpacity = sheetOpen ? 0 : Self.barsOpacity(state)
        layers += zoomLabel(state.zoomLabel, in: size, strip: state.chrome.layout.stripBand, stripOpacity: stripOpacity)
        layers += slideshowLabel(state.slideshowLabel, below: state.chrome.layout.bar, in: size)
        layers += noticeLabel(below: state.chrome.layout.bar, in: size)
        layers += stripView.layers(
            state.strip, of: library.order, opacity: stripOpacity,
            dark: state.backgroundBlackness >= 0.5, turnOfPhoto: interaction.rotation(ofPage:))
        layers += chrome(state)
        let fill = Layer(opacity: state.dismissBackgroundAlpha, content: .fill(window, Self.background(state)))
        // What shows through only while the background fades: no second full-window fill at rest.
        let behind = state.dismissBackgroundAlpha < 1 ? [backdrop ?? Layer(content: .fill(window, .black))] : []
        return Layer(sublayers: behind + [fill] + layers)
    }

    /// The bars and the open panel over the photo (faded with the background while the photo is
    /// dragged down); nothing when the library is empty.
    private func chrome(_ state: ViewerRenderState) -> [Layer] {
        guard library.photos.indices.contains(state.currentPage) else { return [] }
        let index = state.currentPage
        let shown = state.pages.first { $0.index == index }?.transform.scale ?? 0
        let content = ChromeView.Content(
            name: library.photos[index].name, position: PhotoInfo.position(index: index, count: library.photos.count),
            info: shownPhotoInfo(page: index) ?? PhotoInfo.unread(path: library.photos[index].path),
            zoomed: shown > interaction.zoomBounds(forPage: index).fitTransform.scale * (1 + 1e-9), fullscreen: isWindowFullscreen())
        var chrome = state.chrome
        chrome.opacity = Self.barsOpacity(state)
        return chromeView.layers(chrome, content: content, blackness: state.backgroundBlackness)
    }

    /// Says `text` for a moment under the bar ("Copied" once Ctrl+C has put the photo on the
    /// clipboard).
    public func showNotice(_ text: String) {
        notice.show(text, at: interaction.now)
        needsDisplay = true
    }

    /// The notice, centred under where the bar lies, fading with its opacity.
    private func noticeLabel(below bar: Rect, in size: Size) -> [Layer] {
        let opacity = notice.opacity(at: interaction.now)
        guard opacity > 0 else { return [] }
        if noticeBadge?.text != notice.text { noticeBadge = (notice.text, labels.badge(notice.text)) }
        guard let badge = noticeBadge?.badge else { return [] }
        let origin = Point(x: ((size.width - badge.size.width) / 2).rounded(), y: bar.maxY + Self.badgeInset)
        return [Layer(transform: ScaleTranslate(offset: origin), opacity: opacity, sublayers: [badge.layer])]
    }

    /// Tells the interaction how many lines the open panel holds (the shown photo's details
    /// wrapped to the panel's width, or the help's tallest column), counted again only when what
    /// they depend on changes: text is measured by rendering it.
    private func countPanelLines() {
        let layout = interaction.renderState.chrome.layout
        switch interaction.panel {
        case .info:
            guard let info = shownPhotoInfo() else { return }
            let key = PanelLinesKey(info: info, width: layout.infoPanel.width, scale: layout.scale)
            if countedInfoLines?.key != key { countedInfoLines = (key, chromeView.infoLines(info, layout: layout).count) }
            if let count = countedInfoLines?.count { interaction.setInfoRows(count) }
        case .help:
            let key = PanelLinesKey(info: nil, width: layout.helpPanel.width, scale: layout.scale)
            if countedHelpRows?.key != key { countedHelpRows = (key, chromeView.helpRows(layout)) }
            if let count = countedHelpRows?.count { interaction.setHelpRows(count) }
        case .none:
            break
        }
    }

    /// What a panel's line count depends on.
    private struct PanelLinesKey: Equatable {
        var info: PhotoInfo?
        var width: Double
        var scale: Double
    }

    /// The details of the photo on `page` (the current one by default) once read, asked for
    /// until then (`PhotoInfoReader`); nil when there is no such page or they are being read.
    private func shownPhotoInfo(page: Int? = nil) -> PhotoInfo? {
        let index = page ?? current
        guard library.photos.indices.contains(index) else { return nil }
        let photo = library.photos[index]
        let info = infoReader.info(of: photo.id, at: photo.path)
        drawnWithoutInfo = info == nil ? photo.id : nil
        return info
    }

    /// The bars' and the strip's opacity in `state`: none while the photo is dragged down (or
    /// springs back from a drag), as Photos hides them as the drag starts and brings them back
    /// when the photo comes to rest (they were drawn over the grid showing through); else the
    /// chrome's, faded with the background.
    static func barsOpacity(_ state: ViewerRenderState) -> Double {
        state.dismissOffset == .zero ? state.chrome.opacity * state.dismissBackgroundAlpha : 0
    }

    /// Badges sit `badgeInset` px in from the window's edges.
    static let badgeInset = 16.0

    /// The quiet badge saying `text` of a damaged photo (or one still arriving), at its page's
    /// bottom-left corner (it slides with the page, and stays put while the photo zooms); none
    /// without text (a clean photo, a preview).
    private func damageBadge(_ text: String?, view: PageView, in size: Size) -> [Layer] {
        guard let text else { return [] }
        let badge = view.damageBadge.flatMap { $0.text == text ? $0.badge : nil } ?? labels.badge(text)
        view.damageBadge = (text, badge)
        let origin = Point(x: Self.badgeInset, y: size.height - Self.badgeInset - badge.size.height)
        return [Layer(transform: ScaleTranslate(offset: origin), sublayers: [badge.layer])]
    }

    /// What the slideshow did ("Slideshow paused"), centred under where the bar lies (shown or
    /// not), fading with the label's opacity.
    private func slideshowLabel(_ label: ViewerRenderState.SlideshowLabel, below bar: Rect, in size: Size) -> [Layer] {
        guard label.opacity > 0 else { return [] }
        if slideshowBadge?.text != label.text { slideshowBadge = (label.text, labels.badge(label.text)) }
        guard let badge = slideshowBadge?.badge else { return [] }
        let origin = Point(x: ((size.width - badge.size.width) / 2).rounded(), y: bar.maxY + Self.badgeInset)
        return [Layer(transform: ScaleTranslate(offset: origin), opacity: label.opacity, sublayers: [badge.layer])]
    }

    /// The zoom level ("250 %") centred near the window's bottom while the zoom changes, fading
    /// with the label's opacity; above the navigator strip's band while the strip shows (it hid
    /// the label), moving there as the strip fades in (`stripOpacity`).
    private func zoomLabel(_ label: ViewerRenderState.ZoomLabel, in size: Size, strip: Rect, stripOpacity: Double) -> [Layer] {
        guard label.opacity > 0 else { return [] }
        let text = label.text
        if zoomBadge?.text != text { zoomBadge = (text, labels.badge(text)) }
        guard let badge = zoomBadge?.badge else { return [] }
        let bottom = size.height + (min(strip.minY, size.height) - size.height) * min(max(stripOpacity, 0), 1)
        let origin = Point(
            x: ((size.width - badge.size.width) / 2).rounded(), y: (bottom - Self.badgeInset - badge.size.height).rounded())
        return [Layer(transform: ScaleTranslate(offset: origin), opacity: label.opacity, sublayers: [badge.layer])]
    }
}
