import RiffleGeometry
import RiffleInteraction

/// A library grid driven by scripted input with explicit timestamps, stepped at 60 Hz between
/// events.
struct GridHarness {
    static let frame = 1.0 / 60
    var grid: GridInteraction
    var t = 0.0

    init(items: Int = 100, viewport: Size = Size(width: 1000, height: 800)) {
        grid = GridInteraction(itemCount: items, viewport: viewport)
    }

    var state: GridRenderState { grid.renderState }

    /// Steps frames for `seconds`.
    mutating func run(_ seconds: Double) {
        let end = t + seconds
        while t + Self.frame <= end {
            t += Self.frame
            grid.step(to: t)
        }
        t = end
        grid.step(to: t)
    }

    /// Steps until nothing animates (at most `limit` seconds); returns the time it took.
    @discardableResult
    mutating func settle(limit: Double = 5) -> Double {
        let start = t
        while grid.isAnimating, t - start < limit { run(Self.frame) }
        return t - start
    }

    @discardableResult
    mutating func press(_ p: Point) -> [GridCommand] {
        grid.handle(.pointerDown(position: p, button: .left, modifiers: [], time: t))
    }

    @discardableResult
    mutating func move(_ p: Point) -> [GridCommand] {
        grid.handle(.pointerMove(position: p, modifiers: [], time: t))
    }

    @discardableResult
    mutating func release(_ p: Point) -> [GridCommand] {
        grid.handle(.pointerUp(position: p, button: .left, modifiers: [], time: t))
    }

    /// A click (press and release 30 ms apart) at `p`; returns what the release issued.
    @discardableResult
    mutating func click(_ p: Point) -> [GridCommand] {
        press(p)
        run(0.03)
        return release(p)
    }

    /// Press at `from`, move in `steps` even steps to `to` over `duration`, release there unless
    /// told not to; returns what the release issued.
    @discardableResult
    mutating func drag(from: Point, to: Point, duration: Double, steps: Int = 10, release: Bool = true) -> [GridCommand] {
        press(from)
        for k in 1...steps {
            run(duration / Double(steps))
            move(from + (to - from) * (Double(k) / Double(steps)))
        }
        return release ? self.release(to) : []
    }

    /// Presses key `name`; returns the commands it issued.
    @discardableResult
    mutating func key(_ name: Key) -> [GridCommand] {
        grid.handle(.key(name, modifiers: [], time: t))
    }

    mutating func wheel(_ dy: Double, at p: Point = Point(x: 500, y: 400), _ modifiers: Modifiers = [], precise: Bool = false) {
        grid.handle(.scroll(delta: Point(x: 0, y: dy), position: p, modifiers: modifiers, precise: precise, time: t))
    }

    mutating func pinch(_ factor: Double, at p: Point, _ phase: GesturePhase) {
        grid.handle(.pinch(scaleFactor: factor, center: p, phase: phase, time: t))
    }

    /// Item `index`'s drawn rect, from the render state.
    func cell(_ index: Int) -> Rect? {
        state.cells.first { $0.index == index }?.rect
    }
}
