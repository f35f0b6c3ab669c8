import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

// JPEG is lossy: flat quadrants at quality 95, 4:4:4, land within a few levels of their colour
// (measured ≤ 3); 12 leaves room for libjpeg-turbo's IDCT choices without hiding a wrong colour.
private let jpegTolerance = 12

@Suite("JPEG decoding")
struct JPEGDecodeTests {
    @Test("Colour JPEGs decode to their quadrant colours, opaque", arguments: [
        "baseline.jpg", "progressive.jpg", "cmyk-adobe.jpg",
    ])
    func colourQuadrants(name: String) throws {
        let image = try ImageIOFixtures.decode(name)
        #expect(image.format == .jpeg)
        #expect(image.pixels.size == PixelSize(width: 64, height: 32))
        #expect(image.fullSize == PixelSize(width: 64, height: 32))
        #expect(image.warning == nil)
        for sample in ImageIOFixtures.quadrantSamples(image.pixels.size) {
            let pixel = Channels(image.pixels[sample.x, sample.y])
            #expect(pixel.distance(toOpaque: sample.rgb) <= jpegTolerance, "\(name) at (\(sample.x), \(sample.y)): \(pixel)")
        }
    }

    @Test("Grayscale JPEG decodes to equal channels with the Rec. 709 luma of each quadrant")
    func grayscale() throws {
        let image = try ImageIOFixtures.decode("gray.jpg")
        #expect(image.pixels.size == PixelSize(width: 64, height: 32))
        // ImageMagick's -colorspace Gray: 0.2126 R + 0.7152 G + 0.0722 B.
        let expected = [(16, 8, 54), (48, 8, 182), (16, 24, 18), (48, 24, 237)]
        for (x, y, luma) in expected {
            let pixel = Channels(image.pixels[x, y])
            #expect(pixel.r == pixel.g && pixel.g == pixel.b, "(\(x), \(y)): \(pixel)")
            #expect(pixel.distance(toOpaque: (luma, luma, luma)) <= jpegTolerance, "(\(x), \(y)): \(pixel)")
        }
    }

    /// (target, decoded size) for the 400×300 photo: the smallest scale in eighths still covering
    /// the target in both dimensions (each side rounded up).
    static let scaledCases: [(target: PixelSize?, expected: PixelSize)] = [
        (nil, PixelSize(width: 400, height: 300)),
        (PixelSize(width: 400, height: 300), PixelSize(width: 400, height: 300)),
        (PixelSize(width: 800, height: 600), PixelSize(width: 400, height: 300)),
        (PixelSize(width: 201, height: 10), PixelSize(width: 250, height: 188)),  // 5/8
        (PixelSize(width: 200, height: 150), PixelSize(width: 200, height: 150)),
        (PixelSize(width: 101, height: 76), PixelSize(width: 150, height: 113)),  // 3/8
        (PixelSize(width: 100, height: 75), PixelSize(width: 100, height: 75)),
        (PixelSize(width: 90, height: 70), PixelSize(width: 100, height: 75)),
        (PixelSize(width: 50, height: 38), PixelSize(width: 50, height: 38)),
        (PixelSize(width: 1, height: 1), PixelSize(width: 50, height: 38)),
    ]

    @Test("Decoding to a target picks the largest DCT reduction (in eighths) that still covers it", arguments: scaledCases)
    func scaledDecode(target: PixelSize?, expected: PixelSize) throws {
        let image = try ImageIOFixtures.decode("photo-400x300.jpg", atLeast: target)
        #expect(image.pixels.size == expected)
        #expect(image.fullSize == PixelSize(width: 400, height: 300))
        for sample in ImageIOFixtures.quadrantSamples(expected) where sample.x > 0 && sample.y > 0 {
            // Inner samples only: a reduced corner pixel averages the 4:2:0 chroma edge.
            let pixel = Channels(image.pixels[sample.x, sample.y])
            #expect(pixel.distance(toOpaque: sample.rgb) <= jpegTolerance, "\(expected) at (\(sample.x), \(sample.y)): \(pixel)")
        }
    }

