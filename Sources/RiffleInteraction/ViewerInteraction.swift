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
    public private(set) var viewport: Size
    /// The latest clock time seen, seconds: state is as of this time.
    public private(set) var now: Double
    /// True when a library grid lies behind the pager, to go back to.
    public let libraryBehind: Bool
    /// How a slideshow started with s runs.
    public let slideshowSettings: Slideshow.Settings

    private var contentSizes: [Int: Size] = [:]
    private var paging: PagingScrollModel
    private var zooms: [Int: ZoomScrollModel] = [:]
    /// Each page's turn in quarter turns clockwise, 0...3 (none: 0), kept for the session.
    private var turns: [Int: Int] = [:]
    /// The pages turning now, until they rest.
    private var turnAnimations: [Int: TurnAnimation] = [:]
    /// The slideshow since s (or `startSlideshow`), nil before any and once the pager is left.
    private var slideshow: Slideshow?
    private var slideshowLabel = SlideshowLabel()
    private var pan = PanRecognizer()
    private var clicks = ClickRecognizer()
    private var wheel = WheelRecognizer()
    private var dismiss = DismissDragModel()
    private var fade: BackgroundFade
    private var chrome: ChromeInteraction
    /// Presses on the navigator strip: drags scrub, taps go to a cell.
    private var stripPan = PanRecognizer()
    /// A trackpad's smooth scrolling over the navigator strip: a drag of the strip.
    private var stripWheel = WheelRecognizer()
    /// The strip's own motion while the user drives it; nil while it follows the pager.
    private var stripScroll: NavigatorStripScroll?
    private var drag: Drag?
    private var wheelZoomPage: Int?
    private var pinchPage: Int?
    private var zoomLabel = ZoomLabel()
    /// The page whose zoom the label shows; the label goes when another page becomes current.
    private var zoomLabelPage: Int?
    private var hasFocus = true
    /// Where the left button last went down (a pan's direction at its lock is lock − press).
    private var pressPosition = Point.zero
    /// When the focus was gained, while no press has claimed being the one that gained it.
    private var unclaimedFocusGain: Double?
    /// The press in progress is the one that focused the window: its tap is ignored.
    private var pressOnlyFocuses = false
    /// Commands issued while handling the current event.
    private var commands: [ViewerCommand] = []
    /// The zoom gesture in progress (pinch, or a burst of wheel notches) and whether it may close
    /// the photo.
    private var zoomOut: ZoomOutDismissal?

    private struct Drag: Sendable {
        var route: Route
        var source: Source
    }

    private enum Route: Sendable {
        case photo(page: Int, bothAxes: Bool)
        case dismiss
    }

    private enum Source: Sendable {
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
    private func aspect(_ page: Int) -> Double? {
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
    private func content(ofPage page: Int) -> Size {
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
    private mutating func takeCommands() -> [ViewerCommand] {
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
        case let .key(key, modifiers, _):
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

    // Any input the pager acts on pauses a running slideshow (docs/physics.md, "Slideshow"): a
    // press (a click, the start of a drag), the wheel, a pinch, any key but s (which toggles
    // it). The pointer merely moving (the bars showing) does not.
    private mutating func pauseSlideshow(on event: InputEvent) {
        guard slideshow?.isRunning == true else { return }
        switch event {
        case .pointerDown, .scroll, .pinch:
            break
        case let .key(key, modifiers, _):
            if KeyMap.command(for: key, modifiers: modifiers, in: .pager) == .pager(.toggleSlideshow) { return }
        default:
            return
        }
        slideshow?.pause()
        slideshowLabel.show(.paused, at: now)
    }

    /// True while anything moves with time alone or a timer is outstanding: frames are needed.
    public var isAnimating: Bool {
        !isSettled || zoomLabel.isAnimating(at: now) || slideshowLabel.isAnimating(at: now) || chrome.isAnimating(at: now)
    }

    /// True when the pages, their zooms, the background and the gesture timers will not change
    /// with time alone (the zoom label may still fade): what is shown is where it rests, so a
    /// sharper decode of it is worth asking for.
    public var isSettled: Bool {
        !(paging.isAnimating || stripScroll != nil || zooms.values.contains { $0.isAnimating } || !turnAnimations.isEmpty
            || dismiss.isAnimating
            || fade.isAnimating(at: now) || clicks.isPending || wheel.deadline != nil || stripWheel.deadline != nil)
    }

    /// The frame to draw, as of `now`.
    public var renderState: ViewerRenderState {
        let offset = paging.position(at: now)
        let current = currentPage
        let pages = visiblePages(at: offset).map { index in
            let shown = pagePlacement(index)
            return ViewerRenderState.Page(
                index: index, originX: Double(index) * paging.pageWidth - offset, transform: shown.transform,
                rotation: shown.rotation)
        }
        return ViewerRenderState(
            viewport: viewport, pageWidth: paging.pageWidth, pagingOffset: offset, currentPage: currentPage,
            pages: pages, backgroundBlackness: fade.blackness(at: now), chromeVisible: fade.chromeVisible,
            dismissOffset: dismiss.offset(at: now),
            dismissTransform: dismiss.transform(at: now, viewportHeight: viewport.height),
            dismissBackgroundAlpha: dismiss.backgroundAlpha(at: now, viewportHeight: viewport.height),
            isAnimating: isAnimating,
            chrome: chrome.renderState(at: now),
            zoomLabel: ViewerRenderState.ZoomLabel(
                scale: (zooms[current]?.transform(at: now) ?? zoomBounds(forPage: current).fitTransform).scale,
                opacity: zoomLabel.opacity(at: now)),
            strip: ViewerRenderState.Strip(
                layout: stripLayout, position: stripPosition, cells: stripLayout.cells(at: stripPosition, aspect: aspect)),
            slideshowLabel: ViewerRenderState.SlideshowLabel(
                text: slideshowLabel.message?.text ?? "", opacity: slideshowLabel.opacity(at: now)))
    }

    /// How page `page` is shown now: the transform of its photo's turned bounding box into the
    /// page, and the turn (its zoom in its turned frame at rest; the turn's placement while it
    /// turns).
    private func pagePlacement(_ page: Int) -> (transform: ScaleTranslate, rotation: Rotation) {
        let zoom = zooms[page]?.transform(at: now) ?? zoomBounds(forPage: page).fitTransform
        guard let animation = turnAnimations[page] else { return (zoom, rotation(ofPage: page)) }
        let content = content(ofPage: page)
        let resting = TurnAnimation.Placement(transform: zoom, rotation: rotation(ofPage: page), content: content)
        let shown = animation.placement(at: now, toward: resting)
        return (shown.boxTransform(content: content), shown.rotation)
    }

    // MARK: - Time

    private mutating func advance(to t: Double) {
        now = max(now, t)
        if let click = clicks.step(to: now) { perform(click) }
        for action in wheel.step(to: now) { perform(action) }
        for action in stripWheel.step(to: now) { performStrip(action) }
        paging.settle(at: now)
        if var strip = stripScroll {
            strip.settle(at: now)
            stripScroll = strip
            scrub()
            // At rest on a whole photo, which the pager shows: the strip follows the pager again.
            if strip.isAtRest, !stripPan.isPressed { stripScroll = nil }
        }
        dismiss.settle(at: now)
        for page in zooms.keys { zooms[page]?.settle(at: now) }
        for (page, animation) in turnAnimations where animation.isDone(at: now) { turnAnimations[page] = nil }
        if slideshow?.takeAdvance(at: now) == true { slideshowTurnsPage() }
        // A zoom still moving (an animation, a bounce, a pinch) keeps its label up.
        if zoomLabel.isAnimating(at: now), let page = zoomLabelPage, let zoom = zooms[page], zoom.isAnimating || zoom.isTracking {
            zoomLabel.zoomChanged(at: now)
        }
        tidy()
    }

    // Forgets zoom models that rest at fit, and resets pages the user has left: off screen and
    // not current, or not current once the strip has settled.
    private mutating func tidy() {
        // The pager set moving by anything but the strip (a key, a drag on the photo): the strip
        // lets go and follows it.
        if stripScroll != nil, paging.isAnimating || paging.isDragging { stripScroll = nil }
        let current = paging.currentPage(at: now)
        if let page = zoomLabelPage, page != current {
            zoomLabel = ZoomLabel()
            zoomLabelPage = nil
        }
        let settled = !paging.isAnimating && !paging.isDragging
        let visible = visiblePages(at: paging.position(at: now))
        for (page, model) in zooms {
            let left = page != current && (settled || !visible.contains(page))
            // A page a gesture still holds is kept while it is on screen.
            if model.isRestingAtFit || (left && !(model.isTracking && visible.contains(page))) {
                zooms[page] = nil
            }
        }
        // A page left while it turns shows its turn at rest when seen again.
        for page in turnAnimations.keys where page != current && (settled || !visible.contains(page)) {
            turnAnimations[page] = nil
        }
    }

    // Pages whose span [i·pw − offset, i·pw − offset + vw) overlaps the window (0, vw).
    private func visiblePages(at offset: Double) -> [Int] {
        let pw = paging.pageWidth, vw = viewport.width
        guard pw > 0 else { return [currentPage] }
        let low = max(Int(((offset - vw) / pw).rounded(.down)), 0)
        let high = min(Int(((offset + vw) / pw).rounded(.up)), pageCount - 1)
        guard low <= high else { return [] }
        return (low...high).filter { index in
            let left = Double(index) * pw - offset
            return left < vw && left + vw > 0
        }
    }

    private func zoomModel(_ page: Int) -> ZoomScrollModel {
        zooms[page] ?? ZoomScrollModel(bounds: zoomBounds(forPage: page))
    }

    // A window point in page `page`'s coordinates.
    private func pagePoint(_ window: Point, page: Int) -> Point {
        Point(x: window.x - (Double(page) * paging.pageWidth - paging.position(at: now)), y: window.y)
    }

    private var viewportCentre: Point { Point(x: viewport.width / 2, y: viewport.height / 2) }

    // MARK: - Pans

    // `lock`: where a pointer pan locked its axis (nil for a trackpad's, which has no axis).
    private mutating func beginDrag(axis: Axis?, lock: Point?, source: Source) {
        paging.grab(at: now)
        let page = paging.dragStartPage ?? currentPage
        var zoom = zoomModel(page)
        zoom.grab(at: now)
        let zoomed = zoom.bounds.isZoomed(zoom.transform(at: now))
        // A zoomed photo dismisses only when pulled down from its top edge, where it rests (or
        // bounces) showing its top: Photos' rule, so that panning a zoomed photo never closes it.
        let pulledDownFromTop = lock.map { libraryBehind && $0.y > pressPosition.y && isShowingTopEdge(zoom) } ?? false
        if axis == .vertical, let lock, !zoomed || pulledDownFromTop, abs(paging.dragDisplacement) < Tolerance.pixels.distance {
            paging.release(velocity: 0, at: now)
            zoom.release(velocity: .zero, at: now)
            dismiss.grab(at: now, anchor: lock)
            drag = Drag(route: .dismiss, source: source)
        } else {
            drag = Drag(route: .photo(page: page, bothAxes: zoomed), source: source)
        }
        zooms[page] = zoom
    }

    private mutating func dragChanged(by delta: Point) {
        guard let drag else { return }
        switch drag.route {
        case .dismiss:
            dismiss.drag(by: delta)
        case let .photo(page, bothAxes):
            // Finger motion right moves the strip's position left: position change = −dx.
            var change = paging.dragTowardsStartPage(by: -delta.x)
            if paging.dragDisplacement != 0 {
                paging.drag(by: change)
                change = 0
            }
            var zoom = zoomModel(page)
            let leftover = zoom.pan(by: Point(x: -change, y: bothAxes ? delta.y : 0), at: now)
            paging.drag(by: -leftover)
            zooms[page] = zoom
        }
    }

    private mutating func endDrag(velocity: Point) {
        guard let ended = drag else { return }
        drag = nil
        switch ended.route {
        case .dismiss:
            if libraryBehind, dismiss.dismisses(releasedWith: velocity, viewportHeight: viewport.height) {
                let page = currentPage
                let shown = zoomModel(page).transform(at: now).apply(Rect(origin: .zero, size: zoomBounds(forPage: page).content))
                let state = dismiss.dismiss(velocity: velocity, photoFrame: shown, viewportHeight: viewport.height, at: now)
                commands.append(.dismiss(from: state))
            } else {
                dismiss.release(velocity: velocity, at: now)
            }
        case let .photo(page, bothAxes):
            var zoom = zoomModel(page)
            if paging.dragDisplacement != 0 {
                paging.release(velocity: -velocity.x, at: now)
                zoom.release(velocity: Point(x: 0, y: bothAxes ? velocity.y : 0), at: now)
            } else {
                paging.release(velocity: 0, at: now)
                zoom.release(velocity: bothAxes ? velocity : .zero, at: now)
            }
            zooms[page] = zoom
        }
    }

    private mutating func perform(_ output: PanRecognizer.Output) {
        switch output {
        case let .began(axis, position, time):
            if let click = clicks.cancelSecondPress(time: time) { perform(click) }
            if drag?.source == .precise { endDrag(velocity: .zero) }
            beginDrag(axis: axis, lock: position, source: .pointer)
        case let .changed(delta, _):
            if drag?.source == .pointer { dragChanged(by: delta) }
        case let .ended(velocity, _):
            if drag?.source == .pointer { endDrag(velocity: velocity) }
        case let .tap(position, time):
            if pressOnlyFocuses { break }
            if let click = clicks.tap(at: position, time: time) { perform(click) }
        }
    }

    // MARK: - Navigator strip

    // The strip's own model, starting where the strip shows now (it followed the pager).
    private func newStripScroll() -> NavigatorStripScroll {
        NavigatorStripScroll(count: pageCount, pitch: stripLayout.pitch, viewportWidth: viewport.width, position: stripPosition)
    }

    private mutating func performStrip(_ output: PanRecognizer.Output) {
        guard drag == nil else { return }
        switch output {
        case .began:
            var strip = stripScroll ?? newStripScroll()
            strip.grab(at: now)
            stripScroll = strip
        case let .changed(delta, _):
            stripScroll?.drag(by: delta.x, at: now)
        case let .ended(velocity, _):
            stripScroll?.release(velocityX: velocity.x, at: now)
        case let .tap(position, _):
            guard let index = stripLayout.index(at: position, position: stripPosition, aspect: aspect) else { return }
            var strip = stripScroll ?? newStripScroll()
            strip.scroll(toPhoto: index, at: now)
            stripScroll = strip
        }
        scrub()
    }

    // A trackpad's continuous pan over the strip drags it like a pointer: the fingers' motion
    // along either axis, up or left being towards earlier photos (as a notch); its end lets go
    // with the fingers' velocity.
    private mutating func performStrip(_ action: WheelRecognizer.Action) {
        switch action {
        case let .precisePan(delta):
            var strip = stripScroll ?? newStripScroll()
            if !strip.isDragging { strip.grab(at: now) }
            strip.drag(by: delta.x + delta.y, at: now)
            stripScroll = strip
        case let .endPrecisePan(velocity):
            stripScroll?.release(velocityX: velocity.x + velocity.y, at: now)
        case .zoom, .endZoom, .panStep, .page:
            return
        }
        scrub()
    }

    // Shows the photo under the strip's centre at once, without the page slide.
    private mutating func scrub() {
        guard let strip = stripScroll else { return }
        let photo = strip.photo(at: now)
        if photo != paging.currentPage(at: now) || paging.isAnimating || paging.isDragging {
            paging = PagingScrollModel(pageCount: paging.pageCount, viewportWidth: viewport.width, page: photo)
        }
    }

    // MARK: - Clicks, wheel, pinch, keys

    private mutating func perform(_ click: ClickRecognizer.Click) {
        switch click {
        case let .single(_, time):
            fade.toggle(at: time)
            chrome.setPinned(fade.chromeVisible, at: time)
        case let .double(position, _):
            let page = currentPage
            var zoom = zoomModel(page)
            let bounds = zoom.bounds
            if bounds.isZoomed(zoom.restingTransform(at: now)) {
                zoom.animate(to: bounds.fitTransform, at: now)
            } else {
                // Zoom to 2.5 × fit with the clicked image point centred as far as bounds allow.
                let point = zoom.transform(at: now).invert(pagePoint(position, page: page))
                let scale = bounds.doubleClickScale
                zoom.animate(
                    to: ScaleTranslate(scale: scale, offset: bounds.clampOffset(viewportCentre - point * scale, scale: scale)),
                    at: now)
            }
            zooms[page] = zoom
            showZoomLabel(page)
        }
    }

    private mutating func perform(_ action: WheelRecognizer.Action) {
        switch action {
        case let .zoom(factor, anchor):
            guard drag == nil else { return }
            let page = currentPage
            var zoom = zoomModel(page)
            if wheelZoomPage != page { zoomOut = ZoomOutDismissal(bounds: zoom.bounds, startScale: zoom.transform(at: now).scale) }
            zoom.zoom(by: factor, anchor: pagePoint(anchor, page: page), at: now)
            zoomOut?.zoomed(to: zoom.transform(at: now).scale)
            zooms[page] = zoom
            wheelZoomPage = page
            showZoomLabel(page)
        case .endZoom:
            guard let page = wheelZoomPage else { return }
            wheelZoomPage = nil
            if case let .photo(dragged, _)? = drag?.route, dragged == page { return }
            if pinchPage == page { return }
            endZoomGesture(page)
        case let .panStep(translation):
            guard drag == nil else { return }
            panZoomedPhoto(by: translation)
        case let .page(direction):
            guard drag == nil else { return }
            paging.scroll(toPage: currentPage + direction, at: now)
        case let .precisePan(delta):
            if drag?.source == .pointer { return }
            if drag == nil { beginDrag(axis: nil, lock: nil, source: .precise) }
            dragChanged(by: delta)
        case let .endPrecisePan(velocity):
            if drag?.source == .precise { endDrag(velocity: velocity) }
        }
    }

    private mutating func pinch(factor: Double, center: Point, phase: GesturePhase) {
        guard drag == nil else { return }
        let page = pinchPage ?? currentPage
        var zoom = zoomModel(page)
        if phase == .began || pinchPage == nil {
            zoomOut = ZoomOutDismissal(bounds: zoom.bounds, startScale: zoom.transform(at: now).scale)
        }
        zoom.zoom(by: factor, anchor: pagePoint(center, page: page), at: now)
        zoomOut?.zoomed(to: zoom.transform(at: now).scale)
        showZoomLabel(page)
        zooms[page] = zoom
        if phase == .ended {
            pinchPage = nil
            endZoomGesture(page)
        } else {
            pinchPage = page
        }
    }

    // A zoom gesture on `page` ended: below 0.7 × fit (having begun at fit) it closes the photo
    // into the library, from where it is shown; else the zoom bounces back into its limits.
    private mutating func endZoomGesture(_ page: Int) {
        let shown = zooms[page]?.transform(at: now)
        if libraryBehind, let shown, zoomOut?.dismisses(endingAt: shown.scale) == true {
            let frame = shown.apply(Rect(origin: .zero, size: zoomBounds(forPage: page).content))
            commands.append(.dismiss(from: PhotoTransition.State(frame: frame, backgroundAlpha: 1)))
            zooms[page] = nil
        } else {
            zooms[page]?.release(velocity: .zero, at: now)
        }
        zoomOut = nil
    }

    /// True when `zoom`'s photo will rest with its top edge in view (its offset at the top of
    /// its range), within a pixel.
    private func isShowingTopEdge(_ zoom: ZoomScrollModel) -> Bool {
        let resting = zoom.restingTransform(at: now)
        return resting.offset.y >= zoom.bounds.offsetRange(.vertical, scale: resting.scale).upperBound - Tolerance.pixels.distance
    }

    /// Page `page`'s photo frame at fit in window pixels (the current page rests at x = 0).
    private func photoFrame(_ page: Int) -> Rect {
        let bounds = zoomBounds(forPage: page)
        return bounds.fitTransform.apply(Rect(origin: .zero, size: bounds.content))
    }

    private mutating func perform(_ command: KeyCommand) {
        switch command {
        case .quit:
            commands.append(.app(.quit))
            return
        case .escape:
            // Fullscreen is the scene's: its Escape leaves it before the pager's is asked.
            if chrome.closePanel(at: now) { return }
            if libraryBehind {
                commands.append(.dismiss(from: nil))
            } else {
                commands.append(.app(.quit))
            }
            return
        case .backToLibrary:
            if libraryBehind { commands.append(.dismiss(from: nil)) }
            return
        case .toggleInfo:
            chrome.toggle(.info, at: now)
            return
        case .toggleHelp:
            chrome.toggle(.help, at: now)
            return
        case .toggleSlideshow:
            toggleSlideshow()
            return
        default:
            break
        }
        guard drag == nil else { return }
        switch command {
        case .previousPage: paging.scroll(toPage: currentPage - 1, at: now)
        case .nextPage: paging.scroll(toPage: currentPage + 1, at: now)
        case .firstPage: paging.scroll(toPage: 0, fromNeighbour: true, at: now)
        case .lastPage: paging.scroll(toPage: pageCount - 1, fromNeighbour: true, at: now)
        case let .arrow(direction): arrow(direction)
        case .zoomIn: zoomAboutCentre(to: { $0 * WheelRecognizer.zoomPerNotch })
        case .zoomOut: zoomAboutCentre(to: { $0 / WheelRecognizer.zoomPerNotch })
        case .zoomToFit: zoomAboutCentre(to: { _ in 0 })
        case .zoomToActualSize: zoomAboutCentre(to: { _ in 1 })
        case .rotateClockwise: turnCurrentPage(by: 1)
        case .rotateAnticlockwise: turnCurrentPage(by: -1)
        case .quit, .escape, .backToLibrary, .toggleInfo, .toggleHelp, .toggleSlideshow: break
        }
    }

    // MARK: - Turning and the slideshow

    // Turns the current page by `quarters` quarter turns from where its turn is going: at fit it
    // comes to rest at the turned fit; zoomed, it keeps its scale (clamped into the turned
    // limits) and the picture point under the window's centre, as far as bounds allow. The
    // photo moves there along `TurnAnimation` from where it is shown now.
    private mutating func turnCurrentPage(by quarters: Int) {
        guard pinchPage == nil, wheelZoomPage == nil else { return }
        let page = currentPage
        let content = content(ofPage: page)
        let oldTurn = rotation(ofPage: page), oldBounds = zoomBounds(forPage: page)
        let shown = pagePlacement(page)
        let from = TurnAnimation.Placement(transform: shown.transform, rotation: shown.rotation, content: content)
        let resting = zoomModel(page).restingTransform(at: now)
        let target = Rotation(quarterTurns: (turnAnimations[page]?.to ?? oldTurn).quarterTurns + Double(quarters))
        turns[page] = target.wholeQuarters
        let bounds = zoomBounds(forPage: page)
        var transform = bounds.fitTransform
        if oldBounds.isZoomed(resting) {
            let picturePoint = oldTurn.unturn(resting.invert(viewportCentre), inPictureOf: content)
            let point = rotation(ofPage: page).turn(picturePoint, inPictureOf: content)
            let scale = bounds.clampScale(resting.scale)
            transform = ScaleTranslate(scale: scale, offset: bounds.clampOffset(viewportCentre - point * scale, scale: scale))
        }
        zooms[page] = ZoomScrollModel(bounds: bounds, resting: transform)
        let end = TurnAnimation.Placement(transform: transform, rotation: target, content: content)
        turnAnimations[page] = TurnAnimation(from: from, to: end, content: content, start: now)
    }

    // s: a running slideshow pauses; otherwise one starts (again) from now, its beat with it.
    private mutating func toggleSlideshow() {
        if slideshow?.isRunning == true {
            slideshow?.pause()
            slideshowLabel.show(.paused, at: now)
        } else {
            startSlideshow(at: now)
        }
    }

    // The slideshow's page turn, as Space does; past the last photo it goes back to the first as
    // Home does when it loops, and ends otherwise.
    private mutating func slideshowTurnsPage() {
        let page = currentPage
        if page < pageCount - 1 {
            paging.scroll(toPage: page + 1, at: now)
        } else if slideshowSettings.loops, pageCount > 1 {
            paging.scroll(toPage: 0, fromNeighbour: true, at: now)
        } else {
            slideshow?.end()
            slideshowLabel.show(.ended, at: now)
        }
    }

    // A chrome button released over itself.
    private mutating func perform(_ button: ChromeButton) {
        switch button {
        case .back:
            if libraryBehind { commands.append(.dismiss(from: nil)) }
        case .info:
            chrome.toggle(.info, at: now)
        case .zoom:
            guard drag == nil else { return }
            let page = currentPage
            let zoom = zoomModel(page)
            let zoomed = zoom.bounds.isZoomed(zoom.restingTransform(at: now))
            zoomAboutCentre(to: { _ in zoomed ? 0 : 1 })
        case .fullscreen:
            commands.append(.toggleFullscreen)
        }
    }

    // An arrow pans a zoomed photo a third of the window the arrow's way (Right shows more of
    // its right side: the photo moves left) through the pan animation, stopping at the edge;
    // Left and Right at that edge, or at fit, turn the page instead, as a drag hands over.
    private mutating func arrow(_ direction: ArrowDirection) {
        let axis: Axis = direction == .left || direction == .right ? .horizontal : .vertical
        let sign: Double = direction == .left || direction == .up ? 1 : -1
        let page = currentPage
        let zoom = zoomModel(page)
        let target = zoom.restingTransform(at: now)
        let range = zoom.bounds.offsetRange(axis, scale: target.scale)
        let atEdge = sign > 0
            ? target.offset[axis] >= range.upperBound - Tolerance.pixels.distance
            : target.offset[axis] <= range.lowerBound + Tolerance.pixels.distance
        if zoom.bounds.isZoomed(target), !atEdge {
            let step = viewport[axis] * Self.arrowPanFraction * sign
            panZoomedPhoto(by: axis == .horizontal ? Point(x: step, y: 0) : Point(x: 0, y: step))
        } else if axis == .horizontal {
            paging.scroll(toPage: page - Int(sign), at: now)
        }
    }

    // Animates the current page from where it will rest to the scale `scale(restingScale)`
    // (clamped to the limits), keeping the image point at the window centre there as far as
    // bounds allow; repeated presses compose on the previous target.
    private mutating func zoomAboutCentre(to scale: (Double) -> Double) {
        let page = currentPage
        var zoom = zoomModel(page)
        let target = zoom.restingTransform(at: now)
        let bounds = zoom.bounds
        let newScale = bounds.clampScale(scale(target.scale))
        let point = target.invert(viewportCentre)
        zoom.animate(
            to: ScaleTranslate(scale: newScale, offset: bounds.clampOffset(viewportCentre - point * newScale, scale: newScale)),
            at: now)
        zooms[page] = zoom
        showZoomLabel(page)
    }

    private mutating func showZoomLabel(_ page: Int) {
        zoomLabel.zoomChanged(at: now)
        zoomLabelPage = page
    }

    // Animates a zoomed current page's resting offset by `translation`, within bounds.
    private mutating func panZoomedPhoto(by translation: Point) {
        let page = currentPage
        var zoom = zoomModel(page)
        let target = zoom.restingTransform(at: now)
        guard zoom.bounds.isZoomed(target) else { return }
        zoom.animate(
            to: ScaleTranslate(scale: target.scale, offset: zoom.bounds.clampOffset(target.offset + translation, scale: target.scale)),
            at: now)
        zooms[page] = zoom
    }
}
