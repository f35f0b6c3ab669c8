import RiffleGeometry
import RiffleRaster

/// A decoded tile with its margin, placed exactly in the picture.
public struct TilePixels: Sendable {
    /// Which tile.
    public let key: TileKey
    /// Upright premultiplied BGRA: the tile plus up to `TileDecoder.margin` pixels of its
    /// neighbours on each side where the level has them.
    public let pixels: PixelBuffer
    /// Where `pixels` lie in full-resolution upright picture pixels, margin included: pixel
    /// (i, j) covers `frame.minX + i·2^level ... + 2^level` and likewise vertically.
    public let frame: Rect
    /// The tile proper within `pixels` (the rest is margin): `pixels` minus the margin.
    public let content: PixelRect
    /// A problem the decoder recovered from, e.g. truncated data shown grey (see
    /// `DecodedImage.warning`); nil for a clean decode.
    public let warning: String?
}

/// Decodes the tiles of a `TilePyramid` of a JPEG from its bytes, each from only its part of the
/// file, or of a PNG from tiles cut once from all of it.
///
/// Level k of a baseline JPEG is decoded with DCT scaling 1/2^k for k ≤ 3, and for k > 3 at 1/8
/// followed by k − 3 box halvings, which is what `TilePyramid.levelSize` counts. The upright
/// rectangle is mapped to the stored one, decoded by `JPEGRegionDecoder`, then turned upright.
///
/// A JPEG's scan is indexed once, at init (`JPEGScanIndex`: about a 1/8-scaled decode's time, or
/// a pass over the bytes when the file has restart markers), and each region decode then enters
/// the file at its own rows (`JPEGBandStream`). Where the file cannot be indexed (restart
/// intervals that split MCU rows, a damaged or truncated scan) a region decode
/// entropy-decodes all the file's rows above its bottom edge instead: measured on a 12000×8000
/// baseline 4:2:0 JPEG (libjpeg-turbo 2.1.5, -O2, 2 shared cores), one 512² tile then takes 18 ms
/// at the top, 149 ms in the middle and 281 ms at the bottom. So tiles asked for together are
/// decoded together: per level, consecutive rows of requested tiles are merged into one region
/// decode (up to `decodePixelBudget` pixels) and then cut apart. Ask for a screenful in one call.
/// (With the index, a 1920×1080 screenful at 1:1 of a 30000×20000 JPEG decodes in 40-110 ms
/// wherever it lies, against ~0.45 s without.)
///
/// A progressive JPEG is refused: every tile would decode the whole file (libjpeg holds all its
/// coefficients); decode it whole at a reduced scale with `ImageDecoder` instead.
///
/// libpng has no region decoding (a PNG's rows are one deflate stream, each row filtered against
/// the one above), so a PNG is read once, at init, from its file as it streams: every tile of
/// every level is cut in that one pass (`TileCutter`, its levels box-halved in the stored
/// orientation) and kept deflated in an unlinked temporary file (`DeflatedTiles`); a tile is then
/// read back and inflated alone. Opening holds no picture, only a band of tiles per level being
/// deflated (a few MiB), and costs a full decode plus deflating 4/3 of the picture once. An
/// interlaced PNG's rows come pass by pass, so it is decoded whole (if within the pixel limit,
/// else init throws the decoder's "more than Riffle's limit" error) and cut from that.
public struct TileDecoder: Sendable {
    /// Pixels of neighbouring tiles decoded around each tile, per side: bilinear sampling reads
    /// one pixel beyond the sample point, so with one pixel of margin a compositor that clamps at
    /// the buffer's edge samples across the tile seam as if the picture were whole.
    public static let margin = 1
    /// Most pixels one region decode may produce, 2^24 (64 MiB of BGRA): a 4K screenful of tiles
    /// with a tile of overhang on each side, or one full row band of a 30000-pixel-wide photo.
    public static let decodePixelBudget = 1 << 24

