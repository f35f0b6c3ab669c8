import RiffleDisplay
import RiffleGeometry
import RiffleTestSupport
import Testing

@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline

/// A thumbnail that arrives as its cell comes into view shows at once; one the cell waited for
/// fades in over `GridView.fadeIn`.
@Suite struct GridFadeTests {
    @Test("The opacity of an arriving thumbnail", arguments: [
        // (arrived, in view since, now, opacity)
        (0.05, 0.0, 0.05, 1.0),    // within instantArrival of the cell showing: at once
        (0.1, 0.0, 0.1, 1.0),      // at the threshold itself
        (0.0, 0.5, 0.5, 1.0),      // held before the cell came into view
        (0.3, 0.0, 0.3, 0.0),      // waited for: starts transparent
        (0.3, 0.0, 0.4, 0.5),      // half way through the fade
        (0.3, 0.0, 0.5, 1.0),      // faded in
        (0.3, 0.0, 2.0, 1.0),
    ])
    func opacity(arrived: Double, inViewSince: Double, now: Double, expected: Double) {
        #expect(abs(GridView.opacity(arrivedAt: arrived, inViewSince: inViewSince, now: now) - expected) < 1e-9)
    }

    // The replay's first frame: every thumbnail is made before it (decodes settle), so the grid
    // opens with its cells shown, nothing fading, nothing left to animate.
    @Test func thumbnailsThereWhenTheGridOpensShowAtOnce() {
        // The session kept to the end: it owns the pipeline the scene's decodes settle on.
        let headless = HeadlessSession([TestPaths.photos])
        let scene = headless.session.scene
        defer { withExtendedLifetime(headless) {} }
        scene.advance(to: 0)
        // The quick looks, then the thumbnails made after them, all within the first frame.
        for _ in 0..<4 {
            scene.settleDecodes()
            scene.advance(to: 1.0 / 60)
        }
        #expect(scene.isShowingGrid)
        #expect(!scene.isAnimating, "a cell is fading in")
    }
}
