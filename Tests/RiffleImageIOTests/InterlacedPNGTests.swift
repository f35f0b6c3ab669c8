import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing

/// An Adam7-interlaced PNG shown smaller than itself is decoded from the passes that hold the
/// grid of every 2^k-th pixel (`ImageDecoder.adam7Reduction`), not whole.
@Suite("Interlaced PNG decoding")
struct InterlacedPNGTests {
    @Test("The grid is the coarsest covering the target, decoded whole when small, within the pixel limit", arguments: [
        // 9000×6000 shown 1620×1080: 1/4 (2250×1500) covers it, 1/8 (1125×750) does not.
        (PixelSize(width: 9000, height: 6000), PixelSize(width: 1620, height: 1080), 64_000_000, 2),
        (PixelSize(width: 9000, height: 6000), PixelSize(width: 1125, height: 750), 64_000_000, 3),
        (PixelSize(width: 9000, height: 6000), PixelSize(width: 1126, height: 750), 64_000_000, 2),
        (PixelSize(width: 9000, height: 6000), PixelSize(width: 9000, height: 6000), 64_000_000, 0),
        // Full size is over the limit: the next grid (25 MP) is not.
        (PixelSize(width: 12000, height: 8400), PixelSize(width: 12000, height: 8400), 64_000_000, 1),
        // 6 MP is decoded whole (at most `wholeInterlacedPixels`), however small it is shown.
        (PixelSize(width: 3000, height: 2000), PixelSize(width: 100, height: 67), 64_000_000, 0),
        (PixelSize(width: 5000, height: 4000), PixelSize(width: 100, height: 67), 64_000_000, 3),
    ] as [(PixelSize, PixelSize, Int, Int)])
    func reduction(stored: PixelSize, target: PixelSize, pixelLimit: Int, expected: Int) {
        #expect(ImageDecoder.adam7Reduction(for: stored, atLeast: target, pixelLimit: pixelLimit) == expected)
    }

    @Test("Even the 1/8 grid over the pixel limit is refused")
    func tooLarge() {
        #expect(ImageDecoder.adam7Reduction(
            for: PixelSize(width: 9000, height: 6000), atLeast: PixelSize(width: 10, height: 10), pixelLimit: 100_000) == nil)
    }

    /// The memory bound the doc comment states: for a target of the picture's aspect (the size
    /// it is shown at, rounded up), the grid is at most twice the target each way, unless it is
    /// the coarsest (1/8).
    @Test("A grid is at most twice its target each way, or 1/8 of the picture", arguments: [
        PixelSize(width: 9000, height: 6000), PixelSize(width: 12345, height: 777), PixelSize(width: 5000, height: 5000),
    ])
    func gridBound(stored: PixelSize) throws {
        for scale in [0.01, 0.05, 0.1, 0.13, 0.2, 0.26, 0.33, 0.5, 0.51, 0.7, 1] {
            let target = PixelSize(
                width: Int((Double(stored.width) * scale).rounded(.up)), height: Int((Double(stored.height) * scale).rounded(.up)))
            let k = try #require(ImageDecoder.adam7Reduction(for: stored, atLeast: target, pixelLimit: .max, wholeBelow: 0))
            let grid = PixelSize(width: (stored.width + (1 << k) - 1) >> k, height: (stored.height + (1 << k) - 1) >> k)
            #expect(grid.width >= target.width && grid.height >= target.height, "\(stored) at \(scale)")
            #expect(k == 3 || (grid.width <= 2 * target.width && grid.height <= 2 * target.height), "\(stored) at \(scale): \(grid)")
        }
    }

    /// The picture's pixels (step·i, step·j).
    static func subsampled(_ picture: PixelBuffer, step: Int) -> PixelBuffer {
        let out = PixelBuffer(width: (picture.width + step - 1) / step, height: (picture.height + step - 1) / step)
        for y in 0..<out.height {
            for x in 0..<out.width { out[x, y] = picture[x * step, y * step] }
        }
        return out
    }

    static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-adam7-\(getpid())-\(UUID().uuidString).png").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("A reduced decode is every 2^k-th pixel of the picture, shrunk by the filter to the target", arguments: [
        // 203×131: ⌈/2⌉ = 102×66, ⌈/4⌉ = 51×33, ⌈/8⌉ = 26×17.
        (PixelSize(width: 203, height: 131), 0), (PixelSize(width: 102, height: 66), 1), (PixelSize(width: 60, height: 40), 1),
        (PixelSize(width: 50, height: 32), 2), (PixelSize(width: 20, height: 10), 3),
    ] as [(PixelSize, Int)], [DownscaleFilter.lanczos3, .area])
    func reducedDecode(targetAndK: (target: PixelSize, k: Int), filter: DownscaleFilter) throws {
        let (target, k) = targetAndK
        let picture = TileFixtures.pattern(PixelSize(width: 203, height: 131))
        let path = try Self.temporaryFile(try PNGEncoder.encode(picture, interlaced: true))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(ImageDecoder.adam7Reduction(for: picture.size, atLeast: target, pixelLimit: .max, wholeBelow: 0) == k)
        let decoded = try ImageDecoder.decodeFile(
            atPath: path, shrunkTo: { _ in target }, filter: filter, pixelLimit: ImageDecoder.defaultPixelLimit,
            wholeInterlacedPixels: 0, until: { false })
        let expected = filter.shrink(Self.subsampled(picture, step: 1 << k), to: target)
        #expect(decoded.info.hasMultipleScans)
        #expect(decoded.warning == nil && decoded.damage == nil)
        #expect(ImageDifference(decoded.pixels, expected, tolerance: 0).maxChannel == 0, "\(target), \(filter)")
    }

    /// Noise does not compress, so a pass's bytes are in proportion to its pixels: passes 1–5,
    /// a quarter of the pixels, lie in the file's first ~27%.
    @Test("A reduced decode reads only the passes it needs: a file cut after them decodes clean")
    func readsOnlyTheNeededPasses() throws {
        var random = SeededGenerator(seed: 7)
        let picture = PixelBuffer(width: 256, height: 256)
        for y in 0..<256 {
            for x in 0..<256 { picture[x, y] = 0xFF00_0000 | UInt32(truncatingIfNeeded: random.next()) & 0x00FF_FFFF }
        }
        let bytes = try PNGEncoder.encode(picture, interlaced: true)
        let path = try Self.temporaryFile(Array(bytes.prefix(bytes.count * 45 / 100)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        func decode(_ target: PixelSize) throws -> DecodedImage {
            try ImageDecoder.decodeFile(
                atPath: path, shrunkTo: { _ in target }, pixelLimit: ImageDecoder.defaultPixelLimit, wholeInterlacedPixels: 0,
                until: { false })
        }
        for target in [PixelSize(width: 128, height: 128), PixelSize(width: 64, height: 64), PixelSize(width: 32, height: 32)] {
            let reduced = try decode(target)
            #expect(reduced.warning == nil, "\(target)")
            let expected = Self.subsampled(picture, step: 256 / target.width)
            #expect(ImageDifference(reduced.pixels, expected, tolerance: 0).maxChannel == 0, "\(target)")
        }
        #expect(try decode(PixelSize(width: 256, height: 256)).warning
            == "The PNG data ends early (the file is truncated); the missing part is grey")
    }
}
