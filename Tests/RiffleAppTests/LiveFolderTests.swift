import Foundation
import Glibc
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleDisplay
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

/// A folder changing under a running session, watched for real (inotify, `LiveFolders`): the
/// scene is stepped on the wall clock as the live loop steps it, and what the grid, the pager
/// and the window's title show must follow within half a second (plus slack for a loaded
/// machine: `eventually` fails only after 30 s, and the times measured are checked apart).
@Suite(.serialized) struct LiveFolderTests {
    /// Half a second, and slack for two shared cores building other things meanwhile.
    static let promised = 0.5
    static let slack = 1.0

    /// A scratch folder holding copies of three test photos, and a session on it (on the
    /// folder's grid, or on `open`'s pager) watching it, with no thumbnail cache.
    static func session(open: String? = nil) throws -> (folder: ScratchFolder, session: RiffleSession, display: HeadlessDisplay) {
        let folder = try ScratchFolder()
        for name in ["1 coffee.png", "2 friends.jpg", "3 notes.jpg"] { try copy(name, to: folder.path(name)) }
        var problems: [String] = []
        let library = PhotoLibrary.collect(paths: [open.map(folder.path) ?? folder.path], problems: &problems)
        let display = HeadlessDisplay(size: PixelSize(width: 320, height: 200))
        let session = RiffleSession(library: library, display: display, options: SessionOptions(thumbnailFolder: nil))
        session.scene.watchFolders(wake: {})
        return (folder, session, display)
    }

    static func copy(_ photo: String, to path: String) throws {
        try FileManager.default.contents(atPath: TestPaths.photos + "/" + photo)!.write(to: URL(fileURLWithPath: path))
    }

    /// Steps the scene to the session's clock and draws, as one turn of the live loop.
    static func step(_ session: RiffleSession) {
        var scene: Scene = session.scene
        _ = AppCommandPerformer(display: session.display).perform(scene.advance(to: session.clock.now()), on: &scene)
        session.scene.renderIfNeeded()
    }

    static func names(_ session: RiffleSession) -> [String] { session.viewer.library.photos.map(\.name) }

    /// Files made, renamed and deleted show in the grid's library in natural order, each
    /// within half a second.
    @Test func theGridFollowsFilesMadeRenamedAndDeleted() throws {
        let (folder, session, display) = try Self.session()
        defer { session.scene.stopWatchingFolders() }
        Self.step(session)
        #expect(display.title.hasSuffix("3 photos"))

        var start = session.clock.now()
        try Self.copy("2 friends.jpg", to: folder.path("10 copy.jpg"))
        try Self.copy("1 coffee.png", to: folder.path("0 first.png"))
        #expect(eventually { Self.step(session); return Self.names(session).count == 5 })
        let added = session.clock.now() - start
        #expect(Self.names(session) == ["0 first.png", "1 coffee.png", "2 friends.jpg", "3 notes.jpg", "10 copy.jpg"])
        #expect(display.title.hasSuffix("5 photos"))
        #expect(added < Self.promised + Self.slack, "added after \(added) s")

        start = session.clock.now()
        #expect(rename(folder.path("10 copy.jpg"), folder.path("2a copy.jpg")) == 0)
        #expect(unlink(folder.path("1 coffee.png")) == 0)
        #expect(eventually { Self.step(session); return Self.names(session).count == 4 })
        let renamed = session.clock.now() - start
        #expect(Self.names(session) == ["0 first.png", "2 friends.jpg", "2a copy.jpg", "3 notes.jpg"])
        #expect(renamed < Self.promised + Self.slack, "renamed and deleted after \(renamed) s")
        // Not a photo: never listed.
        try folder.write(Array("text".utf8), to: "notes.txt")
        try folder.write(Array("hidden".utf8), to: ".hidden.jpg")
        Thread.sleep(forTimeInterval: ChangeBurst.longest + 0.1)
        Self.step(session)
        #expect(Self.names(session).count == 4)
    }

    /// The photo shown is deleted: the next one takes its place and names the window; the
    /// photo shown renamed keeps its place under its new name.
    @Test func thePagerFollowsThePhotoShown() throws {
        let (folder, session, display) = try Self.session(open: "2 friends.jpg")
        defer { session.scene.stopWatchingFolders() }
        Self.step(session)
        #expect(display.title == "2 friends.jpg — 2 of 3")

        try Self.copy("1 coffee.png", to: folder.path("0 zero.png"))
        #expect(eventually { Self.step(session); return display.title == "2 friends.jpg — 3 of 4" })
        #expect(session.viewer.current == 2)

        #expect(rename(folder.path("2 friends.jpg"), folder.path("9 friends.jpg")) == 0)
        #expect(eventually { Self.step(session); return display.title == "9 friends.jpg — 4 of 4" })

        let start = session.clock.now()
        #expect(unlink(folder.path("9 friends.jpg")) == 0)
        #expect(eventually { Self.step(session); return display.title == "3 notes.jpg — 3 of 3" })
        let shown = session.clock.now() - start
        #expect(shown < Self.promised + Self.slack, "the previous photo named the window after \(shown) s")
    }

    /// The photo shown is written anew (another picture saved over it): it is decoded again,
    /// and shows the new picture's size.
    @Test func aPhotoRewrittenIsDecodedAgain() throws {
        let (folder, session, _) = try Self.session(open: "2 friends.jpg")
        defer { session.scene.stopWatchingFolders() }
        session.viewer.settleDecodes()
        Self.step(session)
        let before = try #require(session.viewer.image(ofPhoto: 1)).size
        // Written in place (open, truncate, write, close), as an editor saving over it does.
        let replacement = try #require(FileManager.default.contents(atPath: TestPaths.photos + "/1 coffee.png"))
        let coffee = Size(try #require(PhotoDecoding.uprightSize(path: TestPaths.photos + "/1 coffee.png")))
        #expect(coffee != before)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: folder.path("2 friends.jpg")))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: replacement)
        try handle.close()
        #expect(eventually {
            Self.step(session)
            return session.viewer.image(ofPhoto: 1)?.size == coffee
        })
        #expect(session.viewer.current == 1)
    }
}
