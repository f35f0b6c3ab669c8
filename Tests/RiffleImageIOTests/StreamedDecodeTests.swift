import Foundation
import RiffleGeometry
@testable import RiffleImageIO
import RiffleRaster
import Testing

/// `ImageDecoder.decodeFile(atPath:shrunkTo:filter:)` streams a JPEG from its file through a
/// filter's row resampler; it must give exactly what decoding whole and then shrinking gives.
@Suite("Streamed decoding")
struct StreamedDecodeTests {
    /// Whole decode at the DCT scale covering the filter's oversampling of `target`, then
    /// `filter.shrink` to `target`: the reference.
    static func wholeThenShrunk(
        _ bytes: [UInt8], _ target: PixelSize, _ filter: DownscaleFilter
    ) throws -> (pixels: PixelBuffer, info: ImageInfo, warning: String?) {
        let margin = ImageDecoder.jpegOversampling(for: filter)
        let whole = try ImageDecoder.decode(bytes, atLeast: PixelSize(width: target.width * margin, height: target.height * margin))
        let pixels = filter.shrink(
            whole.pixels, to: PixelSize(width: min(target.width, whole.pixels.width), height: min(target.height, whole.pixels.height)))
        return (pixels, whole.info, whole.warning)
    }

    /// Equal pixels, or within `tolerance` per channel.
    static func expectSame(
        _ streamed: DecodedImage, _ reference: (pixels: PixelBuffer, info: ImageInfo, warning: String?), _ label: String,
        tolerance: Int = 0
    ) {
        #expect(streamed.pixels.size == reference.pixels.size, "\(label)")
        #expect(streamed.info == reference.info, "\(label)")
        #expect(streamed.warning == reference.warning, "\(label)")
        guard streamed.pixels.size == reference.pixels.size else { return }
        #expect(ImageDifference(streamed.pixels, reference.pixels, tolerance: tolerance).maxChannel <= tolerance, "\(label)")
    }

    /// A streamed JPEG is resampled in its stored orientation and turned upright after, the
    /// reference the other way round. Area averaging's integer sums do not mind; Lanczos-3's
    /// float sums, added in another order (mirrored, or down before across), can land on the
    /// other side of a rounding boundary: 1 per channel.
    static func orientationTolerance(_ info: ImageInfo, _ filter: DownscaleFilter) -> Int {
        info.format == .jpeg && info.orientation != .topLeft && filter == .lanczos3 ? 1 : 0
    }

    @Test("Equals a whole decode then a shrink, for every orientation, colour model, scan kind and filter", arguments: [
        "photo-400x300.jpg", "baseline.jpg", "gray.jpg", "cmyk-adobe.jpg", "progressive.jpg",
        "orientation-1.jpg", "orientation-3.jpg", "orientation-5.jpg", "orientation-6.jpg", "orientation-8.jpg",
        "rgb8.png", "rgba8-adam7.png", "rgb8-exif6.png",
    ], [DownscaleFilter.lanczos3, .area])
    func equalsWholeDecodeThenShrink(name: String, filter: DownscaleFilter) throws {
        let size = try ImageDecoder.probe(ImageIOFixtures.bytes(name)).uprightSize
        // Full size (rows copied through), an exact DCT scale, and sizes between the scales.
        let targets = [
            size,
            PixelSize(width: (size.width + 1) / 2, height: (size.height + 1) / 2),
            PixelSize(width: size.width * 3 / 5, height: size.height * 3 / 5),
            PixelSize(width: max(1, size.width / 7), height: max(1, size.height / 11)),
            PixelSize(width: 1, height: 1),
        ]
        for target in targets {
            var seen: ImageInfo?
            let streamed = try ImageDecoder.decodeFile(atPath: ImageIOFixtures.path(name), shrunkTo: { info in
                seen = info
                return target
            }, filter: filter)
            #expect(seen == streamed.info)
            Self.expectSame(
                streamed, try Self.wholeThenShrunk(ImageIOFixtures.bytes(name), target, filter), "\(name) at \(target), \(filter)",
                tolerance: Self.orientationTolerance(streamed.info, filter))
        }
    }

    @Test("A truncated JPEG streams with its missing part grey and the same warning as a whole decode")
    func truncatedStreamsWithWarning() throws {
        let size = try ImageDecoder.probe(ImageIOFixtures.bytes("truncated.jpg")).uprightSize
        let streamed = try ImageDecoder.decodeFile(atPath: ImageIOFixtures.path("truncated.jpg"), shrunkTo: { _ in size })
        #expect(streamed.warning?.contains("truncated") == true)
        Self.expectSame(streamed, try Self.wholeThenShrunk(ImageIOFixtures.bytes("truncated.jpg"), size, .lanczos3), "truncated.jpg")
    }

    @Test("Errors name the reason: a missing file, a directory, not an image, a broken header", arguments: [
        ("no-such-file.jpg", "No such file"),
        ("", "directory"),
        ("text-named.jpg", "not a JPEG or PNG"),
        ("corrupt-header.jpg", "damaged"),
        ("empty.jpg", "empty"),
    ])
    func errorsNameTheReason(name: String, words: String) {
        do {
            _ = try ImageDecoder.decodeFile(atPath: ImageIOFixtures.path(name), shrunkTo: { $0.uprightSize })
            Issue.record("\(name) decoded")
        } catch {
            #expect(error.reason.contains(words), "\(name): \(error.reason)")
        }
    }

    @Test("A JPEG too large even at 1/8 is refused before its pixels are allocated")
    func tooLargeIsRefused() {
        do {
            _ = try ImageDecoder.decodeFile(
                atPath: ImageIOFixtures.path("huge-header.jpg"), shrunkTo: { $0.uprightSize }, pixelLimit: 1_000_000)
            Issue.record("huge-header.jpg decoded")
        } catch {
            #expect(error.reason.contains("limit"), "\(error.reason)")
        }
    }

    /// Many 64 KiB file reads and many 16-row pieces, at full size (rows copied through) and
    /// shrunk from DCT scales 6/8 and 2/8 (Lanczos-3), 3/8 and 1/8 (area).
    @Test("A large JPEG streams from its file in pieces and matches the whole decode", arguments: [DownscaleFilter.lanczos3, .area])
    func largeFileStreams(filter: DownscaleFilter) throws {
        let picture = TileFixtures.pattern(PixelSize(width: 1203, height: 805))
        let bytes = try JPEGEncoder.encode(picture, quality: 90)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-streamed-\(getpid())-\(filter).jpg").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        for target in [PixelSize(width: 1203, height: 805), PixelSize(width: 400, height: 268), PixelSize(width: 150, height: 100)] {
            let streamed = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in target }, filter: filter)
            let reference = try Self.wholeThenShrunk(bytes, target, filter).pixels
            #expect(streamed.pixels.size == target)
            #expect(ImageDifference(streamed.pixels, reference, tolerance: 0).maxChannel == 0, "\(target), \(filter)")
        }
    }
}
