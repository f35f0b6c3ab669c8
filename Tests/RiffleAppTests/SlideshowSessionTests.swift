import RiffleApp
import RiffleDisplay
import RiffleGeometry
import RiffleLibrary
import RiffleTestSupport
import Testing

/// `riffle --slideshow SECONDS [--loop]` as a session: the window opens on the pager (a folder
/// on its first photo, the grid behind it), the slideshow running from the first frame.
@Suite struct SlideshowSessionTests {
    static func session(loops: Bool) throws -> RiffleSession {
        var options = SessionOptions(thumbnailFolder: nil)
        options.slideshowInterval = 2
        options.slideshowLoops = loops
        options.startsSlideshow = true
        let headless = HeadlessSession([TestPaths.photos], options: options)
        #expect(headless.problems.isEmpty && !headless.library.opensOnPhoto)
        return headless.session
    }

    @Test func aFolderOpensOnItsFirstPhotoWithTheSlideshowRunning() throws {
        let session = try Self.session(loops: false)
        #expect(!session.scene.isShowingGrid)
        #expect(session.viewer.current == 0)
        // One turn, at 2 s on the replay's clock.
        try session.replay(try ReplayScript(parsing: "wait 2700\n"), snapshots: { _, _ in })
        #expect(session.viewer.current == 1)
        // The scene sleeps until the next turn (asleep: nothing animates).
        #expect(!session.scene.isAnimating)
        #expect(session.scene.wakeTime != nil)
    }

    /// The last of the four test photos (the text file named as a photo is probed out before
    /// the first frame) is followed by the first with `--loop`: the fourth turn, at 8 s.
    @Test func withLoopTheLastIsFollowedByTheFirst() throws {
        let session = try Self.session(loops: true)
        try session.replay(try ReplayScript(parsing: "wait 8500\n"), snapshots: { _, _ in })
        #expect(session.viewer.current == 0)
        #expect(session.viewer.library.photos.count == 4)
    }
}
