import RiffleGeometry
import RifflePhysics

/// The viewer's whole interaction state: paging strip, per-page zoom, recognizers, the vertical
/// drag and the chrome fade. State changes only through `handle`, `step`, `resize`,
/// `setContentSize` and `setPageCount`, each at an explicit clock time (seconds); reading
/// `renderState` never changes anything.
///
/// Routing of a pan (pointer drag or trackpad scroll): a zoomed photo pans in 2D until its edge,
/// then the paging strip takes the horizontal rest; motion back first returns the strip to its
/// page, then pans the photo again. An unzoomed photo: horizontal pans page, vertical pointer
/// pans drag the photo (`DismissDragModel`: it then follows the pointer on both axes, and springs
/// back on release, the viewer having no grid to close into). A page that stops being current
/// returns to fit once it is off screen or the strip settles. While a pointer drag is in
/// progress, wheel, pinch and key zooms, pans and page turns are ignored.
///
/// The navigator strip (`NavigatorStripLayout`) follows the pager's fractional position, except
/// while the user drives it (`NavigatorStripScroll`: a drag, flick, click, wheel or trackpad scroll on its band
/// while the chrome shows): then the pager rests, every frame, on the photo under the strip's
/// centre, without the page slide, until the strip rests on that photo's cell; anything that
/// sets the pager moving (a key, a drag on the photo) hands the strip back to following it.
///
/// Effects outside the model (quit, fullscreen, going back to the library) are returned by
/// `handle` as `ViewerCommand`s. With a library behind the pager (`libraryBehind`), a vertical
/// drag released past `DismissDragModel`'s thresholds, Alt+Up, and a pinch or wheel burst that
/// ends below `ZoomOutDismissal.dismissFitFraction` of fit dismiss the photo; a zoomed photo is
/// dragged to dismiss only when pulled down from its top edge, else it pans. Escape steps back
/// one level: a panel closes first, then to the library, else quits. Fullscreen is not the
/// pager's: the scene owns it (its Escape leaves it before the pager's is asked) and the
/// fullscreen button asks the scene for it. A click that focuses the
/// window (pressed while it lacked the focus, or the first press within `focusClickWindow` of
/// gaining it, or one during which it gains it) only focuses it: it toggles nothing and starts no
/// double click.
///
/// r and Shift+R turn the current photo a quarter clockwise and anticlockwise (its view, never
/// its file) through `TurnAnimation`; each photo keeps its turn for the session, paging away and
/// back included. A turned photo is everywhere the picture turned: it fits the window by its
/// turned size, and its zoom, pans, rubber band and double-click work in the turned frame. A
/// photo at fit turns to fit; a zoomed one keeps its scale (within the new limits) and the point
/// under the window's centre. No turn starts while a gesture holds the photo.
///
/// s starts a slideshow (`Slideshow`, with `slideshowSettings`), which turns to the next photo
/// through the page spring every interval; on the last photo it ends, or with `loops` goes back
/// to the first as Home does. Any input the pager gets (a press, the wheel, a pinch, any key but
/// s) pauses it; s resumes it. Leaving the pager stops it. `SlideshowLabel` says what
/// it did.
public struct ViewerInteraction: Sendable {
    /// 0.3 s: a press this close to the window gaining the focus (either order) is the click
    /// that gave it, whatever the window manager's event order (Riffle's choice: a person's
    /// second click comes later than this).
    public static let focusClickWindow = 0.3
    /// A third of the window per arrow-key pan of a zoomed photo (Loupe pans by a fraction of
    /// the view per key press; Riffle's fraction).
    public static let arrowPanFraction = 1.0 / 3


    /// The window size, pixels.
    public internal(set) var viewport: Size
    /// The latest clock time seen, seconds: state is as of this time.
    public internal(set) var now: Double
    /// True when a library grid lies behind the pager, to go back to.
    public let libraryBehind: Bool
    /// How a slideshow started with s runs.
    public let slideshowSettings: Slideshow.Settings

