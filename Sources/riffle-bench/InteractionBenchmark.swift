import Dispatch
import RiffleGeometry
import RiffleInteraction

/// The physics core's cost per 60 Hz step: a paging fling settling on the next page, and a zoom
/// bounce back from past the maximum, each stepped frame by frame with its render state read.
enum InteractionBenchmark {
    static let frame = 1.0 / 60

    static func run() {
        let viewport = Size(width: 1920, height: 1080)
        let photo = Size(width: 6000, height: 4000)
        func fresh() -> ViewerInteraction {
            var v = ViewerInteraction(pageCount: 300, viewport: viewport, page: 10)
            for p in 8...12 { v.setContentSize(photo, forPage: p, at: 0) }
            return v
        }
        let fling = perStep(fresh()) { v in
            v.handle(.pointerDown(position: Point(x: 1500, y: 500), button: .left, modifiers: [], time: 0))
            for k in 1...6 { v.handle(.pointerMove(position: Point(x: 1500 - Double(k) * 40, y: 500), modifiers: [], time: Double(k) * 0.008)) }
            v.handle(.pointerUp(position: Point(x: 1260, y: 500), button: .left, modifiers: [], time: 0.05))
        }
        let bounce = perStep(fresh()) { v in
            for _ in 0..<14 { v.handle(.scroll(delta: Point(x: 0, y: 1), position: Point(x: 700, y: 400), modifiers: [], precise: false, time: 0)) }
        }
        print("physics core per 60 Hz step (a frame is 16.7 ms):")
        print("  fling: \(us(fling.cost)) over \(fling.steps) steps = \(share(fling.cost)) of a frame")
        print("  zoom bounce: \(us(bounce.cost)) over \(bounce.steps) steps = \(share(bounce.cost)) of a frame")
    }

    /// Median cost of one `step` + `renderState` while the motion started by `start` runs.
    private static func perStep(_ initial: ViewerInteraction, start: (inout ViewerInteraction) -> Void) -> (cost: Double, steps: Int) {
        var steps = 0
        let total = Stopwatch.median {
            var v = initial
            start(&v)
            var t = 0.05
            steps = 0
            while v.isAnimating && steps < 600 {
                t += frame
                v.step(to: t)
                _ = v.renderState
                steps += 1
            }
        }
        return (total / Double(max(steps, 1)), steps)
    }

    private static func us(_ s: Double) -> String { "\((s * 1e7).rounded() / 10) µs" }
    private static func share(_ s: Double) -> String { "\((s / frame * 10000).rounded() / 100) %" }
}