    /// orientation-6.jpg is stored 32×64 and upright 64×32: the target is upright, so it must be
    /// compared with the stored size transposed.
    @Test("A rotated JPEG compares the target with its upright size", arguments: [
        (PixelSize(width: 64, height: 32), PixelSize(width: 64, height: 32)),
        (PixelSize(width: 32, height: 16), PixelSize(width: 32, height: 16)),
        (PixelSize(width: 16, height: 8), PixelSize(width: 16, height: 8)),
        (PixelSize(width: 8, height: 4), PixelSize(width: 8, height: 4)),
        (PixelSize(width: 17, height: 4), PixelSize(width: 24, height: 12)),  // stored 4×17 needs 3/8 of 32×64
    ])
    func scaledRotatedDecode(target: PixelSize, expected: PixelSize) throws {
        let image = try ImageIOFixtures.decode("orientation-6.jpg", atLeast: target)
        #expect(image.pixels.size == expected)
        #expect(image.fullSize == PixelSize(width: 64, height: 32))
    }

    @Test("A pixel limit below the chosen scale forces a greater reduction")
    func pixelLimitReducesScale() throws {
        // 8/8 … 4/8 (200×150 = 30 000) exceed 20 000; 3/8, 150×113 = 16 950, fits.
        let image = try ImageIOFixtures.decode("photo-400x300.jpg", pixelLimit: 20_000)
        #expect(image.pixels.size == PixelSize(width: 150, height: 113))
        #expect(image.fullSize == PixelSize(width: 400, height: 300))
    }

    @Test("A JPEG too large even at 1/8 is refused with the sizes and the limit")
    func pixelLimitRefusesHugeJPEG() throws {
        let info = try ImageDecoder.probe(ImageIOFixtures.bytes("huge-header.jpg"))
        #expect(info.storedSize == PixelSize(width: 60000, height: 60000))
        // 1/8 is 7500×7500 = 56 250 000 pixels.
        let error = ImageIOFixtures.decodeError("huge-header.jpg", pixelLimit: 50_000_000)
        #expect(error?.reason == "The image is 60000×60000 pixels; even at 1/8 scale (7500×7500) that is more than Riffle's limit of 50 megapixels")
    }

    @Test("A progressive JPEG whose stored size fits the limit decodes at the tightest limit")
    func progressiveWithinLimit() throws {
        let image = try ImageIOFixtures.decode("progressive.jpg", pixelLimit: 64 * 32)
        #expect(image.pixels.size == PixelSize(width: 64, height: 32))
    }

    @Test("A progressive JPEG needing all its coefficients beyond the limit is refused, not allocated")
    func progressiveWorkingMemory() throws {
        // 1/8 of 30000×30000 is 3750×3750 = 14 million pixels, inside a 20 megapixel limit; but the
        // coefficients of 900 million pixels need gigabytes, more than 8 bytes × 20 million.
        let error = ImageIOFixtures.decodeError("huge-progressive.jpg", pixelLimit: 20_000_000)
        #expect(error?.reason == "The image is 30000×30000 pixels, more than Riffle's limit of 20 megapixels")
    }

    @Test("A truncated JPEG decodes with its missing part grey and a warning")
    func truncated() throws {
        let image = try ImageIOFixtures.decode("truncated.jpg")
        #expect(image.pixels.size == PixelSize(width: 400, height: 300))
        #expect(image.warning == "The JPEG data ends early (the file is truncated); the missing part is grey")
        // The first rows arrived: red top-left. The last rows did not: libjpeg's mid grey.
        #expect(Channels(image.pixels[20, 20]).distance(toOpaque: ImageIOFixtures.topLeft) <= jpegTolerance)
        #expect(Channels(image.pixels[380, 290]).distance(toOpaque: (128, 128, 128)) <= jpegTolerance)
    }

    /// A 256×256 picture of the fixtures' four quadrants, encoded 4:2:0 at quality 90 with
    /// `restarts`.
    static func quadrantJPEG(restarts: JPEGEncoder.Restarts) -> [UInt8] {
        let buffer = PixelBuffer(width: 256, height: 256)
        for y in 0..<256 {
            for x in 0..<256 {
                let rgb = y < 128
                    ? (x < 128 ? ImageIOFixtures.topLeft : ImageIOFixtures.topRight)
                    : (x < 128 ? ImageIOFixtures.bottomLeft : ImageIOFixtures.bottomRight)
                buffer[x, y] = 0xFF00_0000 | UInt32(rgb.r) << 16 | UInt32(rgb.g) << 8 | UInt32(rgb.b)
            }
        }
        return try! JPEGEncoder.encode(buffer, quality: 90, restarts: restarts)
    }

