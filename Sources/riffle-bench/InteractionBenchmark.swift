import Dispatch
import RiffleGeometry
import RiffleInteraction

/// The physics core's cost per 60 Hz step: a paging fling settling on the next page, a zoom
/// bounce back from past the maximum, and the navigator strip of 10,000 photos scrubbed (a drag
/// of 3 s, a pointer motion every frame, the pager shown the photo under the strip's centre)
/// then flicked to rest on a cell, each stepped frame by frame with its render state (the
/// strip's cells on screen included) read.
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
        var stripViewer = ViewerInteraction(pageCount: 10_000, viewport: viewport, page: 5_000)
        for p in 0..<10_000 where p % 7 == 0 { stripViewer.setContentSize(photo, forPage: p, at: 0) }
        let stripY = viewport.height - 28
        let scrub = perStep(stripViewer, from: 3 + 4 * frame, stepsInStart: 180) { v in
            v.handle(.pointerDown(position: Point(x: 1800, y: stripY), button: .left, modifiers: [], time: 0))
            // 180 frames of 9 px: 1620 px, 54 photos, then a flick of 40 px a frame (2400 px/s).
            for k in 1...180 {
                let t = Double(k) * frame
                v.handle(.pointerMove(position: Point(x: 1800 - Double(k) * 9, y: stripY), modifiers: [], time: t))
                v.step(to: t)
                _ = v.renderState
            }
            for k in 1...4 {
                v.handle(.pointerMove(position: Point(x: 180 - Double(k) * 40, y: stripY), modifiers: [], time: 3 + Double(k) * frame))
            }
            v.handle(.pointerUp(position: Point(x: 20, y: stripY), button: .left, modifiers: [], time: 3 + 4 * frame))
        }
        print("physics core per 60 Hz step (a frame is 16.7 ms):")
        print("  fling: \(us(fling.cost)) over \(fling.steps) steps = \(share(fling.cost)) of a frame")
        print("  zoom bounce: \(us(bounce.cost)) over \(bounce.steps) steps = \(share(bounce.cost)) of a frame")
        print("  strip of 10,000 photos, scrubbed then flicked: \(us(scrub.cost)) over \(scrub.steps) steps = \(share(scrub.cost)) of a frame")
    }

    /// Median cost of one `step` + `renderState` while the motion started by `start` (at clock
    /// time `from`, having stepped `stepsInStart` frames itself) runs; `steps` counts both.
    private static func perStep(
        _ initial: ViewerInteraction, from startTime: Double = 0.05, stepsInStart: Int = 0, start: (inout ViewerInteraction) -> Void
    ) -> (cost: Double, steps: Int) {
        var steps = 0
        let total = Stopwatch.median {
            var v = initial
            start(&v)
            var t = startTime
            steps = stepsInStart
            while v.isAnimating && steps < stepsInStart + 600 {
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
