import CRiffleImaging
import Glibc
import RiffleGeometry
import RiffleRaster

/// A file without a name in the temporary folder ($TMPDIR, else /tmp), written and read by
/// offset: its name is removed the moment it is made, so its space goes back to the disk when it
/// is closed, even if the process dies first. Closed when the value goes away.
final class TemporaryFile: Sendable {
    let descriptor: Int32

    init() throws(ImageDecodeError) {
        let folder = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((folder + "/riffle-tiles-XXXXXX").utf8CString)
        let file = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard file >= 0 else {
            throw ImageDecodeError(reason: "Cannot make a temporary file in \(folder): \(FileBytes.reasonForErrno())")
        }
        _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        _ = fcntl(file, F_SETFD, FD_CLOEXEC)
        descriptor = file
    }

    deinit { close(descriptor) }

    /// Writes `bytes` at `offset`.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(ImageDecodeError) {
        var done = 0
        while done < bytes.count {
            let count = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw ImageDecodeError(reason: "Cannot write the tile cache in the temporary folder: \(FileBytes.reasonForErrno())")
            }
            done += count
        }
    }

    /// Fills `bytes` from `offset`.
    func read(into bytes: UnsafeMutableRawBufferPointer, at offset: Int) throws(ImageDecodeError) {
        var done = 0
        while done < bytes.count {
            let count = pread(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw ImageDecodeError(reason: "Cannot read the tile cache: \(count == 0 ? "it ends early" : FileBytes.reasonForErrno())")
            }
            done += count
        }
    }
}

/// One tile's rows being deflated (`rfi_row_deflater`: about 80 KiB of zlib state, plus the
/// output so far).
final class RowDeflater {
    private var deflater: OpaquePointer?

    /// A stream keeping `channels` (3 or 4) bytes a pixel.
    init(channels: Int) throws(ImageDecodeError) {
        var message = MessageBuffer()
        let status = message.withPointer { rfi_row_deflater_create(Int32(channels), &deflater, $0, $1) }
        try ImageDecoder.check(status, format: .png, message: message.text)
    }

    deinit { rfi_row_deflater_free(deflater) }

    /// Adds the row of `count` pixels at `pixels`.
    func add(_ pixels: UnsafePointer<UInt32>, count: Int) throws(ImageDecodeError) {
        var message = MessageBuffer()
        let status = message.withPointer { rfi_row_deflater_add(deflater, pixels, Int32(count), $0, $1) }
        try ImageDecoder.check(status, format: .png, message: message.text)
    }

    /// Ends the stream, writes it to `file` at `offset` and returns its length in bytes.
    func finish(into file: TemporaryFile, at offset: Int) throws(ImageDecodeError) -> Int {
        var bytes = rfi_bytes()
        var message = MessageBuffer()
        let status = message.withPointer { rfi_row_deflater_finish(deflater, &bytes, $0, $1) }
        deflater = nil
        try ImageDecoder.check(status, format: .png, message: message.text)
        defer { rfi_bytes_free(bytes.data) }
        try file.write(UnsafeRawBufferPointer(start: bytes.data, count: bytes.length), at: offset)
        return bytes.length
    }
}

/// The tiles of a `TilePyramid`, cut by a `TileCutter` and kept deflated (see "Deflated pixel
/// rows" in the imaging shim) in a `TemporaryFile`: the tile source of a huge PNG, of which
/// libpng can decode no part but from the top. The memory held is this index; reading a tile
/// inflates its own bytes only (a 514² tile, about 1 MiB of pixels, in a few milliseconds).
/// Immutable once cut: any thread may read.
final class DeflatedTiles: Sendable {
    /// Where one tile lies in the file, and in its level (stored orientation, margin included).
    struct Tile: Sendable {
        let offset: Int
        let length: Int
        let rect: PixelRect
        /// Some of its rows are grey fill: the picture's data ended before them.
        let hasFill: Bool
    }

    private let file: TemporaryFile
    private let tiles: [TileKey: Tile]
    private let channels: Int
    private let warning: String?

