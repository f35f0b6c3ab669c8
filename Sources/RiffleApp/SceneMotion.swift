/// Whether what the scene shows is moving, as the decode workers' priorities need it
/// (`PhotoPipeline.setSceneMoves(_:)`): it moves while an animation runs (a scroll coasting, a
/// change of level, a flight) or its scroll position changed since the last frame (a drag, a
/// scrub, wheel notches), and for `rest` seconds after, so a hand pausing between two pointer
/// moves does not hand the visible cells back and forth between the workers.
struct SceneMotion {
    /// How long the scene counts as moving after it last moved, seconds (six frames at 60 Hz).
    static let rest = 0.1

    /// The scroll position at the last call.
    private var lastScroll: Double?
    /// The scene time it last moved.
    private var movedAt: Double?

    /// Takes in the scene at `now`: `moving` when an animation runs, `scroll` its scroll
    /// position (nil when nothing scrolls); true when it moved within the last `rest` seconds.
    mutating func moves(at now: Double, moving: Bool, scroll: Double?) -> Bool {
        if moving || (scroll != nil && lastScroll != nil && scroll != lastScroll) { movedAt = now }
        lastScroll = scroll
        guard let movedAt else { return false }
        return now - movedAt < Self.rest
    }
}
