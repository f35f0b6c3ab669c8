import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

@Suite("Tile decoding")
struct TileDecoderTests {
    /// The upright picture at `level` as whole-image decoding makes it: the un-rotated JPEG
    /// decoded whole at 1/2^min(level, 3), halved for each level past 3, then turned upright.
    static func referenceLevel(_ plain: [UInt8], level: Int, orientation: ImageOrientation) throws -> PixelBuffer {
        let stored = try ImageDecoder.probe(plain).storedSize
        let denominator = 1 << min(level, 3)
        var pixels = try ImageDecoder.decode(plain, atLeast: PixelSize(
            width: (stored.width + denominator - 1) / denominator,
            height: (stored.height + denominator - 1) / denominator)).pixels
        for _ in 0..<max(level - 3, 0) { pixels = BoxDownsample.halved(pixels) }
        return orientation.upright(pixels)
    }

    /// Checks `tile` against `reference` (its whole level): pixels, margin and frame.
    static func expectTile(_ tile: TilePixels, in reference: PixelBuffer, pyramid: TilePyramid) {
        let key = tile.key
        let tileRect = pyramid.levelRect(of: key)
        let padded = tileRect.outset(by: TileDecoder.margin).intersection(PixelRect(size: reference.size))!
        #expect(tile.pixels.size == padded.size, "\(key)")
        #expect(tile.content == PixelRect(x: tileRect.x - padded.x, y: tileRect.y - padded.y, width: tileRect.width, height: tileRect.height), "\(key)")
        #expect(tile.frame == pyramid.frame(ofLevelRect: padded, level: key.level), "\(key)")
        // Exact: region decoding is exact (RegionDecodeTests) and the halvings are aligned alike.
        #expect(TileFixtures.maxDifference(tile.pixels, TileFixtures.crop(reference, padded)) == 0, "\(key)")
    }

    /// One decoder of `TileFixtures.photo()` for the suite (indexing it is the slow part); a
    /// failure to open it fails each test that uses it.
    static func decoder() throws -> TileDecoder { try opened.get() }
    private static let opened = Result {
        try TileDecoder(bytes: try TileFixtures.photo(), tileSize: TileFixtures.tileSize, baseLongSide: TileFixtures.baseLongSide)
    }

    @Test("Corner, edge and inner tiles of every level equal the whole level decoded at once", arguments: 0...4)
    func tilesAtEachLevel(level: Int) throws {
        let decoder = try Self.decoder()
        let pyramid = decoder.pyramid
        let reference = try Self.referenceLevel(try TileFixtures.photo(), level: level, orientation: .topLeft)
        #expect(reference.size == pyramid.levelSize(level))
        let grid = pyramid.gridSize(level)
        let spots = Set([(0, 0), (grid.width - 1, grid.height - 1), (grid.width / 2, grid.height / 2), (grid.width - 1, 0)]
            .map { TileKey(level: level, column: $0.0, row: $0.1) })
        for key in spots {
            Self.expectTile(try decoder.decode(key), in: reference, pyramid: pyramid)
        }
    }

    @Test("Tiles asked for together come back in the order asked, equal to tiles decoded alone")
    func batch() throws {
        let decoder = try Self.decoder()
        let pyramid = decoder.pyramid
        let keys = pyramid.tiles(covering: Rect(x: 700, y: 300, width: 1500, height: 1200), atScale: 0.5)
            + [TileKey(level: 2, column: 2, row: 1), TileKey(level: 1, column: 0, row: 3)]
        let reversed = Array(keys.reversed())
        let tiles = try decoder.decode(reversed)
        #expect(tiles.map(\.key) == reversed)
        for tile in tiles {
            let alone = try decoder.decode(tile.key)
            #expect(TileFixtures.maxDifference(tile.pixels, alone.pixels) == 0, "\(tile.key)")
            #expect(tile.frame == alone.frame && tile.content == alone.content)
        }
    }

