import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

@Suite("JPEG region decoding")
struct RegionDecodeTests {
    /// Rectangles of the 3000×2000 photo (full-scale pixels, divided by the scale below): at the
    /// origin, off every iMCU boundary (16 px at 4:2:0), touching the right and bottom edges,
    /// a single pixel, and a full-width row band.
    static let regions: [PixelRect] = [
        PixelRect(x: 0, y: 0, width: 256, height: 256),
        PixelRect(x: 1001, y: 733, width: 517, height: 301),
        PixelRect(x: 2483, y: 1500, width: 517, height: 500),
        PixelRect(x: 1234, y: 1567, width: 8, height: 8),
        PixelRect(x: 0, y: 777, width: 3000, height: 260),
    ]

    /// The photo `bytes` decoded whole at 1/`denominator` (its DCT scale), and `fullScaleRegion`
    /// at that scale.
    static func wholeDecode(
        _ bytes: [UInt8], denominator: Int, region fullScaleRegion: PixelRect
    ) throws -> (whole: PixelBuffer, region: PixelRect) {
        let whole = try ImageDecoder.decode(bytes, atLeast: PixelSize(
            width: (TileFixtures.photoSize.width + denominator - 1) / denominator,
            height: (TileFixtures.photoSize.height + denominator - 1) / denominator)).pixels
        let region = PixelRect(
            x: fullScaleRegion.x / denominator, y: fullScaleRegion.y / denominator,
            width: max(fullScaleRegion.width / denominator, 1), height: max(fullScaleRegion.height / denominator, 1))
        return (whole, region)
    }

