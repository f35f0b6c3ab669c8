import Foundation
import Glibc
import RiffleDisplay
import RiffleGeometry
import RiffleRaster
import Synchronization
import Testing

@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline

/// A file named as a photo that holds no image is not counted once its head has been read
/// (`PhotoProbe`); a photo whose signature is an image's stays, however damaged, and a file named
/// on the command line is shown whatever it holds.
@Suite struct PhotoProbeTests {
    /// A JPEG's signature (SOI, then an APP0 marker) over bytes that are no JPEG: a damaged photo.
    static let brokenJPEG: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array("the rest of this photo was lost".utf8)
    static let text = Array("Shopping list: coffee, film, batteries.\n".utf8)

    /// A folder holding two real photos, a text file named `x.jpg` and a damaged JPEG.
    static func mixedFolder() throws -> ScratchFolder {
        let folder = try ScratchFolder()
        for name in ["1 coffee.png", "2 friends.jpg"] {
            try folder.write(Array(FileManager.default.contents(atPath: TestPaths.photos + "/" + name)!), to: name)
        }
        try folder.write(text, to: "x.jpg")
        try folder.write(brokenJPEG, to: "3 broken.jpg")
        return folder
    }

    /// Steps `session`'s scene as a replay does before its frames: everything asked for settled.
    static func settle(_ session: RiffleSession) {
        for _ in 0..<4 {
            session.scene.settleDecodes()
            session.scene.advance(to: 0)
            session.scene.renderIfNeeded()
        }
    }

    @Test func aTextFileNamedAsAPhotoIsNotCountedAndADamagedPhotoIs() throws {
        let folder = try Self.mixedFolder()
        let headless = HeadlessSession([folder.path])
        #expect(headless.library.photos.count == 4, "listing goes by names alone")
        Self.settle(headless.session)
        let library = headless.session.viewer.library
        #expect(library.photos.map(\.name) == ["1 coffee.png", "2 friends.jpg", "3 broken.jpg"])
        #expect(headless.session.scene.title.hasSuffix(" — 3 photos"), "\(headless.session.scene.title)")
        // The damaged photo's cell shows its broken-file mark.
        let broken = try #require(library.photos.first { $0.name == "3 broken.jpg" })
        guard case .failed = headless.session.pipeline.thumbnailStore.state(of: broken.id) else {
            Issue.record("the damaged photo's thumbnail is not failed: \(headless.session.pipeline.thumbnailStore.state(of: broken.id))")
            return
        }
    }

    /// `riffle x.jpg`: the file named is shown, on its error page, its folder's photos behind it.
    @Test func aTextFileNamedOnTheCommandLineIsStillShown() throws {
        let folder = try Self.mixedFolder()
        let headless = HeadlessSession([folder.path("x.jpg")])
        Self.settle(headless.session)
        let viewer = headless.session.viewer
        #expect(viewer.library.photos.map(\.name) == ["1 coffee.png", "2 friends.jpg", "3 broken.jpg", "x.jpg"])
        #expect(viewer.library.photos[viewer.current].name == "x.jpg")
        #expect(viewer.title == "x.jpg — 4 of 4")
    }

    /// `riffle "3 notes.jpg"` in the test photos: its error page says why, the folder's five
    /// files behind it, as paging onto it showed it before the probe (the same golden).
    @Test func aTextFileNamedOnTheCommandLineShowsItsErrorPage() throws {
        let headless = HeadlessSession([TestPaths.photos + "/3 notes.jpg"])
        var shots: [(String, PixelBuffer)] = []
        try headless.session.replay(try ReplayScript(parsing: "snapshot error-page\n")) { shots.append(($0, $1)) }
        #expect(headless.session.viewer.title == "3 notes.jpg — 3 of 5")
        let frame = try #require(shots.first?.1)
        try GoldenImage.check(frame, golden: "named-text-file/error-page")
    }