    @Test("A tile's margin holds its neighbours' edge pixels")
    func margins() throws {
        let decoder = try Self.decoder()
        let left = try decoder.decode(TileKey(level: 0, column: 3, row: 2))
        let right = try decoder.decode(TileKey(level: 0, column: 4, row: 2))
        let below = try decoder.decode(TileKey(level: 0, column: 3, row: 3))
        #expect(left.pixels.size == PixelSize(width: 258, height: 258))
        #expect(left.content == PixelRect(x: 1, y: 1, width: 256, height: 256))
        #expect(left.frame == Rect(x: 767, y: 511, width: 258, height: 258))
        for y in 0..<256 {
            // left's right margin is right's first column; right's left margin is left's last.
            #expect(left.pixels[257, y + 1] == right.pixels[1, y + 1])
            #expect(right.pixels[0, y + 1] == left.pixels[256, y + 1])
        }
        for x in 0..<256 { #expect(left.pixels[x + 1, 257] == below.pixels[x + 1, 1]) }
        // The picture's corner tile has no margin above or left of it.
        let corner = try decoder.decode(TileKey(level: 0, column: 0, row: 0))
        #expect(corner.content == PixelRect(x: 0, y: 0, width: 256, height: 256))
        #expect(corner.frame == Rect(x: 0, y: 0, width: 257, height: 257))
    }

    @Test("Tiles of a rotated JPEG equal the upright level at every level",
          arguments: [ImageOrientation.rightTop, .bottomRight, .leftBottom])
    func orientedTiles(orientation: ImageOrientation) throws {
        // 1001×703: odd sizes, so levels hang over the far edge of a reversed axis.
        let plain = try TileFixtures.jpeg(PixelSize(width: 1001, height: 703))
        let decoder = try TileDecoder(bytes: TileFixtures.withOrientation(plain, orientation), tileSize: 128, baseLongSide: 40)
        #expect(decoder.info.orientation == orientation)
        let pyramid = decoder.pyramid
        #expect(pyramid.baseLevel == 5)
        for level in 0...pyramid.baseLevel {
            let reference = try Self.referenceLevel(plain, level: level, orientation: orientation)
            #expect(reference.size == pyramid.levelSize(level))
            let grid = pyramid.gridSize(level)
            let keys = [(0, 0), (grid.width - 1, grid.height - 1), (grid.width / 2, 0)]
                .map { TileKey(level: level, column: $0.0, row: $0.1) }
            for tile in try decoder.decode(Array(Set(keys))) {
                Self.expectTile(tile, in: reference, pyramid: pyramid)
            }
        }
    }

    @Test("A tile of a truncated JPEG carries the decoder's warning; one above the cut does not")
    func truncatedWarning() throws {
        let photo = try TileFixtures.photo()
        let bytes = Array(photo.prefix(photo.count / 2))
        let decoder = try TileDecoder(bytes: bytes, tileSize: TileFixtures.tileSize, baseLongSide: TileFixtures.baseLongSide)
        #expect(try decoder.decode(TileKey(level: 0, column: 0, row: 0)).warning == nil)
        #expect(try decoder.decode(TileKey(level: 0, column: 0, row: 7)).warning
            == "The JPEG data ends early (the file is truncated); the missing part is grey")
    }

