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
    @Test func theHiddenGridStoresTheThumbnailsAroundThePagersPhoto() throws {
        let dir = try linkedLibrary(count: 120)
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-idle-thumbnails-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: dir)
            try? FileManager.default.removeItem(at: cache)
        }
        var options = SessionOptions.inMemory
        options.thumbnailFolder = cache.path
        let headless = HeadlessSession([dir.appendingPathComponent("p0060.jpg").path], options: options)
        let scene = headless.session.scene
        let pipeline = headless.session.pipeline
        let photos = headless.library.photos
        for step in 0...10 {
            scene.settleDecodes()
            scene.advance(to: Double(step) / 60)
        }
        #expect(pipeline.photoStore.isSharp(photos[60].id))
        let cached = ThumbnailCache(folder: cache.path)
        let half = GridView.idleThumbnails / 2
        let around = (60 - half)..<(60 - half + GridView.idleThumbnails)
        let stored = (0..<120).filter { cached.lookup(path: photos[$0].path, size: pipeline.thumbnailStore.size) != nil }
        #expect(stored == Array(around), "stored \(stored)")
        #expect(pipeline.thumbnailStore.bytesHeld == 0, "the hidden grid holds none")
    }
}
