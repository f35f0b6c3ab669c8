import Foundation
import RiffleGeometry
@testable import RiffleImageIO
import RiffleRaster
import Synchronization
import Testing

/// `JPEGPipelinedDecode` decodes a JPEG's fit on two cores; its pixels, warning and damage must be
/// the single-core decode's (`ImageDecoder.decodeFile(atPath:shrunkTo:filter:)`), bit for bit,
/// at every size, for every layout, and for damaged files.
@Suite("Pipelined JPEG decoding")
struct JPEGPipelinedDecodeTests {
    /// Counts the Huffman passes started on the second core, which runs them on a thread of their own.
    final class SecondCore: Sendable {
        private let started = Atomic<Int>(0)
        var count: Int { started.load(ordering: .relaxed) }

        func run(_ work: @escaping @Sendable () -> Void) {
            started.add(1, ordering: .relaxed)
            Thread.detachNewThread(work)
        }
    }

    /// The pipelined decode of the file at `path` shrunk to `target`, pipelined whatever its size.
    static func pipelined(
        _ path: String, _ target: PixelSize, secondCore: SecondCore = SecondCore(), leastPixels: Int = 0,
        until stop: @escaping @Sendable () -> Bool = { false }
    ) throws(ImageDecodeError) -> DecodedImage {
        try JPEGPipelinedDecode.decode(
            JPEGRowReader(path: path), path: path, shrunkTo: { _ in target }, pixelLimit: ImageDecoder.defaultPixelLimit,
            secondCore: secondCore.run, leastPixels: leastPixels, until: stop)
    }

