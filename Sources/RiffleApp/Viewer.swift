import RiffleDisplay
import RiffleGeometry
import RiffleImageIO
import RiffleInteraction
import RiffleRaster

/// The photo viewer: input in, frames out. Wires the interaction model (paging, zoom, gestures)
/// to the decoded photos and the compositor; knows nothing of where time and input come from
/// (the live loop or a replay drives it) or where frames go (any `Display`).
public final class Viewer {
    public let library: PhotoLibrary
    /// Set when the user asked to quit; the loop that drives the viewer ends.
    public var wantsToQuit: Bool { interaction.wantsQuit }
    /// True while something moves on screen or a gesture timer runs, so the loop must keep
    /// stepping at 60 Hz.
    public var isAnimating: Bool { interaction.isAnimating }
    /// Index of the photo the viewer is on (or settling to).
    public var current: Int { interaction.currentPage }
    /// What the next frame shows: paging offset, each visible page's zoom, the background.
    public var renderState: ViewerRenderState { interaction.renderState }

    private let display: Display
    private let store: PhotoStore
    private let compositor: Compositor
    private let labels: PageLabels
    private var interaction: ViewerInteraction
    private var focusedPage: Int
    private var fullscreenToggles = 0
    private var drawnState: ViewerRenderState?
    private var needsDisplay = true

    /// A viewer on `library`, drawing into `display`, decoding with `decodeService`.
    public init(library: PhotoLibrary, display: Display, compositor: Compositor, decodeService: DecodeService<PhotoContent>, font: FontFace?) {
        self.library = library
        self.display = display
        self.compositor = compositor
        labels = PageLabels(font: font)
        interaction = ViewerInteraction(
            pageCount: library.photos.count, viewport: Size(display.size), page: library.startIndex, chromeVisible: false)
        focusedPage = library.startIndex
        store = PhotoStore(photos: library.photos, service: decodeService)
        store.focus(on: focusedPage, viewport: display.size, direction: 0)
        updateTitle()
    }

    /// Applies one input event received at clock time `now`.
    public func handle(_ event: InputEvent, now: Double) {
        switch event {
        case .resize(let size):
            interaction.resize(viewport: Size(size), at: now)
            store.focus(on: current, viewport: size, direction: 0)
        case .expose:
            needsDisplay = true
        default:
            interaction.handle(event)
        }
        followInteraction()
    }

    /// Moves animations to clock time `now` and takes in finished decodes.
    public func advance(to now: Double) {
        interaction.step(to: now)
        for (index, size) in store.absorbResults() {
            if let size { interaction.setContentSize(Size(size), forPage: index, at: now) }
            needsDisplay = true
        }
        followInteraction()
        requestDetail()
    }

    /// Once a zoom comes to rest, asks for the current photo decoded at the size it is shown
    /// (not during the motion: a pinch or bounce would ask for a new decode every frame).
    private func requestDetail() {
        guard !interaction.isAnimating, case .image(_, let fullSize, _)? = store.content(at: current),
              let shown = interaction.renderState.pages.first(where: { $0.index == current }) else { return }
        let fit = AspectFit.scale(content: Size(fullSize), viewport: Size(display.size))
        store.showFocused(atDetail: max(1, shown.transform.scale / fit))
    }

    /// Draws and presents a frame if anything changed since the last one; true if it did.
    @discardableResult
    public func renderIfNeeded() -> Bool {
        let state = interaction.renderState
        guard needsDisplay || state != drawnState else { return false }
        needsDisplay = false
        drawnState = state
        compositor.render(scene(state), into: display.frameBuffer())
        display.present()
        return true
    }

    /// Blocks until every decode asked for so far is finished and taken in.
    public func settleDecodes() {
        store.waitForDecodes()
        advance(to: interaction.now)
    }

    /// Reacts to what the interaction model decided: a new current page refocuses decoding and
    /// retitles the window; a fullscreen toggle goes to the display.
    private func followInteraction() {
        let page = interaction.currentPage
        if page != focusedPage, library.photos.indices.contains(page) {
            store.focus(on: page, viewport: display.size, direction: page > focusedPage ? 1 : -1)
            focusedPage = page
            updateTitle()
        }
        while fullscreenToggles < interaction.fullscreenToggles {
            fullscreenToggles += 1
            display.setFullscreen(fullscreenToggles % 2 == 1)
        }
    }

    private func updateTitle() {
        display.setTitle(WindowTitle.text(library: library, index: focusedPage))
    }

    // MARK: scene

    /// Background colour: black with the chrome hidden, white with it shown (Photos), faded by
    /// the vertical drag's background alpha.
    static func background(_ state: ViewerRenderState) -> Color {
        let base = Color.mix(.white, .black, state.backgroundBlackness)
        return Color.mix(.black, base, state.dismissBackgroundAlpha)
    }

    /// The layer tree of the frame: background > paging layer > page > zoom > image.
    func scene(_ state: ViewerRenderState) -> Layer {
        let size = state.viewport
        let window = Rect(origin: .zero, size: size)
        let textColor = state.backgroundBlackness < 0.5 ? Color.black : Color.white
        var pages: [Layer] = []
        if library.photos.isEmpty {
            pages.append(labels.message(
                title: "No photos", detail: "Riffle found no JPEG or PNG files in \(library.description).", in: size, color: textColor))
        }
        for page in state.pages where library.photos.indices.contains(page.index) {
            var origin = Point(x: page.originX, y: 0)
            if page.index == state.currentPage { origin = origin + state.dismissOffset }
            let content: Layer
            switch store.content(at: page.index) {
            case .image(let pixels, let fullSize, let isOpaque)?:
                content = Layer(
                    transform: page.transform,
                    content: .image(ImageContent(pixels: pixels, size: Size(fullSize), isOpaque: isOpaque)))
            case .failure(let reason)?:
                content = labels.message(title: library.photos[page.index].name, detail: reason, in: size, color: textColor)
            case nil:
                content = Layer()
            }
            pages.append(Layer(transform: ScaleTranslate(offset: origin), clip: window, sublayers: [content]))
        }
        return Layer(content: .fill(window, Self.background(state)), sublayers: pages)
    }
}