    /// Tiles `tiles` of `channels` bytes a pixel in `file`; `warning` is what the picture's
    /// decoder recovered from, which the tiles holding fill carry.
    init(file: TemporaryFile, tiles: [TileKey: Tile], channels: Int, warning: String?) {
        self.file = file
        self.tiles = tiles
        self.channels = channels
        self.warning = warning
    }

    /// Bytes the tiles take in the file.
    var byteCount: Int { tiles.values.reduce(0) { $0 + $1.length } }

    /// The pixels of tile `key` as stored (margin included, not yet upright), and the
    /// decoder's warning if the tile holds grey fill.
    func pixels(of key: TileKey) throws(ImageDecodeError) -> (pixels: PixelBuffer, warning: String?) {
        guard let tile = tiles[key] else { throw ImageDecodeError(reason: "The picture has no tile \(key)") }
        var bytes = [UInt8](repeating: 0, count: tile.length)
        let read = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(ImageDecodeError) in try file.read(into: buffer, at: tile.offset) }
        }
        try read.get()
        let pixels = PixelBuffer(width: tile.rect.width, height: tile.rect.height)
        var message = MessageBuffer()
        let status = bytes.withUnsafeBufferPointer { data in
            message.withPointer {
                rfi_inflate_rows(
                    data.baseAddress, data.count, Int32(channels), pixels.pixels, Int32(pixels.width), Int32(pixels.height),
                    Int32(pixels.rowPixels), $0, $1)
            }
        }
        try ImageDecoder.check(status, format: .png, message: message.text)
        return (pixels, tile.hasFill ? warning : nil)
    }
}

/// Cuts the tiles of every level of a `TilePyramid` out of a picture's stored rows in one pass,
/// as they arrive top to bottom, into `DeflatedTiles`.
///
/// Level k + 1's rows are box-halved from level k's as they come (`BoxDownsample.halve`, so
/// level k is `BoxDownsample.halved` applied k times), in the stored orientation, which is how
/// `TilePyramid(fullSize:tileSize:baseLongSide:scaledIn:)` counts level pixels. A tile is the
/// stored rectangle that turns into its upright level rectangle with `TileDecoder.margin`;
/// its rows go into a `RowDeflater` of its own as they pass, and the stream goes to the file
/// after its last row.
///
/// Memory grows with the picture's width, not its height: per level, one row waiting for the
/// row below it, and one deflater (about 80 KiB of zlib state plus the tile's deflated rows so
/// far) for each tile of the band of tiles it is cutting — two bands' for the two rows where
/// their margins overlap. A 12000 × 8000 photograph in 512-pixel tiles cuts bands of 24, 12 and 6
/// tiles at levels 0-2 and the 1500 × 1000 base whole: 43 deflaters, 3.4 MiB of zlib state, and
/// at most about 15 MiB of deflated rows (a band of level 0 is 12000 · 514 · 3 bytes, which
/// deflate to about 0.4 of that).
final class TileCutter {
    /// A row of tiles of one level: the stored rows they span, and each tile's key, stored
    /// rectangle and deflater (while cutting) and whether it took fill.
    private final class Band {
        let rows: Range<Int>
        let keys: [TileKey]
        let rects: [PixelRect]
        var deflaters: [RowDeflater?]
        var hasFill: [Bool]

        init(rows: Range<Int>, tiles: [(key: TileKey, rect: PixelRect)]) {
            self.rows = rows
            keys = tiles.map(\.key)
            rects = tiles.map(\.rect)
            deflaters = Array(repeating: nil, count: tiles.count)
            hasFill = Array(repeating: false, count: tiles.count)
        }
    }

    /// One level being cut: its stored size, its bands top first, the next row to come, and for
    /// all but the base, the even row waiting for the odd one below it and their halving.
    private final class Level {
        let size: PixelSize
        let bands: [Band]
        var firstOpenBand = 0
        var row = 0
        let pending: PixelBuffer?
        var pendingIsFill = false
        let halved: PixelBuffer?

