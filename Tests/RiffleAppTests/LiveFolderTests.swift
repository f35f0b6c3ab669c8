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

/// A folder changing under a running session, watched for real (inotify, `LiveFolders`), the
/// scene on a virtual clock (`WatchedSession`: time stands while the watcher reports, then moves
/// to the burst's end): what the grid, the pager and the window's title show follows each change
/// within half a second of the app's own time, however slow the machine.
@Suite(.serialized) struct LiveFolderTests {
    /// Half a second: the app's promise, on its own clock.
    static let promised = 0.5

    /// A scratch folder holding copies of three test photos (the truncated PNG as "3 truncated.png":
    /// a damaged photo is still one), and a watched session on it (on the folder's grid, or on
    /// `open`'s pager), with no thumbnail cache.
    static func session(open: String? = nil) throws -> (folder: ScratchFolder, watched: WatchedSession) {
        let folder = try ScratchFolder()
        for name in ["1 coffee.png", "2 friends.jpg"] { try copy(name, to: folder.path(name)) }
        try copy("4 truncated.png", to: folder.path("3 truncated.png"))
        let watched = WatchedSession(
            paths: [open.map(folder.path) ?? folder.path], size: PixelSize(width: 320, height: 200), thumbnailFolder: nil)
        return (folder, watched)
    }

    static func copy(_ photo: String, to path: String) throws {
        try FileManager.default.contents(atPath: TestPaths.photos + "/" + photo)!.write(to: URL(fileURLWithPath: path))
    }

    static func names(_ watched: WatchedSession) -> [String] { watched.session.viewer.library.photos.map(\.name) }

    /// Takes in what the watcher reports and checks that it was shown within the promise.
    static func takeIn(_ watched: WatchedSession, sourceLocation: SourceLocation = #_sourceLocation) {
        let first = watched.takeInChanges(sourceLocation: sourceLocation)
        #expect(watched.now - first <= promised, "shown \(watched.now - first) s after the change", sourceLocation: sourceLocation)
    }

    /// Files made, renamed and deleted show in the grid's library in natural order, each
    /// within half a second.
    @Test func theGridFollowsFilesMadeRenamedAndDeleted() throws {
        let (folder, watched) = try Self.session()
        #expect(watched.display.title.hasSuffix("3 photos"))

        try Self.copy("2 friends.jpg", to: folder.path("10 copy.jpg"))
        try Self.copy("1 coffee.png", to: folder.path("0 first.png"))
        Self.takeIn(watched)
        #expect(Self.names(watched) == ["0 first.png", "1 coffee.png", "2 friends.jpg", "3 truncated.png", "10 copy.jpg"])
        #expect(watched.display.title.hasSuffix("5 photos"))

        #expect(rename(folder.path("10 copy.jpg"), folder.path("2a copy.jpg")) == 0)
        #expect(unlink(folder.path("1 coffee.png")) == 0)
        Self.takeIn(watched)
        #expect(Self.names(watched) == ["0 first.png", "2 friends.jpg", "2a copy.jpg", "3 truncated.png"])
        // Not photos, written before a photo in one burst: never listed.
        try folder.write(Array("text".utf8), to: "notes.txt")
        try folder.write(Array("hidden".utf8), to: ".hidden.jpg")
        try Self.copy("1 coffee.png", to: folder.path("4 more.png"))
        Self.takeIn(watched)
        #expect(Self.names(watched) == ["0 first.png", "2 friends.jpg", "2a copy.jpg", "3 truncated.png", "4 more.png"])
    }

    /// A text file arriving under a photo's name never stays in the grid's count, and a photo
    /// saved over with text leaves as a deleted one does, once their heads are read
    /// (`PhotoProbe`); the settling the session does waits for that read.
    @Test func aFileThatHoldsNoImageLeavesOnceProbed() throws {
        let (folder, watched) = try Self.session()
        try folder.write(Array("not a photo\n".utf8), to: "0 text.jpg")
        Self.takeIn(watched)
        #expect(Self.names(watched) == ["1 coffee.png", "2 friends.jpg", "3 truncated.png"])
        #expect(watched.display.title.hasSuffix("3 photos"))

        try rewrite(folder.path("2 friends.jpg"), with: Array("a shopping list now\n".utf8))
        Self.takeIn(watched)
        #expect(Self.names(watched) == ["1 coffee.png", "3 truncated.png"])
        #expect(watched.display.title.hasSuffix("2 photos"))
    }

    /// The photo shown is deleted: the next one takes its place and names the window; the
    /// photo shown renamed keeps its place under its new name.
    @Test func thePagerFollowsThePhotoShown() throws {
        let (folder, watched) = try Self.session(open: "2 friends.jpg")
        #expect(watched.display.title == "2 friends.jpg — 2 of 3")

        try Self.copy("1 coffee.png", to: folder.path("0 zero.png"))
        Self.takeIn(watched)
        #expect(watched.display.title == "2 friends.jpg — 3 of 4")
        #expect(watched.session.viewer.current == 2)

        #expect(rename(folder.path("2 friends.jpg"), folder.path("9 friends.jpg")) == 0)
        Self.takeIn(watched)
        #expect(watched.display.title == "9 friends.jpg — 4 of 4")

        #expect(unlink(folder.path("9 friends.jpg")) == 0)
        Self.takeIn(watched)
        #expect(watched.display.title == "3 truncated.png — 3 of 3")
    }

    /// The photo shown is written anew (another picture saved over it): it is decoded again,
    /// and shows the new picture's size.
    @Test func aPhotoRewrittenIsDecodedAgain() throws {
        let (folder, watched) = try Self.session(open: "2 friends.jpg")
        let before = try #require(watched.session.viewer.image(ofPhoto: 1)).size
        // Written in place (open, truncate, write, close), as an editor saving over it does.
        let replacement = try #require(FileManager.default.contents(atPath: TestPaths.photos + "/1 coffee.png"))
        let coffee = Size(try #require(PhotoDecoding.uprightSize(path: TestPaths.photos + "/1 coffee.png")))
        #expect(coffee != before)
        try rewrite(folder.path("2 friends.jpg"), with: [UInt8](replacement))
        Self.takeIn(watched)
        #expect(watched.session.viewer.image(ofPhoto: 1)?.size == coffee)
        #expect(watched.session.viewer.current == 1)
    }
}
