import RiffleGeometry
import RiffleInteraction
import RiffleTestSupport
import Testing

@testable import RiffleApp

/// Whether the scene moves, as the decode workers' priorities follow it: an animation or a
/// changed scroll position, and `SceneMotion.rest` seconds after.
@Suite struct SceneMotionTests {
    @Test func aChangedScrollOrAnAnimationMovesItUntilItHasRested() {
        var motion = SceneMotion()
        let moved1 = motion.moves(at: 0, moving: false, scroll: 40)
        #expect(!moved1, "the first position is no change")
        let moved2 = motion.moves(at: 0.016, moving: false, scroll: 40)
        #expect(!moved2)
        let moved3 = motion.moves(at: 0.033, moving: false, scroll: 52)
        #expect(moved3, "a drag or a scrub moved it")
        let moved4 = motion.moves(at: 0.033 + SceneMotion.rest - 0.001, moving: false, scroll: 52)
        #expect(moved4, "a hand pausing")
        let moved5 = motion.moves(at: 0.033 + SceneMotion.rest, moving: false, scroll: 52)
        #expect(!moved5, "at rest")
        let moved6 = motion.moves(at: 1, moving: true, scroll: nil)
        #expect(moved6, "an animation (a flight: nothing scrolls)")
        let moved7 = motion.moves(at: 1 + SceneMotion.rest, moving: false, scroll: nil)
        #expect(!moved7)
        let moved8 = motion.moves(at: 2, moving: false, scroll: 52)
        #expect(!moved8, "the first scroll position after none (the pager shown): no change")
    }

    /// The scene tells the pipeline: a change of level moves it, and it rests once the morph has
    /// landed.
    @Test func aChangeOfLevelMovesTheSceneUntilItLands() {
        let headless = HeadlessSession(
            [TestPaths.testsFolder.appendingPathComponent("Timeline").path], size: PixelSize(width: 480, height: 360))
        let scene = headless.session.scene, pipeline = headless.session.pipeline
        var now = 0.0
        func run(_ seconds: Double) { headless.run(seconds, from: &now) }
        run(0.5)
        #expect(!scene.isAnimating && !pipeline.isSceneMoving, "All Photos at rest")
        _ = scene.handle(.key(.character("y"), modifiers: [], time: now), now: now)
        run(1.0 / 60)
        #expect(scene.isAnimating, "the morph to Years runs")
        #expect(pipeline.isSceneMoving)
        run(1)
        #expect(!scene.isAnimating, "the morph landed")
        #expect(!pipeline.isSceneMoving)
    }
}