        init(size: PixelSize, bands: [Band], isBase: Bool) {
            self.size = size
            self.bands = bands
            pending = isBase ? nil : PixelBuffer(width: size.width, height: 1)
            halved = isBase ? nil : PixelBuffer(width: (size.width + 1) / 2, height: 1)
        }
    }

    private let levels: [Level]
    private let channels: Int
    private let file: TemporaryFile
    private var end = 0
    private var tiles: [TileKey: DeflatedTiles.Tile] = [:]

    /// A cutter for `pyramid`, whose levels are scaled from pixels stored in `orientation`,
    /// keeping `channels` bytes a pixel (3 for a picture known to be opaque, else 4).
    init(pyramid: TilePyramid, orientation: ImageOrientation, channels: Int) throws(ImageDecodeError) {
        self.channels = channels
        file = try TemporaryFile()
        levels = (0...pyramid.baseLevel).map { level in
            let upright = pyramid.levelSize(level), grid = pyramid.gridSize(level)
            var byRows: [Range<Int>: [(key: TileKey, rect: PixelRect)]] = [:]
            for row in 0..<grid.height {
                for column in 0..<grid.width {
                    let key = TileKey(level: level, column: column, row: row)
                    let rect = orientation.storedRect(
                        ofUpright: pyramid.levelRect(of: key, margin: TileDecoder.margin), uprightSize: upright)
                    byRows[rect.y..<rect.maxY, default: []].append((key, rect))
                }
            }
            let bands = byRows.sorted { $0.key.lowerBound < $1.key.lowerBound }.map { Band(rows: $0.key, tiles: $0.value) }
            return Level(size: orientation.storedSize(ofUpright: upright), bands: bands, isBase: level == pyramid.baseLevel)
        }
    }

    /// Takes the next stored row of the full-resolution picture (its width in pixels);
    /// `isFill` when it is grey fill for data that ended early.
    func push(_ row: UnsafePointer<UInt32>, isFill: Bool) throws(ImageDecodeError) {
        try push(row, isFill: isFill, level: 0)
    }

    /// The tiles, once every row is in; `warning` is the decoder's, for the tiles holding fill.
    func finish(warning: String?) throws(ImageDecodeError) -> DeflatedTiles {
        guard levels.allSatisfy({ $0.row == $0.size.height }) else {
            throw ImageDecodeError(reason: "The tiles were cut from \(levels[0].row) of \(levels[0].size.height) rows")
        }
        return DeflatedTiles(file: file, tiles: tiles, channels: channels, warning: warning)
    }

    private func push(_ row: UnsafePointer<UInt32>, isFill: Bool, level index: Int) throws(ImageDecodeError) {
        let level = levels[index]
        let y = level.row
        level.row += 1
        // The bands this row falls in: one, or two where their margins overlap.
        for band in level.bands[level.firstOpenBand...] {
            guard band.rows.lowerBound <= y else { break }
            for t in band.keys.indices {
                if y == band.rows.lowerBound { band.deflaters[t] = try RowDeflater(channels: channels) }
                try band.deflaters[t]!.add(row + band.rects[t].x, count: band.rects[t].width)
                band.hasFill[t] = band.hasFill[t] || isFill
            }
            guard y == band.rows.upperBound - 1 else { continue }
            for t in band.keys.indices {
                let length = try band.deflaters[t]!.finish(into: file, at: end)
                tiles[band.keys[t]] = DeflatedTiles.Tile(offset: end, length: length, rect: band.rects[t], hasFill: band.hasFill[t])
                band.deflaters[t] = nil
                end += length
            }
            level.firstOpenBand += 1
        }
        guard let pending = level.pending, let halved = level.halved else { return }
        if y % 2 == 0 {
            pending.row(0).update(from: row, count: level.size.width)
            level.pendingIsFill = isFill
            // An odd last row is halved with itself.
            guard y == level.size.height - 1 else { return }
        }
        BoxDownsample.halve(
            pending.row(0), y % 2 == 0 ? UnsafePointer(pending.row(0)) : row, width: level.size.width, into: halved.row(0))
        try push(halved.row(0), isFill: level.pendingIsFill || isFill, level: index + 1)
    }
}
