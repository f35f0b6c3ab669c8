import Foundation
import Glibc
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing

/// The real binary in a real window under Xvfb, its folder changing under it: the photo shown
/// is deleted, and the window's title (read back by a second client) names the next photo; a
/// photo rewritten has its grid cell drawn anew (the window read back with ImageMagick's
/// `import`). How soon is the burst's bound (`ChangeBurst.longest`, under 0.5 s, tested on a
/// virtual clock), not a wall-clock deadline here.
@Suite(.timeLimit(.minutes(2))) struct LiveFolderWindowTests {
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

    /// A photo rewritten in place within the second its thumbnail was stored, to the same byte
    /// count (the stored thumbnail's stamp still matches): its cell in the grid turns from red
    /// to blue.
    @Test func rewritingAPhotoRedrawsItsCell() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-live-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let red: UInt32 = 0xFFE0_2020, blue: UInt32 = 0xFF20_40E0
        let length = try [red, blue].map { try Self.flatJPEG($0).count }.max()! + 4
        let path = folder + "/1 photo.jpg"
        try Data(try Self.flatJPEG(red, length: length)).write(to: URL(fileURLWithPath: path))
        try Data(try Self.flatJPEG(0xFF20_C040)).write(to: URL(fileURLWithPath: folder + "/2 other.jpg"))
        let app = try RunningWindow(paths: [folder], server: try VirtualXServer(sharedMemory: true))
        #expect(try eventually(within: 10) { try Self.count(red, in: app.shot()) > 0 })

        var status = stat()
        #expect(stat(path, &status) == 0)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(try Self.flatJPEG(blue, length: length)))
        try handle.close()
        let time = timespec(tv_sec: status.st_mtim.tv_sec, tv_nsec: 0)
        #expect(utimensat(AT_FDCWD, path, [time, time], 0) == 0)
        #expect(try eventually(within: 10) {
            let shot = try app.shot()
            return Self.count(red, in: shot) == 0 && Self.count(blue, in: shot) > 0
        }, "the cell is drawn blue")

        try app.press("q")
        #expect(app.ended(within: 10), "q did not quit")
    }

    /// A 64×48 JPEG in one flat colour, padded to `length` bytes when given (`paddedJPEG`).
    static func flatJPEG(_ colour: UInt32, length: Int? = nil) throws -> [UInt8] {
        let picture = PixelBuffer(width: 64, height: 48)
        for y in 0..<48 { for x in 0..<64 { picture.row(y)[x] = colour } }
        let jpeg = try JPEGEncoder.encode(picture, quality: 95)
        return length.map { paddedJPEG(jpeg, to: $0) } ?? jpeg
    }

    /// Pixels of `frame` within 24 of `colour` in every channel.
    static func count(_ colour: UInt32, in frame: PixelBuffer) -> Int {
        var count = 0
        for y in 0..<frame.height {
            for x in 0..<frame.width
            where [16, 8, 0].allSatisfy({ abs(Int(frame[x, y] >> $0 & 0xFF) - Int(colour >> $0 & 0xFF)) <= 24 }) {
                count += 1
            }
        }
        return count
    }
}
