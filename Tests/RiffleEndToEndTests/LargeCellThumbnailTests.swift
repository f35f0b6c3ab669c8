import Foundation
import Testing

/// Cells made bigger with Ctrl+wheel (XTest input to the real window under Xvfb) show thumbnails
/// at least as big as they are: the Freedesktop x-large (512) class once a 3:2 photo's large
/// (256) thumbnail, cropped square, would be enlarged to fill the cell. Seen from outside, in
/// the thumbnail cache the window writes.
@Suite(.serialized, .timeLimit(.minutes(2))) struct LargeCellThumbnailTests {
    /// The PNGs in the cache's `folder` ("large", "x-large").
    static func thumbnails(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".png") }
    }

    @Test func ctrlWheelToThreeColumnsMakesXLargeThumbnails() throws {
        // Photos bigger than 512 pixels, so every class has a thumbnail to make.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-large-cells-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["1 coffee.png", "2 friends.jpg", "10 hubble.jpg"] {
            try FileManager.default.copyItem(atPath: RealWindowTests.photos + "/" + name, toPath: folder.appendingPathComponent(name).path)
        }
        let app = try RunningWindow(paths: [folder.path], server: try VirtualXServer(sharedMemory: true))
        // Four columns of 160-pixel cells in the 640-pixel window: large thumbnails.
        #expect(try eventually(within: 10) { Self.thumbnails(in: app.thumbnails.appendingPathComponent("large")).count == 3 },
                "the grid's large thumbnails were not made")
        #expect(Self.thumbnails(in: app.thumbnails.appendingPathComponent("x-large")).isEmpty)
        // One notch of Ctrl+wheel away from the user: three columns of 213-pixel cells.
        try app.xdotool(["mousemove", "--window", app.window, "320", "200", "keydown", "ctrl", "click", "4", "keyup", "ctrl"])
        let made = try eventually(within: 10) { Self.thumbnails(in: app.thumbnails.appendingPathComponent("x-large")).count == 3 }
        #expect(made, "no x-large thumbnails for 213-pixel cells: \(Self.thumbnails(in: app.thumbnails.appendingPathComponent("x-large")))")
        try app.press("q")
        #expect(app.ended(within: 10), "q did not quit")
    }
}
