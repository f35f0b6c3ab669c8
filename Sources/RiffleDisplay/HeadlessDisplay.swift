import RiffleGeometry
import RiffleInteraction
import RiffleRaster

/// A display without a screen: frames are drawn into one buffer in memory, which stands for the
/// screen once presented (as an MIT-SHM segment does for a window); `capture()` copies it. Input
/// comes from whoever calls `inject(_:)` (the replay driver). Used by every app test and by
/// `riffle --headless`.
public final class HeadlessDisplay: Display {
    public private(set) var size: PixelSize
    public private(set) var title = ""
    public private(set) var isFullscreen = false
    /// The pointer shape last asked for (the arrow until then).
    public private(set) var cursor = PointerCursor.arrow
    /// What the app last put on the clipboard (nil until it does).
    public private(set) var clipboard: ClipboardOffer?
    /// How many frames have been presented.
    public private(set) var presentedFrames = 0
    private var back: PixelBuffer
    private var queue: [InputEvent] = []

    /// 1: a headless run has no screen to take a dpi from (`SessionOptions.scale`, `--scale`,
    /// overrides it).
    public let pixelsPerPoint = 1.0

    /// Told at once that frames go nowhere but memory.
    public weak var presentationObserver: PresentationObserver? {
        didSet { presentationObserver?.presentation(path: "none (headless)") }
    }

    public init(size: PixelSize) {
        self.size = size
        back = PixelBuffer(width: size.width, height: size.height)
    }

    /// Queues `event` for the next `pollEvents()`; a resize takes effect at once.
    public func inject(_ event: InputEvent) {
        if case .resize(let newSize) = event, newSize != size {
            size = newSize
            back = PixelBuffer(width: newSize.width, height: newSize.height)
        }
        queue.append(event)
    }

    public func frameBuffer() -> PixelBuffer { back }

    public func present() { presentedFrames += 1 }

    public func setTitle(_ title: String) { self.title = title }

    public func setFullscreen(_ on: Bool) { isFullscreen = on }

    public func setCursor(_ cursor: PointerCursor) { self.cursor = cursor }

    public func offerClipboard(_ offer: ClipboardOffer) { clipboard = offer }

    public func requestResize(_ size: PixelSize) { inject(.resize(size)) }

    public func pollEvents() -> [InputEvent] {
        defer { queue.removeAll() }
        return queue
    }

    public func waitForEvents(timeout: Double?) {}

    public func wake() {}

    /// The frame buffer as last presented: the viewer draws into it only to present, so between
    /// a present and the next frame it is what the "screen" shows.
    public func capture() throws -> PixelBuffer { back.copy() }
}