    static let badHuffmanCodeWarning =
        "The JPEG data is damaged (Corrupt JPEG data: bad Huffman code); some of the picture may be wrong"

    @Test("A JPEG with damaged scan data decodes, with libjpeg's warning and the rows before the damage", arguments: [
        JPEGEncoder.Restarts.none, .everyRows(1),
    ])
    func damagedScan(restarts: JPEGEncoder.Restarts) throws {
        let image = try ImageDecoder.decode(FileDamage.jpegWithBadHuffmanCode(Self.quadrantJPEG(restarts: restarts)))
        #expect(image.pixels.size == PixelSize(width: 256, height: 256))
        #expect(image.warning == Self.badHuffmanCodeWarning)
        // The damage is halfway through the scan's bytes, about row 128: row 20 came before it.
        #expect(Channels(image.pixels[20, 20]).distance(toOpaque: ImageIOFixtures.topLeft) <= jpegTolerance)
        #expect(Channels(image.pixels[236, 20]).distance(toOpaque: ImageIOFixtures.topRight) <= jpegTolerance)
        if restarts != .none {
            // libjpeg resynchronises at the next restart marker: the rows below are whole again.
            #expect(Channels(image.pixels[20, 236]).distance(toOpaque: ImageIOFixtures.bottomLeft) <= jpegTolerance)
            #expect(Channels(image.pixels[236, 236]).distance(toOpaque: ImageIOFixtures.bottomRight) <= jpegTolerance)
        }
    }

    @Test("Streamed and region decodes of damaged scan data give the same warning; a region above the damage none")
    func damagedScanEveryPath() throws {
        let damaged = FileDamage.jpegWithBadHuffmanCode(Self.quadrantJPEG(restarts: .none))
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path + "/damaged.jpg"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(damaged)))
        let streamed = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { $0.uprightSize })
        #expect(streamed.warning == Self.badHuffmanCodeWarning)
        let below = try JPEGRegionDecoder.decode(damaged, region: PixelRect(x: 0, y: 192, width: 256, height: 64), scaleDenominator: 1)
        #expect(below.warning == Self.badHuffmanCodeWarning)
        // A region decode stops at the region's last row (and libjpeg reads one MCU row ahead):
        // rows 0...47 never reach the damage.
        let above = try JPEGRegionDecoder.decode(damaged, region: PixelRect(x: 0, y: 0, width: 256, height: 32), scaleDenominator: 1)
        #expect(above.warning == nil)
    }

    @Test("A pixel limit of Int.max (no limit) does not wrap libjpeg's working-memory cap")
    func unlimitedPixelLimit() throws {
        // progressive.jpg claiming 3000×3000: libjpeg holds 54 MB of coefficients, more than the
        // 16 MiB fixed allowance the cap fell to when 8 bytes × Int.max wrapped.
        var bytes = try ImageIOFixtures.bytes("progressive.jpg")
        let sof2 = try #require(FileDamage.jpegSegment(bytes, marker: 0xC2))
        bytes.replaceSubrange(sof2 + 5..<sof2 + 9, with: [0x0B, 0xB8, 0x0B, 0xB8])  // 3000, 3000
        let image = try ImageDecoder.decode(bytes, pixelLimit: .max)
        #expect(image.pixels.size == PixelSize(width: 3000, height: 3000))
    }

    @Test("A corrupt JPEG header is an error carrying libjpeg's message")
    func corruptHeader() {
        let error = ImageIOFixtures.decodeError("corrupt-header.jpg")
        #expect(error?.reason == "The JPEG data is damaged: Bogus marker length")
    }

    @Test("JPEG data cut inside its header is reported as truncated")
    func truncatedHeader() throws {
        let bytes = Array(try ImageIOFixtures.bytes("photo-400x300.jpg").prefix(40))
        #expect(throws: ImageDecodeError(reason: "The JPEG data ends early (the file is truncated)")) {
            try ImageDecoder.decode(bytes)
        }
    }
}

