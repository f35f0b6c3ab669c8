import RiffleGeometry
import RiffleInteraction

/// A viewer driven by scripted input with explicit timestamps, stepped at 60 Hz between events.
struct ViewerHarness {
    static let frame = 1.0 / 60
    var viewer: ViewerInteraction
    var t = 0.0
    /// The photo sizes given to the viewer, by page: what the tests know without asking it.
    private(set) var contentSizes: [Int: Size] = [:]

    init(
        pages: Int = 5, viewport: Size = Size(width: 1000, height: 800), content: Size? = nil, page: Int = 0,
        libraryBehind: Bool = false, slideshow: Slideshow.Settings = Slideshow.Settings()
    ) {
        viewer = ViewerInteraction(
            pageCount: pages, viewport: viewport, page: page, libraryBehind: libraryBehind, slideshowSettings: slideshow)
        if let content {
            for index in 0..<pages { setContentSize(content, forPage: index) }
        }
    }

    /// Page `index`'s width over height as given, nil while unknown (the strip's cells).
    func aspect(_ index: Int) -> Double? { contentSizes[index].map { $0.width / $0.height } }

    /// Gives page `index` its photo size now.
    mutating func setContentSize(_ size: Size, forPage index: Int) {
        contentSizes[index] = size
        viewer.setContentSize(size, forPage: index, at: t)
    }

    /// Why `page`'s transform is not at rest within its zoom limits and pan bounds, or nil when it
    /// is, worked out from the definition rather than from `ZoomBounds`, so that a wrong clamp in
    /// the model cannot also pass here. For a photo of size C (the viewport's own size while
    /// unknown; turned by an odd number of quarter turns, its sides exchanged) in viewport V: fit = min(Vw/Cw, Vh/Ch, 1) (a small photo rests at 1:1) and
    /// maximum = max(2.5·fit, 8, min(Vw/Cw, Vh/Ch)) (deep enough to see pixels, and to fill the
    /// window with a tiny photo); the scale s lies in [fit, maximum]; on each axis the photo
    /// covers the window, offset in [V − C·s, 0], when C·s > V, and is centred, offset
    /// (V − C·s)/2, otherwise.
    func restingProblem(_ page: ViewerRenderState.Page) -> String? {
        let viewport = state.viewport
        // A photo turned an odd number of quarter turns rests as its turned self, sides exchanged.
        let upright = contentSizes[page.index] ?? viewport
        let content = page.rotation.wholeQuarters.map { $0 % 2 == 1 } == true
            ? Size(width: upright.height, height: upright.width) : upright
        let s = page.transform.scale
        let fit = min(viewport.width / content.width, viewport.height / content.height, 1)
        let maximum = max(2.5 * fit, 8, min(viewport.width / content.width, viewport.height / content.height))
        // Rounding in the zoom animation's interpolation, far below a pixel: 1e-9 of the scale,
        // 1e-6 px of offset.
        let relative = 1e-9, pixels = 1e-6
        if s < fit * (1 - relative) || s > maximum * (1 + relative) {
            return "page \(page.index): scale \(s) outside [\(fit), \(maximum)]"
        }
        for (name, size, shown, offset) in [
            ("x", viewport.width, content.width * s, page.transform.offset.x),
            ("y", viewport.height, content.height * s, page.transform.offset.y),
        ] {
            if shown > size {
                if offset < size - shown - pixels || offset > pixels {
                    return "page \(page.index): \(name) offset \(offset) leaves an edge inside the window (range [\(size - shown), 0])"
                }
            } else if abs(offset - (size - shown) / 2) > pixels {
                return "page \(page.index): \(name) offset \(offset) not centred at \((size - shown) / 2)"
            }
        }
        return nil
    }

    var state: ViewerRenderState { viewer.renderState }

    /// The transform of page `index` if it is on screen.
    func transform(_ index: Int) -> ScaleTranslate? {
        state.pages.first { $0.index == index }?.transform
    }

    /// Steps frames for `seconds`.
    mutating func run(_ seconds: Double) {
        let end = t + seconds
        while t + Self.frame <= end {
            t += Self.frame
            viewer.step(to: t)
        }
        t = end
        viewer.step(to: t)
    }

    /// Steps until nothing animates (at most `limit` seconds); returns the time it took.
    @discardableResult
    mutating func settle(limit: Double = 5) -> Double {
        let start = t
        while viewer.isAnimating, t - start < limit { run(Self.frame) }
        return t - start
    }

    mutating func press(_ p: Point, button: PointerButton = .left) {
        viewer.handle(.pointerDown(position: p, button: button, modifiers: [], time: t))
    }
    mutating func move(_ p: Point) { viewer.handle(.pointerMove(position: p, modifiers: [], time: t)) }
    /// Releases the left button at `p`; returns the commands the release issued.
    @discardableResult
    mutating func release(_ p: Point) -> [ViewerCommand] { viewer.handle(.pointerUp(position: p, button: .left, modifiers: [], time: t)) }

    /// Press at `from`, move in `steps` even steps to `to` over `duration`, release there.
    mutating func drag(from: Point, to: Point, duration: Double, steps: Int = 10, release: Bool = true) {
        press(from)
        for k in 1...steps {
            run(duration / Double(steps))
            move(from + (to - from) * (Double(k) / Double(steps)))
        }
        if release { self.release(to) }
    }

    /// Press at `from`, move 11 px towards `to` (beyond the slop: the pan locks there), then in
    /// `steps` even steps to `to` over `duration`; release there unless told not to.
    /// Returns the lock point: motion is counted from it.
    @discardableResult
    mutating func pan(from: Point, to: Point, duration: Double, steps: Int = 10, release: Bool = true) -> Point {
        let d = to - from
        let lock = from + d / d.length * 11
        press(from)
        run(0.01)
        move(lock)
        for k in 1...steps {
            run(duration / Double(steps))
            move(lock + (to - lock) * (Double(k) / Double(steps)))
        }
        if release { self.release(to) }
        return lock
    }

    /// A click (press and release 30 ms apart) at `p`.
    mutating func click(_ p: Point) {
        press(p)
        run(0.03)
        release(p)
    }

    /// Presses key `name`; returns the commands it issued.
    @discardableResult
    mutating func key(_ name: Key, _ modifiers: Modifiers = []) -> [ViewerCommand] {
        viewer.handle(.key(name, modifiers: modifiers, time: t))
    }

    mutating func wheel(_ delta: Point, at p: Point, _ modifiers: Modifiers = [], precise: Bool = false) {
        viewer.handle(.scroll(delta: delta, position: p, modifiers: modifiers, precise: precise, time: t))
    }
}