    var contentSizes: [Int: Size] = [:]
    var paging: PagingScrollModel
    var zooms: [Int: ZoomScrollModel] = [:]
    /// Each page's turn in quarter turns clockwise, 0...3 (none: 0), kept for the session.
    var turns: [Int: Int] = [:]
    /// The pages turning now, until they rest.
    var turnAnimations: [Int: TurnAnimation] = [:]
    /// The slideshow since s (or `startSlideshow`), nil before any and once the pager is left.
    var slideshow: Slideshow?
    var slideshowLabel = SlideshowLabel()
    var pan = PanRecognizer()
    var clicks = ClickRecognizer()
    var wheel = WheelRecognizer()
    var dismiss = DismissDragModel()
    var fade: BackgroundFade
    var chrome: ChromeInteraction
    /// Presses on the navigator strip: drags scrub, taps go to a cell.
    var stripPan = PanRecognizer()
    /// A trackpad's smooth scrolling over the navigator strip: a drag of the strip.
    var stripWheel = WheelRecognizer()
    /// The strip's own motion while the user drives it; nil while it follows the pager.
    var stripScroll: NavigatorStripScroll?
    var drag: Drag?
    var wheelZoomPage: Int?
    var pinchPage: Int?
    var zoomLabel = ZoomLabel()
    /// The page whose zoom the label shows; the label goes when another page becomes current.
    var zoomLabelPage: Int?
    var hasFocus = true
    /// Where the left button last went down (a pan's direction at its lock is lock − press).
    var pressPosition = Point.zero
    /// When the focus was gained, while no press has claimed being the one that gained it.
    var unclaimedFocusGain: Double?
    /// The press in progress is the one that focused the window: its tap is ignored.
    var pressOnlyFocuses = false
    /// Commands issued while handling the current event.
    var commands: [ViewerCommand] = []
    /// The zoom gesture in progress (pinch, or a burst of wheel notches) and whether it may close
    /// the photo.
    var zoomOut: ZoomOutDismissal?

    struct Drag: Sendable {
        var route: Route
        var source: Source
    }

    enum Route: Sendable {
        case photo(page: Int, bothAxes: Bool)
        case dismiss
    }

    enum Source: Sendable {
        case pointer
        case precise
    }

    /// A viewer of `pageCount` pages in `viewport`, resting on `page` at clock `time`.
    public init(
        pageCount: Int, viewport: Size, page: Int = 0, time: Double = 0, chromeVisible: Bool = true, libraryBehind: Bool = false,
        chromeScale: Double = 1, infoRows: Int = 0, slideshowSettings: Slideshow.Settings = Slideshow.Settings()
    ) {
        self.viewport = viewport
        self.libraryBehind = libraryBehind
        self.slideshowSettings = slideshowSettings
        now = time
        paging = PagingScrollModel(pageCount: pageCount, viewportWidth: viewport.width, page: page)
        fade = BackgroundFade(chromeVisible: chromeVisible)
        chrome = ChromeInteraction(
            layout: ChromeLayout(viewport: viewport, scale: chromeScale, infoRows: infoRows), pinned: chromeVisible)
    }

    /// Where the navigator strip lies (its cells' sizes in the chrome's scale).
    public var stripLayout: NavigatorStripLayout {
        NavigatorStripLayout(viewport: viewport, scale: chrome.layout.scale, count: pageCount)
    }

    /// The navigator strip's position in photos at `now`: its own while the user drives it,
    /// else the pager's (its position over its page width), so it follows every slide.
    public var stripPosition: Double {
        if let stripScroll { return stripScroll.position(at: now) }
        return paging.pageWidth > 0 ? paging.position(at: now) / paging.pageWidth : Double(currentPage)
    }

    /// True while the user drives the navigator strip (drag, coast, click or wheel animation).
    public var isStripDriven: Bool { stripScroll != nil }

    /// Page `page`'s width over height as it is shown, turned by its turn, when its size is
    /// known: the strip opens the current cell to this.
    func aspect(_ page: Int) -> Double? {
        contentSizes[page].flatMap { $0.height > 0 ? rotation(ofPage: page).boundingSize(of: $0) : nil }
            .map { $0.width / $0.height }
    }

    /// The panel or overlay open over the photo (Escape closes it first).
    public var panel: ViewerPanel { chrome.panel }

    /// The info panel now holds `rows` lines of text (the shown photo's details, wrapped).
    public mutating func setInfoRows(_ rows: Int) { chrome.setInfoRows(rows) }

    /// The help overlay's tallest column now holds `rows` lines of text.
    public mutating func setHelpRows(_ rows: Int) { chrome.setHelpRows(rows) }