    @Test("A region equals the same rectangle of a whole decode at the same DCT scale, exactly",
          arguments: [1, 2, 4, 8], regions)
    func regionMatchesWholeDecode(denominator: Int, fullScaleRegion: PixelRect) throws {
        let bytes = try TileFixtures.photo()
        let (whole, region) = try Self.wholeDecode(bytes, denominator: denominator, region: fullScaleRegion)
        let decoded = try JPEGRegionDecoder.decode(bytes, region: region, scaleDenominator: denominator)
        #expect(decoded.warning == nil)
        // Exact: crop and skip change which rows and columns libjpeg emits, not how it computes them.
        #expect(TileFixtures.maxDifference(decoded.pixels, TileFixtures.crop(whole, region)) == 0,
                "1/\(denominator) \(region) of \(whole.size)")
    }

    /// Past the end of a cut file's data every row is libjpeg's grey, which the region decoder
    /// fills in without decoding (a hostile file claiming 60000 × 60000 pixels in 1.7 KB): the
    /// rows must be the very ones libjpeg decodes, above, across and below the cut, at every
    /// scale, and a region below the cut reports it.
    @Test("A region of a cut file equals the same rectangle of its whole decode, exactly",
          arguments: [1, 2, 8], regions)
    func regionOfACutFileMatchesWholeDecode(denominator: Int, fullScaleRegion: PixelRect) throws {
        let full = try TileFixtures.photo()
        let bytes = Array(full.prefix(full.count * 2 / 5))
        let (whole, region) = try Self.wholeDecode(bytes, denominator: denominator, region: fullScaleRegion)
        let decoded = try JPEGRegionDecoder.decode(bytes, region: region, scaleDenominator: denominator)
        // Two fifths of the bytes hold about two fifths of the rows: rows from 1500 on are cut.
        if fullScaleRegion.y >= 1500 { #expect(decoded.warning != nil, "the cut is reported") }
        #expect(TileFixtures.maxDifference(decoded.pixels, TileFixtures.crop(whole, region)) == 0,
                "1/\(denominator) \(region) of \(whole.size)")
    }

    @Test("The header says whether a JPEG is progressive")
    func multipleScansFlag() throws {
        #expect(try ImageDecoder.probe(ImageIOFixtures.bytes("progressive.jpg")).hasMultipleScans)
        #expect(try !ImageDecoder.probe(ImageIOFixtures.bytes("baseline.jpg")).hasMultipleScans)
        #expect(try !ImageDecoder.probe(ImageIOFixtures.bytes("rgb8.png")).hasMultipleScans)
    }

    @Test("A progressive JPEG larger than the limit is refused with the reason and what to do")
    func progressiveRefused() throws {
        let bytes = try ImageIOFixtures.bytes("progressive.jpg")
        #expect(throws: ImageDecodeError(
            reason: "Cannot decode that part of the JPEG image: a progressive JPEG of 64x32 pixels cannot be "
                + "decoded a region at a time within the limit of 1000 pixels (libjpeg must hold all its "
                + "coefficients); decode it whole at a reduced scale")) {
            try JPEGRegionDecoder.decode(
                bytes, region: PixelRect(x: 0, y: 0, width: 8, height: 8), scaleDenominator: 1, pixelLimit: 1000)
        }
    }

    @Test("A progressive JPEG within the limit decodes a region equal to its whole decode")
    func progressiveWithinLimit() throws {
        let bytes = try ImageIOFixtures.bytes("progressive.jpg")
        let region = PixelRect(x: 20, y: 9, width: 30, height: 17)
        let decoded = try JPEGRegionDecoder.decode(bytes, region: region, scaleDenominator: 1, pixelLimit: 64 * 32)
        let whole = try ImageDecoder.decode(bytes).pixels
        #expect(TileFixtures.maxDifference(decoded.pixels, TileFixtures.crop(whole, region)) == 0)
    }

    static let outsideRegions: [(PixelRect, String)] = [
        (PixelRect(x: 60, y: 0, width: 8, height: 8), "the region at (60, 0) of 8x8 pixels is not inside the 64x32 image at 1/1 scale"),
        (PixelRect(x: -1, y: 0, width: 8, height: 8), "the region at (-1, 0) of 8x8 pixels is not inside the 64x32 image at 1/1 scale"),
        (PixelRect(x: 0, y: 0, width: 0, height: 8), "the region at (0, 0) of 0x8 pixels is not inside the 64x32 image at 1/1 scale"),
    ]

    @Test("A region not inside the picture is an error naming both", arguments: outsideRegions)
    func outside(region: PixelRect, reason: String) throws {
        let bytes = try ImageIOFixtures.bytes("baseline.jpg")
        #expect(throws: ImageDecodeError(reason: "Cannot decode that part of the JPEG image: " + reason)) {
            try JPEGRegionDecoder.decode(bytes, region: region, scaleDenominator: 1)
        }
    }

    @Test("A region at a reduced scale is checked against the reduced size")
    func outsideAtScale() throws {
        let bytes = try ImageIOFixtures.bytes("baseline.jpg")
        #expect(throws: ImageDecodeError(reason: "Cannot decode that part of the JPEG image: the region at (4, 0) "
            + "of 8x4 pixels is not inside the 8x4 image at 1/8 scale")) {
            try JPEGRegionDecoder.decode(bytes, region: PixelRect(x: 4, y: 0, width: 8, height: 4), scaleDenominator: 8)
        }
    }

    @Test("A region of more pixels than the limit is refused")
    func regionTooLarge() throws {
        let bytes = try ImageIOFixtures.bytes("baseline.jpg")
        #expect(throws: ImageDecodeError(
            reason: "Cannot decode that part of the JPEG image: region of 16x16 pixels exceeds the limit of 255")) {
            try JPEGRegionDecoder.decode(
                bytes, region: PixelRect(x: 0, y: 0, width: 16, height: 16), scaleDenominator: 1, pixelLimit: 255)
        }
    }

    @Test("Every orientation's stored rectangle turns upright into the upright rectangle",
          arguments: ImageOrientation.allCases)
    func storedRect(orientation: ImageOrientation) {
        let stored = PixelBuffer(width: 4, height: 3)
        for y in 0..<3 { for x in 0..<4 { stored[x, y] = UInt32(1 + x + 4 * y) } }
        let upright = orientation.upright(stored)
        for y in 0..<upright.height { for x in 0..<upright.width {
            for h in 1...(upright.height - y) { for w in 1...(upright.width - x) {
                let rect = PixelRect(x: x, y: y, width: w, height: h)
                let storedRect = orientation.storedRect(ofUpright: rect, uprightSize: upright.size)
                let turned = orientation.upright(TileFixtures.crop(stored, storedRect))
                #expect(turned.packedPixels == TileFixtures.crop(upright, rect).packedPixels, "\(orientation) \(rect)")
            } }
        } }
    }
}
