import RiffleGeometry
import RiffleInteraction

/// A viewer driven by scripted input with explicit timestamps, stepped at 60 Hz between events.
struct ViewerHarness {
    static let frame = 1.0 / 60
    var viewer: ViewerInteraction
    var t = 0.0

    init(pages: Int = 5, viewport: Size = Size(width: 1000, height: 800), content: Size? = nil, page: Int = 0) {
        viewer = ViewerInteraction(pageCount: pages, viewport: viewport, page: page)
        if let content {
            for index in 0..<pages { viewer.setContentSize(content, forPage: index, at: 0) }
        }
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
    mutating func release(_ p: Point) { viewer.handle(.pointerUp(position: p, button: .left, modifiers: [], time: t)) }

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
    mutating func key(_ name: String, _ modifiers: Modifiers = []) -> [ViewerCommand] {
        viewer.handle(.key(name: name, modifiers: modifiers, time: t))
    }

    mutating func wheel(_ delta: Point, at p: Point, _ modifiers: Modifiers = [], precise: Bool = false) {
        viewer.handle(.scroll(delta: delta, position: p, modifiers: modifiers, precise: precise, time: t))
    }
}
