import RiffleGeometry
import RifflePhysics

/// One of the timeline's coarse levels (Years, Months, Days) as the user handles it: its
/// `TimelineLayout` in the window, scrolled by drags, flicks and the wheel as the grid is
/// (`FreeScrollModel`, `PanRecognizer`, a wheel notch −Δy·H^(2/3) pixels), and the commands
/// its clicks, Ctrl+wheel notches and pinches ask of the scene.
///
/// - A click on a year's tile shows that year's months; on a month, its days; on a day's
///   photo, that photo (the pager); on a day's "+N" cell or its header, All Photos at that day;
///   on a photo of All Photos as the aspect-ratio grid, that photo.
/// - Ctrl+wheel away from the user, or a pinch out (spreading the fingers), shows the next
///   finer level at the photo under the pointer; towards the user, or pinching in, the next
///   coarser one. One level per `levelChangeInterval` of notches (a burst of notches is one
///   step, as a pinch is: one level once its factor passes `pinchLevelFactor` either way).
/// - The content is laid out `margin` points in from the window's sides, with `insets.top`
///   pixels of room above it and `insets.bottom` below: the bars float over that room, so the
///   first and last cells can be scrolled clear of them and the rest pass under them.
public struct TimelineLevelInteraction: Sendable {
    /// What the level asks of the scene.
    public enum Command: Hashable, Sendable {
        /// Show `level` with photo `photo` (time order) under window point `anchor`.
        case showLevel(TimelineLayout.Level, photo: Int, anchor: Point)
        /// Open photo `photo` (time order) in the pager.
        case open(photo: Int)
    }

    /// Seconds a Ctrl+wheel burst must rest before it changes the level again.
    public static let levelChangeInterval = 0.3
    /// A pinch's factor past which (or past its inverse) it changes the level, once.
    public static let pinchLevelFactor = 1.35
    /// Points between the window's sides and the content.
    public static let margin = 16.0

    public let layout: TimelineLayout
    /// The window size, pixels. A window of another size is laid out by a new interaction (the
    /// scene makes one on the photo in the middle: `NavigationScene.handle`'s resize).
    public let viewport: Size
    /// Pixels a point.
    public let scale: Double
    /// Pixels of room above the content and below it (where the bars float).
    public let insets: (top: Double, bottom: Double)
    /// The latest clock time seen, seconds.
    public private(set) var now: Double

    private var scrolling: FreeScrollModel
    private var pan = PanRecognizer()
    private var wheel = WheelRecognizer()
    private var dragging = false
    private var pressCaughtMotion = false
    private var lastLevelNotch: Double?
    private var pinchFactor: Double?
    private var commands: [Command] = []

    /// `days` at `level` in `viewport` at `scale` (All Photos in justified rows by `aspects`,
    /// one a photo, when given), with `insets` of room above and below, scrolled
    /// so that photo `anchorPhoto`'s cell lies under window point `anchor` (as far as the range
    /// allows), or to the end without one.
    public init(
        days: TimelineDays, level: TimelineLayout.Level, viewport: Size, scale: Double, insets: (top: Double, bottom: Double),
        aspects: [Double]? = nil, anchorPhoto: Int?, anchor: Point?, time: Double
    ) {
        let margin = Self.margin * scale
        // Seen between the bars: a Year's tile and a Month's key photos keep within that.
        layout = TimelineLayout(
            days: days, level: level, width: max(1, viewport.width - 2 * margin), scale: scale, aspects: aspects,
            height: max(1, viewport.height - insets.top - insets.bottom))
        self.viewport = viewport
        self.scale = scale
        self.insets = insets
        now = time
        // The notches of the burst that brought this level (Ctrl+wheel past the grid's most
        // columns, or to the next level) are the same burst: they change it no further.
        lastLevelNotch = time
        let length = layout.contentHeight + insets.top + insets.bottom
        scrolling = FreeScrollModel(viewportLength: viewport.height, contentLength: length)
        let target: FreeScrollModel.Anchor
        if let anchorPhoto, let frame = layout.frame(ofPhoto: anchorPhoto) {
            let at = anchor ?? Point(x: viewport.width / 2, y: viewport.height / 2)
            target = FreeScrollModel.Anchor(contentPosition: frame.center.y + insets.top, viewportPosition: at.y)
        } else {
            target = FreeScrollModel.Anchor(contentPosition: length, viewportPosition: viewport.height)
        }
        scrolling.resize(viewportLength: viewport.height, contentLength: length, anchor: target, at: time)
    }

