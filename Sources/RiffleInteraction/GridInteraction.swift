import RealModule
import RiffleGeometry
import RifflePhysics

/// The library grid's whole interaction state: its layout, vertical scrolling, keyboard focus
/// and column changes. State changes only through `handle`, `step`, `resize`, `setItemCount`
/// and `reveal`, each at an explicit clock time (seconds); reading `renderState` or `cellRect`
/// never changes anything.
///
/// - Scrolling (`FreeScrollModel`, vertical only): a pointer drag along either axis moves the
///   content 1:1 with the pointer's y, rubber-banding past both ends, and coasts on with the
///   release velocity (`PanRecognizer`). A wheel notch animates −Δy·H^(2/3) pixels (H the
///   window height; notches add up); precise (XInput 2 smooth) deltas go through
///   `WheelRecognizer`: they move the content `WheelRecognizer.panStep` px per unit as the
///   viewer's pans do, and coast on with the tracked velocity after its idle time. Page Up/Down
///   move a viewport less one row; Home/End go to the top/bottom (and focus the first/last item).
/// - A tap opens the item under it (`GridCommand.open`); a tap in a gap opens nothing, and so
///   does a press that caught the grid coasting (it only stops it). No double-click wait: a tap
///   opens at its release.
/// - Focus: the first arrow press shows the ring on the first wholly visible item; then
///   Left/Right move it by one, Up/Down by a row, clamped to the items, the cell revealed with
///   the least motion. Return/KP_Enter open the focused item while the ring shows. A pointer
///   press hides the ring (keyboard focus shows, pointer focus does not: CSS `:focus-visible`,
///   https://drafts.csswg.org/selectors-4/#the-focus-visible-pseudo).
/// - Columns: Ctrl+wheel notches change them by one (away from the user: fewer, bigger cells);
///   a pinch, or precise Ctrl+scroll (zoom factor 1.3^Δ, `WheelRecognizer`), scales the cells by
///   the gesture's accumulated factor F: c = round(c₀/F), c₀ the columns when it began. Limits:
///   `GridLayout.columnLimits`. A change morphs (`ColumnChangeAnimation`), anchored on the item
///   nearest the pointer: its cell keeps the fraction of its height at the pointer's y, at every
///   frame and at rest, as far as the scroll range allows. Horizontally it goes to its new
///   column (index mod columns), so it stays under the pointer at rest only when that column
///   spans the pointer's x: a reflowed grid cannot keep every item's column. A change stops any
///   scroll motion where it is.
/// - While a pointer drag holds the grid, wheel notches, keys' scrolls and column changes are
///   ignored. Escape and q return `.quit`, as does the window manager's close.
public struct GridInteraction: Sendable {
    // GTK scrolls a view by page_size^(2/3) per wheel detent (`get_wheel_detent_scroll_step`
    // in gtk/gtkscrolledwindow.c; docs/physics.md, "Library grid"): 86 px in an 800 px window,
    // 105 px in 1080 px, about half a 181 px row; the step grows with the window, slower than it.
    /// 2/3: a wheel notch scrolls (window height)^(2/3) pixels.
    public static let wheelStepExponent = 2.0 / 3.0

    /// The window size, pixels.
    public private(set) var viewport: Size
    /// The latest clock time seen, seconds: state is as of this time.
    public private(set) var now: Double
    /// The layout cells rest in (during a column change, the one they move into).
    public private(set) var layout: GridLayout
    /// The item with the keyboard focus, in 0 ..< itemCount, or nil (no items, or neither a key
    /// nor `reveal` has placed it yet).
    public private(set) var focusIndex: Int?
    /// True while the focus ring shows (from a navigation key until the next pointer press).
    public private(set) var isFocusRingVisible = false

    /// Columns asked for by Ctrl+wheel or pinch (kept across resizes), else nil: automatic.
    private var requestedColumns: Int?
    private var scrolling: FreeScrollModel
    private var columnChange: ColumnChangeAnimation?
    private var pan = PanRecognizer()
    private var wheel = WheelRecognizer()
    /// Who holds the scroll model in a drag.
    private var drag: DragSource?
    /// The press in progress caught the grid moving: its tap opens nothing.
    private var pressCaughtMotion = false
    private var wheelZoom: ColumnGesture?
    private var pinchZoom: ColumnGesture?
    /// Commands issued while handling the current event.
    private var commands: [GridCommand] = []

    private enum DragSource: Sendable {
        case pointer
        case precise
    }