    private enum Source: Sendable {
        /// A single-scan JPEG, decoded a region at a time: entered at the region's rows through
        /// its scan index where it has one, else by entropy-decoding every row above.
        case jpeg([UInt8], JPEGScanIndex?)
        /// Every tile, cut from the picture at init.
        case cut(DeflatedTiles)
    }

    /// The tile geometry of the picture.
    public let pyramid: TilePyramid
    /// The header of the picture.
    public let info: ImageInfo
    private let source: Source
    private let pixelLimit: Int
    /// For a JPEG: its scan index, or why it has none (its tiles are then decoded by skipping,
    /// in time growing with their depth in the file). Nil for a PNG.
    public let index: Result<JPEGScanIndex, JPEGScanIndex.Unsupported>?

    /// For a PNG: the bytes its deflated tiles take in the temporary folder. Nil for a JPEG.
    public var tileCacheBytes: Int? {
        if case .cut(let tiles) = source { tiles.byteCount } else { nil }
    }

    /// A decoder for the picture in `bytes`, cut into `tileSize` tiles down to a base of at most
    /// `baseLongSide` pixels. Throws for undecodable headers, progressive JPEGs, PNGs over
    /// `ImageDecoder.pngPixelLimit` or `ImageDecoder.pngSideLimit` and interlaced ones of more
    /// than `pixelLimit` pixels, and
    /// `ImageDecodeError.stopped` once `stop` (asked while a JPEG's scan is indexed, or while a
    /// PNG is cut, every `ImageDecoder.streamedRows` rows) says true.
    public init(
        bytes: [UInt8], tileSize: Int = TilePyramid.defaultTileSize,
        baseLongSide: Int = TilePyramid.defaultBaseLongSide, pixelLimit: Int = ImageDecoder.defaultPixelLimit,
        until stop: () -> Bool = { false }
    ) throws(ImageDecodeError) {
        let info = try ImageDecoder.probe(bytes)
        guard ImageCodecs.codec(for: info.format).cutsTiles else {
            throw ImageDecodeError(reason: "A \(info.format.displayName) image cannot be decoded a tile at a time")
        }
        guard info.format == .jpeg else {
            self = try PNGRowReader.reading(bytes) { reader throws(ImageDecodeError) in
                try TileDecoder(png: reader, tileSize: tileSize, baseLongSide: baseLongSide, pixelLimit: pixelLimit, until: stop)
            }
            return
        }
        guard !info.hasMultipleScans else {
            throw ImageDecodeError(
                reason: "The \(info.uprightSize.width)×\(info.uprightSize.height) JPEG is progressive, so it cannot "
                    + "be decoded a tile at a time (libjpeg must hold all its coefficients); decode it whole "
                    + "at a reduced scale instead")
        }
        self.info = info
        self.pixelLimit = pixelLimit
        index = Result { () throws(JPEGScanIndex.Unsupported) in try JPEGScanIndex(bytes, until: stop) }
        if case .failure(.stopped)? = index { throw .stopped }
        source = .jpeg(bytes, try? index?.get())
        pyramid = TilePyramid(
            fullSize: info.uprightSize, tileSize: tileSize, baseLongSide: baseLongSide, scaledIn: info.orientation)
    }

    /// A decoder for the picture in the file at `path`, as `init(bytes:tileSize:baseLongSide:pixelLimit:until:)`
    /// makes it: a JPEG's bytes are read and held (its tiles are decoded from them), a PNG is
    /// cut as it is read from the file, which is never held.
    public init(
        path: String, tileSize: Int = TilePyramid.defaultTileSize,
        baseLongSide: Int = TilePyramid.defaultBaseLongSide, pixelLimit: Int = ImageDecoder.defaultPixelLimit,
        until stop: () -> Bool = { false }
    ) throws(ImageDecodeError) {
        let head = try FileBytes.read(atPath: path, upTo: ImageFormat.signatureLength)
        if ImageFormat.detect(head) == .png {
            try self.init(
                png: PNGRowReader(path: path), tileSize: tileSize, baseLongSide: baseLongSide, pixelLimit: pixelLimit,
                until: stop)
        } else {
            try self.init(
                bytes: FileBytes.read(atPath: path), tileSize: tileSize, baseLongSide: baseLongSide, pixelLimit: pixelLimit,
                until: stop)
        }
    }

