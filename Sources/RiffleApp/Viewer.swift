import RiffleDisplay
import RiffleGeometry
import RiffleImageIO
import RiffleInteraction
import RiffleRaster

/// The photo viewer: input in, frames out. Owns the paging state and the decoded photos; knows
/// nothing of where time and input come from (the live loop or a replay drives it) or where
/// frames go (any `Display`).
public final class Viewer {
    /// Black space between two pages while they slide, in window pixels (Riffle's choice from
    /// PhotoScroller's 20 pt; see PHYSICS.md).
    public static let pageGap = 20.0

    public let library: PhotoLibrary
    /// Index of the photo the viewer is on (or sliding to).
    public private(set) var current: Int
    /// Set when the user asked to quit; the loop that drives the viewer ends.
    public private(set) var wantsToQuit = false
    /// Position of the paging layer, in pages (fractional while sliding).
    public private(set) var pagingPosition: Double

    private let display: Display
    private let store: PhotoStore
    private let compositor: Compositor
    private let labels: PageLabels
    private var viewport: PixelSize
    private var slide: PageSlide?
    private var needsDisplay = true
    private var isFullscreen = false

    /// A viewer on `library`, drawing into `display`, decoding with `decodeService`.
    public init(library: PhotoLibrary, display: Display, compositor: Compositor, decodeService: DecodeService<PhotoContent>, font: FontFace?) {
        self.library = library
        self.display = display
        self.compositor = compositor
        self.labels = PageLabels(font: font)
        current = library.startIndex
        pagingPosition = Double(library.startIndex)
        viewport = display.size
        store = PhotoStore(photos: library.photos, service: decodeService)
        store.focus(on: current, viewport: viewport, direction: 0)
        updateTitle()
    }

    /// True while something moves on screen, so the loop must keep stepping at 60 Hz.
    public var isAnimating: Bool { slide != nil }

    /// Applies one input event received at clock time `now`.
    public func handle(_ event: InputEvent, now: Double) {
        switch event {
        case .key(let name, _, _):
            handleKey(name, now: now)
        case .resize(let size):
            viewport = size
            store.focus(on: current, viewport: viewport, direction: 0)
            needsDisplay = true
        case .expose:
            needsDisplay = true
        case .close:
            wantsToQuit = true
        case .pointerDown, .pointerMove, .pointerUp, .scroll, .pinch:
            break
        }
    }

    /// Moves animations to clock time `now` and takes in finished decodes.
    public func advance(to now: Double) {
        if store.absorbResults() { needsDisplay = true }
        if let slide {
            pagingPosition = slide.position(at: now)
            needsDisplay = true
            if slide.isDone(at: now) { self.slide = nil }
        }
    }

    /// Draws and presents a frame if anything changed since the last one; true if it did.
    @discardableResult
    public func renderIfNeeded() -> Bool {
        guard needsDisplay else { return false }
        needsDisplay = false
        let target = display.frameBuffer()
        compositor.render(scene(), into: target)
        display.present()
        return true
    }

    /// Blocks until every decode asked for so far is finished and taken in.
    public func settleDecodes() {
        store.waitForDecodes()
        if store.absorbResults() { needsDisplay = true }
    }

    // MARK: input

    private func handleKey(_ name: String, now: Double) {
        let count = library.photos.count
        switch name {
        case "Right", "space", "Next", "KP_Next", "Down":
            go(to: current + 1, now: now)
        case "Left", "BackSpace", "Prior", "KP_Prior", "Up":
            go(to: current - 1, now: now)
        case "Home", "KP_Home":
            go(to: 0, now: now)
        case "End", "KP_End":
            go(to: count - 1, now: now)
        case "q", "Q", "Escape":
            wantsToQuit = true
        case "f", "F11":
            isFullscreen.toggle()
            display.setFullscreen(isFullscreen)
        default:
            break
        }
    }

    /// Slides to photo `index` (clamped to the library). A jump of several photos slides in from
    /// the neighbouring page instead of flying past every photo in between.
    private func go(to index: Int, now: Double) {
        guard !library.photos.isEmpty else { return }
        let target = min(max(index, 0), library.photos.count - 1)
        guard target != current else { return }
        let direction = target > current ? 1 : -1
        var from = pagingPosition
        if abs(Double(target) - from) > 1 { from = Double(target - direction) }
        slide = PageSlide(from: from, to: Double(target), start: now)
        current = target
        store.focus(on: current, viewport: viewport, direction: direction)
        updateTitle()
        needsDisplay = true
    }

    private func updateTitle() {
        display.setTitle(WindowTitle.text(library: library, index: current))
    }

    // MARK: scene

    /// The layer tree of the frame: background > paging layer > page > zoom > image.
    func scene() -> Layer {
        let size = Size(viewport)
        let pageWidth = size.width + Self.pageGap
        var pages: [Layer] = []
        if library.photos.isEmpty {
            pages.append(labels.message(title: "No photos", detail: "Riffle found no JPEG or PNG files in \(library.description).", in: size))
        } else {
            let first = max(0, Int(pagingPosition.rounded(.down)))
            let last = min(library.photos.count - 1, Int(pagingPosition.rounded(.up)))
            if first <= last {
                for index in first...last {
                    var page = Layer(
                        transform: ScaleTranslate(offset: Point(x: Double(index) * pageWidth, y: 0)),
                        clip: Rect(origin: .zero, size: size))
                    page.sublayers = [pageContent(index, in: size)]
                    pages.append(page)
                }
            }
        }
        let paging = Layer(transform: ScaleTranslate(offset: Point(x: -pagingPosition * pageWidth, y: 0)), sublayers: pages)
        return Layer(content: .fill(Rect(origin: .zero, size: size), .black), sublayers: [paging])
    }

    private func pageContent(_ index: Int, in size: Size) -> Layer {
        switch store.content(at: index) {
        case .image(let pixels, let fullSize, let isOpaque)?:
            let content = Size(fullSize)
            let frame = AspectFit.frame(content: content, viewport: size)
            let zoom = ScaleTranslate(scale: AspectFit.scale(content: content, viewport: size), offset: frame.origin)
            return Layer(transform: zoom, content: .image(ImageContent(pixels: pixels, size: content, isOpaque: isOpaque)))
        case .failure(let reason)?:
            return labels.message(title: library.photos[index].name, detail: reason, in: size)
        case nil:
            return Layer()
        }
    }
}