    // A continuous zoom (pinch, precise Ctrl+scroll): cells ≈ W/c wide scaled by the factor F
    // call for c₀/F columns, rounded to the nearest count (Riffle's choice; docs/physics.md,
    // "Library grid"). Clamped before the conversion so that any positive F gives an Int.
    private struct ColumnGesture: Sendable {
        var startColumns: Int
        var factor = 1.0

        var columns: Int { Int(min(max((Double(startColumns) / factor).rounded(), 1), 1e6)) }
    }

    /// Room above the first row and below the last (`GridInsets`), where a timeline's bars float.
    private let insets: GridInsets

    /// A grid of `itemCount` items in `viewport` at its top, at clock `time`, automatic columns,
    /// `insets` of room above and below its rows.
    public init(itemCount: Int, viewport: Size, time: Double = 0, insets: GridInsets = GridInsets()) {
        self.viewport = viewport
        self.insets = insets
        now = time
        layout = GridLayout(viewportWidth: viewport.width, itemCount: itemCount, insets: insets)
        scrolling = FreeScrollModel(viewportLength: viewport.height, contentLength: layout.contentHeight)
    }

    /// Number of items.
    public var itemCount: Int { layout.itemCount }

    /// The content y shown at the window's top, pixels, as of `now` (outside [0, maximum] while
    /// rubber-banded).
    public var scrollPosition: Double { scrolling.position(at: now) }

    /// The scroll as a fraction of its range: 0 at the top, 1 at the end (0 when it cannot
    /// scroll).
    public var scrollFraction: Double {
        scrolling.maximumPosition > 0 ? min(max(scrolling.position(at: now) / scrolling.maximumPosition, 0), 1) : 0
    }

    /// The scroll's whole length, pixels (the content with its insets).
    public var scrollLength: Double { layout.contentHeight }

    /// Puts the scroll at `fraction` of its range at once (the scrubber), ending any motion.
    /// Ignored while a pointer drag holds the grid.
    public mutating func scroll(toFraction fraction: Double) {
        guard drag == nil else { return }
        let target = min(max(fraction, 0), 1) * scrolling.maximumPosition
        scrolling.resize(
            viewportLength: viewport.height, contentLength: layout.contentHeight,
            anchor: FreeScrollModel.Anchor(contentPosition: target, viewportPosition: 0), at: now)
    }

    /// True while the cells morph from one column count to another (Ctrl+wheel, pinch).
    public var isChangingColumns: Bool { columnChange != nil }

    /// True while anything moves with time alone or a timer is outstanding: frames are needed.
    public var isAnimating: Bool {
        scrolling.isAnimating || columnChange != nil || wheel.deadline != nil
    }

    /// The frame to draw, as of `now`.
    public var renderState: GridRenderState {
        GridRenderState(
            viewport: viewport,
            cells: drawnPlacement.visibleCells(in: viewport).map { GridRenderState.Cell(index: $0.index, rect: $0.rect) },
            focusIndex: focusIndex, isFocusRingVisible: isFocusRingVisible, isAnimating: isAnimating)
    }

    /// Item `index`'s cell as drawn now, window pixels, or nil when it is off screen or no item
    /// (for the open and close transitions between grid and viewer).
    public func cellRect(_ index: Int) -> Rect? {
        guard (0..<itemCount).contains(index) else { return nil }
        let rect = drawnPlacement.rect(ofItem: index)
        return rect.intersection(Rect(origin: .zero, size: viewport)) == nil ? nil : rect
    }

    /// Advances the clock to `t` (once per frame): fires the trackpad and zoom idle timers and
    /// ends finished motions.
    public mutating func step(to t: Double) {
        advance(to: t)
    }

    /// The window became `viewport` at clock `t`: the item at the top-left of the view stays at
    /// the top, as many pixels above or below the window's edge as before (as far as the range
    /// allows); the columns are recomputed from the new width unless asked for (then clamped
    /// into the new limits). A column change in progress ends.
    public mutating func resize(viewport newViewport: Size, at t: Double) {
        advance(to: t)
        let position = scrolling.position(at: now)
        let top = layout.items(inContentY: position..<(position + max(viewport.height, 0))).first
        let offset = top.map { layout.rect(ofItem: $0).minY - position } ?? 0
        viewport = newViewport
        layout = GridLayout(viewportWidth: newViewport.width, itemCount: itemCount, columns: requestedColumns, insets: insets)
        columnChange = nil
        scrolling.resize(
            viewportLength: newViewport.height, contentLength: layout.contentHeight,
            anchor: top.map { FreeScrollModel.Anchor(contentPosition: layout.rect(ofItem: $0).minY, viewportPosition: offset) },
            at: now)
    }

