import CRiffleX11TestClients
import Foundation
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing

/// The display's colour profile read from the X server, as a colour manager publishes it (the
/// root window's `_ICC_PROFILE`, set here by a second client): riffle's window shows an sRGB
/// photo converted into it, as lcms2's own transform gives, while the headless run (no profile:
/// sRGB) shows the file's values.
@Suite(.timeLimit(.minutes(2))) struct DisplayProfileTests {
    /// Flat patches, 160 pixels a side: the window (640×400) shows the photo at 1:1.
    static let patches: [(red: UInt8, green: UInt8, blue: UInt8)] = [(255, 0, 0), (200, 100, 50), (30, 160, 220), (128, 128, 128)]
    static let side = 160

    @Test func aDisplayProfileOnTheRootWindowIsWhatTheWindowIsConvertedTo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-profile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("patches.png").path
        try Data(HandMadePNG.patches(Self.patches, side: Self.side, chunks: [])).write(to: URL(fileURLWithPath: photo))
        let script = folder.appendingPathComponent("shown.replay").path
        try "wait 500\nsnapshot shown\n".write(toFile: script, atomically: true, encoding: .utf8)

        let server = try VirtualXServer(sharedMemory: true)
        let profile = ColourProfiles.displayP3
        #expect(profile.withUnsafeBufferPointer { rfx_test_set_display_profile(server.display, $0.baseAddress, $0.count) } == 1)
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = server.display
        let windowShots = folder.appendingPathComponent("window").path, headlessShots = folder.appendingPathComponent("headless").path
        let arguments = ["--size", "640x400", "--replay", script]
        let window = try RealWindowTests.runRiffle(arguments + ["--snapshots", windowShots, photo], environment: environment)
        #expect(window.status == 0, "\(window.stderr)")
        let headless = try RealWindowTests.runRiffle(["--headless"] + arguments + ["--snapshots", headlessShots, photo])
        #expect(headless.status == 0, "\(headless.stderr)")

        let expected = try LCMSReference.transform(Self.patches.map { (Int($0.red), Int($0.green), Int($0.blue)) }, from: nil, to: profile)
        let shown = try Self.patchColours(ImageDecoder.decodeFile(atPath: windowShots + "/shown.png").pixels)
        let raw = try Self.patchColours(ImageDecoder.decodeFile(atPath: headlessShots + "/shown.png").pixels)
        for i in Self.patches.indices {
            let patch = Self.patches[i]
            #expect(raw[i].0 == Int(patch.red) && raw[i].1 == Int(patch.green) && raw[i].2 == Int(patch.blue), "headless \(raw[i])")
            // lcms2's 8-bit optimised transform is within 2 levels of its float one.
            let worst = max(abs(shown[i].0 - expected[i].0), abs(shown[i].1 - expected[i].1), abs(shown[i].2 - expected[i].2))
            #expect(worst <= 2, "patch \(i): the window shows \(shown[i]), lcms2 gives \(expected[i])")
        }
    }

    /// The centre of each patch in a 640×400 snapshot of the photo fitted (at 1:1, centred).
    static func patchColours(_ frame: PixelBuffer) -> [(Int, Int, Int)] {
        let top = (frame.height - side) / 2
        return patches.indices.map { i in
            let pixel = frame[i * side + side / 2, top + side / 2]
            return (Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF))
        }
    }
}