    /// The scroll's length: the layout and the room above and below it.
    private var scrolledLength: Double { layout.contentHeight + insets.top + insets.bottom }

    /// The scroll position as of `now`, pixels: the layout's y at the window's top is this less
    /// `insets.top`.
    public var scrollPosition: Double { scrolling.position(at: now) }

    /// The scroll as a fraction of its range: 0 at the top, 1 at the end.
    public var scrollFraction: Double {
        scrolling.maximumPosition > 0 ? min(max(scrollPosition / scrolling.maximumPosition, 0), 1) : 0
    }

    /// The scroll's whole length, pixels (the layout with the room above and below).
    public var scrollLength: Double { scrolledLength }

    /// Puts the scroll at `fraction` of its range at once (the scrubber), ending any motion.
    public mutating func scroll(toFraction fraction: Double) {
        guard !dragging else { return }
        let target = min(max(fraction, 0), 1) * scrolling.maximumPosition
        scrolling.resize(
            viewportLength: viewport.height, contentLength: scrolledLength,
            anchor: FreeScrollModel.Anchor(contentPosition: target, viewportPosition: 0), at: now)
    }

    /// The month (`CivilCalendar.monthNumber`) shown at window height `y` now: what the
    /// scrubber's label names beside the thumb under the pointer.
    public func month(atWindowY y: Double) -> Int? { layout.month(atOffset: max(0, contentTop + y)) }

    /// The layout's y under the window's top edge now, pixels (negative while the room above
    /// the content shows).
    public var contentTop: Double { scrollPosition - insets.top }

    /// True while the scroll moves with time or a wheel gesture waits to end.
    public var isAnimating: Bool { scrolling.isAnimating || wheel.deadline != nil }

    /// The window rect of a content rect, at the scroll position now.
    public func windowRect(_ content: Rect) -> Rect {
        Rect(x: content.minX + Self.margin * scale, y: content.minY - contentTop, width: content.width, height: content.height)
    }

    /// The content point under window point `point`.
    public func contentPoint(_ point: Point) -> Point {
        Point(x: point.x - Self.margin * scale, y: point.y + contentTop)
    }

    /// The cells that show in the window now, their frames in window pixels.
    public var visibleCells: [TimelineLayout.Cell] {
        let top = contentTop
        return layout.cells(from: top, to: top + viewport.height).map {
            TimelineLayout.Cell(content: $0.content, frame: windowRect($0.frame))
        }
    }

    /// Photo `photo`'s cell (or what stands for it) in window pixels, nil when the level has no
    /// such photo.
    public func windowFrame(ofPhoto photo: Int) -> Rect? { layout.frame(ofPhoto: photo).map(windowRect) }

    /// The photo nearest the middle of the window: what a level change with no pointer keeps.
    public var photoAtMiddle: Int? {
        let middle = contentTop + viewport.height / 2
        guard let index = layout.section(atOffset: middle) else { return nil }
        let cells = layout.cells(ofSection: index)
        return cells.map { cell -> Int in
            switch cell.content {
            case .photo(let photo): photo
            case .more(_, let first): first
            }
        }.first
    }

    /// Scrolls by whole windows (Page Up/Down: `pages` ±1) or to an end (Home, End).
    public mutating func scroll(pages: Int) { scrolling.scroll(pages: pages, overlap: 0, at: now) }
    public mutating func scrollToStart() { scrolling.scroll(to: 0, at: now) }
    public mutating func scrollToEnd() { scrolling.scroll(to: .infinity, at: now) }

    /// Applies one input event at its time; returns what the scene must do.
    public mutating func handle(_ event: InputEvent) -> [Command] {
        if let t = event.time { advance(to: t) }
        switch event {
        case let .pointerDown(position, .left, _, _):
            pressCaughtMotion = scrolling.isCoasting
            pan.press(at: position, time: now)
            scrolling.grab(at: now)
            dragging = true
        case let .pointerMove(position, _, _):
            if let output = pan.move(to: position, time: now) { perform(output) }
        case let .pointerUp(position, .left, _, _):
            for output in pan.release(at: position, time: now) { perform(output) }
            if dragging {
                dragging = false
                scrolling.release(velocity: 0, at: now)
            }
        case let .scroll(delta, position, modifiers, precise, _):
            scrollEvent(delta: delta, position: position, modifiers: modifiers, precise: precise)
        case let .pinch(factor, center, phase, _):
            pinch(factor: factor, center: center, phase: phase)
        default:
            break
        }
        defer { commands.removeAll() }
        return commands
    }

