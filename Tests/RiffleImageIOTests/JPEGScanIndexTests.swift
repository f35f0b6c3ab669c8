import RiffleGeometry
@testable import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing

@Suite("JPEG scan index and band decoding")
struct JPEGScanIndexTests {
    /// 1000×700: a whole number of MCUs in neither direction at any sampling (MCUs of 8 and 16).
    static let size = PixelSize(width: 1000, height: 700)

    static func jpeg(_ sampling: JPEGEncoder.Sampling, restarts: JPEGEncoder.Restarts = .none) throws -> [UInt8] {
        try JPEGEncoder.encode(TileFixtures.pattern(size), quality: 90, sampling: sampling, restarts: restarts)
    }

    /// Regions in full-scale pixels (divided by the scale): the first rows, straddling MCU rows in
    /// the middle, the last row and column, one pixel, a full-width band, the whole picture.
    static let regions: [PixelRect] = [
        PixelRect(x: 0, y: 0, width: 240, height: 40),
        PixelRect(x: 333, y: 271, width: 301, height: 157),
        PixelRect(x: 712, y: 560, width: 288, height: 140),
        PixelRect(x: 517, y: 343, width: 8, height: 8),
        PixelRect(x: 0, y: 96, width: 1000, height: 40),
        PixelRect(x: 0, y: 0, width: 1000, height: 700),
    ]

    static func whole(_ bytes: [UInt8], denominator d: Int) throws -> PixelBuffer {
        try ImageDecoder.decode(bytes, atLeast: PixelSize(
            width: (size.width + d - 1) / d, height: (size.height + d - 1) / d)).pixels
    }

    static func scaled(_ region: PixelRect, by d: Int) -> PixelRect {
        PixelRect(x: region.x / d, y: region.y / d, width: max(region.width / d, 1), height: max(region.height / d, 1))
    }

    @Test("A region decoded through the index equals the same rectangle of a whole decode, exactly",
          arguments: [JPEGEncoder.Sampling.yuv420, .yuv422, .yuv444, .grayscale], [1, 2, 4, 8])
    func indexedRegionMatchesWholeDecode(sampling: JPEGEncoder.Sampling, denominator: Int) throws {
        let bytes = try Self.jpeg(sampling)
        try Self.expectRegionsMatch(bytes, index: try JPEGScanIndex(bytes), denominator: denominator, label: "\(sampling)")
    }