    /// Number of pages.
    public var pageCount: Int { paging.pageCount }

    /// The page resting, settling towards, or nearest while dragged.
    public var currentPage: Int { paging.currentPage(at: now) }

    /// The limits of page `page`: its content size turned by its turn (width and height
    /// exchanged by an odd number of quarter turns), or the viewport's while unknown.
    public func zoomBounds(forPage page: Int) -> ZoomBounds {
        ZoomBounds(content: rotation(ofPage: page).boundingSize(of: content(ofPage: page)), viewport: viewport)
    }

    /// Page `page`'s turn at rest: whole quarter turns clockwise, 0...3.
    public func rotation(ofPage page: Int) -> Rotation {
        Rotation(quarterTurns: Double(turns[page] ?? 0))
    }

    /// Page `page`'s upright photo size, unturned: the viewport's while unknown.
    func content(ofPage page: Int) -> Size {
        contentSizes[page].flatMap { $0.isEmpty ? nil : $0 } ?? viewport
    }

    /// Clock time of the slideshow's next page turn while it runs (the runtime sleeps until
    /// then: nothing moves in between); nil otherwise.
    public var slideshowWakeTime: Double? { slideshow?.nextAdvance }

    /// True while a slideshow runs.
    public var isSlideshowRunning: Bool { slideshow?.isRunning ?? false }

    /// Starts a slideshow with `slideshowSettings` at clock `t` (`riffle --slideshow`): its first
    /// page turn one interval later.
    public mutating func startSlideshow(at t: Double) {
        advance(to: t)
        slideshow = Slideshow(settings: slideshowSettings, startingAt: now)
        slideshowLabel.show(.started(interval: slideshowSettings.interval), at: now)
    }

    /// Shows page `page` at once at clock `t` (clamped), at fit, with nothing moving: where the
    /// flight from the library grid lands.
    public mutating func show(page: Int, at t: Double) {
        advance(to: t)
        paging = PagingScrollModel(pageCount: paging.pageCount, viewportWidth: viewport.width, page: page)
        zooms.removeAll()
        turnAnimations.removeAll()
        slideshow = nil
        dismiss = DismissDragModel()
        drag = nil
        stripPan = PanRecognizer()
        stripScroll = nil
        tidy()
    }

    /// Page `page`'s photo frame at fit, window pixels (the page resting at x = 0); the
    /// viewport while the photo's size is not known.
    public func fitFrame(ofPage page: Int) -> Rect {
        photoFrame(page)
    }

    /// The current photo's frame as it is shown now, window pixels (its zoom and any drag
    /// included).
    public var currentPhotoFrame: Rect {
        let page = currentPage
        let bounds = zoomBounds(forPage: page)
        let zoom = zooms[page]?.transform(at: now) ?? bounds.fitTransform
        let origin = Double(page) * paging.pageWidth - paging.position(at: now)
        let frame = zoom.apply(Rect(origin: .zero, size: bounds.content))
        let placed = Rect(x: frame.minX + origin, y: frame.minY, width: frame.width, height: frame.height)
        return dismiss.transform(at: now, viewportHeight: viewport.height).apply(placed)
    }

    /// Records the full-resolution upright size of page `page` (pixels) at clock `t`; a page at
    /// fit re-fits, a zoomed page keeps its on-screen size and centre point.
    public mutating func setContentSize(_ size: Size, forPage page: Int, at t: Double) {
        advance(to: t)
        contentSizes[page] = size
        let bounds = zoomBounds(forPage: page)
        zooms[page]?.rebase(to: bounds, at: now)
        tidy()
    }

    /// Changes the number of pages at clock `t`.
    public mutating func setPageCount(_ count: Int, at t: Double) {
        advance(to: t)
        paging.setPageCount(count, at: now)
        tidy()
    }