    /// Moves the clock to `t`: the scroll settles, a wheel gesture's end is taken.
    public mutating func advance(to t: Double) {
        now = max(now, t)
        for action in wheel.step(to: now) { perform(action) }
        scrolling.settle(at: now)
    }

    // MARK: - Input

    private mutating func perform(_ output: PanRecognizer.Output) {
        switch output {
        case .began:
            break
        case let .changed(delta, _):
            if dragging { scrolling.drag(by: -delta.y, at: now) }
        case let .ended(velocity, _):
            guard dragging else { return }
            dragging = false
            scrolling.release(velocity: -velocity.y, at: now)
        case let .tap(position, _):
            if !pressCaughtMotion { click(at: position) }
        }
    }

    private mutating func perform(_ action: WheelRecognizer.Action) {
        switch action {
        case let .precisePan(delta):
            scrolling.drag(by: -delta.y, at: now)
        case let .endPrecisePan(velocity):
            scrolling.release(velocity: -velocity.y, at: now)
        case .zoom, .endZoom, .panStep, .page:
            break
        }
    }

    /// What a click at window point `point` asks: the finer level at the photo clicked (a
    /// year's tile, a month), the photo itself (a day's), All Photos at a day ("+N", a header).
    private mutating func click(at point: Point) {
        let content = contentPoint(point)
        switch layout.level {
        case .years, .months:
            guard let photo = layout.photo(at: content) else { return }
            commands.append(.showLevel(layout.level == .years ? .months : .days, photo: photo, anchor: point))
        case .days:
            for cell in layout.cells(from: content.y, to: content.y + 1e-9) where cell.frame.contains(content) {
                switch cell.content {
                case .photo(let photo): commands.append(.open(photo: photo))
                case .more(_, let first): commands.append(.showLevel(.allPhotos, photo: first, anchor: point))
                }
                return
            }
            // A day's header: All Photos at the day's first photo.
            if let index = layout.section(atOffset: content.y), content.y < layout.sections[index].y + layout.headerHeight {
                commands.append(.showLevel(.allPhotos, photo: layout.sections[index].photos.lowerBound, anchor: point))
            }
        case .allPhotos:
            // The aspect-ratio grid: a photo opens.
            if let photo = layout.photo(at: content) { commands.append(.open(photo: photo)) }
        }
    }

    private mutating func scrollEvent(delta: Point, position: Point, modifiers: Modifiers, precise: Bool) {
        if modifiers.contains(.control) {
            guard delta.y != 0 else { return }
            // A burst of notches is one step: a notch within the interval of the last one only
            // keeps the burst going.
            defer { lastLevelNotch = now }
            if let last = lastLevelNotch, now - last < Self.levelChangeInterval { return }
            changeLevel(finer: delta.y > 0, at: position)
        } else if precise {
            for action in wheel.scroll(delta: delta, position: position, modifiers: modifiers, precise: true, time: now, photoIsZoomed: false) {
                perform(action)
            }
        } else if delta.y != 0, !modifiers.contains(.shift) {
            scrolling.scroll(by: -delta.y * Double.pow(viewport.height, GridInteraction.wheelStepExponent), at: now)
        }
    }

    private mutating func pinch(factor: Double, center: Point, phase: GesturePhase) {
        guard factor > 0, factor.isFinite else { return }
        if phase == .began { pinchFactor = 1 }
        guard var accumulated = pinchFactor else { return }
        accumulated *= factor
        if accumulated >= Self.pinchLevelFactor || accumulated <= 1 / Self.pinchLevelFactor {
            changeLevel(finer: accumulated > 1, at: center)
            // Once a gesture: the rest of this pinch does nothing.
            pinchFactor = nil
        } else {
            pinchFactor = phase == .ended ? nil : accumulated
        }
    }

    /// Asks for the next finer or coarser level at the photo under window point `point` (else the
    /// one nearest the middle); Years has no coarser level.
    private mutating func changeLevel(finer: Bool, at point: Point) {
        let levels = TimelineLayout.Level.allCases
        guard let index = levels.firstIndex(of: layout.level) else { return }
        let next = index + (finer ? 1 : -1)
        guard levels.indices.contains(next) else { return }
        let content = contentPoint(point)
        guard let photo = layout.photo(at: content) ?? photoAtMiddle else { return }
        commands.append(.showLevel(levels[next], photo: photo, anchor: point))
    }
}
