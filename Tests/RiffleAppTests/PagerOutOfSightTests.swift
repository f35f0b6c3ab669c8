import Foundation
import RiffleDisplay
import RiffleGeometry
import RiffleTestSupport
import Testing

@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline

/// The pager behind the grid asks for no decodes (the grid's thumbnails get both decoders), and
/// starts again when a photo opens.
@Suite struct PagerOutOfSightTests {
    static func session(opening path: String) -> RiffleSession {
        HeadlessSession([path], options: SessionOptions(statistics: true, thumbnailFolder: nil)).session
    }

    /// Steps the scene through `frames` frames from `t`, every decode asked for done before each.
    static func run(_ scene: NavigationScene, from t: inout Double, frames: Int) {
        for _ in 0..<frames {
            t += 1.0 / 60
            scene.settleDecodes()
            scene.advance(to: t)
            scene.renderIfNeeded()
        }
    }

    @Test func theGridAtRestDecodesNoPhotoThenAnOpenedOneLandsSharp() {
        let session = Self.session(opening: TestPaths.photos)
        let scene = session.scene
        var t = 0.0
        Self.run(scene, from: &t, frames: 30)
        #expect(scene.isShowingGrid)
        #expect(session.viewer.cacheHighWaterBytes == 0, "the pager behind the grid decoded a photo")
        // An arrow key puts the focus ring on a cell; Enter opens its photo.
        _ = scene.handle(.key(.right, modifiers: [], time: t), now: t)
        _ = scene.handle(.key(.enter, modifiers: [], time: t), now: t)
        Self.run(scene, from: &t, frames: 60)
        #expect(!scene.isShowingGrid)
        #expect(session.viewer.isCurrentSharp)
        #expect(session.viewer.cacheHighWaterBytes > 0)
    }

    @Test func backOnTheGridThePagerStopsAsking() throws {
        let dir = try linkedLibrary(count: 30)
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = Self.session(opening: dir.appendingPathComponent("p0000.jpg").path)
        let scene = session.scene
        var t = 0.0
        Self.run(scene, from: &t, frames: 10)
        #expect(session.viewer.isCurrentSharp)
        _ = scene.handle(.key(.escape, modifiers: [], time: t), now: t)
        Self.run(scene, from: &t, frames: 60)
        #expect(scene.isShowingGrid)
        // Moving the pager behind the grid (as nothing on screen can) asks for nothing: photo 10
        // is far from every photo decoded so far (0 to 2, and the ends' previews).
        session.viewer.show(photo: 10, at: t)
        Self.run(scene, from: &t, frames: 30)
        #expect(session.viewer.image(ofPhoto: 10) == nil)
        #expect(!session.viewer.isCurrentSharp)
    }
}
