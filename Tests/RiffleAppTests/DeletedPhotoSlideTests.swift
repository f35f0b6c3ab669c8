import Foundation
import Glibc
import RiffleGeometry
import RiffleRaster
import Testing

@testable import RiffleApp

/// The photo shown is deleted: the next one slides in straight over it, never after a frame of
/// black (the deleted photo's page used to be drawn empty).
@Suite struct DeletedPhotoSlideTests {
    static func isAllBlack(_ frame: PixelBuffer) -> Bool {
        (0..<frame.height).allSatisfy { y in (0..<frame.width).allSatisfy { frame[$0, y] & 0xFF_FFFF == 0 } }
    }

    @Test func theNextPhotoSlidesInOverTheDeletedOne() throws {
        let folder = try ScratchFolder()
        // The truncated PNG as the third: a damaged photo is still one (a text file named as a
        // photo would leave the library once probed).
        for (name, copy) in [("1 coffee.png", "1 coffee.png"), ("2 friends.jpg", "2 friends.jpg"), ("4 truncated.png", "3 truncated.png")] {
            try FileManager.default.contents(atPath: TestPaths.photos + "/" + name)!.write(to: URL(fileURLWithPath: folder.path(copy)))
        }
        let watched = WatchedSession(paths: [folder.path("2 friends.jpg")], size: PixelSize(width: 320, height: 200), thumbnailFolder: nil)
        let before = try watched.display.capture()
        #expect(!Self.isAllBlack(before))
        #expect(unlink(folder.path("2 friends.jpg")) == 0)
        watched.takeInChanges()
        #expect(watched.session.viewer.library.photos.map(\.name) == ["1 coffee.png", "3 truncated.png"])
        // The slide's first frame: the deleted photo, as it was.
        let first = try watched.display.capture()
        let difference = ImageDifference(first, before, tolerance: 0)
        #expect(difference.pixelsOverTolerance == 0, "the slide does not start from the deleted photo: \(difference.pixelsOverTolerance) pixels differ")
        // No frame of the slide is black all over; it ends on the next photo.
        var frames = 0
        while watched.session.viewer.renderState.isAnimating, frames < 120 {
            watched.wait(1.0 / 60)
            frames += 1
            let frame = try watched.display.capture()
            #expect(!Self.isAllBlack(frame), "frame \(frames) of the slide is black")
            if frames == 2 { try GoldenImage.check(frame, golden: "deleted-photo/mid-slide") }
        }
        #expect(frames > 2 && frames < 120)
        #expect(watched.session.viewer.current == 1)
        #expect(watched.session.viewer.library.photos[watched.session.viewer.current].name == "3 truncated.png")
    }
}
