import Foundation
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleGeometry
import Testing

/// `riffle FILE`: once the pager's photo is sharp, the grid hidden behind it has the thumbnails
/// around that photo made, nearest first, so that the grid and fast paging find them.
@Suite(.serialized) struct IdleThumbnailsTests {
    @Test func theHiddenGridMakesTheThumbnailsAroundThePagersPhoto() throws {
        let dir = try linkedLibrary(count: 120)
        defer { try? FileManager.default.removeItem(at: dir) }
        let headless = HeadlessSession([dir.appendingPathComponent("p0060.jpg").path])
        let scene = headless.session.scene
        let store = headless.session.pipeline.thumbnailStore
        let photos = headless.library.photos
        func held(_ range: Range<Int>) -> [Int] {
            range.filter { index in if case .thumbnail = store.state(of: photos[index].id) { true } else { false } }
        }
        for step in 0...8 {
            scene.settleDecodes()
            scene.advance(to: Double(step) / 60)
        }
        #expect(headless.session.pipeline.photoStore.isSharp(photos[60].id))
        let half = GridView.idleThumbnails / 2
        let around = (60 - half)..<(60 + half + 1)
        #expect(held(around) == Array(around), "held \(held(0..<120))")
        #expect(held(0..<around.lowerBound).isEmpty && held(around.upperBound..<120).isEmpty, "only those around it")
    }
}