    /// The pages were renumbered at clock `t` (photos added, removed or renamed around them):
    /// there are `count` now, old page p is page `newPage(p)` (nil: gone), and the pager rests
    /// on page `current`. Sizes learned follow their pages; the current page keeps its zoom
    /// when it is the same photo (`newPage(old current) == current`). When it is not (the
    /// photo shown is gone), `current` slides in from page `arrivingFrom` as a page turn does
    /// (nil: it shows at once). Gestures in progress end; the strip follows the pager again.
    public mutating func renumberPages(
        count: Int, current: Int, arrivingFrom: Int? = nil, newPage: (Int) -> Int?, at t: Double
    ) {
        advance(to: t)
        if drag != nil { endDrag(velocity: .zero) }
        let old = paging.currentPage(at: now)
        var sizes: [Int: Size] = [:]
        for (page, size) in contentSizes { if let moved = newPage(page) { sizes[moved] = size } }
        contentSizes = sizes
        var movedTurns: [Int: Int] = [:]
        for (page, turn) in turns { if let moved = newPage(page) { movedTurns[moved] = turn } }
        turns = movedTurns
        turnAnimations.removeAll()
        let keptZoom = newPage(old) == current ? zooms[old] : nil
        zooms.removeAll()
        zooms[current] = keptZoom
        zoomLabelPage = zoomLabelPage.flatMap(newPage)
        wheelZoomPage = wheelZoomPage.flatMap(newPage)
        pinchPage = pinchPage.flatMap(newPage)
        pan = PanRecognizer()
        stripPan = PanRecognizer()
        stripScroll = nil
        paging = PagingScrollModel(pageCount: count, viewportWidth: viewport.width, page: current)
        if let arrivingFrom { paging.slide(toPage: current, fromPage: arrivingFrom, at: now) }
        tidy()
    }

    /// The window became `viewport` at clock `t`: the current page stays; its zoomed image point
    /// under the window centre stays under the new centre; a page at fit stays at fit.
    public mutating func resize(viewport newViewport: Size, at t: Double) {
        advance(to: t)
        if drag != nil { endDrag(velocity: .zero) }
        stripPan = PanRecognizer()
        stripScroll = nil
        viewport = newViewport
        // A turn under way ends where it was going: its placement was in the old window.
        turnAnimations.removeAll()
        chrome.resize(viewport: newViewport)
        paging.resize(viewportWidth: newViewport.width, at: now)
        let current = paging.currentPage(at: now)
        for page in zooms.keys where page != current { zooms[page] = nil }
        let bounds = zoomBounds(forPage: current)
        zooms[current]?.rebase(to: bounds, at: now)
        tidy()
    }

    /// Advances the clock to `t` (once per frame): fires due timers (single click, wheel idle,
    /// trackpad idle) and ends finished motions.
    /// Returns what the timers decided beyond the model (a wheel zoom burst that ended well
    /// below fit dismisses the photo).
    @discardableResult
    public mutating func step(to t: Double) -> [ViewerCommand] {
        advance(to: t)
        return takeCommands()
    }

    /// The commands issued since the last call; a dismissal (the pager left) stops the slideshow.
    mutating func takeCommands() -> [ViewerCommand] {
        defer { commands.removeAll() }
        if commands.contains(where: { if case .dismiss = $0 { true } else { false } }) { slideshow = nil }
        return commands
    }

    /// True when `point` (window pixels) lies on the current photo zoomed in beyond fit, with no
    /// bar or panel claiming it: where a press starts a pan, so the pointer shows an open hand.
    public func isOverZoomedPhoto(_ point: Point) -> Bool {
        guard !chrome.claims(point, at: now) else { return false }
        let zoomed = zoomBounds(forPage: currentPage).isZoomed(zoomModel(currentPage).restingTransform(at: now))
        return zoomed && currentPhotoFrame.contains(point)
    }

