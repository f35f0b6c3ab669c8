import Foundation
import RiffleGeometry
@testable import RiffleImageIO
import RiffleRaster
import Testing

/// `ImageDecoder.decodeFile(atPath:shrunkTo:filter:)` streams a JPEG or a PNG from its file
/// through a filter's row resampler; it must give exactly what decoding whole and then shrinking
/// gives.
@Suite("Streamed decoding")
struct StreamedDecodeTests {
    /// Whole decode at the DCT scale covering the filter's oversampling of `target` (a PNG at
    /// full size), then `filter.shrink` to `target`: the reference.
    static func wholeThenShrunk(
        _ bytes: [UInt8], _ target: PixelSize, _ filter: DownscaleFilter
    ) throws -> (pixels: PixelBuffer, info: ImageInfo, warning: String?) {
        let margin = ImageDecoder.jpegOversampling(for: filter)
        let whole = try ImageDecoder.decode(bytes, atLeast: PixelSize(width: target.width * margin, height: target.height * margin))
        return shrunk(whole, target, filter)
    }

    /// `wholeThenShrunk` for the file at `path`, decoded whole from the file (a PNG read from it
    /// as it decodes).
    static func wholeThenShrunk(
        path: String, _ target: PixelSize, _ filter: DownscaleFilter
    ) throws -> (pixels: PixelBuffer, info: ImageInfo, warning: String?) {
        let margin = ImageDecoder.jpegOversampling(for: filter)
        let whole = try ImageDecoder.decodeFile(
            atPath: path, atLeast: PixelSize(width: target.width * margin, height: target.height * margin))
        return shrunk(whole, target, filter)
    }