    /// Changes the number of items at clock `t` (items added or removed at the end): the scroll
    /// position stays, moved into the new range; the focus moves onto the last item if it was
    /// past it (none, and no ring, without items). A column change in progress ends.
    public mutating func setItemCount(_ count: Int, at t: Double) {
        advance(to: t)
        layout = GridLayout(viewportWidth: viewport.width, itemCount: count, columns: requestedColumns, insets: insets)
        columnChange = nil
        scrolling.resize(viewportLength: viewport.height, contentLength: layout.contentHeight, at: now)
        focusIndex = focusIndex.flatMap { itemCount > 0 ? min($0, itemCount - 1) : nil }
        if focusIndex == nil { isFocusRingVisible = false }
    }

    /// The items were renumbered at clock `t` (photos added, removed or renamed): there are
    /// `count` now, old item i is item `newItem(i)` (nil: gone). The grid stays anchored on
    /// what it shows: the first item in the window that stayed keeps its cell's distance from
    /// the window's top (as far as the new range allows), or, holding its end (`holdsEnd`) and
    /// resting there, the end stays in view. The focus follows its item, else
    /// stays at its index (clamped; none, and no ring, without items). A column change in
    /// progress ends.
    public mutating func renumberItems(count: Int, newItem: (Int) -> Int?, at t: Double) {
        advance(to: t)
        let position = scrolling.position(at: now)
        let atEnd = holdsEnd && !scrolling.isAnimating && !scrolling.isDragging && position >= scrolling.maximumPosition - Self.endTolerance
        let shown = layout.items(inContentY: position..<(position + max(viewport.height, 0)))
        let anchor = shown.first { newItem($0) != nil }.map { (old: $0, new: newItem($0)!) }
        let offset = anchor.map { layout.rect(ofItem: $0.old).minY - position } ?? 0
        layout = GridLayout(viewportWidth: viewport.width, itemCount: count, columns: requestedColumns, insets: insets)
        columnChange = nil
        scrolling.resize(
            viewportLength: viewport.height, contentLength: layout.contentHeight,
            anchor: atEnd ? endAnchor : anchor.map { FreeScrollModel.Anchor(contentPosition: layout.rect(ofItem: $0.new).minY, viewportPosition: offset) },
            at: now)
        focusIndex = focusIndex.flatMap { newItem($0) ?? (count > 0 ? min($0, count - 1) : nil) }
        if focusIndex == nil { isFocusRingVisible = false }
    }

    /// True for a timeline's grid: it opens at its end, on the newest photos, and while it rests
    /// there a renumbering (the index reordering it, photos arriving) keeps it there, as iOS
    /// Photos' library opens on its newest photos and stays on them as an import lands;
    /// scrolled anywhere else, a renumbering keeps the first cell shown in its place.
    public var holdsEnd = false {
        didSet { if holdsEnd { scrolling.resize(viewportLength: viewport.height, contentLength: layout.contentHeight, anchor: endAnchor, at: now) } }
    }

    /// How near its end, pixels, a resting scroll counts as at its end (a position worked out
    /// from an anchor may miss the maximum by a rounding).
    static let endTolerance = 0.5

    /// The anchor that shows the content's end at the viewport's end.
    private var endAnchor: FreeScrollModel.Anchor {
        FreeScrollModel.Anchor(contentPosition: layout.contentHeight, viewportPosition: viewport.height)
    }

    /// Scrolls item `index`'s cell into view with the least motion at clock `t` (animated, or at
    /// once behind a photo closing onto its cell) and gives it the focus; the ring's visibility
    /// is kept. Ignored for an index outside 0 ..< itemCount, and (the scroll) during a drag.
    public mutating func reveal(index: Int, animated: Bool = true, at t: Double) {
        advance(to: t)
        guard (0..<itemCount).contains(index) else { return }
        focusIndex = index
        let cell = layout.rect(ofItem: index)
        scrolling.scroll(toReveal: cell.minY..<cell.maxY, animated: animated, at: now)
    }

