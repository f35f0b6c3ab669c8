import PropertyBased
import RiffleGeometry
import RiffleInteraction
import RiffleTestSupport
import Testing

/// Any sequence of drags, clicks, wheel notches (plain, Ctrl, precise), pinches, keys, resizes,
/// item count changes and reveals ends, once the clock runs on, at rest inside the scroll range,
/// drawing exactly the cells of its layout that overlap the window, with the focus on an item.
///
/// Each generated Int encodes one input (decoded by `ScriptedGridInput.apply`). The scripts come
/// from one seed: fixed when the environment variable `CI` is set, random otherwise;
/// `RIFFLE_PROPERTY_SEED` (decimal) replays a run. A failure names the seed and the script.
@Suite struct GridPropertyTests {
    static let scriptCount = 300
    /// This run's seed (`PropertySeed`; any fixed value would do for CI).
    static let seed = PropertySeed.forRun(fixed: 20_250_602)

    @Test func everyScriptEndsAtRestInsideItsBounds() {
        let seed = Self.seed
        // xoshiro256** state from SplitMix64, as its authors advise (https://prng.di.unimi.it).
        var splitMix = SeededGenerator(seed: seed)
        var random = Xoshiro(seed: (splitMix.next(), splitMix.next(), splitMix.next(), splitMix.next()))
        let scripts = Gen.int(in: 0...Int.max).array(of: 1...30)
        for index in 0..<Self.scriptCount {
            let codes = scripts.run(using: &random)
            let problems = Self.problemsAtRest(after: codes)
            #expect(problems.isEmpty, "RIFFLE_PROPERTY_SEED=\(seed), script \(index) \(codes): \(problems)")
            if !problems.isEmpty { return }
        }
    }

    /// What is wrong once the clock has run on after `codes`; empty when all is well. Bounds are
    /// worked out from the layout's definition, not from the model's own clamps: with W, H the
    /// window, c the columns, a = (W − (c − 1)·2)/c, rows ⌈n/c⌉, the content is rows·(a + 2) − 2
    /// tall (0 without items) and the position rests in [0, max(0, content − H)].
    static func problemsAtRest(after codes: [Int]) -> [String] {
        var h = GridHarness(items: 60)
        for code in codes {
            var input = ScriptedGridInput(code)
            input.apply(to: &h)
        }
        h.run(6)
        let state = h.state, grid = h.grid
        let n = grid.itemCount, c = grid.layout.columns
        let width = state.viewport.width, height = state.viewport.height
        var problems: [String] = []
        if state.isAnimating { problems.append("still animating") }
        let side = max((width - Double(c - 1) * 2) / Double(c), 0)
        let rows = (n + c - 1) / c
        let content = rows == 0 ? 0 : Double(rows) * (side + 2) - 2
        let position = grid.scrollPosition
        if position < 0 || position > max(0, content - height) {
            problems.append("position \(position) outside [0, \(max(0, content - height))]")
        }
        if !(1...max(GridLayout.automaticColumns(viewportWidth: width), Int((width + 2) / 82)) ~= c) {
            problems.append("\(c) columns at width \(width)")
        }
        let window = Rect(origin: .zero, size: state.viewport)
        for cell in state.cells where cell.rect.intersection(window) == nil {
            problems.append("cell \(cell.index) at \(cell.rect) is off screen")
        }
        // At rest every cell is where the layout puts it, and every overlapping one is drawn. A
        // cell that touches the window's edge to within rounding (1e-6 px: the model sums
        // row·pitch + side − position in another order) may be drawn or not.
        let edge = 1e-6
        func laidOut(_ index: Int) -> Rect {
            Rect(x: Double(index % c) * (side + 2), y: Double(index / c) * (side + 2) - position, width: side, height: side)
        }
        let surely = (0..<n).filter { laidOut($0).maxY > edge && laidOut($0).minY < height - edge && side > edge }
        let maybe = Set((0..<n).filter { laidOut($0).maxY > -edge && laidOut($0).minY < height + edge })
        let drawn = state.cells.map(\.index)
        if drawn != drawn.sorted() || Set(drawn).count != drawn.count { problems.append("cells \(drawn) out of order") }
        if !Set(surely).isSubset(of: drawn) || !Set(drawn).isSubset(of: maybe) {
            problems.append("cells \(drawn), expected \(surely)")
        }
        for cell in state.cells {
            let laid = laidOut(cell.index)
            if abs(cell.rect.minX - laid.minX) > edge || abs(cell.rect.minY - laid.minY) > edge
                || abs(cell.rect.width - laid.width) > edge {
                problems.append("cell \(cell.index) at \(cell.rect), laid out at \(laid)")
            }
        }
        if let focus = state.focusIndex, !(0..<n).contains(focus) { problems.append("focus \(focus) of \(n) items") }
        if state.isFocusRingVisible && state.focusIndex == nil { problems.append("a ring without a focus") }
        return problems
    }
}

/// One grid input decoded from an Int: the low digits choose the kind, the rest its parameters.
struct ScriptedGridInput {
    private var code: Int

    init(_ code: Int) { self.code = code }

    private mutating func next(_ n: Int) -> Int {
        defer { code /= n }
        return code % n
    }

    private mutating func point() -> Point { Point(x: Double(next(1000)), y: Double(next(800))) }

    mutating func apply(to h: inout GridHarness) {
        switch next(10) {
        case 0:
            h.drag(from: point(), to: point(), duration: 0.02 + Double(next(50)) / 50, steps: 1 + next(12))
        case 1:
            let at = point(), notches = 1 + next(8), gap = Double(next(60)) / 1000
            let size = next(2) == 0 ? 1.0 : 0.15
            let sign = next(2) == 0 ? 1.0 : -1.0
            let modifiers: Modifiers = [[], [], [.shift], [.control]][next(4)]
            let precise = next(2) == 0
            for _ in 0..<notches {
                h.wheel(sign * size, at: at, modifiers, precise: precise)
                h.run(gap)
            }
        case 2:
            h.click(point())
        case 3:
            let names: [Key] = [.left, .right, .up, .down, .pageUp, .pageDown, .home, .end, .enter, "q"]
            h.key(names[next(names.count)])
        case 4:
            h.grid.resize(viewport: Size(width: Double(150 + next(2000)), height: Double(100 + next(1200))), at: h.t)
        case 5:
            let centre = point(), factor = 0.6 + Double(next(90)) / 100
            h.pinch(1, at: centre, .began)
            for _ in 0..<(1 + next(10)) {
                h.run(0.016)
                h.pinch(factor, at: centre, .changed)
            }
            h.pinch(1, at: centre, .ended)
        case 6:
            h.run(Double(next(60)) / 100)
        case 7:
            h.grid.setItemCount(next(4) == 0 ? 0 : next(400), at: h.t)
        case 8:
            h.grid.reveal(index: next(450) - 20, animated: next(2) == 0, at: h.t)
        default:
            // A press held while other input arrives, released later.
            let from = point()
            h.press(from)
            h.run(0.05)
            h.wheel(1, at: from, next(2) == 0 ? [.control] : [])
            h.run(0.05)
            h.release(point())
        }
    }
}