    /// `whole` shrunk by `filter` to `target`, each side capped at its own.
    static func shrunk(
        _ whole: DecodedImage, _ target: PixelSize, _ filter: DownscaleFilter
    ) -> (pixels: PixelBuffer, info: ImageInfo, warning: String?) {
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

    /// A streamed JPEG or PNG is resampled in its stored orientation and turned upright after,
    /// the reference the other way round. Area averaging's integer sums do not mind; Lanczos-3's
    /// float sums, added in another order (mirrored, or down before across), can land on the
    /// other side of a rounding boundary: 1 per channel.
    static func orientationTolerance(_ info: ImageInfo, _ filter: DownscaleFilter) -> Int {
        info.orientation != .topLeft && filter == .lanczos3 ? 1 : 0
    }

    @Test("Equals a whole decode then a shrink, for every orientation, colour model, scan kind and filter", arguments: [
        "photo-400x300.jpg", "baseline.jpg", "gray.jpg", "cmyk-adobe.jpg", "progressive.jpg",
        "orientation-1.jpg", "orientation-3.jpg", "orientation-5.jpg", "orientation-6.jpg", "orientation-8.jpg",
        "rgb8.png", "rgba8-adam7.png", "rgb8-exif6.png",
    ], [DownscaleFilter.lanczos3, .area])
    func equalsWholeDecodeThenShrink(name: String, filter: DownscaleFilter) throws {
        let size = try ImageDecoder.probe(ImageIOFixtures.bytes(name)).uprightSize
        // Full size (rows copied through), an exact DCT scale, and sizes between the scales.
        for target in Self.targets(size) {
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

    /// Full size, an even half, sizes between, and 1×1, for a picture of `size`.
    static func targets(_ size: PixelSize) -> [PixelSize] {
        [
            size,
            PixelSize(width: (size.width + 1) / 2, height: (size.height + 1) / 2),
            PixelSize(width: size.width * 3 / 5, height: size.height * 3 / 5),
            PixelSize(width: max(1, size.width / 7), height: max(1, size.height / 11)),
            PixelSize(width: 1, height: 1),
        ]
    }

    @Test("Every PNG colour type and bit depth streams equal to a whole decode then a shrink",
          arguments: PNGLayout.all.map(\.fileName) + ["rgba8-adam7.png", "gray2-adam7.png", "rgb8-exif6.png"],
          [DownscaleFilter.lanczos3, .area])
    func everyPNGLayout(name: String, filter: DownscaleFilter) throws {
        let size = try ImageDecoder.probe(ImageIOFixtures.bytes(name)).uprightSize
        for target in Self.targets(size) {
            let streamed = try ImageDecoder.decodeFile(atPath: ImageIOFixtures.path(name), shrunkTo: { _ in target }, filter: filter)
            Self.expectSame(
                streamed, try Self.wholeThenShrunk(path: ImageIOFixtures.path(name), target, filter),
                "\(name) at \(target), \(filter)", tolerance: Self.orientationTolerance(streamed.info, filter))
            let whole = try ImageIOFixtures.decode(name)
            #expect(streamed.isOpaque == whole.pixels.isOpaque, "\(name)")
        }
    }

    /// Many 64 KiB file reads and many 16-row pieces, at full size (rows copied through) and
    /// shrunk, opaque (stored as RGB) and translucent (RGBA).
    @Test("A large PNG streams from its file in pieces and matches the whole decode",
          arguments: [false, true], [DownscaleFilter.lanczos3, .area])
    func largePNGStreams(translucent: Bool, filter: DownscaleFilter) throws {
        let picture = TileFixtures.pattern(PixelSize(width: 1203, height: 805))
        if translucent { picture[600, 400] = 0x8040_2010 }
        let bytes = try PNGEncoder.encode(picture)
        let path = try Self.temporaryFile(bytes, named: "large.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        for target in [PixelSize(width: 1203, height: 805), PixelSize(width: 400, height: 268), PixelSize(width: 150, height: 100)] {
            let streamed = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in target }, filter: filter)
            let whole = try ImageDecoder.decode(bytes)
            #expect(whole.pixels.packedPixels == picture.packedPixels)
            let reference = filter.shrink(whole.pixels, to: target)
            #expect(streamed.pixels.size == target)
            #expect(ImageDifference(streamed.pixels, reference, tolerance: 0).maxChannel == 0, "\(target), \(filter)")
            #expect(streamed.isOpaque == !translucent && whole.isOpaque == !translucent)
        }
    }

    @Test("A PNG cut in its image data keeps the rows before the cut, the rest grey, with a warning, streamed or whole",
          arguments: [DownscaleFilter.lanczos3, .area])
    func truncatedPNG(filter: DownscaleFilter) throws {
        let picture = TileFixtures.pattern(PixelSize(width: 301, height: 203))
        let bytes = try PNGEncoder.encode(picture)
        let cut = Array(bytes.prefix(bytes.count / 2))
        let path = try Self.temporaryFile(cut, named: "cut.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let whole = try ImageDecoder.decode(cut)
        #expect(whole.warning == "The PNG data ends early (the file is truncated); the missing part is grey")
        let grey: UInt32 = 0xFF80_8080
        let firstGrey = try #require((0..<whole.pixels.height).first { whole.pixels[0, $0] == grey })
        #expect(firstGrey > 0 && firstGrey < picture.height)
        for y in 0..<picture.height {
            let expected = y < firstGrey ? (0..<picture.width).map { picture[$0, y] } : Array(repeating: grey, count: picture.width)
            #expect((0..<picture.width).map { whole.pixels[$0, y] } == expected, "row \(y)")
        }
        // The share of the rows never read, along the bottom (no EXIF orientation).
        let missing = ImageDamage.MissingPart(share: 1 - Double(firstGrey) / Double(picture.height), side: .bottom)
        #expect(whole.damage == .truncated(missing: missing))
        for target in [picture.size, PixelSize(width: 100, height: 67)] {
            let streamed = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in target }, filter: filter)
            Self.expectSame(streamed, try Self.wholeThenShrunk(path: path, target, filter), "cut PNG at \(target), \(filter)")
            #expect(streamed.damage == .truncated(missing: missing), "cut PNG at \(target), \(filter)")
        }
        let clean = try Self.temporaryFile(bytes, named: "whole.png")
        defer { try? FileManager.default.removeItem(atPath: clean) }
        #expect(try ImageDecoder.decodeFile(atPath: clean, shrunkTo: { _ in PixelSize(width: 100, height: 67) }).damage == nil)
    }

