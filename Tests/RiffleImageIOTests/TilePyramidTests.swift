import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing

@Suite("Tile pyramid geometry")
struct TilePyramidTests {
    /// 3000×2000 in 256-pixel tiles down to a 256-pixel base: levels of 3000, 1500, 750, 375, 188.
    static let pyramid = TilePyramid(
        fullSize: TileFixtures.photoSize, tileSize: TileFixtures.tileSize, baseLongSide: TileFixtures.baseLongSide)

    @Test("Levels halve with rounding up until the long side fits the base")
    func levels() {
        let p = Self.pyramid
        #expect(p.baseLevel == 4)
        #expect(p.levelCount == 5)
        #expect((0...4).map(p.levelSize) == [
            PixelSize(width: 3000, height: 2000), PixelSize(width: 1500, height: 1000),
            PixelSize(width: 750, height: 500), PixelSize(width: 375, height: 250), PixelSize(width: 188, height: 125),
        ])
        #expect((0...4).map(p.gridSize) == [
            PixelSize(width: 12, height: 8), PixelSize(width: 6, height: 4), PixelSize(width: 3, height: 2),
            PixelSize(width: 2, height: 1), PixelSize(width: 1, height: 1),
        ])
        let small = TilePyramid(fullSize: PixelSize(width: 2048, height: 1000))
        #expect(small.baseLevel == 0)
        #expect(small.tiles(covering: Rect(x: 0, y: 0, width: 10, height: 10), atScale: 4) == [TileKey(level: 0, column: 0, row: 0)])
    }

    @Test("Photos above 2^25 pixels are tiled")
    func threshold() {
        #expect(!TilePyramid.needsTiling(PixelSize(width: 6000, height: 4000)))
        #expect(TilePyramid.needsTiling(PixelSize(width: 12000, height: 8000)))
    }

    /// (screen pixels per image pixel, level): the coarsest level whose 1/2^k is still ≥ the scale.
    static let scaleCases: [(Double, Int)] = [
        (4, 0), (1, 0), (0.5001, 0), (0.5, 1), (0.3, 1), (0.25, 2), (0.2, 2), (0.125, 3), (0.07, 3),
        (0.0625, 4), (0.01, 4),
    ]

    @Test("The level for a scale is the smallest at least as fine as the screen", arguments: scaleCases)
    func levelForScale(scale: Double, level: Int) {
        #expect(Self.pyramid.level(forScale: scale) == level)
    }

    @Test("Frames are level rectangles times 2^level, the last tile cut by the level's edge")
    func frames() {
        let p = Self.pyramid
        #expect(p.frame(of: TileKey(level: 0, column: 1, row: 2)) == Rect(x: 256, y: 512, width: 256, height: 256))
        #expect(p.frame(of: TileKey(level: 0, column: 11, row: 7)) == Rect(x: 2816, y: 1792, width: 184, height: 208))
        // Level 3 is 375×250: its last column is 119 pixels of 8, 952 full pixels, 2 past the edge.
        #expect(p.frame(of: TileKey(level: 3, column: 1, row: 0)) == Rect(x: 2048, y: 0, width: 952, height: 2000))
        #expect(p.frame(of: TileKey(level: 4, column: 0, row: 0)) == Rect(x: 0, y: 0, width: 3008, height: 2000))
    }

    @Test("An axis the orientation reverses counts level pixels from its far edge")
    func reversedOrigin() {
        // 3001×2001 mirrored both ways: level 1 is 1501×1001 pixels of 2, 3002×2002, hanging 1 over
        // the top-left; level 4 is 188×126 pixels of 16, 3008×2016, hanging 7 and 15 over.
        let p = TilePyramid(fullSize: PixelSize(width: 3001, height: 2001), tileSize: 256, baseLongSide: 256, scaledIn: .bottomRight)
        #expect(p.origin(0) == (0, 0))
        #expect(p.origin(1) == (-1, -1))
        #expect(p.origin(4) == (-7, -15))
        #expect(p.frame(of: TileKey(level: 1, column: 0, row: 0)) == Rect(x: -1, y: -1, width: 512, height: 512))
        // Orientation 6 reverses upright x only.
        let turned = TilePyramid(fullSize: PixelSize(width: 3001, height: 2001), scaledIn: .rightTop)
        #expect(turned.origin(1) == (-1, 0))
    }

    static let coverageCases: [(Rect, Double, [TileKey])] = [
        (Rect(x: 0, y: 0, width: 256, height: 256), 1, [TileKey(level: 0, column: 0, row: 0)]),
        (Rect(x: 255, y: 0, width: 2, height: 1), 1, [TileKey(level: 0, column: 0, row: 0), TileKey(level: 0, column: 1, row: 0)]),
        (Rect(x: 2900, y: 1900, width: 500, height: 500), 2, [TileKey(level: 0, column: 11, row: 7)]),
        (Rect(x: 0, y: 0, width: 1000, height: 600), 0.5, [
            TileKey(level: 1, column: 0, row: 0), TileKey(level: 1, column: 1, row: 0),
            TileKey(level: 1, column: 0, row: 1), TileKey(level: 1, column: 1, row: 1),
        ]),
        (Rect(x: -5000, y: -5000, width: 20000, height: 20000), 0.01, [TileKey(level: 4, column: 0, row: 0)]),
        (Rect(x: 3000, y: 0, width: 100, height: 100), 1, []),
        (Rect(x: -100, y: -100, width: 100, height: 3000), 1, []),
    ]

    @Test("Coverage of hand-worked rectangles", arguments: coverageCases)
    func coverage(visible: Rect, scale: Double, expected: [TileKey]) {
        #expect(Self.pyramid.tiles(covering: visible, atScale: scale) == expected)
    }

    @Test("Coverage equals every tile of the level whose frame overlaps the visible picture",
          arguments: [ImageOrientation.topLeft, .bottomRight, .rightTop])
    func coverageMatchesBruteForce(orientation: ImageOrientation) {
        let seed: UInt64 = 0x7115
        var random = SeededGenerator(seed: seed)
        let p = TilePyramid(fullSize: PixelSize(width: 3001, height: 1999), tileSize: 256, baseLongSide: 256, scaledIn: orientation)
        let picture = Rect(x: 0, y: 0, width: 3001, height: 1999)
        for _ in 0..<200 {
            let scale = [4, 1, 0.7, 0.5, 0.3, 0.2, 0.1, 0.05][Int.random(in: 0..<8, using: &random)]
            let visible = Rect(
                x: Double.random(in: -500...3200, using: &random), y: Double.random(in: -500...2200, using: &random),
                width: Double.random(in: 0.5...1500, using: &random), height: Double.random(in: 0.5...1500, using: &random))
            let level = p.level(forScale: scale)
            let grid = p.gridSize(level)
            var expected: [TileKey] = []
            if let clipped = visible.intersection(picture) {
                for row in 0..<grid.height {
                    for column in 0..<grid.width {
                        let key = TileKey(level: level, column: column, row: row)
                        if p.frame(of: key).intersection(clipped) != nil { expected.append(key) }
                    }
                }
            }
            #expect(p.tiles(covering: visible, atScale: scale) == expected, "seed \(seed): \(visible) at \(scale)")
        }
    }
}
