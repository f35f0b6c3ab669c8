import RiffleGeometry
import RifflePhysics

/// The timeline's change of level as a morph, a pure function of time: every photo that shows
/// at either end moves from where the old level drew it to where the new one draws it, as iOS
/// Photos' levels zoom into one another, never a cut.
///
/// Progress p(t) runs from 0 to 1 along the photo transition's critically damped spring
/// (`SpringDescription.photoTransition`, ω = 19 rad/s: 99 % of the way in 0.35 s), so it never
/// overshoots: p(t) = 1 − (1 + ω·t)·e^(−ω·t), done within `Tolerance.opacity` of 1.
/// - A cell of the new level whose photo the old level also placed (its own cell, or what
///   stood for it there) moves from that rect to its own, opaque all the way.
/// - A cell of the new level the old one had no place for fades in at its own rect.
/// - A cell of the old level moves towards where the new level places its photo (if anywhere)
///   and fades out.
public struct LevelMorph: Sendable {
    /// A photo's cell at one end of the morph, in window pixels.
    public struct Cell: Hashable, Sendable {
        public let photo: Int
        public let rect: Rect

        public init(photo: Int, rect: Rect) {
            self.photo = photo
            self.rect = rect
        }
    }

    /// A cell as drawn at a moment of the morph.
    public struct Frame: Hashable, Sendable {
        public let photo: Int
        public let rect: Rect
        public let opacity: Double
    }

    /// The old level's cells, each with where the new level places its photo (nil: nowhere).
    public let outgoing: [(cell: Cell, to: Rect?)]
    /// The new level's cells, each with where the old level placed its photo (nil: nowhere).
    public let incoming: [(cell: Cell, from: Rect?)]
    /// Clock time of the start, seconds.
    public let start: Double
    private let progress: SpringSimulation

    /// A morph beginning at `start` from the old level's `outgoing` cells to the new level's
    /// `incoming` ones.
    public init(outgoing: [(cell: Cell, to: Rect?)], incoming: [(cell: Cell, from: Rect?)], start: Double) {
        self.outgoing = outgoing
        self.incoming = incoming
        self.start = start
        progress = SpringSimulation(spring: .photoTransition, position: 0, velocity: 0, target: 1, tolerance: .opacity)
    }

    /// The progress at clock `t`: 0 at the start, 1 once done.
    public func progress(at t: Double) -> Double {
        isDone(at: t) ? 1 : min(max(progress.position(at: t - start), 0), 1)
    }

    /// True once the morph has reached its end.
    public func isDone(at t: Double) -> Bool { progress.isDone(at: t - start) }

    /// The cells to draw at clock `t`, back to front: the old level's fading out, then the new
    /// level's.
    public func frames(at t: Double) -> [Frame] {
        let p = progress(at: t)
        let incomingPhotos = Set(incoming.map(\.cell.photo))
        var frames: [Frame] = []
        for (cell, to) in outgoing where !incomingPhotos.contains(cell.photo) {
            frames.append(Frame(photo: cell.photo, rect: to.map { Self.blend(cell.rect, $0, p) } ?? cell.rect, opacity: 1 - p))
        }
        for (cell, from) in incoming {
            frames.append(Frame(photo: cell.photo, rect: from.map { Self.blend($0, cell.rect, p) } ?? cell.rect, opacity: from == nil ? p : 1))
        }
        return frames
    }

    /// The rect a fraction `p` of the way from `a` to `b`, edge by edge.
    static func blend(_ a: Rect, _ b: Rect, _ p: Double) -> Rect {
        let minX = a.minX + (b.minX - a.minX) * p, minY = a.minY + (b.minY - a.minY) * p
        let maxX = a.maxX + (b.maxX - a.maxX) * p, maxY = a.maxY + (b.maxY - a.maxY) * p
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