    /// The probe reports the file that holds text, and only it: not an image's signature over a
    /// damaged body, an empty file (a copy not begun), nor one that cannot be read.
    @Test func onlyAFileThatIsReadAndHoldsNoImageIsReported() throws {
        let folder = try ScratchFolder()
        try folder.write(Self.text, to: "text.jpg")
        try folder.write(Self.brokenJPEG, to: "broken.jpg")
        try folder.write([], to: "empty.jpg")
        let photos = ["text.jpg", "broken.jpg", "empty.jpg", "gone.jpg"].enumerated().map {
            Photo(id: PhotoID($0.offset), path: folder.path($0.element))
        }
        let probe = PhotoProbe(photos: { photos }, wake: {})
        probe.settle()
        #expect(!probe.isProbing)
        #expect(probe.take().map(\.path) == [folder.path("text.jpg")])
        #expect(probe.take().isEmpty, "each photo reported once")
    }

    /// Each report wakes the app's loop, from the probe's thread.
    @Test func eachPhotoFoundWakesTheLoop() throws {
        let folder = try ScratchFolder()
        let photos = (0..<3).map { k in Photo(id: PhotoID(k), path: try! folder.write(Self.text, to: "\(k).jpg")) }
        let wakes = Atomic(0)
        let probe = PhotoProbe(photos: { photos }, wake: { wakes.add(1, ordering: .sequentiallyConsistent) })
        probe.settle()
        #expect(wakes.load(ordering: .sequentiallyConsistent) == 3)
        #expect(probe.take().count == 3)
    }

    /// A photo handed in again (its file saved anew, now a photo) is judged by its last probe:
    /// the report of the first, not taken yet, is dropped.
    @Test func aPhotoHandedInAgainIsJudgedByItsLastProbe() {
        let photo = Photo(id: PhotoID(0), path: "/nowhere/saved.jpg")
        // Text at the first read, a photo at the second.
        let answers = Mutex([false, true])
        let probe = PhotoProbe(photos: { [photo] }, wake: {}, isImage: { _ in answers.withLock { $0.removeFirst() } })
        probe.settle()
        probe.add([photo])
        probe.settle()
        #expect(probe.take().isEmpty)
        #expect(answers.withLock { $0.isEmpty }, "read twice")
    }

    /// A photo handed in again while its first probe is reading it (saved anew meanwhile, now a
    /// photo): the first read's verdict is dropped, the second's stands.
    @Test func aPhotoHandedInAgainWhileBeingReadIsJudgedByItsLastProbe() {
        let photo = Photo(id: PhotoID(0), path: "/nowhere/saved.jpg")
        let reading = DispatchSemaphore(value: 0), resume = DispatchSemaphore(value: 0)
        let reads = Atomic(0)
        let probe = PhotoProbe(photos: { [photo] }, wake: {}, isImage: { _ in
            guard reads.add(1, ordering: .sequentiallyConsistent).oldValue == 0 else { return true }
            // The first read: text, answered once the photo has been handed in again.
            reading.signal()
            resume.wait()
            return false
        })
        reading.wait()
        probe.add([photo])
        resume.signal()
        probe.settle()
        #expect(probe.take().isEmpty)
        #expect(reads.load(ordering: .sequentiallyConsistent) == 2)
    }

    /// The probe only reads: the folder holds the same files, modes, times and bytes after it.
    @Test func theProbeNeverWritesAnything() throws {
        let folder = try Self.mixedFolder()
        try folder.write([], to: "empty.jpg")
        let before = folder.snapshot()
        let photos = before.keys.sorted().enumerated().map { Photo(id: PhotoID($0.offset), path: folder.path($0.element)) }
        let probe = PhotoProbe(photos: { photos }, wake: {})
        probe.settle()
        #expect(probe.take().count == 1)
        let after = folder.snapshot()
        #expect(after.keys.sorted() == before.keys.sorted())
        for (name, entry) in before {
            let same = after[name] == entry
            #expect(same, "\(name) was written to (its mode, time or bytes changed)")
        }
    }

    /// Stopped, the probe reads nothing more and `settle` returns.
    @Test func aStoppedProbeEnds() throws {
        let folder = try ScratchFolder()
        let photos = (0..<200).map { k in Photo(id: PhotoID(k), path: try! folder.write(Self.text, to: "\(k).jpg")) }
        let reads = Atomic(0)
        let probe = PhotoProbe(photos: { photos }, wake: {}, isImage: { _ in
            reads.add(1, ordering: .sequentiallyConsistent)
            usleep(1000)
            return false
        })
        probe.stop()
        probe.settle()
        #expect(reads.load(ordering: .sequentiallyConsistent) < 200)
    }
}