    /// Cuts every tile of the PNG `reader` reads (see the type's note).
    private init(
        png reader: PNGRowReader, tileSize: Int, baseLongSide: Int, pixelLimit: Int, until stop: () -> Bool
    ) throws(ImageDecodeError) {
        let info = reader.info
        try ImageDecoder.checkPNGSize(info)
        if info.hasMultipleScans && info.storedSize.area > pixelLimit {
            throw ImageDecoder.tooLarge(info.uprightSize, pixelLimit: pixelLimit)
        }
        let pyramid = TilePyramid(
            fullSize: info.uprightSize, tileSize: tileSize, baseLongSide: baseLongSide, scaledIn: info.orientation)
        // Without alpha every pixel is opaque: its alpha byte need not be kept.
        let cutter = try TileCutter(pyramid: pyramid, orientation: info.orientation, channels: info.hasAlpha ? 4 : 3)
        try reader.start()
        if info.hasMultipleScans {
            let (picture, seen) = try ImageDecoder.adam7Picture(reader, reduction: 0, until: stop)
            for y in 0..<picture.height { try cutter.push(picture.row(y), isFill: seen.hasFill) }
        } else {
            try ImageDecoder.forEachPNGRow(reader, until: stop) { row, isFill throws(ImageDecodeError) in
                try cutter.push(row, isFill: isFill)
            }
        }
        self.info = info
        self.pyramid = pyramid
        self.pixelLimit = pixelLimit
        index = nil
        source = .cut(try cutter.finish(warning: reader.finish()))
    }

    /// The tile `key` with its margin.
    public func decode(_ key: TileKey) throws(ImageDecodeError) -> TilePixels {
        try decode([key])[0]
    }

    /// The tiles `keys` (duplicates decoded once), in the order given; see the type's note on
    /// how tiles asked for together share their decodes.
    public func decode(_ keys: [TileKey]) throws(ImageDecodeError) -> [TilePixels] {
        var decoded: [TileKey: TilePixels] = [:]
        switch source {
        case .jpeg(let bytes, let index):
            for band in bands(of: keys) {
                for tile in try decodeBand(band, of: bytes, index: index) { decoded[tile.key] = tile }
            }
        case .cut(let tiles):
            for key in Set(keys) { decoded[key] = try cutTile(key, from: tiles) }
        }
        return keys.map { decoded[$0]! }
    }

    /// Tile `key` read back from the tiles cut at init, turned upright.
    private func cutTile(_ key: TileKey, from tiles: DeflatedTiles) throws(ImageDecodeError) -> TilePixels {
        let (stored, warning) = try tiles.pixels(of: key)
        let padded = pyramid.levelRect(of: key, margin: Self.margin)
        let tileRect = pyramid.levelRect(of: key)
        return TilePixels(
            key: key, pixels: info.orientation.upright(stored), frame: pyramid.frame(ofLevelRect: padded, level: key.level),
            content: PixelRect(x: tileRect.x - padded.x, y: tileRect.y - padded.y, width: tileRect.width, height: tileRect.height),
            warning: warning)
    }

