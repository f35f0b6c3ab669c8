import RiffleGeometry

/// Everything the app needs to draw one frame of the viewer, read from `ViewerInteraction`.
///
/// Page i's left edge is at window x = i · pageWidth − pagingOffset (`Page.originX`); inside a
/// page, the photo is turned by `Page.rotation` about its centre and `Page.transform` maps the
/// box around it, turned (`Rotation.boundingSize(of:)`, its top-left at 0,0), to page pixels
/// (the page's top-left is 0,0): unturned, image pixels to page pixels. The current page is
/// further moved by `dismissOffset` while dragged at fit by a vertical pan.
public struct ViewerRenderState: Hashable, Sendable {
    /// One page on screen.
    public struct Page: Hashable, Sendable {
        /// The page's index.
        public var index: Int
        /// Window x of the page's left edge: index · pageWidth − pagingOffset.
        public var originX: Double
        /// The turned photo's bounding box (image pixels, turned) → page pixels.
        public var transform: ScaleTranslate
        /// The photo's turn about its centre: whole quarter turns at rest, in between while it
        /// turns.
        public var rotation: Rotation
    }

    /// The window size, pixels.
    public var viewport: Size
    /// viewport width + `PagingScrollModel.gap`, pixels.
    public var pageWidth: Double
    /// The paging strip's position, pixels (page k at rest: k · pageWidth exactly).
    public var pagingOffset: Double
    /// The page resting, settling towards, or nearest while dragged.
    public var currentPage: Int
    /// The pages overlapping the window, in index order.
    public var pages: [Page]
    /// Background: 0 white (chrome shown) … 1 black (chrome hidden).
    public var backgroundBlackness: Double
    /// True when the chrome is shown or fading in.
    public var chromeVisible: Bool
    /// Offset of the current page while dragged at fit by a vertical pan (it follows the pointer
    /// on both axes), pixels.
    public var dismissOffset: Point
    /// The current page's whole motion while dragged to dismiss (window pixels → window pixels):
    /// it follows the pointer and shrinks about the point the drag began (`DismissDragModel`).
    public var dismissTransform: ScaleTranslate
    /// The background's opacity behind the dragged-down photo: 1 − |dy| / (H/3), clamped to [0, 1].
    public var dismissBackgroundAlpha: Double
    /// True while anything moves with time alone or a timer is outstanding: keep stepping.
    public var isAnimating: Bool
    /// The bars, their buttons' states and the open panel.
    public var chrome: ChromeRenderState
    /// The zoom-level label of the current page.
    public var zoomLabel: ZoomLabel
    /// The navigator strip (drawn at the chrome's opacity).
    public var strip: Strip
    /// What the slideshow just did, shown briefly.
    public var slideshowLabel: SlideshowLabel

    /// The navigator strip at one instant.
    public struct Strip: Hashable, Sendable {
        /// Where it lies.
        public var layout: NavigatorStripLayout
        /// f: its position in photos (the photo f is centred and open at whole f).
        public var position: Double
        /// The cells on screen at `position`, in index order.
        public var cells: [NavigatorStripLayout.Cell]
    }

    /// The short-lived slideshow label ("Slideshow paused") over the photo.
    public struct SlideshowLabel: Hashable, Sendable {
        /// What it says (empty before the slideshow has said anything).
        public var text: String
        /// 0 hidden … 1 fully shown.
        public var opacity: Double
    }

    /// The short-lived zoom-level figure ("250 %") over the photo while its zoom changes.
    public struct ZoomLabel: Hashable, Sendable {
        /// Image pixels → screen pixels of the current page (1 = 100 %).
        public var scale: Double
        /// 0 hidden … 1 fully shown.
        public var opacity: Double

        /// The scale as a whole percentage, "250 %" (a narrow no-break space before the sign,
        /// as typography asks).
        public var text: String { "\(Int((scale * 100).rounded()))\u{202F}%" }
    }
}
