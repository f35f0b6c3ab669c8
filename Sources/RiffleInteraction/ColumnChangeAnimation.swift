import RiffleGeometry
import RifflePhysics

/// The grid's morph from one column count to another, as a pure function of time: every cell
/// moves from where it was drawn (`from`, frozen when the change began, itself a blend if a
/// change was still running) to its cell in `target` scrolled to `targetScroll`.
///
/// Progress p(t) runs from 0 to 1 along a critically damped spring from rest
/// (`SpringDescription.zoomBounce`, ω = 40 rad/s: the grid's column change is its zoom, and
/// moves at the pace of the viewer's animated zooms; docs/physics.md, "Springs"), so p never
/// overshoots: p(t) = 1 − (1 + ω·t)·e^(−ω·t). Each cell is `GridCellPlacement.blend` of its two
/// rects at p. The morph counts as done when every corner of the cells that can show while it
/// runs (the culling hull of both ends) is within `Tolerance.pixels` (0.5 px, 20 px/s) of its
/// final place: the progress tolerance is that divided by the largest corner travel among them.
struct ColumnChangeAnimation: Hashable, Sendable {
    /// Where the cells were drawn when the change began.
    let from: GridCellPlacement
    /// The layout the cells move into.
    let target: GridLayout
    /// The scroll position of `target` the cells move to, pixels.
    let targetScroll: Double
    /// Clock time of the start, seconds.
    let start: Double
    private let progress: SpringSimulation

    /// A morph beginning at clock `start` from `from` to `target` at `targetScroll`, for a
    /// window of `viewport`.
    init(from: GridCellPlacement, target: GridLayout, targetScroll: Double, viewport: Size, start: Double) {
        self.from = from
        self.target = target
        self.targetScroll = targetScroll
        self.start = start
        // Corner travel of item i: per axis the larger move of its two edges; 0 travel gives an
        // infinite tolerance, done at once.
        let to = GridCellPlacement.layout(target, scroll: targetScroll)
        let shown = GridCellPlacement.blend(from: from, to: to, progress: 0).candidates(height: viewport.height)
        let travel = shown.map { index -> Double in
            let a = from.rect(ofItem: index), b = to.rect(ofItem: index)
            let dx = max(abs(b.minX - a.minX), abs(b.maxX - a.maxX))
            let dy = max(abs(b.minY - a.minY), abs(b.maxY - a.maxY))
            return (dx * dx + dy * dy).squareRoot()
        }.max() ?? 0
        let pixels = Tolerance.pixels
        progress = SpringSimulation(
            spring: .zoomBounce, position: 0, velocity: 0, target: 1,
            tolerance: Tolerance(distance: pixels.distance / travel, velocity: pixels.velocity / travel))
    }

    /// The cells at clock time `t`: the blend at p(t), or `target` at `targetScroll` once done.
    func placement(at t: Double) -> GridCellPlacement {
        let to = GridCellPlacement.layout(target, scroll: targetScroll)
        return isDone(at: t) ? to : .blend(from: from, to: to, progress: progress.position(at: t - start))
    }

    /// True once every cell that can show is within half a pixel of its place in `target` and
    /// slower than 20 px/s.
    func isDone(at t: Double) -> Bool { progress.isDone(at: t - start) }
}