    /// EXIF orientation 8 (left-bottom): the stored rows are the upright picture's columns, the
    /// first one its left side (TIFF 6.0), so the last rows, those never read, lie on its right.
    @Test("A cut PNG's missing rows are placed on the upright picture's side for its EXIF orientation")
    func truncatedPNGWithOrientation() throws {
        let picture = TileFixtures.pattern(PixelSize(width: 301, height: 203))
        let bytes = TileFixtures.withOrientation(png: try PNGEncoder.encode(picture), .leftBottom)
        let cut = Array(bytes.prefix(bytes.count / 2))
        let path = try Self.temporaryFile(cut, named: "cut-8.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let streamed = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in PixelSize(width: 67, height: 100) })
        guard case .truncated(let missing?)? = streamed.damage else {
            Issue.record("no missing part: \(String(describing: streamed.damage))")
            return
        }
        #expect(missing.side == .right)
        #expect(missing.share > 0.05 && missing.share < 0.95, "\(missing.share)")
    }

    /// An interlaced PNG cut anywhere loses the later passes, which thin out the whole picture.
    @Test("A cut interlaced PNG is missing no one part", arguments: [DownscaleFilter.lanczos3, .area])
    func truncatedInterlacedPNG(filter: DownscaleFilter) throws {
        let picture = TileFixtures.pattern(PixelSize(width: 301, height: 203))
        let bytes = try PNGEncoder.encode(picture, interlaced: true)
        let cut = Array(bytes.prefix(bytes.count * 3 / 4))
        let path = try Self.temporaryFile(cut, named: "cut-adam7.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let whole = try ImageDecoder.decode(cut)
        #expect(whole.warning == "The PNG data ends early (the file is truncated); the missing part is grey")
        #expect(whole.damage == .truncated(missing: nil))
        let streamed = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in PixelSize(width: 150, height: 101) }, filter: filter)
        #expect(streamed.damage == .truncated(missing: nil))
    }

    @Test("A PNG cut inside its header is an error")
    func pngCutInHeader() throws {
        let bytes = try PNGEncoder.encode(TileFixtures.pattern(PixelSize(width: 30, height: 20)))
        let path = try Self.temporaryFile(Array(bytes.prefix(30)), named: "header.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ImageDecodeError(reason: "The PNG data ends early (the file is truncated)")) {
            try ImageDecoder.decodeFile(atPath: path, shrunkTo: { $0.uprightSize })
        }
    }

    /// Streaming holds rows, not the picture: a PNG far beyond the pixel limit decodes to a
    /// target within it, shrunk to fit when the target is not.
    @Test("A PNG beyond the pixel limit streams into a picture within it")
    func pngBeyondLimitStreams() throws {
        let picture = TileFixtures.pattern(PixelSize(width: 640, height: 480))
        let path = try Self.temporaryFile(try PNGEncoder.encode(picture), named: "limit.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fit = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in PixelSize(width: 320, height: 240) }, pixelLimit: 100_000)
        #expect(fit.pixels.size == PixelSize(width: 320, height: 240))
        let full = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { $0.uprightSize }, pixelLimit: 100_000)
        #expect(full.pixels.size == PixelSize(width: 365, height: 273))
        #expect(full.pixels.size.area <= 100_000)
        #expect(throws: ImageDecodeError(reason: "The PNG is 60000×60000 pixels, more than Riffle reads from a PNG "
            + "(1073 megapixels): each of its pixels would have to be inflated to show it")) {
            try ImageDecoder.decodeFile(atPath: ImageIOFixtures.path("huge-header.png"), shrunkTo: { _ in PixelSize(width: 100, height: 100) })
        }
        let wide = try Self.temporaryFile(try PNGEncoder.encode(PixelBuffer(width: 70000, height: 1)), named: "wide.png")
        defer { try? FileManager.default.removeItem(atPath: wide) }
        #expect(throws: ImageDecodeError(reason: "The PNG is 70000×1 pixels, more than Riffle reads from a PNG (65536 a side)")) {
            try ImageDecoder.decodeFile(atPath: wide, shrunkTo: { _ in PixelSize(width: 100, height: 1) })
        }
    }

    static func temporaryFile(_ bytes: [UInt8], named name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-\(getpid())-\(UUID().uuidString)-\(name)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
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
        ("text-named.jpg", "not an image in a format"),
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
