import Foundation
import RiffleGeometry
@testable import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing

/// Animated PNGs made by hand (`HandMadeAPNG`: every pixel known) through the PNG codec: the
/// APNG specification's dispose_op and blend_op, the default image, delays, plays, and chunk
/// layouts it forbids.
@Suite("APNG decoding")
struct APNGDecodeTests {
    static let red: [UInt8] = [255, 0, 0, 255]
    static let green: [UInt8] = [0, 255, 0, 255]
    static let blue: [UInt8] = [0, 0, 255, 255]
    /// Blue at alpha 128.
    static let halfBlue: [UInt8] = [0, 0, 255, 128]

    /// Writes `bytes` to a file in `folder` and returns its path.
    static func file(_ bytes: [UInt8], in folder: TemporaryFolder) throws -> String {
        let path = folder.path + "/animation.png"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The animation of `bytes` at full size.
    static func animation(_ bytes: [UInt8], in folder: TemporaryFolder) throws -> any ImageAnimation {
        let path = try file(bytes, in: folder)
        let size = try ImageDecoder.probeFile(atPath: path).uprightSize
        return try #require(try PNGCodec().animation(atPath: path, fitting: size, pixelLimit: 1 << 20))
    }

    /// Premultiplied pixels of a canvas given as straight RGBA per pixel, row by row.
    static func canvas(width: Int, _ pixels: [[UInt8]]) -> [UInt32] {
        pixels.map { Channels(straightRed: Int($0[0]), green: Int($0[1]), blue: Int($0[2]), alpha: Int($0[3])).packed }
    }

    static let clear: [UInt8] = [0, 0, 0, 0]

    /// A red 3×1 canvas, then a green pixel at x = 1 with the dispose_op under test, then a blue
    /// pixel at x = 2 blended over: none keeps the green, background clears it to transparent
    /// black, previous restores the red.
    @Test("dispose_op", arguments: [
        (0, [red, green, blue]),
        (1, [red, clear, blue]),
        (2, [red, red, blue]),
    ])
    func disposeOp(dispose: Int, expected: [[UInt8]]) throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let apng = HandMadeAPNG.file(width: 3, height: 1, frames: [
            .solid(Self.red, width: 3, height: 1),
            .solid(Self.green, x: 1, width: 1, height: 1, dispose: dispose),
            .solid(Self.blue, x: 2, width: 1, height: 1, blend: 1),
        ])
        let animation = try Self.animation(apng, in: folder)
        #expect(animation.frameCount == 3)
        let frames = try (0..<3).map { _ in try animation.nextFrame().pixels }
        #expect(frames[1].packedPixels == Self.canvas(width: 3, [Self.red, Self.green, Self.red]))
        #expect(frames[2].packedPixels == Self.canvas(width: 3, expected))
    }