    @Test("A progressive JPEG is refused with the reason and what to do instead")
    func progressiveRefused() throws {
        #expect(throws: ImageDecodeError(reason: "The 64×32 JPEG is progressive, so it cannot be decoded a tile at a "
            + "time (libjpeg must hold all its coefficients); decode it whole at a reduced scale instead")) {
            try TileDecoder(bytes: ImageIOFixtures.bytes("progressive.jpg"))
        }
    }

    /// Every tile of every level of a PNG decoder against `levels` (the whole upright picture
    /// at each level).
    static func expectEveryTile(_ decoder: TileDecoder, levels: [PixelBuffer]) throws {
        let pyramid = decoder.pyramid
        for level in 0...pyramid.baseLevel {
            #expect(levels[level].size == pyramid.levelSize(level))
            let grid = pyramid.gridSize(level)
            let keys = (0..<grid.height).flatMap { row in (0..<grid.width).map { TileKey(level: level, column: $0, row: row) } }
            for tile in try decoder.decode(keys) {
                Self.expectTile(tile, in: levels[level], pyramid: pyramid)
                #expect(tile.warning == nil)
            }
        }
    }

    /// `stored` halved `level` times, turned upright: a level as whole-image decoding makes it.
    static func levels(of stored: PixelBuffer, count: Int, orientation: ImageOrientation = .topLeft) -> [PixelBuffer] {
        var level = stored
        var levels = [orientation.upright(level)]
        for _ in 1..<count {
            level = BoxDownsample.halved(level)
            levels.append(orientation.upright(level))
        }
        return levels
    }

    @Test("Every tile of a PNG, cut in one pass and kept deflated, equals the picture halved level by level",
          arguments: [false, true])
    func pngTiles(translucent: Bool) throws {
        let picture = TileFixtures.pattern(PixelSize(width: 901, height: 601))
        // A translucent pixel keeps the alpha channel in the PNG and in the deflated tiles.
        if translucent { picture[450, 300] = 0x8040_2010 }
        let decoder = try TileDecoder(bytes: PNGEncoder.encode(picture), tileSize: 128, baseLongSide: 100)
        #expect(decoder.info.hasAlpha == translucent)
        #expect(decoder.pyramid.baseLevel == 4)
        try Self.expectEveryTile(decoder, levels: Self.levels(of: picture, count: 5))
    }

    @Test("Tiles of a rotated PNG equal the upright level at every level",
          arguments: [ImageOrientation.rightTop, .bottomRight, .leftBottom, .topRight])
    func orientedPNGTiles(orientation: ImageOrientation) throws {
        // 501×303: odd sizes, so levels hang over the far edge of a reversed axis.
        let picture = TileFixtures.pattern(PixelSize(width: 501, height: 303))
        let bytes = TileFixtures.withOrientation(png: try PNGEncoder.encode(picture), orientation)
        let decoder = try TileDecoder(bytes: bytes, tileSize: 64, baseLongSide: 40)
        #expect(decoder.info.orientation == orientation)
        #expect(decoder.pyramid.baseLevel == 4)
        try Self.expectEveryTile(decoder, levels: Self.levels(of: picture, count: 5, orientation: orientation))
    }

    @Test("An interlaced PNG is decoded whole and cut; beyond the pixel limit it is refused")
    func interlacedPNGTiles() throws {
        let picture = TileFixtures.pattern(PixelSize(width: 300, height: 200))
        let bytes = try PNGEncoder.encode(picture, interlaced: true)
        let decoder = try TileDecoder(bytes: bytes, tileSize: 64, baseLongSide: 50)
        try Self.expectEveryTile(decoder, levels: Self.levels(of: picture, count: decoder.pyramid.levelCount))
        #expect(throws: ImageDecodeError(reason: "The image is 300×200 pixels, more than Riffle's limit of 50000 pixels")) {
            try TileDecoder(bytes: bytes, pixelLimit: 50_000)
        }
    }

    @Test("A PNG beyond the pixel limit is still cut into tiles: it is never held whole")
    func pngBeyondLimit() throws {
        let picture = TileFixtures.pattern(PixelSize(width: 300, height: 200))
        let decoder = try TileDecoder(bytes: PNGEncoder.encode(picture), tileSize: 64, baseLongSide: 50, pixelLimit: 50_000)
        try Self.expectEveryTile(decoder, levels: Self.levels(of: picture, count: decoder.pyramid.levelCount))
    }

    @Test("A tile of a truncated PNG carries the decoder's warning; one above the cut does not")
    func truncatedPNGWarning() throws {
        let bytes = try PNGEncoder.encode(TileFixtures.pattern(PixelSize(width: 600, height: 400)))
        let decoder = try TileDecoder(bytes: Array(bytes.prefix(bytes.count / 2)), tileSize: 64, baseLongSide: 50)
        #expect(try decoder.decode(TileKey(level: 0, column: 0, row: 0)).warning == nil)
        #expect(try decoder.decode(TileKey(level: 0, column: 0, row: 6)).warning
            == "The PNG data ends early (the file is truncated); the missing part is grey")
    }

    @Test("Cutting a PNG stops when told to")
    func pngCutStops() throws {
        let bytes = try PNGEncoder.encode(TileFixtures.pattern(PixelSize(width: 300, height: 200)))
        var asked = 0
        #expect(throws: ImageDecodeError.stopped) {
            try TileDecoder(bytes: bytes, until: {
                asked += 1
                return asked > 2
            })
        }
        #expect(asked == 3)
    }
}
