import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

/// How a PNG fixture's stored samples turn into the straight RGBA the decoder must produce
/// (before premultiplication), mirroring make_fixtures.py.
enum PNGLayout: Sendable, CustomStringConvertible {
    case gray(bitDepth: Int)
    case grayAlpha(bitDepth: Int)
    case rgb(bitDepth: Int)
    case rgba(bitDepth: Int)
    case palette(bitDepth: Int)
    /// 8-bit palette whose entry j has alpha (j·97 + 200) mod 256.
    case paletteWithTransparency
    /// 8-bit grey whose value 11 is transparent.
    case grayWithTransparentValue

    var description: String {
        switch self {
        case .gray(let d): "gray\(d)"
        case .grayAlpha(let d): "gray-alpha\(d)"
        case .rgb(let d): "rgb\(d)"
        case .rgba(let d): "rgba\(d)"
        case .palette(let d): "palette\(d)"
        case .paletteWithTransparency: "palette8-trns"
        case .grayWithTransparentValue: "gray8-trns"
        }
    }

    var fileName: String { description + ".png" }

    /// The premultiplied pixel the decoder must produce at (x, y).
    func expectedPixel(x: Int, y: Int) -> Channels {
        func stored(_ channel: Int, _ bitDepth: Int) -> Int {
            ImageIOFixtures.sample(x: x, y: y, channel: channel, maxValue: (1 << bitDepth) - 1)
        }
        // Colour deeper than 8 bits is dithered at its pixel, alpha rounded (rfi_dither.h).
        func value(_ channel: Int, _ bitDepth: Int) -> Int {
            bitDepth > 8 && channel < 3
                ? ImageIOFixtures.dithered(stored(channel, bitDepth), bitDepth: bitDepth, x: x, y: y)
                : ImageIOFixtures.eightBit(stored(channel, bitDepth), bitDepth: bitDepth)
        }
        func paletteEntry(_ j: Int) -> (r: Int, g: Int, b: Int) {
            ((j * 37 + 11) % 256, (j * 53 + 5) % 256, (j * 71 + 3) % 256)
        }
        switch self {
        case .gray(let d):
            let v = value(0, d)
            return Channels(straightRed: v, green: v, blue: v, alpha: 255)
        case .grayAlpha(let d):
            let v = value(0, d)
            return Channels(straightRed: v, green: v, blue: v, alpha: value(3, d))
        case .rgb(let d):
            return Channels(straightRed: value(0, d), green: value(1, d), blue: value(2, d), alpha: 255)
        case .rgba(let d):
            return Channels(straightRed: value(0, d), green: value(1, d), blue: value(2, d), alpha: value(3, d))
        case .palette(let d):
            let entry = paletteEntry(stored(0, d))
            return Channels(straightRed: entry.r, green: entry.g, blue: entry.b, alpha: 255)
        case .paletteWithTransparency:
            let j = stored(0, 8)
            let entry = paletteEntry(j)
            return Channels(straightRed: entry.r, green: entry.g, blue: entry.b, alpha: (j * 97 + 200) % 256)
        case .grayWithTransparentValue:
            let v = stored(0, 8)
            return Channels(straightRed: v, green: v, blue: v, alpha: v == 11 ? 0 : 255)
        }
    }

    static let all: [PNGLayout] =
        [1, 2, 4, 8, 16].map { .gray(bitDepth: $0) }
        + [8, 16].flatMap { [PNGLayout.grayAlpha(bitDepth: $0), .rgb(bitDepth: $0), .rgba(bitDepth: $0)] }
        + [1, 2, 4, 8].map { .palette(bitDepth: $0) }
        + [.paletteWithTransparency, .grayWithTransparentValue]
}

/// Damage to a valid PNG's critical chunks, each breaking one check of libpng's or zlib's.
enum PNGDamage: String, Sendable, CaseIterable {
    case headerCRC, imageDataCRC, zlibHeader, deflateBlockType, compressedData

    func apply(to png: [UInt8]) -> [UInt8] {
        switch self {
        case .headerCRC:
            FileDamage.png(png, breakingCRCOf: "IHDR")
        case .imageDataCRC:
            FileDamage.png(png, breakingCRCOf: "IDAT")
        case .zlibHeader:
            // FLG's check bits make CMF·256 + FLG a multiple of 31 (RFC 1950, 2.2); one bit off
            // breaks that.
            FileDamage.png(png, changingDataOf: "IDAT") { $0[$0.startIndex + 1] ^= 0x01 }
        case .deflateBlockType:
            // The first block's header follows the 2-byte zlib header: BFINAL, then BTYPE in
            // the next two bits, where 11 is reserved (RFC 1951, 3.2.3).
            FileDamage.png(png, changingDataOf: "IDAT") { $0[$0.startIndex + 2] |= 0b110 }
        case .compressedData:
            // Halfway through the deflate data: wrong codes, or else wrong bytes that the
            // stream's Adler-32 catches.
            FileDamage.png(png, changingDataOf: "IDAT") { $0[$0.startIndex + $0.count / 2] ^= 0x55 }
        }
    }
}

