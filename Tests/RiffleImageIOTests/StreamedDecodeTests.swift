import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

/// `ImageDecoder.decodeFile(atPath:shrunkTo:)` streams a JPEG from its file through the area
/// resampler; it must give exactly what decoding whole and then shrinking gives.
@Suite("Streamed decoding")
struct StreamedDecodeTests {
    /// Whole decode at `target` (DCT-scaled), then `AreaResample.shrink` to it: the reference.
    static func wholeThenShrunk(_ name: String, _ target: PixelSize) throws -> (pixels: PixelBuffer, info: ImageInfo, warning: String?) {
        let whole = try ImageDecoder.decode(ImageIOFixtures.bytes(name), atLeast: target)
        let pixels = AreaResample.shrink(
            whole.pixels, toWidth: min(target.width, whole.pixels.width), height: min(target.height, whole.pixels.height))
        return (pixels, whole.info, whole.warning)
    }

    static func expectSame(
        _ streamed: DecodedImage, _ reference: (pixels: PixelBuffer, info: ImageInfo, warning: String?), _ label: String
    ) {
        #expect(streamed.pixels.size == reference.pixels.size, "\(label)")
        #expect(streamed.info == reference.info, "\(label)")
        #expect(streamed.warning == reference.warning, "\(label)")
        guard streamed.pixels.size == reference.pixels.size else { return }
        #expect(ImageDifference(streamed.pixels, reference.pixels, tolerance: 0).maxChannel == 0, "\(label)")
    }

    @Test("Equals a whole decode then a shrink, for every orientation, colour model and scan kind", arguments: [
        "photo-400x300.jpg", "baseline.jpg", "gray.jpg", "cmyk-adobe.jpg", "progressive.jpg",
        "orientation-1.jpg", "orientation-3.jpg", "orientation-5.jpg", "orientation-6.jpg", "orientation-8.jpg",
        "rgb8.png", "rgba8-adam7.png", "rgb8-exif6.png",
    ])
    func equalsWholeDecodeThenShrink(name: String) throws {
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
            })
            #expect(seen == streamed.info)
            Self.expectSame(streamed, try Self.wholeThenShrunk(name, target), "\(name) at \(target)")
        }
    }

    @Test("A truncated JPEG streams with its missing part grey and the same warning as a whole decode")
    func truncatedStreamsWithWarning() throws {
        let size = try ImageDecoder.probe(ImageIOFixtures.bytes("truncated.jpg")).uprightSize
        let streamed = try ImageDecoder.decodeFile(atPath: ImageIOFixtures.path("truncated.jpg"), shrunkTo: { _ in size })
        #expect(streamed.warning?.contains("truncated") == true)
        Self.expectSame(streamed, try Self.wholeThenShrunk("truncated.jpg", size), "truncated.jpg")
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
    /// shrunk from DCT scales 8/8, 3/8 and 1/8.
    @Test("A large JPEG streams from its file in pieces and matches the whole decode")
    func largeFileStreams() throws {
        let picture = TileFixtures.pattern(PixelSize(width: 1203, height: 805))
        let bytes = try JPEGEncoder.encode(picture, quality: 90)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-streamed-\(getpid()).jpg").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        for target in [PixelSize(width: 1203, height: 805), PixelSize(width: 400, height: 268), PixelSize(width: 150, height: 100)] {
            let streamed = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in target })
            let whole = try ImageDecoder.decode(bytes, atLeast: target)
            let reference = AreaResample.shrink(whole.pixels, toWidth: target.width, height: target.height)
            #expect(streamed.pixels.size == target)
            #expect(ImageDifference(streamed.pixels, reference, tolerance: 0).maxChannel == 0, "\(target)")
        }
    }
}
