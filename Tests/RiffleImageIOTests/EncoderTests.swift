import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif


@Suite("PNG and JPEG encoding")
struct EncoderTests {
    @Test(
        "Opaque pixels survive PNG encode → decode exactly, at either compression",
        arguments: [UInt64(1), 42, 20_240_601], [PNGEncoder.Compression.small, .fast])
    func pngRoundTripOpaque(seed: UInt64, compression: PNGEncoder.Compression) throws {
        var random = SeededGenerator(seed: seed)
        let original = PixelBuffer(width: 37, height: 23)
        for y in 0..<original.height {
            for x in 0..<original.width { original[x, y] = 0xFF00_0000 | (UInt32(truncatingIfNeeded: random.next()) & 0x00FF_FFFF) }
        }
        let bytes = try PNGEncoder.encode(original, compression: compression)
        #expect(ImageFormat.detect(bytes) == .png)
        let decoded = try ImageDecoder.decode(bytes)
        #expect(decoded.pixels.size == original.size, "seed \(seed)")
        #expect(decoded.pixels.packedPixels == original.packedPixels, "seed \(seed)")
    }

    @Test("The fast compression takes effect: a smooth picture comes out larger than at libpng's defaults, with the same pixels")
    func pngFastCompressesLess() throws {
        // A gradient: libpng's per-row filter choice and level 6 find more than level 1 with Sub.
        let picture = PixelBuffer(width: 256, height: 171)
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                picture[x, y] = Color(red: UInt8(x), green: UInt8(y), blue: UInt8((x * y) >> 8 & 0xFF)).packed
            }
        }
        let small = try PNGEncoder.encode(picture), fast = try PNGEncoder.encode(picture, compression: .fast)
        #expect(fast.count > small.count)
        #expect(try ImageDecoder.decode(fast).pixels.packedPixels == picture.packedPixels)
    }

    @Test("PNG stores straight alpha and decoding premultiplies it again")
    func pngStraightAlpha() throws {
        let original = PixelBuffer(width: 3, height: 1)
        original[0, 0] = Color(red: 1.0, green: 0.5, blue: 0.0, alpha: 0.5).packed
        original[1, 0] = 0  // transparent
        original[2, 0] = 0x8040_2010  // premultiplied (alpha 128)
        let decoded = try ImageDecoder.decode(PNGEncoder.encode(original)).pixels
        #expect(decoded[1, 0] == 0)
        for x in [0, 2] {
            let a = Channels(original[x, 0]), b = Channels(decoded[x, 0])
            // premultiplied → straight → premultiplied rounds twice: at most one level apart.
            #expect(a.a == b.a && abs(a.r - b.r) <= 1 && abs(a.g - b.g) <= 1 && abs(a.b - b.b) <= 1, "\(a) vs \(b)")
        }
    }

    @Test("A buffer with row padding encodes only its visible pixels")
    func pngRowPadding() throws {
        let storage = UnsafeMutablePointer<UInt32>.allocate(capacity: 5 * 2)
        storage.initialize(repeating: 0xFFFF_0000, count: 10)
        let padded = PixelBuffer(wrapping: storage, width: 3, height: 2, rowPixels: 5, release: { $0.deallocate() })
        padded[2, 1] = 0xFF00_00FF
        let decoded = try ImageDecoder.decode(PNGEncoder.encode(padded)).pixels
        #expect(decoded.size == PixelSize(width: 3, height: 2))
        #expect(decoded.packedPixels == padded.packedPixels)
    }

    @Test("PNGEncoder.write writes a file decodeFile reads back")
    func pngWriteFile() throws {
        let original = PixelBuffer(width: 5, height: 4)
        original.fill(Color(red: 10, green: 200, blue: 30))
        let path = "/tmp/riffle-imageio-test-\(getpid()).png"
        defer { unlink(path) }
        try PNGEncoder.write(original, toPath: path)
        #expect(try ImageDecoder.decodeFile(atPath: path).pixels.packedPixels == original.packedPixels)
    }

    @Test("JPEGEncoder.write writes a file decodeFile reads back")
    func jpegWriteFile() throws {
        let original = PixelBuffer(width: 16, height: 16)
        original.fill(Color(red: 10, green: 200, blue: 30))
        let path = "/tmp/riffle-imageio-test-\(getpid()).jpg"
        defer { unlink(path) }
        try JPEGEncoder.write(original, quality: 90, toPath: path)
        let decoded = try ImageDecoder.decodeFile(atPath: path)
        #expect(decoded.format == .jpeg)
        // A flat colour survives JPEG within a couple of levels; the suite's tolerance is 12.
        #expect(Channels(decoded.pixels[8, 8]).distance(toOpaque: (10, 200, 30)) <= 12)
    }

    @Test("Writing into a missing directory fails with the OS reason")
    func writeFailure() {
        let path = "/tmp/riffle-no-such-directory/a.png"
        #expect(throws: ImageEncodeError(reason: "Cannot create \(path): No such file or directory")) {
            try PNGEncoder.write(PixelBuffer(width: 1, height: 1), toPath: path)
        }
    }

    @Test("Writing where the user may not write fails with the OS reason, leaving nothing written", arguments: [
        "read-only folder", "read-only file",
    ])
    func writeDenied(place: String) async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path + "/snapshot.png"
        if place == "read-only file" {
            #expect(FileManager.default.createFile(atPath: path, contents: Data("old".utf8), attributes: [.posixPermissions: 0o444]))
        } else {
            #expect(chmod(folder.path, 0o555) == 0)
        }
        // Root may write anywhere, so the write runs in a child process that gives root up.
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) { [path = path as String] in
            guard ChildProcess.dropRoot() else { ChildProcess.report("still root") }
            do {
                try PNGEncoder.write(PixelBuffer(width: 4, height: 4), toPath: path)
                ChildProcess.report("written")
            } catch {
                ChildProcess.report("\(error)")
            }
        }
        #expect(result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) }
            == "Cannot create \(path): Permission denied\n")
        let left = FileManager.default.contents(atPath: path)
        #expect(left == (place == "read-only file" ? Data("old".utf8) : nil), "\(place)")
    }

    @Test("A write the device cannot take fails with the OS reason")
    func writeFails() {
        // /dev/full opens for writing and fails every write with ENOSPC, as a full disk does.
        #expect(throws: ImageEncodeError(reason: "Cannot write /dev/full: No space left on device")) {
            try PNGEncoder.write(PixelBuffer(width: 4, height: 4), toPath: "/dev/full")
        }
    }

    @Test("An empty buffer cannot be encoded")
    func emptyBuffer() {
        #expect(throws: ImageEncodeError.self) { try PNGEncoder.encode(PixelBuffer(width: 0, height: 4)) }
        #expect(throws: ImageEncodeError.self) { try JPEGEncoder.encode(PixelBuffer(width: 4, height: 0), quality: 90) }
    }

    @Test("JPEG encode → decode stays close to a smooth picture", arguments: [75, 95])
    func jpegRoundTrip(quality: Int) throws {
        let original = PixelBuffer(width: 96, height: 64)
        for y in 0..<original.height {
            for x in 0..<original.width {
                original[x, y] = Color(red: UInt8(x * 255 / 95), green: UInt8(y * 255 / 63), blue: 128).packed
            }
        }
        let bytes = try JPEGEncoder.encode(original, quality: quality)
        #expect(ImageFormat.detect(bytes) == .jpeg)
        let decoded = try ImageDecoder.decode(bytes)
        #expect(decoded.pixels.size == original.size)
        var worst = 0
        for y in 0..<original.height {
            for x in 0..<original.width {
                let a = Channels(original[x, y]), b = Channels(decoded.pixels[x, y])
                worst = max(worst, abs(a.r - b.r), abs(a.g - b.g), abs(a.b - b.b), abs(a.a - b.a))
            }
        }
        // Smooth gradients lose little even at quality 75; 12 levels is the suite's JPEG tolerance.
        #expect(worst <= 12, "quality \(quality): worst channel difference \(worst)")
    }
}