@Suite("PNG decoding")
struct PNGDecodeTests {
    @Test("Every colour type and bit depth decodes exactly to premultiplied BGRA", arguments: PNGLayout.all)
    func everyLayout(layout: PNGLayout) throws {
        let image = try ImageIOFixtures.decode(layout.fileName)
        #expect(image.format == .png)
        #expect(image.pixels.size == ImageIOFixtures.pngSize)
        #expect(image.fullSize == ImageIOFixtures.pngSize)
        #expect(image.warning == nil)
        var mismatches: [String] = []
        for y in 0..<image.pixels.height {
            for x in 0..<image.pixels.width {
                let actual = Channels(image.pixels[x, y]), expected = layout.expectedPixel(x: x, y: y)
                if actual != expected { mismatches.append("(\(x), \(y)): \(actual), expected \(expected)") }
            }
        }
        #expect(mismatches.isEmpty, "\(layout): \(mismatches.count) wrong pixels, first \(mismatches.prefix(3))")
    }

    @Test("Palette transparency is premultiplied into the colour channels")
    func paletteTransparencyPremultiplied() throws {
        let image = try ImageIOFixtures.decode("palette8-trns.png")
        // Pixel (2, 1) is i = 15: palette index (15·37 + 11) mod 256 = 54, whose entry is straight
        // (217, 51, 253) with alpha (54·97 + 200) mod 256 = 62; premultiplied c·62/255 rounded.
        let pixel = Channels(image.pixels[2, 1])
        #expect(pixel == Channels(packedAlpha: 62, red: 53, green: 12, blue: 62))
        #expect(pixel.r <= pixel.a && pixel.g <= pixel.a && pixel.b <= pixel.a)
    }

    @Test("Adam7 interlaced PNGs decode equal to their non-interlaced twins", arguments: [
        ("rgba8-adam7.png", "rgba8.png"), ("gray2-adam7.png", "gray2.png"),
    ])
    func adam7(interlaced: String, plain: String) throws {
        let a = try ImageIOFixtures.decode(interlaced), b = try ImageIOFixtures.decode(plain)
        #expect(a.pixels.size == b.pixels.size)
        #expect(a.pixels.packedPixels == b.pixels.packedPixels)
    }

    @Test("A PNG eXIf orientation is applied")
    func exifOrientation() throws {
        let info = try ImageDecoder.probe(ImageIOFixtures.bytes("rgb8-exif6.png"))
        #expect(info.orientation == .rightTop)
        #expect(info.storedSize == PixelSize(width: 13, height: 7))
        #expect(info.uprightSize == PixelSize(width: 7, height: 13))
        let rotated = try ImageIOFixtures.decode("rgb8-exif6.png")
        let stored = try ImageIOFixtures.decode("rgb8.png")
        #expect(rotated.pixels.size == PixelSize(width: 7, height: 13))
        #expect(rotated.fullSize == PixelSize(width: 7, height: 13))
        // Turned 90° clockwise: the stored top row becomes the right column, the stored left
        // column the top row.
        let turned = (0..<13).flatMap { uy in (0..<7).map { ux in stored.pixels[uy, 6 - ux] } }
        #expect(rotated.pixels.packedPixels == turned)
    }

    @Test("A truncated PNG keeps the rows before the cut, grey below it, with a warning")
    func truncated() throws {
        let image = try ImageIOFixtures.decode("truncated.png")
        #expect(image.warning == "The PNG data ends early (the file is truncated); the missing part is grey")
        #expect(image.pixels.size == PixelSize(width: 96, height: 64))
        let grey: UInt32 = 0xFF80_8080
        #expect((0..<96).contains { image.pixels[$0, 0] != grey }, "the top rows are the picture's noise")
        #expect((0..<96).allSatisfy { image.pixels[$0, 63] == grey })
    }

    @Test("A PNG with a damaged critical chunk is an error quoting libpng, which names the chunk", arguments: [
        (PNGDamage.headerCRC, "The PNG data is damaged: IHDR: CRC error"),
        (.imageDataCRC, "The PNG data is damaged: IDAT: CRC error"),
        (.zlibHeader, "The PNG data is damaged: IDAT: incorrect header check"),
        (.deflateBlockType, "The PNG data is damaged: IDAT: invalid block type"),
        // Which check fails depends on the bits: the reason names the chunk, then zlib's words.
        (.compressedData, "The PNG data is damaged: IDAT: "),
    ])
    func damagedCriticalChunk(damage: PNGDamage, reason: String) throws {
        let damaged = damage.apply(to: try ImageIOFixtures.bytes("rgba8.png"))
        do {
            let image = try ImageDecoder.decode(damaged)
            Issue.record("\(damage) decoded, \(image.pixels.size), warning \(image.warning ?? "none")")
        } catch {
            #expect(error.reason.hasPrefix(reason), "\(damage): \(error.reason)")
        }
    }

    @Test("An ancillary chunk failing its CRC is skipped: the pixels are whole, the eXIf orientation lost")
    func damagedAncillaryChunk() throws {
        let damaged = FileDamage.png(try ImageIOFixtures.bytes("rgb8-exif6.png"), breakingCRCOf: "eXIf")
        let image = try ImageDecoder.decode(damaged)
        #expect(image.warning == nil)
        #expect(image.info.orientation == .topLeft)
        #expect(image.pixels.packedPixels == (try ImageIOFixtures.decode("rgb8.png")).pixels.packedPixels)
    }

    @Test("A PNG header claiming 60000×60000 is refused before any pixel memory is allocated")
    func hugeHeader() throws {
        let info = try ImageDecoder.probe(ImageIOFixtures.bytes("huge-header.png"))
        #expect(info.storedSize == PixelSize(width: 60000, height: 60000))
        #expect(ImageIOFixtures.decodeError("huge-header.png")?.reason
            == "The image is 60000×60000 pixels, more than Riffle's limit of 268 megapixels")
    }
}
