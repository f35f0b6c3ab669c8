import Foundation
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleGeometry
import Testing

/// `riffle FILE`: once the pager has nothing left to decode, the grid hidden behind it has the thumbnails
/// around that photo made and stored in the thumbnail cache, holding none of them, so that the
/// grid and fast paging find them.
@Suite(.serialized) struct IdleThumbnailsTests {
    /// `riffle p0060.jpg` in a folder of 120 photos, with a thumbnail cache of its own; both
    /// removed with it.
    final class Fixture {
        let folder: URL
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-idle-thumbnails-\(UUID().uuidString)")
        let headless: HeadlessSession

        init() throws {
            folder = try linkedLibrary(count: 120)
            var options = SessionOptions.inMemory
            options.thumbnailFolder = cache.path
            headless = HeadlessSession([folder.appendingPathComponent("p0060.jpg").path], options: options)
        }

        deinit {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: cache)
        }
    }

    @Test func theHiddenGridStoresTheThumbnailsAroundThePagersPhoto() throws {
        let fixture = try Fixture()
        let headless = fixture.headless
        let scene = headless.session.scene
        let pipeline = headless.session.pipeline
        let photos = headless.library.photos
        for step in 0...10 {
            scene.settleDecodes()
            scene.advance(to: Double(step) / 60)
        }
        #expect(pipeline.photoStore.isSharp(photos[60].id))
        let cached = ThumbnailCache(folder: fixture.cache.path)
        let half = GridView.idleThumbnails / 2
        let around = (60 - half)..<(60 - half + GridView.idleThumbnails)
        let stored = (0..<120).filter { cached.lookup(path: photos[$0].path, size: pipeline.thumbnailStore.size) != nil }
        #expect(stored == Array(around), "stored \(stored)")
        #expect(pipeline.thumbnailStore.bytesHeld == 0, "the hidden grid holds none")
    }

    /// Only once the pager is idle: while its photo still decodes, the hidden grid asks for
    /// nothing, not even a look in the cache (the first step of storing one).
    @Test func theHiddenGridWaitsWhileThePagerDecodes() throws {
        let fixture = try Fixture()
        let headless = fixture.headless
        let scene = headless.session.scene
        let thumbnails = headless.session.pipeline.thumbnailStore
        scene.advance(to: 0)
        #expect(!scene.pager.isDecodingIdle, "the pager's photo is decoding")
        // Until nothing is decoding or asked for, then what the thumbnails' side got, taken in
        // without the scene (whose pager would take its results in, and be idle).
        thumbnails.waitForThumbnails()
        _ = thumbnails.absorbResults(at: 0)
        #expect(thumbnails.lookSeconds.isEmpty, "\(thumbnails.lookSeconds.count) thumbnails looked for beside the pager's decode")
    }
}