    /// Applies one input event at its time (events without one happen at `now`); returns what
    /// the app must do beyond the model (open a photo, quit), in order.
    @discardableResult
    public mutating func handle(_ event: InputEvent) -> [GridCommand] {
        if let t = event.time { advance(to: t) }
        switch event {
        case let .pointerDown(position, .left, _, _):
            press(at: position)
        case let .pointerMove(position, _, _):
            if let output = pan.move(to: position, time: now) { perform(output) }
        case let .pointerUp(position, .left, _, _):
            for output in pan.release(at: position, time: now) { perform(output) }
            // A tap, or a release beyond the slop with no move between: let go where it is.
            endPointerDrag(velocity: 0)
        case let .scroll(delta, position, modifiers, precise, _):
            scrollEvent(delta: delta, position: position, modifiers: modifiers, precise: precise)
        case let .pinch(factor, center, phase, _):
            pinch(factor: factor, center: center, phase: phase)
        case let .key(key, modifiers, _, _):
            if case let .grid(command) = KeyMap.command(for: key, modifiers: modifiers, in: .grid) { perform(command) }
        case let .resize(size):
            resize(viewport: Size(size), at: now)
        case .close:
            commands.append(.quit)
        case .pointerDown, .pointerUp, .focus, .expose, .dropHighlight, .drop:
            break
        }
        defer { commands.removeAll() }
        return commands
    }

    // MARK: - Time and placement

    private mutating func advance(to t: Double) {
        now = max(now, t)
        for action in wheel.step(to: now) { perform(action) }
        scrolling.settle(at: now)
        if columnChange?.isDone(at: now) == true { columnChange = nil }
    }

    // Where every cell is drawn now: the layout at the scroll position, or the column change's
    // morph moved by however far the grid has scrolled since the change set its position.
    private var drawnPlacement: GridCellPlacement {
        let position = scrolling.position(at: now)
        guard let change = columnChange else { return .layout(layout, scroll: position) }
        return change.placement(at: now).scrolled(by: position - change.targetScroll)
    }

    // MARK: - Pointer

    // A press catches the grid where it is; one that caught it coasting (momentum, bounce), or
    // under a trackpad's pan, only stops it, as a touch stops a moving list on iOS (Riffle's
    // choice; docs/physics.md, "Library grid"). An animated scroll (wheel, keys) is no fling:
    // a click during one still opens.
    private mutating func press(at position: Point) {
        pressCaughtMotion = scrolling.isCoasting || drag == .precise
        if drag == .precise { scrolling.release(velocity: 0, at: now) }
        isFocusRingVisible = false
        pan.press(at: position, time: now)
        scrolling.grab(at: now)
        drag = .pointer
    }

    private mutating func perform(_ output: PanRecognizer.Output) {
        switch output {
        case .began:
            // The press already holds the grid; the pan reports motion from its lock point on.
            break
        case let .changed(delta, _):
            // The content follows the pointer: moving it down shows earlier content.
            if drag == .pointer { scrolling.drag(by: -delta.y, at: now) }
        case let .ended(velocity, _):
            endPointerDrag(velocity: -velocity.y)
        case let .tap(position, _):
            if !pressCaughtMotion, let index = drawnPlacement.item(at: position, viewport: viewport) {
                commands.append(.open(index))
            }
        }
    }

    // `velocity` is the scroll position's, pixels per second.
    private mutating func endPointerDrag(velocity: Double) {
        guard drag == .pointer else { return }
        drag = nil
        scrolling.release(velocity: velocity, at: now)
    }

    // MARK: - Wheel and pinch

    private mutating func scrollEvent(delta: Point, position: Point, modifiers: Modifiers, precise: Bool) {
        if precise {
            let actions = wheel.scroll(
                delta: delta, position: position, modifiers: modifiers, precise: true, time: now, photoIsZoomed: false)
            for action in actions { perform(action) }
        } else if delta.y == 0 || modifiers.contains(.shift) {
            // Horizontal notches: the grid scrolls vertically only.
        } else if modifiers.contains(.control) {
            // One column a notch, away from the user zooming in as in the viewer (Riffle's
            // choice; docs/physics.md, "Library grid").
            let wanted = layout.columns + (delta.y > 0 ? -1 : 1)
            if wanted > GridLayout.columnLimits(viewportWidth: viewport.width).upperBound {
                // Past the most columns: a timeline's Days, at the cell under the pointer.
                commands.append(.showLevel(.days, item: drawnPlacement.item(at: position, viewport: viewport)))
            } else {
                changeColumns(to: wanted, anchor: position)
            }
        } else {
            // Δy > 0 is away from the user (X button 4): earlier content.
            scrolling.scroll(by: -delta.y * Double.pow(viewport.height, Self.wheelStepExponent), at: now)
        }
    }

    private mutating func perform(_ action: WheelRecognizer.Action) {
        switch action {
        case let .precisePan(delta):
            guard drag != .pointer else { return }
            drag = .precise
            scrolling.drag(by: -delta.y, at: now)
        case let .endPrecisePan(velocity):
            guard drag == .precise else { return }
            drag = nil
            scrolling.release(velocity: -velocity.y, at: now)
        case let .zoom(factor, anchor):
            var gesture = wheelZoom ?? ColumnGesture(startColumns: layout.columns)
            gesture.factor *= factor
            wheelZoom = gesture
            changeColumns(to: gesture.columns, anchor: anchor)
        case .endZoom:
            wheelZoom = nil
        case .panStep, .page:
            // Horizontal Ctrl+scroll: the grid scrolls vertically only.
            break
        }
    }

