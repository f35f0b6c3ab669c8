import RiffleGeometry
import RiffleInteraction
import RiffleRaster

/// The one narrow door between the app and a screen: a framebuffer to draw into, a way to show
/// it, and the input that arrives. Two implementations: the X11 window and `HeadlessDisplay`.
///
/// All calls but `wake()` come from the app's thread.
public protocol Display: AnyObject {
    /// The window's size in pixels; the frame buffer has this size.
    var size: PixelSize { get }

    /// Pixels per point for text and controls: 1 on a 96 dpi screen, 2 at 192 dpi (the X
    /// screen's `Xft.dpi` / 96, the scale GTK and Qt take from it).
    var pixelsPerPoint: Double { get }

    /// The buffer the next frame is drawn into (window-sized, reallocated after a resize).
    func frameBuffer() -> PixelBuffer

    /// Shows the frame buffer's contents in the window.
    func present()

    /// Sets the window title (UTF-8).
    func setTitle(_ title: String)

    /// Asks for the window to be `size`; the new size arrives later as a `.resize` event (at
    /// once for a headless display, after the server's ConfigureNotify for a window).
    func requestResize(_ size: PixelSize)

    /// Asks the window manager for (or out of) fullscreen.
    func setFullscreen(_ on: Bool)

    /// Shows `cursor` over the window (from the user's cursor theme for a window).
    func setCursor(_ cursor: PointerCursor)

    /// Makes `offer` the clipboard's content, replacing the last one, until another program
    /// takes the clipboard (for a window: the CLIPBOARD selection, claimed at the last key's time).
    func offerClipboard(_ offer: ClipboardOffer)

    /// Events that have arrived since the last call, oldest first; never blocks.
    func pollEvents() -> [InputEvent]

    /// Blocks until an event arrives, `wake()` is called, or `timeout` seconds pass
    /// (nil: no timeout). Returns at once if events are already queued.
    func waitForEvents(timeout: Double?)

    /// Ends a `waitForEvents` early; safe to call from any thread.
    func wake()

    /// What the screen shows now, read back from where it is shown (the X server for a window).
    func capture() throws -> PixelBuffer

    /// The display's ICC profile (the X ICC Profiles convention: the root window's
    /// `_ICC_PROFILE` property), or nil when it has none: sRGB is then assumed.
    var colourProfile: [UInt8]? { get }

    /// For a frame started at `time`: when it will be on screen and when the next frame should
    /// start, where the display knows its timing, else nil (the loop then draws each frame for
    /// the moment it is drawn and paces itself).
    func frameTiming(startedAt time: Double) -> FrameTiming?

    /// Seconds between the refreshes of the monitor showing the window, when known (RandR's
    /// mode for it): the loop paces itself at this rate where `frameTiming` knows no vblank.
    var refreshInterval: Double? { get }

    /// The frame just presented is the first to answer input that arrived at `time`: when the
    /// display sees it shown, it tells `presentationObserver`.
    func presentedFrameAnswers(inputAt time: Double)

    /// Who hears how frames reach the screen (`--stats`); held weakly. A display that cannot
    /// tell keeps none.
    var presentationObserver: PresentationObserver? { get set }
}

extension Display {
    public var colourProfile: [UInt8]? { nil }
    public func frameTiming(startedAt time: Double) -> FrameTiming? { nil }
    public var refreshInterval: Double? { nil }
    public func presentedFrameAnswers(inputAt time: Double) {}
    public var presentationObserver: PresentationObserver? {
        get { nil }
        set {}
    }
}
