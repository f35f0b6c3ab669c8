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
        Self.takeIn(watched, until: { !Self.names(watched).contains("0 text.jpg") })
        #expect(Self.names(watched) == ["1 coffee.png", "2 friends.jpg", "3 truncated.png"])
        #expect(watched.display.title.hasSuffix("3 photos"))

        try rewrite(folder.path("2 friends.jpg"), with: Array("a shopping list now\n".utf8))
        Self.takeIn(watched, until: { !Self.names(watched).contains("2 friends.jpg") })
        #expect(Self.names(watched) == ["1 coffee.png", "3 truncated.png"])
        #expect(watched.display.title.hasSuffix("2 photos"))
    }

    /// `takeIn`, then the bursts of events read late until `done` holds (at most 2 s): a file's
    /// close, which asks for its probe, can reach the watcher in a later read than its creation
    /// on a loaded machine.
    static func takeIn(_ watched: WatchedSession, until done: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) {
        takeIn(watched, sourceLocation: sourceLocation)
        for _ in 0..<40 where !done() {
            Thread.sleep(forTimeInterval: 0.05)
            watched.step()
            if watched.session.scene.wakeTime != nil { watched.takeInChanges(sourceLocation: sourceLocation) }
            watched.settle()
        }
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

    /// A tree's library follows the whole tree: a photo made deep in it, a folder moved in with
    /// photos in it, and a folder made empty that a photo is then copied into all show, each
    /// within half a second.
    @Test func aTreeFollowsPhotosAndFoldersDeepInIt() throws {
        let folder = try ScratchFolder()
        try folder.makeFolder("a")
        try folder.makeFolder("b/c")
        try Self.copy("1 coffee.png", to: folder.path("a/1.png"))
        try Self.copy("2 friends.jpg", to: folder.path("b/c/2.jpg"))
        let watched = WatchedSession(paths: [folder.path], size: PixelSize(width: 320, height: 200), thumbnailFolder: nil)
        let scene = watched.session.scene
        #expect(scene.library.tree == folder.path)
        func names() -> Set<String> { Set(scene.library.photos.map(\.name)) }
        #expect(names() == ["1.png", "2.jpg"])

        try Self.copy("10 hubble.jpg", to: folder.path("b/c/3.jpg"))
        Self.takeIn(watched)
        #expect(names() == ["1.png", "2.jpg", "3.jpg"])

        // Made outside the tree, then moved in whole, as a file manager moves an album.
        let outside = try ScratchFolder()
        try outside.makeFolder("album/inner")
        try Self.copy("1 coffee.png", to: outside.path("album/4.png"))
        try Self.copy("2 friends.jpg", to: outside.path("album/inner/5.jpg"))
        #expect(rename(outside.path("album"), folder.path("album")) == 0)
        Self.takeIn(watched)
        #expect(names() == ["1.png", "2.jpg", "3.jpg", "4.png", "5.jpg"])

        // Made empty; a photo copied into it later is seen: the new folder is watched.
        try folder.makeFolder("later")
        Self.takeIn(watched)
        try Self.copy("10 hubble.jpg", to: folder.path("later/6.jpg"))
        Self.takeIn(watched)
        #expect(names() == ["1.png", "2.jpg", "3.jpg", "4.png", "5.jpg", "6.jpg"])
        #expect(watched.display.title.hasSuffix("6 photos"))
    }

    /// Past the user's inotify watches, a folder is said once to be looked at every half minute,
    /// and is: a photo copied into it shows at the next look and not before, while a watched
    /// folder's photo shows at once.
    @Test func foldersBeyondTheWatchLimitAreLookedAtEveryHalfMinute() throws {
        let folder = try ScratchFolder()
        try folder.makeFolder("watched")
        try folder.makeFolder("unwatched")
        try Self.copy("1 coffee.png", to: folder.path("watched/1.png"))
        try Self.copy("2 friends.jpg", to: folder.path("unwatched/2.jpg"))
        var problems: [String] = []
        let library = PhotoLibrary.collect(paths: [folder.path], problems: &problems)
        let reports = Reports()
        let unwatched = folder.path("unwatched")
        let addWatch: @Sendable (Int32, String) -> (watch: Int32, error: Int32) = { descriptor, path in
            path == unwatched ? (-1, ENOSPC) : FolderWatcher.inotifyAddWatch(descriptor, path)
        }
        let made = LiveFolders(library: library, now: 0, report: { reports.hear($0) }, addWatch: addWatch, wake: {})
        let live = try #require(made)
        defer { live.stop() }
        #expect(reports.all == [
            "riffle: the inotify watch limit is reached (fs.inotify.max_user_watches): 1 folder is looked at every 30 s instead of watched",
        ])
        #expect(live.wakeTime == LiveFolders.rescanInterval)

        try Self.copy("10 hubble.jpg", to: folder.path("unwatched/3.jpg"))
        try Self.copy("10 hubble.jpg", to: folder.path("watched/4.jpg"))
        /// The changes of the first burst taken in from clock time `time` on, the clock moved to a
        /// burst's end but never past `limit` (the watcher's events arrive in real time).
        func changes(from time: Double, before limit: Double) -> [FolderChange] {
            var now = time
            for _ in 0..<300 {
                if let found = live.changes(at: now, in: library) { return found }
                if let wake = live.wakeTime, wake > now, wake < limit { now = wake } else { usleep(10_000) }
            }
            return []
        }
        // Before the first look: the watched folder's photo only.
        let first = changes(from: 1, before: LiveFolders.rescanInterval)
        #expect(first.contains { $0.folder == folder.path("watched") && $0.arrived.contains("4.jpg") })
        #expect(!first.contains { $0.folder == unwatched }, "the unwatched folder was looked at before its time")
        // At the look, half a minute on: the unwatched folder's photo.
        let looked = changes(from: LiveFolders.rescanInterval, before: .infinity)
        #expect(looked.contains { $0.folder == unwatched && $0.arrived.contains("3.jpg") })
        #expect(reports.all.count == 1, "said once")
    }

    /// Collects what is reported.
    final class Reports: @unchecked Sendable {
        private(set) var all: [String] = []
        func hear(_ line: String) { all.append(line) }
    }
}
