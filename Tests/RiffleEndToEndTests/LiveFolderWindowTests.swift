import Foundation
import Glibc
import Testing

/// The real binary in a real window under Xvfb, its folder changing under it: the photo shown
/// is deleted, and the window's title (read back by a second client) names the next photo. How
/// soon is the burst's bound (`ChangeBurst.longest`, under 0.5 s, tested on a virtual clock), not
/// a wall-clock deadline here.
@Suite(.serialized, .timeLimit(.minutes(2))) struct LiveFolderWindowTests {
    @Test func deletingThePhotoShownTitlesTheWindowWithTheNextOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-live-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["1 coffee.png", "2 friends.jpg", "10 hubble.jpg"] {
            try FileManager.default.copyItem(atPath: RealWindowTests.photos + "/" + name, toPath: folder + "/" + name)
        }
        let app = try RunningWindow(paths: [folder + "/2 friends.jpg"], server: try VirtualXServer(sharedMemory: true))
        #expect(try eventually(within: 10) { try app.title() == "2 friends.jpg — 2 of 3" })

        #expect(unlink(folder + "/2 friends.jpg") == 0)
        #expect(try eventually(within: 10) { try app.title() == "10 hubble.jpg — 2 of 2" })

        try app.press("q")
        #expect(app.ended(within: 10), "q did not quit")
        #expect(app.riffle.terminationReason == .exit && app.riffle.terminationStatus == 0)
    }
}
