import RiffleGeometry
import RiffleRaster

/// One tile of a `TilePyramid`: column and row of the tile grid of pyramid level `level`.
public struct TileKey: Hashable, Sendable, CustomStringConvertible {
    /// 0 is full resolution; level k holds the picture at 1/2^k.
    public let level: Int
    /// Column of the level's tile grid, 0 at the left of the upright picture.
    public let column: Int
    /// Row of the level's tile grid, 0 at the top of the upright picture.
    public let row: Int

    /// The tile at `column`, `row` of level `level`.
    public init(level: Int, column: Int, row: Int) {
        self.level = level
        self.column = column
        self.row = row
    }

    /// "L2 c3 r1", for test messages.
    public var description: String { "L\(level) c\(column) r\(row)" }
}

/// The geometry of a huge photo held as a pyramid of tiled levels (Apple's PhotoScroller,
/// part III): which tiles to show for a visible rectangle at a zoom scale, and where each lies.
///
/// Level k is the upright picture at 1/2^k, ⌈W/2^k⌉ × ⌈H/2^k⌉ pixels, for k = 0 ... `baseLevel`.
/// The base level is the first whose long side is at most `baseLongSide`; it is one tile, decoded
/// whole and kept as the fallback under the others. Every other level is cut into `tileSize`²
/// tiles from its top-left corner; the last column and row may be narrower.
///
/// Level pixels are exactly 2^k full-resolution pixels wide, counted from the corner where the
/// scaled pixels start: DCT scaling and box halving run over the pixels as stored, so when the
/// EXIF orientation reverses an upright axis, the level's pixels start at the far edge of that
/// axis and its first pixel hangs over the near edge by `origin`. A frame therefore may reach up
/// to 2^k − 1 full-resolution pixels past the picture on one side; that part is the decoder's
/// padding of the last block, and maps the tile to the picture exactly.
public struct TilePyramid: Sendable, Hashable {
    /// Tiles are 512 pixels square, PhotoScroller's size: 1 MiB of BGRA each, small enough that a
    /// screenful needs few more pixels than it shows, big enough that per-tile overhead is small.
    public static let defaultTileSize = 512
    /// The base level fits 2048 pixels on its long side (at most 16 MiB of BGRA): sharp enough for
    /// a photo fitted to a screen, so tiles are only needed once the user zooms in.
    public static let defaultBaseLongSide = 2048
    /// Photos of more than 2^25 pixels (33.5 megapixels) are tiled: a full-resolution decode would
    /// take more than 128 MiB, many times a screenful of tiles.
    public static let tilingThresholdPixels = 1 << 25

    /// Upright size at full resolution.
    public let fullSize: PixelSize
    /// Side of a tile in level pixels.
    public let tileSize: Int
    /// The coarsest level, decoded whole; `levelCount − 1`.
    public let baseLevel: Int
    /// Whether level pixels are counted from the right (bottom) edge of the upright picture.
    private let countsFromRight: Bool
    private let countsFromBottom: Bool

    /// The pyramid of an upright picture of `fullSize` whose levels are scaled from pixels stored
    /// in `orientation` (a JPEG's EXIF orientation; `.topLeft` for pixels already upright).
    public init(
        fullSize: PixelSize, tileSize: Int = defaultTileSize, baseLongSide: Int = defaultBaseLongSide,
        scaledIn orientation: ImageOrientation = .topLeft
    ) {
        precondition(fullSize.width > 0 && fullSize.height > 0, "empty picture \(fullSize)")
        precondition(tileSize > 0 && baseLongSide > 0, "tile size \(tileSize), base side \(baseLongSide)")
        self.fullSize = fullSize
        self.tileSize = tileSize
        var level = 0
        while Self.scaled(max(fullSize.width, fullSize.height), level: level) > baseLongSide { level += 1 }
        baseLevel = level
        // Stored pixel (sx, sy) is upright at: 2 (x mirrored), 3 (both), 4 (y mirrored), 5 (x = sy,
        // y = sx), 6 (x = h−1−sy, y = sx), 7 (both reversed), 8 (x = sy, y = w−1−sx).
        countsFromRight = [.topRight, .bottomRight, .rightTop, .rightBottom].contains(orientation)
        countsFromBottom = [.bottomRight, .bottomLeft, .rightBottom, .leftBottom].contains(orientation)
    }

    /// True when a picture of `size` (upright or stored) is big enough to be held as tiles.
    public static func needsTiling(_ size: PixelSize) -> Bool { size.area > tilingThresholdPixels }

    /// Number of levels, full resolution through the base.
    public var levelCount: Int { baseLevel + 1 }

    /// The upright size of level `level`: ⌈W/2^level⌉ × ⌈H/2^level⌉.
    public func levelSize(_ level: Int) -> PixelSize {
        PixelSize(width: Self.scaled(fullSize.width, level: level), height: Self.scaled(fullSize.height, level: level))
    }