    /// blend_op: source replaces the pixels under the frame (alpha and all); over composites
    /// (premultiplied: blue at alpha 128 over red gives 127 red, 128 blue, opaque).
    @Test("blend_op", arguments: [(0, Channels(straightRed: 0, green: 0, blue: 255, alpha: 128)),
                                  (1, Channels(packedAlpha: 255, red: 127, green: 0, blue: 128))])
    func blendOp(blend: Int, expected: Channels) throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let apng = HandMadeAPNG.file(width: 2, height: 1, frames: [
            .solid(Self.red, width: 2, height: 1), .solid(Self.halfBlue, width: 1, height: 1, blend: blend),
        ])
        let animation = try Self.animation(apng, in: folder)
        _ = try animation.nextFrame()
        let second = try animation.nextFrame().pixels
        #expect(Channels(second[0, 0]) == expected)
        #expect(Channels(second[1, 0]) == Channels(straightRed: 255, green: 0, blue: 0, alpha: 255))
    }

    /// dispose_op previous on the first frame is background (the specification): the canvas is
    /// empty under the second frame.
    @Test func previousOnTheFirstFrameIsBackground() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let apng = HandMadeAPNG.file(width: 2, height: 1, frames: [
            .solid(Self.red, width: 2, height: 1, dispose: 2), .solid(Self.green, width: 1, height: 1, blend: 1),
        ])
        let animation = try Self.animation(apng, in: folder)
        _ = try animation.nextFrame()
        #expect(try animation.nextFrame().pixels.packedPixels == Self.canvas(width: 2, [Self.green, Self.clear]))
    }

    /// A default image (the IDAT before the first fcTL) is the still picture, and not a frame.
    @Test func aDefaultImageIsTheStillNotAFrame() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let apng = HandMadeAPNG.file(
            width: 2, height: 2, frames: [.solid(Self.green, width: 2, height: 2), .solid(Self.blue, width: 2, height: 2)],
            defaultImage: .solid(Self.red, width: 2, height: 2))
        let path = try Self.file(apng, in: folder)
        #expect(Channels(try ImageDecoder.decodeFile(atPath: path).pixels[0, 0]) == Channels(straightRed: 255, green: 0, blue: 0, alpha: 255))
        let animation = try Self.animation(apng, in: folder)
        #expect(animation.frameCount == 2)
        #expect(Channels(try animation.nextFrame().pixels[0, 0]) == Channels(straightRed: 0, green: 255, blue: 0, alpha: 255))
    }

    /// Delays are delay_num / delay_den seconds (a denominator of 0 means 100), with browsers'
    /// rule for 10 ms or less.
    @Test("Delays", arguments: [(1, 10, 0.1), (3, 100, 0.03), (7, 0, 0.07), (0, 0, 0.1), (1, 100, 0.1), (1, 3, 0.333333)])
    func delay(numerator: Int, denominator: Int, seconds: Double) throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let apng = HandMadeAPNG.file(width: 1, height: 1, frames: [
            .solid(Self.red, width: 1, height: 1, delayNumerator: numerator, delayDenominator: denominator),
            .solid(Self.green, width: 1, height: 1),
        ])
        #expect(abs(try Self.animation(apng, in: folder).nextFrame().duration - seconds) < 1e-6)
    }

    /// num_plays is the loop count (0: for ever).
    @Test(arguments: [0, 1, 3])
    func plays(_ plays: Int) throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let apng = HandMadeAPNG.file(
            width: 1, height: 1, frames: [.solid(Self.red, width: 1, height: 1), .solid(Self.green, width: 1, height: 1)], plays: plays)
        #expect(try Self.animation(apng, in: folder).loopCount == plays)
    }

    /// A PNG moves when its acTL announces more than one frame; a one-frame APNG and a plain PNG
    /// are still.
    @Test func isAnimatedComesFromAcTL() throws {
        let two = HandMadeAPNG.file(width: 1, height: 1, frames: [.solid(Self.red, width: 1, height: 1), .solid(Self.green, width: 1, height: 1)])
        let one = HandMadeAPNG.file(width: 1, height: 1, frames: [.solid(Self.red, width: 1, height: 1)])
        #expect(try ImageDecoder.probe(two).isAnimated)
        #expect(try !ImageDecoder.probe(one).isAnimated)
        #expect(try !ImageDecoder.probe(ImageIOFixtures.bytes("rgb8.png")).isAnimated)
    }

    /// Damage ends the frames before it: a frame with a sequence number out of order, a frame
    /// whose data fails its CRC, or the end of the data; the still (the IDAT image) still shows.
    @Test("Broken layouts play the frames before the damage", arguments: ["sequence", "crc", "cut"])
    func brokenLayouts(damage: String) throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        var apng = HandMadeAPNG.file(width: 2, height: 1, frames: [
            .solid(Self.red, width: 2, height: 1), .solid(Self.green, width: 2, height: 1), .solid(Self.blue, width: 2, height: 1),
        ])
        // The third frame's fcTL, then its fdAT.
        let chunks = FileDamage.pngChunks(apng)
        let thirdControl = chunks.filter { $0.type == "fcTL" }[2], thirdData = chunks.filter { $0.type == "fdAT" }[1]
        switch damage {
        case "sequence":
            // Sequence 9 where 3 belongs, its CRC mended, so that only the order is wrong.
            apng[thirdControl.data.lowerBound + 3] = 9
            let crc = HandMadePNG.chunk("fcTL", Array(apng[thirdControl.data])).suffix(4)
            apng.replaceSubrange(thirdControl.crcOffset..<(thirdControl.crcOffset + 4), with: crc)
        case "crc":
            apng[thirdData.crcOffset] ^= 0xFF
        default:
            apng = Array(apng.prefix(thirdData.data.lowerBound + 4))
        }
        let animation = try Self.animation(apng, in: folder)
        #expect(animation.frameCount == 2)
        #expect(Channels(try ImageDecoder.decode(apng).pixels[0, 0]) == Channels(straightRed: 255, green: 0, blue: 0, alpha: 255))
    }
}
