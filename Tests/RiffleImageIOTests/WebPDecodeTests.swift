import Foundation
import RiffleGeometry
@testable import RiffleImageIO
import RiffleRaster
import Testing

/// WebP stills and animations made at test time by libwebp's own encoders (`cwebp`, `img2webp`,
/// `webpmux`), decoded by Riffle and compared with libwebp's reference decode (`dwebp`) or with
/// the colours the frames were made of.
@Suite("WebP decoding")
struct WebPDecodeTests {
    /// A WebP of `picture` made by `cwebp` with `options`, in `folder`.
    static func webp(_ picture: PixelBuffer, options: [String], in folder: TemporaryFolder, name: String = "picture") throws -> String {
        let png = folder.path + "/\(name).png", webp = folder.path + "/\(name).webp"
        try FormatTools.writePNG(picture, to: png)
        try FormatTools.run("cwebp", ["-quiet"] + options + [png, "-o", webp])
        return webp
    }

    /// Every encoding, against `dwebp`'s decode of the same file. Tolerance 0 for opaque
    /// pictures: the same library decodes the same bits (fancy upsampling both ways). With
    /// alpha, 1 per channel: Riffle takes libwebp's own premultiplication (MODE_bgrA), which
    /// rounds c·a/255 by a fixed-point product, the reference Riffle's exact rounding.
    @Test("Lossy and lossless, with and without alpha, decode as libwebp's dwebp does", arguments: [
        ("lossy", ["-q", "80"], false, 0),
        ("lossless", ["-lossless"], false, 0),
        ("lossy with alpha", ["-q", "80", "-alpha_q", "100"], true, 1),
        ("lossless with alpha", ["-lossless", "-exact"], true, 1),
    ])
    func matchesDwebp(name: String, options: [String], alpha: Bool, tolerance: Int) throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.webp(FormatTools.testPicture(width: 96, height: 64, alpha: alpha), options: options, in: folder)
        let decoded = try ImageDecoder.decodeFile(atPath: path)
        #expect(decoded.format == .webp)
        #expect(decoded.info.hasAlpha == alpha)
        #expect(decoded.isOpaque == !alpha)
        #expect(decoded.warning == nil)
        let reference = try FormatTools.dwebp(path)
        let difference = ImageDifference(decoded.pixels, reference, tolerance: tolerance)
        #expect(difference.pixelsOverTolerance == 0, "\(name): \(difference.pixelsOverTolerance) pixels off, by up to \(difference.maxChannel)")
    }

    /// A WebP named .jpg opens as a WebP: formats come from the data, never the name.
    @Test func aWebPNamedJPGOpens() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.webp(FormatTools.testPicture(width: 40, height: 30), options: ["-lossless"], in: folder)
        let misnamed = folder.path + "/photo.jpg"
        try FileManager.default.moveItem(atPath: path, toPath: misnamed)
        let decoded = try ImageDecoder.decodeFile(atPath: misnamed)
        #expect(decoded.format == .webp)
        #expect(decoded.pixels.size == PixelSize(width: 40, height: 30))
        #expect(try ImageDecoder.probeFile(atPath: misnamed).format == .webp)
    }

    // MARK: EXIF and ICC

    /// A bare TIFF structure (little-endian) whose IFD0 holds only an Orientation of `value`.
    static func orientationTIFF(_ value: UInt16) -> [UInt8] {
        let tiff = ExifDetailsTests.TIFF(bigEndian: false)
        return Array("II".utf8) + tiff.u16(42) + tiff.u32(8) + tiff.ifd([tiff.short(0x0112, value)], at: 8)
    }

    /// `webp` with `chunk` ("exif" or "icc") set to `bytes` by `webpmux`.
    static func setting(_ chunk: String, _ bytes: [UInt8], in webp: String, folder: TemporaryFolder) throws -> String {
        let payload = folder.path + "/\(chunk).bin", out = folder.path + "/with-\(chunk).webp"
        try Data(bytes).write(to: URL(fileURLWithPath: payload))
        try FormatTools.run("webpmux", ["-set", chunk, payload, webp, "-o", out])
        return out
    }

    /// The EXIF chunk's orientation turns the picture upright, whether the chunk holds a bare
    /// TIFF structure (as the container specifies) or one after "Exif\0\0" (as some writers put
    /// it). The picture's top-left quarter is dark, the rest light: where the dark corner lands
    /// says how it was turned.
    @Test("The EXIF chunk's orientation is applied", arguments: [
        (ImageOrientation.topLeft, false), (.bottomRight, false), (.rightTop, false), (.leftBottom, false), (.rightTop, true),
    ])
    func exifOrientation(orientation: ImageOrientation, prefixed: Bool) throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let stored = PixelBuffer(width: 40, height: 20)
        for y in 0..<20 { for x in 0..<40 { stored[x, y] = x < 20 && y < 10 ? 0xFF00_0000 : 0xFFFF_FFFF } }
        let plain = try Self.webp(stored, options: ["-lossless"], in: folder)
        let exif = (prefixed ? Array("Exif".utf8) + [0, 0] : []) + Self.orientationTIFF(UInt16(orientation.rawValue))
        let path = try Self.setting("exif", exif, in: plain, folder: folder)
        let info = try ImageDecoder.probeFile(atPath: path)
        #expect(info.orientation == orientation)
        let decoded = try ImageDecoder.decodeFile(atPath: path)
        #expect(decoded.pixels.size == orientation.uprightSize(ofStored: stored.size))
        // The dark corner, turned as the orientation turns the stored picture.
        let expected = orientation.upright(stored)
        #expect(ImageDifference(decoded.pixels, expected, tolerance: 0).pixelsOverTolerance == 0)
    }

    /// The info panel's details come from the EXIF chunk.
    @Test func exifDetailsAreRead() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let plain = try Self.webp(FormatTools.testPicture(width: 16, height: 16), options: ["-lossless"], in: folder)
        let path = try Self.setting("exif", ExifDetailsTests.TIFF(bigEndian: false).photo(), in: plain, folder: folder)
        let head = try FileBytes.read(atPath: path)
        let details = try #require(ImageCodecs.codec(forHead: head).exifDetails(head: head))
        #expect(details.make == "Canon")
        #expect(details.model == "Canon EOS R6")
        #expect(details.iso == 200)
    }

    /// A large WebP keeps its EXIF chunk after the image data, past the 256 KiB a probe reads
    /// first: the probe, and the info panel's details, read it from the file.
    @Test(arguments: [false, true])
    func exifPastTheHeadIsRead(details: Bool) throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        // Noise does not compress: a lossless 400×400 of it is about 600 KiB.
        let noise = PixelBuffer(width: 400, height: 400)
        var seed: UInt32 = 12345
        for y in 0..<400 {
            for x in 0..<400 {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                noise[x, y] = 0xFF00_0000 | (seed >> 8)
            }
        }
        let plain = try Self.webp(noise, options: ["-lossless"], in: folder)
        let exif = details ? ExifDetailsTests.TIFF(bigEndian: false).photo() : Self.orientationTIFF(6)
        let path = try Self.setting("exif", exif, in: plain, folder: folder)
        #expect(try FileBytes.read(atPath: path).count > ImageCodecs.headBytes)
        if details {
            let head = try FileBytes.read(atPath: path, upTo: ImageCodecs.headBytes)
            let codec = try ImageCodecs.codec(forHead: head)
            #expect(codec.exifDetails(head: head) == nil)
            #expect(codec.exifDetails(head: head, path: path)?.model == "Canon EOS R6")
        } else {
            let info = try ImageDecoder.probeFile(atPath: path)
            #expect(info.orientation == .rightTop)
            #expect(info.uprightSize == PixelSize(width: 400, height: 400))
        }
    }

    /// The ICCP chunk is the header's profile, byte for byte (colour management reads it).
    @Test func iccProfileIsRead() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let plain = try Self.webp(FormatTools.testPicture(width: 16, height: 16), options: ["-q", "90"], in: folder)
        let profile = (0..<300).map { UInt8($0 % 251) }
        let path = try Self.setting("icc", profile, in: plain, folder: folder)
        #expect(try ImageDecoder.probeFile(atPath: path).iccProfile == profile)
        #expect(try ImageDecoder.probeFile(atPath: plain).iccProfile == nil)
    }

    // MARK: animation

    /// Solid frames of `colours` (straight RGBA) made into an animated WebP by `img2webp` with
    /// `durations` (milliseconds) and `loops`.
    static func animation(
        _ colours: [(UInt8, UInt8, UInt8, UInt8)], durations: [Int], loops: Int, size: PixelSize = PixelSize(width: 24, height: 16),
        in folder: TemporaryFolder
    ) throws -> String {
        var arguments = ["-lossless", "-loop", "\(loops)"]
        for (i, colour) in colours.enumerated() {
            let frame = PixelBuffer(width: size.width, height: size.height)
            frame.fill(Color(packed: Channels(straightRed: Int(colour.0), green: Int(colour.1), blue: Int(colour.2), alpha: Int(colour.3)).packed))
            let png = folder.path + "/frame\(i).png"
            try FormatTools.writePNG(frame, to: png)
            arguments += ["-d", "\(durations[i])", png]
        }
        let path = folder.path + "/animation.webp"
        try FormatTools.run("img2webp", arguments + ["-o", path])
        return path
    }

    /// Frames, their colours, their durations (a 5 ms frame shown 100 ms, as browsers do) and
    /// the loop count come out as img2webp put them in; the still is the first frame.
    @Test func anAnimationPlaysItsFrames() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.animation(
            [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255)], durations: [100, 5, 250], loops: 3, in: folder)
        let info = try ImageDecoder.probeFile(atPath: path)
        #expect(info.isAnimated)
        #expect(info.storedSize == PixelSize(width: 24, height: 16))
        let still = try ImageDecoder.decodeFile(atPath: path)
        #expect(Channels(still.pixels[5, 5]) == Channels(straightRed: 255, green: 0, blue: 0, alpha: 255))
        let animation = try #require(try ImageCodecs.codec(for: .webp).animation(
            atPath: path, fitting: PixelSize(width: 12, height: 100), pixelLimit: 1 << 20))
        #expect(animation.frameCount == 3)
        #expect(animation.loopCount == 3)
        #expect(animation.frameSize == PixelSize(width: 12, height: 8))
        let expected = [(Channels(straightRed: 255, green: 0, blue: 0, alpha: 255), 0.1),
                        (Channels(straightRed: 0, green: 255, blue: 0, alpha: 255), 0.1),
                        (Channels(straightRed: 0, green: 0, blue: 255, alpha: 255), 0.25)]
        // Two loops: after the last frame comes the first.
        for round in 0..<2 {
            for (i, (colour, duration)) in expected.enumerated() {
                let frame = try animation.nextFrame()
                #expect(frame.index == i)
                #expect(frame.pixels.size == PixelSize(width: 12, height: 8))
                #expect(Channels(frame.pixels[6, 4]) == colour, "loop \(round) frame \(i)")
                #expect(frame.duration == duration, "loop \(round) frame \(i)")
            }
        }
    }

    /// A frame with transparency shows what is under it as the file says: img2webp encodes each
    /// frame so that the canvas equals it (a transparent frame leaves the canvas transparent).
    @Test func aTransparentFrameIsTransparent() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.animation([(255, 0, 0, 255), (0, 0, 255, 0)], durations: [100, 100], loops: 0, in: folder)
        let animation = try #require(try ImageCodecs.codec(for: .webp).animation(atPath: path, fitting: PixelSize(width: 24, height: 16), pixelLimit: 1 << 20))
        #expect(animation.loopCount == 0)
        _ = try animation.nextFrame()
        let second = try animation.nextFrame()
        #expect(Channels(second.pixels[3, 3]).a == 0)
    }

    // MARK: damage

    /// A still cut short keeps the rows that arrived, grey below, and says what is missing.
    @Test func aTruncatedStillShowsWhatArrived() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.webp(FormatTools.testPicture(width: 128, height: 256), options: ["-q", "90"], in: folder)
        let bytes = try FileBytes.read(atPath: path)
        let decoded = try ImageDecoder.decode(Array(bytes.prefix(bytes.count * 2 / 3)))
        #expect(decoded.warning == "The WebP data ends early (the file is truncated); the missing part is grey")
        guard case .truncated(let missing?) = decoded.damage else {
            Issue.record("no missing band: \(String(describing: decoded.damage))")
            return
        }
        #expect(missing.side == .bottom)
        #expect(missing.share > 0 && missing.share < 1)
        #expect(Channels(decoded.pixels[64, 255]) == Channels(straightRed: 128, green: 128, blue: 128, alpha: 255))
    }

    /// An animation cut short plays the frames that arrived whole; the still says the rest is
    /// lost.
    @Test func aTruncatedAnimationPlaysTheFramesThatArrived() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.animation(
            [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255)], durations: [100, 100, 100], loops: 0, in: folder)
        let bytes = try FileBytes.read(atPath: path)
        let cut = folder.path + "/cut.webp"
        try Data(bytes.prefix(bytes.count - 10)).write(to: URL(fileURLWithPath: cut))
        let still = try ImageDecoder.decodeFile(atPath: cut)
        #expect(still.warning == "The WebP data ends early (the file is truncated); only its first 2 frames arrived")
        #expect(still.damage == .truncated(missing: nil))
        let animation = try #require(try ImageCodecs.codec(for: .webp).animation(atPath: cut, fitting: PixelSize(width: 24, height: 16), pixelLimit: 1 << 20))
        #expect(animation.frameCount == 2)
    }

    /// A RIFF header of a WebP whose size field says `size`.
    static func riff(_ size: UInt8) -> [UInt8] { Array("RIFF".utf8) + [size, 0, 0, 0] + Array("WEBP".utf8) }

    /// Broken files are refused with the reason: a header announcing 100 bytes and nothing
    /// after it; a VP8 chunk of noise.
    @Test func brokenFilesGiveAReason() {
        #expect(throws: ImageDecodeError(reason: "The WebP data ends early (the file is truncated)")) {
            try ImageDecoder.decode(Self.riff(100))
        }
        let noise: [UInt8] = Self.riff(40) + Array("VP8 ".utf8) + [28, 0, 0, 0] + [UInt8](repeating: 0x55, count: 28)
        #expect(throws: ImageDecodeError(reason: "The WebP data is damaged: libwebp found a bitstream error")) {
            try ImageDecoder.decode(noise)
        }
    }
}