    private mutating func pinch(factor: Double, center: Point, phase: GesturePhase) {
        guard factor > 0, factor.isFinite else { return }
        var gesture = (phase == .began ? nil : pinchZoom) ?? ColumnGesture(startColumns: layout.columns)
        gesture.factor *= factor
        pinchZoom = phase == .ended ? nil : gesture
        changeColumns(to: gesture.columns, anchor: center)
    }

    // Morphs to `columns` (clamped into the limits) about window point `pointer`: the cell
    // nearest it as drawn (itself mid-morph if a change runs) is the anchor; the fraction f of
    // its height at the pointer (clamped into [0, 1] when the pointer is beside it) is placed
    // at the pointer's y in the new layout, through the scroll model's anchored resize.
    private mutating func changeColumns(to columns: Int, anchor pointer: Point) {
        guard drag != .pointer else { return }
        let target = GridLayout(viewportWidth: viewport.width, itemCount: itemCount, columns: columns, insets: insets)
        guard target.columns != layout.columns else { return }
        let from = drawnPlacement
        // Stopping where it is: a grab and a still release (a stretched grid springs back).
        scrolling.grab(at: now)
        scrolling.release(velocity: 0, at: now)
        drag = nil
        let anchor = from.nearestItem(to: pointer, viewport: viewport).map { item in
            let fraction = item.rect.height > 0 ? min(max((pointer.y - item.rect.minY) / item.rect.height, 0), 1) : 0
            let cell = target.rect(ofItem: item.index)
            return FreeScrollModel.Anchor(contentPosition: cell.minY + fraction * cell.height, viewportPosition: pointer.y)
        }
        requestedColumns = target.columns
        layout = target
        scrolling.resize(viewportLength: viewport.height, contentLength: target.contentHeight, anchor: anchor, at: now)
        columnChange = ColumnChangeAnimation(
            from: from, target: target, targetScroll: scrolling.position(at: now), viewport: viewport, start: now)
    }

    // MARK: - Keys and focus

    private mutating func perform(_ command: GridKeyCommand) {
        switch command {
        case .quit:
            commands.append(.quit)
        case .showLevel(let level):
            commands.append(.showLevel(level, item: isFocusRingVisible ? focusIndex : nil))
        case .toggleAspectGrid:
            commands.append(.toggleAspectGrid)
        case .open:
            if isFocusRingVisible, let focusIndex { commands.append(.open(focusIndex)) }
        case .pageUp, .pageDown:
            scrolling.scroll(pages: command == .pageDown ? 1 : -1, overlap: layout.rowPitch, at: now)
        case .home:
            showFocus(at: 0)
            scrolling.scroll(to: 0, at: now)
        case .end:
            showFocus(at: itemCount - 1)
            scrolling.scroll(to: scrolling.maximumPosition, at: now)
        case let .arrow(direction):
            moveFocus(direction)
        }
    }

    private mutating func showFocus(at index: Int) {
        guard itemCount > 0 else { return }
        focusIndex = min(max(index, 0), itemCount - 1)
        isFocusRingVisible = true
    }

    // Shows the ring on the first visible item, or moves it; then reveals its cell.
    private mutating func moveFocus(_ direction: ArrowDirection) {
        guard itemCount > 0 else { return }
        if isFocusRingVisible, let focusIndex {
            let step = switch direction {
            case .left: -1
            case .right: 1
            case .up: -layout.columns
            case .down: layout.columns
            }
            showFocus(at: focusIndex + step)
        } else {
            showFocus(at: firstVisibleItem())
        }
        guard let focusIndex else { return }
        let cell = layout.rect(ofItem: focusIndex)
        scrolling.scroll(toReveal: cell.minY..<cell.maxY, at: now)
    }

    // The first item whose cell lies wholly in the window, else the first one overlapping it,
    // else the first below it.
    private func firstVisibleItem() -> Int {
        let top = scrolling.position(at: now), bottom = top + max(viewport.height, 0)
        let shown = layout.items(inContentY: top..<bottom)
        let whole = shown.first { index in
            let cell = layout.rect(ofItem: index)
            return cell.minY >= top && cell.maxY <= bottom
        }
        return whole ?? shown.lowerBound
    }
}