    /// Every one of `regions`, decoded through `index` at 1/`denominator`, is exactly that
    /// rectangle of the whole decode, with no warning.
    static func expectRegionsMatch(_ bytes: [UInt8], index: JPEGScanIndex, denominator: Int, label: String) throws {
        let whole = try Self.whole(bytes, denominator: denominator)
        for fullScale in Self.regions {
            let region = Self.scaled(fullScale, by: denominator)
            let decoded = try JPEGRegionDecoder.decode(bytes, index: index, region: region, scaleDenominator: denominator)
            #expect(decoded.warning == nil, "\(label) 1/\(denominator) \(region): \(decoded.warning ?? "")")
            #expect(TileFixtures.maxDifference(decoded.pixels, TileFixtures.crop(whole, region)) == 0,
                    "\(label) 1/\(denominator) \(region)")
        }
    }

    @Test("Random regions of a 4:2:0 photo match the whole decode (seed 0x5EED)")
    func randomRegions() throws {
        var random = SeededGenerator(seed: 0x5EED)
        let bytes = try Self.jpeg(.yuv420)
        let index = try JPEGScanIndex(bytes)
        let wholes = try [1, 2, 4, 8].map { try Self.whole(bytes, denominator: $0) }
        for trial in 0..<40 {
            let k = Int.random(in: 0..<4, using: &random)
            let whole = wholes[k]
            let x = Int.random(in: 0..<whole.width, using: &random), y = Int.random(in: 0..<whole.height, using: &random)
            let region = PixelRect(
                x: x, y: y, width: Int.random(in: 1...(whole.width - x), using: &random),
                height: Int.random(in: 1...min(whole.height - y, 200), using: &random))
            let decoded = try JPEGRegionDecoder.decode(bytes, index: index, region: region, scaleDenominator: 1 << k)
            #expect(TileFixtures.maxDifference(decoded.pixels, TileFixtures.crop(whole, region)) == 0,
                    "trial \(trial) (seed 0x5EED): 1/\(1 << k) \(region)")
        }
    }

    @Test("The CMYK fixture decodes through the index like its whole decode")
    func cmyk() throws {
        let bytes = try ImageIOFixtures.bytes("cmyk-adobe.jpg")
        let index = try JPEGScanIndex(bytes)
        let whole = try ImageDecoder.decode(bytes).pixels
        let region = PixelRect(x: 5, y: 9, width: 50, height: 20)
        let decoded = try JPEGRegionDecoder.decode(bytes, index: index, region: region, scaleDenominator: 1)
        #expect(TileFixtures.maxDifference(decoded.pixels, TileFixtures.crop(whole, region)) == 0)
    }

    @Test("Each row starts where the one before ends, with DC predictors, from the scan's first bit")
    func rowStarts() throws {
        let bytes = try Self.jpeg(.yuv420)
        let index = try JPEGScanIndex(bytes)
        #expect(index.mcuHeight == 16)
        #expect(index.mcuRows == (700 + 15) / 16)
        guard case .rows(let rowStarts) = index.entries else {
            Issue.record("a file without restart markers is entered by its Huffman walk")
            return
        }
        #expect(rowStarts.count == index.mcuRows + 1)
        let first = rowStarts[0]
        #expect(first.byteOffset == index.structure.scanDataOffset && first.bitOffset == 0 && first.bitPosition == 0)
        #expect(first.predictors == [0, 0, 0])
        for (a, b) in zip(rowStarts, rowStarts.dropFirst()) {
            #expect(b.bitPosition > a.bitPosition)
            #expect(b.byteOffset >= a.byteOffset && b.bitOffset == b.bitPosition & 7)
        }
        // The scan ends, padded to a byte, right before EOI.
        let last = rowStarts.last!
        let endOfScan = bytes.count - 2
        #expect(bytes[endOfScan] == 0xFF && bytes[endOfScan + 1] == 0xD9)
        #expect(last.byteOffset + (last.bitOffset == 0 ? 0 : 1) == endOfScan)
    }

    @Test("A band file holds only its rows: two MCU rows of 44 are a small part of the file")
    func bandIsSmall() throws {
        let bytes = try Self.jpeg(.yuv420)
        let index = try JPEGScanIndex(bytes)
        let band = try #require(bytes.withUnsafeBufferPointer { JPEGBandStream.make($0, index: index, rows: 20..<22) })
        let headers = index.structure.scanDataOffset
        #expect(band.bytes.count - headers < (bytes.count - headers) / 10, "\(band.bytes.count) of \(bytes.count) bytes")
        #expect(band.topRow == 19)
        // It is a JPEG of the carrier row and the two rows.
        let info = try ImageDecoder.probe(band.bytes)
        #expect(info.storedSize == PixelSize(width: 1000, height: 48))
    }

    @Test("Files the index cannot enter say why", arguments: [
        ("progressive.jpg", "the frame is progressive, lossless, hierarchical or arithmetic-coded"),
        ("truncated.jpg", "the scan data ends early (the file is truncated)"),
        ("photo-400x300.jpg", nil),
    ] as [(String, String?)])
    func unsupported(name: String, reason: String?) throws {
        let bytes = try ImageIOFixtures.bytes(name)
        if let reason {
            #expect(throws: JPEGScanIndex.Unsupported(reason: reason)) { try JPEGScanIndex(bytes) }
        } else {
            #expect(throws: Never.self) { try JPEGScanIndex(bytes) }
        }
    }

    @Test("The walk stops when told to, between rows")
    func stops() throws {
        let bytes = try Self.jpeg(.yuv420)
        var asked = 0
        #expect(throws: JPEGScanIndex.Unsupported.stopped) {
            try JPEGScanIndex(bytes, until: {
                asked += 1
                return asked > 3
            })
        }
        #expect(asked == 4, "asked before each row until it said stop")
        // With restart markers, before each interval that begins a row: 44 times for three
        // intervals a row.
        var askedOfRestarts = 0
        let restarts = try JPEGScanIndex(try Self.jpeg(.yuv420, restarts: .everyMCUs(21)), until: {
            askedOfRestarts += 1
            return false
        })
        #expect(askedOfRestarts == restarts.mcuRows && restarts.mcuRows == 44)
        #expect(throws: ImageDecodeError.stopped) { try TileDecoder(bytes: bytes, until: { true }) }
    }

    /// 1000 px at 4:2:0 is 63 MCUs a row: intervals of one row, of three rows (entries every third
    /// row, bands widened to them), of 21 MCUs (three a row) and of one MCU.
    @Test("With restart markers, regions enter at the intervals and equal the whole decode, exactly",
          arguments: [JPEGEncoder.Restarts.everyRows(1), .everyRows(3), .everyMCUs(21), .everyMCUs(1)])
    func restartIntervals(restarts: JPEGEncoder.Restarts) throws {
        let bytes = try Self.jpeg(.yuv420, restarts: restarts)
        let index = try JPEGScanIndex(bytes)
        guard case .restarts(let intervals) = index.entries else {
            Issue.record("\(restarts): not entered at its restart intervals")
            return
        }
        let mcus = index.structure.restartInterval
        #expect(intervals.count == (index.mcuRows * 63 + mcus - 1) / mcus)
        #expect(index.entrySpacing == max(1, mcus / 63))
        for denominator in [1, 4] {
            try Self.expectRegionsMatch(bytes, index: index, denominator: denominator, label: "\(restarts)")
        }
        // A band is only the intervals holding its rows (widened to entries).
        let band = try #require(bytes.withUnsafeBufferPointer { JPEGBandStream.make($0, index: index, rows: 20..<22) })
        #expect(band.topRow == index.entryRow(atOrBefore: 20))
        let info = try ImageDecoder.probe(band.bytes)
        #expect(info.storedSize == PixelSize(width: 1000, height: 16 * (index.entryRow(atOrAfter: 22) - band.topRow)))
    }

    @Test("Restart files the index cannot enter say why, and the plain region decode still serves them")
    func unsupportedRestarts() throws {
        // 10 MCUs neither divide a row of 63 nor hold whole rows.
        let split = try Self.jpeg(.yuv420, restarts: .everyMCUs(10))
        #expect(throws: JPEGScanIndex.Unsupported(
            reason: "the restart intervals (10 MCUs) neither hold whole MCU rows nor divide one (63)")) { try JPEGScanIndex(split) }
        let region = PixelRect(x: 100, y: 300, width: 64, height: 64)
        let decoded = try JPEGRegionDecoder.decode(split, region: region, scaleDenominator: 1)
        #expect(TileFixtures.maxDifference(decoded.pixels, TileFixtures.crop(try Self.whole(split, denominator: 1), region)) == 0)
        // Markers out of order: the scan is damaged (the second marker, RST1, made RST2).
        var damaged = try Self.jpeg(.yuv420, restarts: .everyRows(1))
        let scan = try JPEGScanIndex(damaged).structure.scanDataOffset
        let second = try #require((scan..<(damaged.count - 1)).filter { damaged[$0] == 0xFF && damaged[$0 + 1] == 0xD1 }.first)
        damaged[second + 1] = 0xD2
        #expect(throws: JPEGScanIndex.Unsupported(reason: "the restart markers are out of sequence (the scan is damaged)")) {
            try JPEGScanIndex(damaged)
        }
        // Cut short: the intervals do not cover the picture.
        let truncated = Array(try Self.jpeg(.yuv420, restarts: .everyRows(1)).prefix(scan + 2000))
        #expect(throws: JPEGScanIndex.Unsupported(reason: "the scan data ends early (the file is truncated)")) {
            try JPEGScanIndex(truncated)
        }
    }

    @Test("Huffman codes are canonical: the standard luminance DC table's codes, decoded and encoded")
    func huffmanCode() throws {
        // T.81 Table K.3: categories 0...11 with lengths 2,3,3,3,3,3,4,5,6,7,8,9.
        let counts = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
        let code = try #require(JPEGHuffmanCode(counts: counts, symbols: Array(0...11)))
        let expected: [(UInt32, UInt8)] = [
            (0b00, 2), (0b010, 3), (0b011, 3), (0b100, 3), (0b101, 3), (0b110, 3), (0b1110, 4), (0b11110, 5),
            (0b111110, 6), (0b1111110, 7), (0b11111110, 8), (0b111111110, 9),
        ]
        for (symbol, (bits, length)) in expected.enumerated() {
            #expect(code.encoding[symbol] == (bits, length), "category \(symbol)")
            let window = bits << (16 - UInt32(length)) | ((1 << (16 - UInt32(length))) - 1) >> 1
            #expect(code.withDecoder { $0.decode(window) } == Int(length) << 8 | symbol)
        }
        #expect(code.withDecoder { $0.decode(0xFFFF) } == 0, "all ones is no code")
        #expect(JPEGHuffmanCode(counts: [3] + [Int](repeating: 0, count: 15), symbols: [0, 1, 2]) == nil, "3 codes of 1 bit")
    }
}