    /// The tiles of one level grouped into runs of consecutive rows whose bounding rectangle
    /// (margins included) stays within `decodePixelBudget`; a single row's tiles always form one.
    private func bands(of keys: [TileKey]) -> [[TileKey]] {
        var bands: [[TileKey]] = []
        let levels = Dictionary(grouping: Set(keys), by: \.level)
        for level in levels.keys.sorted() {
            let rows = Dictionary(grouping: levels[level]!, by: \.row)
            var band: [TileKey] = []
            var bounds: PixelRect?
            for row in rows.keys.sorted() {
                let tiles = rows[row]!.sorted { $0.column < $1.column }
                let rowBounds = tiles.map(paddedRect).reduce(paddedRect(tiles[0])) { $0.union($1) }
                let merged = bounds.map { $0.union(rowBounds) } ?? rowBounds
                let adjacent = band.last.map { $0.row + 1 == row } ?? true
                if !band.isEmpty && (!adjacent || merged.area > Self.decodePixelBudget) {
                    bands.append(band)
                    band = tiles
                    bounds = rowBounds
                } else {
                    band += tiles
                    bounds = merged
                }
            }
            bands.append(band)
        }
        return bands
    }

    /// The tile's level rectangle grown by the margin, clipped to the level.
    private func paddedRect(_ key: TileKey) -> PixelRect { pyramid.levelRect(of: key, margin: Self.margin) }

    /// Decodes the bounding rectangle of `band` (one level) of the JPEG `bytes` once and cuts it
    /// into its tiles.
    private func decodeBand(_ band: [TileKey], of bytes: [UInt8], index: JPEGScanIndex?) throws(ImageDecodeError) -> [TilePixels] {
        let level = band[0].level
        let bounds = band.map(paddedRect).reduce(paddedRect(band[0])) { $0.union($1) }
        let (pixels, warning) = try decodeLevelRect(bounds, level: level, of: bytes, index: index)
        return band.map { key in
            let padded = paddedRect(key)
            let tileRect = pyramid.levelRect(of: key)
            let local = PixelRect(x: padded.x - bounds.x, y: padded.y - bounds.y, width: padded.width, height: padded.height)
            return TilePixels(
                key: key,
                pixels: local == PixelRect(size: pixels.size) ? pixels : pixels.cropped(to: local),
                frame: pyramid.frame(ofLevelRect: padded, level: level),
                content: PixelRect(
                    x: tileRect.x - padded.x, y: tileRect.y - padded.y, width: tileRect.width, height: tileRect.height),
                warning: warning)
        }
    }

    /// The upright pixels `rect` of level `level` of the JPEG `bytes`, and the decoder's warning
    /// if any.
    private func decodeLevelRect(
        _ rect: PixelRect, level: Int, of bytes: [UInt8], index: JPEGScanIndex?
    ) throws(ImageDecodeError) -> (pixels: PixelBuffer, warning: String?) {
        // libjpeg scales by at most 1/8; coarser levels halve a 1/8 decode.
        let dctLevel = min(level, ImageDecoder.jpegScaleDenominators.count - 1)
        let halvings = level - dctLevel
        let orientation = info.orientation
        let stored = orientation.storedRect(ofUpright: rect, uprightSize: pyramid.levelSize(level))
        let storedDCTSize = ImageDecoder.scaledSize(info.storedSize, denominator: 1 << dctLevel)
        // Level pixels are whole blocks of 2^halvings DCT-level pixels from the stored origin;
        // the last block of a row or column is cut short by the picture's edge.
        let region = stored.scaled(by: 1 << halvings).intersection(PixelRect(size: storedDCTSize))!
        let decoded = if let index {
            try JPEGRegionDecoder.decode(
                bytes, index: index, region: region, scaleDenominator: 1 << dctLevel, pixelLimit: pixelLimit)
        } else {
            try JPEGRegionDecoder.decode(bytes, region: region, scaleDenominator: 1 << dctLevel, pixelLimit: pixelLimit)
        }
        var pixels = decoded.pixels
        for _ in 0..<halvings { pixels = BoxDownsample.halved(pixels) }
        assert(pixels.size == stored.size, "halved \(region) to \(pixels.size), not \(stored.size)")
        return (orientation.upright(pixels), decoded.warning)
    }
}