    /// Full-resolution pixels per level pixel, 2^level.
    public func scaleFactor(_ level: Int) -> Int { 1 << level }

    /// Columns and rows of the tile grid of `level`: 1 × 1 at the base level.
    public func gridSize(_ level: Int) -> PixelSize {
        if level == baseLevel { return PixelSize(width: 1, height: 1) }
        let size = levelSize(level)
        return PixelSize(width: (size.width + tileSize - 1) / tileSize, height: (size.height + tileSize - 1) / tileSize)
    }

    /// Where `key` lies in its level's pixels: the whole level at the base.
    public func levelRect(of key: TileKey) -> PixelRect {
        let size = levelSize(key.level)
        if key.level == baseLevel { return PixelRect(size: size) }
        let x = key.column * tileSize, y = key.row * tileSize
        return PixelRect(x: x, y: y, width: min(tileSize, size.width - x), height: min(tileSize, size.height - y))
    }

    /// `levelRect(of: key)` grown by `margin` pixels on each side, clipped to the level: a tile
    /// with the edge pixels of its neighbours (see `TileDecoder.margin`).
    public func levelRect(of key: TileKey, margin: Int) -> PixelRect {
        levelRect(of: key).outset(by: margin).intersection(PixelRect(size: levelSize(key.level)))!
    }

    /// Where `key` lies in full-resolution upright pixels: `frame(ofLevelRect:level:)` of its rect.
    public func frame(of key: TileKey) -> Rect { frame(ofLevelRect: levelRect(of: key), level: key.level) }

    /// Where the level pixels `rect` of `level` lie in full-resolution upright pixels:
    /// origin + rect × 2^level, exact (see the type's note on the overhang at the edge).
    public func frame(ofLevelRect rect: PixelRect, level: Int) -> Rect {
        let factor = Double(scaleFactor(level))
        let origin = origin(level)
        return Rect(
            x: Double(origin.x) + Double(rect.x) * factor, y: Double(origin.y) + Double(rect.y) * factor,
            width: Double(rect.width) * factor, height: Double(rect.height) * factor)
    }

    /// Full-resolution position of level pixel (0, 0)'s top-left corner: 0 on an axis counted
    /// from its near edge, full − level × 2^level (between −(2^level − 1) and 0) otherwise.
    public func origin(_ level: Int) -> (x: Int, y: Int) {
        let size = levelSize(level), factor = scaleFactor(level)
        return (countsFromRight ? fullSize.width - size.width * factor : 0,
                countsFromBottom ? fullSize.height - size.height * factor : 0)
    }

    /// The level to show at `scale` screen pixels per full-resolution pixel: the coarsest whose
    /// resolution 1/2^k is still ≥ `scale` (so the compositor only ever shrinks it, by less than
    /// half, with bilinear), clamped to 0 ... `baseLevel`.
    public func level(forScale scale: Double) -> Int {
        var level = 0
        while level < baseLevel && 1 / Double(scaleFactor(level + 1)) >= scale { level += 1 }
        return level
    }

    /// The tiles of `level(forScale: scale)` that together cover `visibleRect` (full-resolution
    /// upright pixels) clipped to the picture, row by row; empty when it misses the picture.
    /// No gaps: every visible full-resolution point lies in a returned tile's frame. No extras:
    /// every returned tile's frame overlaps the clipped rectangle with positive area.
    public func tiles(covering visibleRect: Rect, atScale scale: Double) -> [TileKey] {
        let picture = Rect(x: 0, y: 0, width: Double(fullSize.width), height: Double(fullSize.height))
        guard let visible = visibleRect.intersection(picture) else { return [] }
        let level = level(forScale: scale)
        if level == baseLevel { return [TileKey(level: level, column: 0, row: 0)] }
        let factor = Double(scaleFactor(level)), span = Double(tileSize) * factor
        let origin = origin(level), grid = gridSize(level)
        func tileRange(_ low: Double, _ high: Double, origin: Int, count: Int) -> ClosedRange<Int> {
            let first = Int(((low - Double(origin)) / span).rounded(.down))
            let last = Int(((high - Double(origin)) / span).rounded(.up)) - 1
            return max(first, 0)...min(last, count - 1)
        }
        let columns = tileRange(visible.minX, visible.maxX, origin: origin.x, count: grid.width)
        let rows = tileRange(visible.minY, visible.maxY, origin: origin.y, count: grid.height)
        return rows.flatMap { row in columns.map { TileKey(level: level, column: $0, row: row) } }
    }

    /// ⌈length / 2^level⌉: libjpeg's scaled size, and that of repeated ⌈·/2⌉ box halving.
    private static func scaled(_ length: Int, level: Int) -> Int { (length + (1 << level) - 1) >> level }
}