    /// Applies one input event at its time (events without one happen at `now`); returns what
    /// the app must do beyond the model (quit, fullscreen), in order.
    @discardableResult
    public mutating func handle(_ event: InputEvent) -> [ViewerCommand] {
        if let t = event.time { advance(to: t) }
        pauseSlideshow(on: event)
        switch event {
        case .pointerDown(_, .back, _, _):
            if drag == nil { paging.scroll(toPage: currentPage - 1, at: now) }
        case .pointerDown(_, .forward, _, _):
            if drag == nil { paging.scroll(toPage: currentPage + 1, at: now) }
        case let .pointerDown(position, button, _, _):
            guard button == .left, !chrome.isPressed, !stripPan.isPressed else { break }
            if !pan.isPressed, chrome.pressed(at: position, at: now) {
                unclaimedFocusGain = nil
                break
            }
            if !pan.isPressed, chrome.stripTakes(position, at: now) {
                unclaimedFocusGain = nil
                // The pointer takes the strip from the trackpad's pan, if one was in progress: the
                // pan lets go where it is (its end, due at the recognizer's idle time, goes with
                // the recognizer; a strip still held then would never rest).
                stripWheel = WheelRecognizer()
                if stripScroll?.isDragging == true { stripScroll?.release(velocityX: 0, at: now) }
                stripPan.press(at: position, time: now)
                break
            }
            pressOnlyFocuses = !hasFocus || unclaimedFocusGain.map { now - $0 <= Self.focusClickWindow } ?? false
            unclaimedFocusGain = nil
            if !pressOnlyFocuses, let click = clicks.press(at: position, time: now) { perform(click) }
            if drag?.source == .precise { endDrag(velocity: .zero) }
            pressPosition = position
            pan.press(at: position, time: now)
        case let .pointerMove(position, _, _):
            if stripPan.isPressed {
                // The pointer is on the chrome's strip: the bars stay while it scrubs.
                chrome.pointerMoved(to: position, at: now)
                if let output = stripPan.move(to: position, time: now) { performStrip(output) }
            } else if pan.isPressed {
                if let output = pan.move(to: position, time: now) { perform(output) }
            } else {
                chrome.pointerMoved(to: position, at: now)
            }
        case let .pointerUp(position, button, _, _):
            guard button == .left else { break }
            if stripPan.isPressed {
                for output in stripPan.release(at: position, time: now) { performStrip(output) }
                chrome.pointerMoved(to: position, at: now)
                break
            }
            if chrome.isPressed {
                if let pressed = chrome.released(at: position, at: now) { perform(pressed) }
                break
            }
            let outputs = pan.release(at: position, time: now)
            if outputs.isEmpty, let click = clicks.cancelSecondPress(time: now) { perform(click) }
            for output in outputs { perform(output) }
        case let .scroll(delta, position, _, _, _) where chrome.panelTakesWheel(at: position):
            chrome.scrollPanel(notches: delta.y)
        case let .scroll(delta, position, modifiers, precise, _) where chrome.stripTakes(position, at: now) || stripWheel.deadline != nil:
            // The strip's wheel: a notch up or left is the previous photo. A trackpad's smooth
            // deltas drag it (either axis along it), then let it coast and snap.
            let notches = delta.y != 0 ? -delta.y : delta.x
            chrome.pointerMoved(to: position, at: now)
            if precise {
                guard drag == nil, !stripPan.isPressed else { break }
                let actions = stripWheel.scroll(
                    delta: delta, position: position, modifiers: modifiers, precise: true, time: now, photoIsZoomed: false)
                for action in actions { performStrip(action) }
            } else if drag == nil, !stripPan.isPressed, notches != 0 {
                var strip = stripScroll ?? newStripScroll()
                strip.scroll(byPhotos: notches > 0 ? max(Int(notches.rounded()), 1) : min(Int(notches.rounded()), -1), at: now)
                stripScroll = strip
                scrub()
            }
        case let .scroll(delta, position, modifiers, precise, _):
            let zoomed = zoomBounds(forPage: currentPage).isZoomed(zoomModel(currentPage).restingTransform(at: now))
            let actions = wheel.scroll(
                delta: delta, position: position, modifiers: modifiers, precise: precise, time: now, photoIsZoomed: zoomed)
            for action in actions { perform(action) }
        case let .pinch(factor, center, phase, _):
            pinch(factor: factor, center: center, phase: phase)
        case let .key(key, modifiers, _, _):
            if case let .pager(command) = KeyMap.command(for: key, modifiers: modifiers, in: .pager) { perform(command) }
        case let .resize(size):
            resize(viewport: Size(size), at: now)
        case let .focus(gained):
            hasFocus = gained
            if gained, pan.isPressed {
                pressOnlyFocuses = true
            } else if gained {
                unclaimedFocusGain = now
            }
        case .expose, .dropHighlight, .drop:
            break
        case .close:
            commands.append(.app(.quit))
        }
        tidy()
        return takeCommands()
    }

    // The concerns live beside this file: ViewerInteractionState (what a frame shows),
    // ViewerInteractionTime, ViewerInteractionPans, ViewerInteractionStrip,
    // ViewerInteractionGestures, ViewerInteractionKeys and ViewerInteractionTurns.
}