    /// Exactly the single-core decode: the same size, info, warning, damage and pixels.
    static func expectSingleCoreDecode(_ path: String, _ target: PixelSize, _ label: String) throws {
        let single = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in target }, filter: .lanczos3)
        let pipelined = try pipelined(path, target)
        #expect(pipelined.info == single.info, "\(label)")
        #expect(pipelined.warning == single.warning, "\(label)")
        #expect(pipelined.damage == single.damage, "\(label)")
        #expect(pipelined.pixels.size == single.pixels.size, "\(label)")
        guard pipelined.pixels.size == single.pixels.size else { return }
        let difference = ImageDifference(pipelined.pixels, single.pixels, tolerance: 0)
        #expect(difference.maxChannel == 0, "\(label): differs by up to \(difference.maxChannel) in \(difference.pixelsOverTolerance) pixels")
    }

    /// A picture with detail in every row (a diagonal ramp and a hashed texture), so that a row
    /// from the wrong place or a block handed over out of order shows.
    static func textured(width: Int, height: Int) -> PixelBuffer {
        let buffer = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            let row = buffer.row(y)
            for x in 0..<width {
                let hash = UInt32(truncatingIfNeeded: (x &* 73_856_093) ^ (y &* 19_349_663)) % 97
                let r = UInt32((x * 255) / width), g = UInt32((y * 255) / height), b = (hash * 2 + UInt32(x + y) % 61) & 0xFF
                row[x] = 0xFF00_0000 | r << 16 | g << 8 | b
            }
        }
        return buffer
    }

    /// `textured(width:height:)` written into `folder` as `name`, a JPEG at `quality` with
    /// `sampling` and `restarts`; its path.
    static func texturedFile(
        _ name: String, width: Int, height: Int, quality: Int = 80, sampling: JPEGEncoder.Sampling = .yuv420,
        restarts: JPEGEncoder.Restarts = .none, in folder: TemporaryFolder
    ) throws -> String {
        let path = folder.path + "/" + name
        try FileBytes.write(
            JPEGEncoder.encode(textured(width: width, height: height), quality: quality, sampling: sampling, restarts: restarts), toPath: path)
        return path
    }

    @Test("Equals the single-core decode at every size, for every fixture's orientation and colour model", arguments: [
        "photo-400x300.jpg", "baseline.jpg", "gray.jpg", "cmyk-adobe.jpg", "progressive.jpg",
        "orientation-1.jpg", "orientation-3.jpg", "orientation-5.jpg", "orientation-6.jpg", "orientation-8.jpg",
    ])
    func equalsSingleCoreForFixtures(name: String) throws {
        let size = try ImageDecoder.probe(ImageIOFixtures.bytes(name)).uprightSize
        for target in StreamedDecodeTests.targets(size) {
            try Self.expectSingleCoreDecode(ImageIOFixtures.path(name), target, "\(name) at \(target)")
        }
    }

    @Test("Equals the single-core decode for each chroma sampling, restart markers and an odd size",
          arguments: [JPEGEncoder.Sampling.yuv420, .yuv422, .yuv444, .grayscale], [JPEGEncoder.Restarts.none, .everyRows(3)])
    func equalsSingleCoreForLayouts(sampling: JPEGEncoder.Sampling, restarts: JPEGEncoder.Restarts) throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.texturedFile("layout.jpg", width: 997, height: 743, quality: 85, sampling: sampling, restarts: restarts, in: folder)
        // Every DCT scale's Lanczos decode from 1/8 up to 8/8 (the feeding reader decodes at the
        // same scale: at 1/8 libjpeg keeps only the DC coefficients), and odd sizes.
        for target in [PixelSize(width: 480, height: 357), PixelSize(width: 311, height: 233), PixelSize(width: 200, height: 149),
                       PixelSize(width: 97, height: 71), PixelSize(width: 60, height: 45), PixelSize(width: 12, height: 3)] {
            try Self.expectSingleCoreDecode(path, target, "\(sampling), \(restarts) at \(target)")
        }
    }

    @Test("A file cut short early or late, and one with a bad Huffman code, decode to the single-core picture and damage")
    func damagedFilesEqualSingleCore() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let jpeg = try JPEGEncoder.encode(Self.textured(width: 1200, height: 900), quality: 90)
        let scan = FileDamage.jpegFirstScan(jpeg)
        let cut = PixelSize(width: 400, height: 300)
        let cases: [(String, [UInt8], PixelSize)] = [
            ("cut early", Array(jpeg[..<(scan.lowerBound + scan.count * 3 / 10)]), cut),
            ("cut late", Array(jpeg[..<(scan.lowerBound + scan.count * 85 / 100)]), cut),
            ("without its EOI", Array(jpeg.dropLast(2)), cut),
            // The fixture's codes cannot swallow the bad run, as a textured picture's long
            // coefficient bits can.
            ("a bad Huffman code", FileDamage.jpegWithBadHuffmanCode(try ImageIOFixtures.bytes("photo-400x300.jpg")),
             PixelSize(width: 190, height: 142)),
        ]
        for (label, bytes, target) in cases {
            let path = folder.path + "/damaged.jpg"
            try FileBytes.write(bytes, toPath: path)
            let single = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in target }, filter: .lanczos3)
            #expect(single.warning != nil, "\(label)")
            try Self.expectSingleCoreDecode(path, target, label)
        }
    }

    @Test("Only a sequential JPEG large enough takes the second core; a progressive one decodes on one")
    func secondCoreOnlyWhereItPays() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.texturedFile("large.jpg", width: 2400, height: 1800, in: folder)
        let large = SecondCore()
        // Lanczos-3 from at least twice 1000×750: 7/8, 2100×1575 = 3.3 MP.
        _ = try Self.pipelined(path, PixelSize(width: 1000, height: 750), secondCore: large, leastPixels: JPEGPipelinedDecode.leastPipelinedPixels)
        #expect(large.count == 1)
        let small = SecondCore()
        // From 3/8, 900×675 = 0.6 MP.
        _ = try Self.pipelined(path, PixelSize(width: 400, height: 300), secondCore: small, leastPixels: JPEGPipelinedDecode.leastPipelinedPixels)
        #expect(small.count == 0)
        let progressive = SecondCore()
        _ = try Self.pipelined(ImageIOFixtures.path("progressive.jpg"), PixelSize(width: 100, height: 75), secondCore: progressive)
        #expect(progressive.count == 0)
    }

    @Test("A file replaced before the second reader opens it fails with the reason, and neither reader waits for the other")
    func replacedFileFails() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.texturedFile("replaced.jpg", width: 1200, height: 900, in: folder)
        let taker = try JPEGRowReader(path: path)
        // The second reader opens the path after the first: another picture is there by then.
        _ = try Self.texturedFile("replaced.jpg", width: 1000, height: 700, in: folder)
        #expect(throws: ImageDecodeError(reason: "The file changed while it was read")) {
            try JPEGPipelinedDecode.decode(
                taker, path: path, shrunkTo: { _ in PixelSize(width: 400, height: 300) }, pixelLimit: ImageDecoder.defaultPixelLimit,
                secondCore: SecondCore().run, leastPixels: 0, until: { false })
        }
    }

    @Test("A stop ends both readers and throws stopped; a file without its scan data decodes to the single-core grey")
    func stopAndFailure() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.texturedFile("stopped.jpg", width: 1200, height: 900, in: folder)
        let asked = Atomic<Int>(0)
        #expect(throws: ImageDecodeError.stopped) {
            // Stops after the taker's first looks, both readers under way.
            try Self.pipelined(path, PixelSize(width: 400, height: 300)) { asked.add(1, ordering: .relaxed).newValue > 2 }
        }
        // A scan that ends at once, with no EOI: libjpeg fills the picture with grey and warns.
        let headersOnly = FileDamage.jpegFirstScan(try FileBytes.read(atPath: path, upTo: .max))
        try FileBytes.write(Array(try FileBytes.read(atPath: path, upTo: .max)[..<headersOnly.lowerBound]), toPath: path)
        try Self.expectSingleCoreDecode(path, PixelSize(width: 400, height: 300), "headers only")
    }
}
