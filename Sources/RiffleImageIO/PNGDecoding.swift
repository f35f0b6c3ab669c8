import RiffleGeometry
import RiffleRaster

/// How PNGs are decoded: row by row from libpng (`PNGRowReader`), never holding the file, and
/// holding the picture only when it is asked for whole.
///
/// A non-interlaced PNG streams: its rows go straight into the caller's reduction (the
/// `RowResampler` of the decode's `DownscaleFilter`, the tile cutter) `streamedRows` at a time,
/// so besides the result a decode holds one row buffer (`streamedRows` × W × 4 bytes), the
/// resampler's rows (an `AreaResampler`'s two rows of sums, 32 · W bytes; a
/// `LanczosResampler`'s source row in floats, 16 · W bytes, and its ring of rows resampled
/// across, at the output's width), libpng's two raw rows (at most 16 · W bytes) and for a
/// 16-bit picture one row of its samples before they are dithered to 8 bits (8 · W): for a
/// 9000-pixel-wide photo, about a megabyte, whatever its height.
///
/// An Adam7-interlaced PNG spreads every part of the picture over its seven passes, one after
/// another through the file, so its rows cannot be reduced as they come. Its first passes hold
/// the picture subsampled: pass 1 every 8th pixel both ways, passes 1–3 every 4th, passes 1–5
/// every 2nd (PNG specification, section 8.2). So it is decoded into the grid of every 2^k-th
/// pixel, k ≤ 3, from only the passes that grid needs (the rest of the file is never inflated),
/// then shrunk by the filter: the grid is the coarsest whose ⌈W/2^k⌉ × ⌈H/2^k⌉ still covers the
/// target.
/// Memory bound: that grid (4 bytes a pixel) plus one row buffer — for a target of the picture's
/// aspect at most twice the target's width and height, or 1/64 of the picture when even 1/8
/// covers the target, and never more than the pixel limit. Subsampling is point sampling,
/// sharper but more aliased than filtering every pixel; pictures of up to
/// `wholeInterlacedPixels` are therefore decoded whole (k = 0, at most 64 MiB) and shrunk
/// exactly like their non-interlaced twins.
extension ImageDecoder {
    /// What a pass over a PNG's rows found out besides their pixels.
    struct PNGRowsSeen {
        /// Some rows were grey fill: the data ended before them.
        var hasFill = false
        /// Every pixel had alpha 255.
        var isOpaque = true
        /// Rows that came from the data, not grey fill (of every pass read, for an interlaced
        /// picture).
        var rowsWithData = 0

        mutating func note(_ batch: PNGRows) {
            hasFill = hasFill || batch.decoded < batch.count
            isOpaque = isOpaque && !batch.isTranslucent
            rowsWithData += batch.decoded
        }

        /// What a decode of the PNG described by `info` that ended with `warning` after these
        /// rows recovered from: nil without a warning; for a non-interlaced picture, the band of
        /// the rows never read (those after the last one libpng could inflate), along the side
        /// the last stored rows end up on once upright; for an interlaced one, whose missing
        /// passes thin out the whole picture, no one part.
        func damage(of info: ImageInfo, warning: String?) -> ImageDamage? {
            guard warning != nil else { return nil }
            guard !info.hasMultipleScans, info.storedSize.height > 0 else { return .truncated(missing: nil) }
            let height = info.storedSize.height
            return .truncated(missing: ImageDamage.MissingPart(
                share: 1 - Double(min(rowsWithData, height)) / Double(height), side: info.orientation.sideOfLastStoredRows))
        }
    }

    /// The most pixels Riffle reads from one PNG, 2^30 (a gigapixel): every pixel of a PNG must be
    /// inflated to show it at any size, and libpng decodes a photograph at 25–50 megapixels a
    /// second (a 54 MP one in 1.1–2.6 s, `riffle-bench png`, 2 cores shared with other builds), so
    /// a gigapixel already keeps a core busy for 20–40 s. A header claiming more (a decompression
    /// bomb is a few megabytes of zeros) is refused before any row is read.
    public static let pngPixelLimit = 1 << 30

    /// Interlaced PNGs of up to 2^24 pixels (16 megapixels, 64 MiB of BGRA) are decoded whole,
    /// then averaged; larger ones read only the passes the target needs.
    public static let wholeInterlacedPixels = 1 << 24

    /// The widest PNG Riffle streams, 2^16 pixels (a JPEG can be at most 65500): the memory of a
    /// streamed decode or a tile cut grows with the width (a 16-row buffer is 64 bytes a column,
    /// a band of tiles being cut about 512 · 3 bytes before deflating), so a header claiming a
    /// picture millions of pixels wide and one high would otherwise ask for gigabytes.
    public static let pngSideLimit = 1 << 16

    /// Throws the refusal of a PNG too big to stream: more than `pngPixelLimit` pixels, or more
    /// than `pngSideLimit` a side.
    static func checkPNGSize(_ info: ImageInfo) throws(ImageDecodeError) {
        let size = info.uprightSize
        if info.storedSize.area > pngPixelLimit {
            throw ImageDecodeError(
                reason: "The PNG is \(size.width)×\(size.height) pixels, more than Riffle reads from a PNG "
                    + "(\(describePixelCount(pngPixelLimit))): each of its pixels would have to be inflated to show it")
        }
        if max(size.width, size.height) > pngSideLimit {
            throw ImageDecodeError(
                reason: "The PNG is \(size.width)×\(size.height) pixels, more than Riffle reads from a PNG "
                    + "(\(pngSideLimit) a side)")
        }
    }

    /// `size` shrunk, keeping its aspect, to at most `pixelLimit` pixels (each side at least 1).
    static func fitting(_ size: PixelSize, within pixelLimit: Int) -> PixelSize {
        guard size.area > pixelLimit else { return size }
        let scale = (Double(pixelLimit) / Double(size.area)).squareRoot()
        return PixelSize(
            width: max(1, Int(Double(size.width) * scale)), height: max(1, Int(Double(size.height) * scale)))
    }

    /// The Adam7 grid to decode an interlaced PNG of stored size `stored` at, for `target`
    /// (stored orientation): k = 0 (every pixel) for a picture of at most `wholeBelow` pixels,
    /// else the largest k ≤ 3 whose ⌈W/2^k⌉ × ⌈H/2^k⌉ still covers `target`; then raised until
    /// the grid fits `pixelLimit`. Nil when even the 1/8 grid does not.
    package static func adam7Reduction(
        for stored: PixelSize, atLeast target: PixelSize, pixelLimit: Int, wholeBelow: Int = wholeInterlacedPixels
    ) -> Int? {
        func grid(_ k: Int) -> PixelSize { scaledSize(stored, denominator: 1 << k) }
        var chosen = 0
        if stored.area > wholeBelow {
            chosen = (0...3).last { grid($0).width >= target.width && grid($0).height >= target.height } ?? 0
        }
        return (chosen...3).first { grid($0).area <= pixelLimit }
    }

    /// Decodes the whole picture of a PNG at full resolution, and with `withText` its text
    /// chunks (before and after the image data, in file order: the file must then end with
    /// IEND, and one cut off anywhere throws); without, the text is empty and the chunks after
    /// the image data are never read. Throws for more than `pixelLimit` pixels before allocating
    /// any.
    static func decodeWholePNG(
        _ reader: PNGRowReader, pixelLimit: Int, withText: Bool = false
    ) throws(ImageDecodeError) -> (image: DecodedImage, text: [PNGTextChunk]) {
        let info = reader.info
        guard info.storedSize.area <= pixelLimit else { throw tooLarge(info.uprightSize, pixelLimit: pixelLimit) }
        try reader.start()
        var stored: PixelBuffer
        var seen = PNGRowsSeen()
        if info.hasMultipleScans {
            (stored, seen) = try adam7Picture(reader, reduction: 0, until: { false })
        } else {
            stored = try ImageDecoder.zeroedPixels(info.storedSize, for: info)
            var y = 0
            while y < stored.height {
                let batch = try reader.read(into: stored.row(y), rowPixels: stored.rowPixels, maxRows: stored.height - y)
                guard batch.count > 0 else { break }
                seen.note(batch)
                y += batch.count
            }
        }
        let text = withText ? try reader.readText() : []
        let warning = reader.finish()
        let image = DecodedImage(
            pixels: info.orientation.upright(stored), info: info, warning: warning, isOpaque: seen.isOpaque,
            damage: seen.damage(of: info, warning: warning))
        return (image, text)
    }

    /// Decodes a PNG shrunk by `filter` to `target(info)` (upright; each side capped at the
    /// stored size, then shrunk to fit `pixelLimit`), streamed as the type's note says. Asks
    /// `stop` every `streamedRows` rows and throws `ImageDecodeError.stopped` once it says true.
    static func decodePNG(
        _ reader: PNGRowReader, shrunkTo target: (ImageInfo) -> PixelSize, filter: DownscaleFilter, pixelLimit: Int,
        wholeInterlacedPixels: Int, until stop: () -> Bool
    ) throws(ImageDecodeError) -> DecodedImage {
        let info = reader.info
        try checkPNGSize(info)
        let stored = info.storedSize
        let asked = info.orientation.storedSize(ofUpright: target(info))
        let wanted = fitting(
            PixelSize(width: min(asked.width, stored.width), height: min(asked.height, stored.height)), within: pixelLimit)
        try reader.start()
        let shrunk: PixelBuffer
        let seen: PNGRowsSeen
        if info.hasMultipleScans {
            guard let k = adam7Reduction(for: stored, atLeast: wanted, pixelLimit: pixelLimit, wholeBelow: wholeInterlacedPixels) else {
                throw tooLarge(info.uprightSize, pixelLimit: pixelLimit)
            }
            let (grid, gridSeen) = try adam7Picture(reader, reduction: k, until: stop)
            shrunk = filter.shrink(grid, to: PixelSize(width: min(wanted.width, grid.width), height: min(wanted.height, grid.height)), kernels: .fastest)
            seen = gridSeen
        } else {
            var resampler = filter.resampler(from: stored, to: wanted, kernels: .fastest)
            seen = try forEachPNGRow(reader, until: stop) { row, _ in resampler.push(row) }
            shrunk = resampler.result
        }
        let warning = reader.finish()
        return DecodedImage(
            pixels: info.orientation.upright(shrunk), info: info, warning: warning, isOpaque: seen.isOpaque,
            damage: seen.damage(of: info, warning: warning))
    }

    /// Hands each stored row of a started non-interlaced PNG to `body`, top to bottom, with
    /// whether it is grey fill (the data ended before it), and returns what the rows were like;
    /// reads `streamedRows` at a time, asking `stop` before each read.
    @discardableResult
    static func forEachPNGRow(
        _ reader: PNGRowReader, until stop: () -> Bool,
        _ body: (UnsafePointer<UInt32>, _ isFill: Bool) throws(ImageDecodeError) -> Void
    ) throws(ImageDecodeError) -> PNGRowsSeen {
        let rows = PixelBuffer(width: reader.info.storedSize.width, height: streamedRows)
        var seen = PNGRowsSeen()
        while true {
            if stop() { throw .stopped }
            let batch = try reader.read(into: rows.pixels, rowPixels: rows.rowPixels, maxRows: rows.height)
            guard batch.count > 0 else { return seen }
            seen.note(batch)
            for r in 0..<batch.count { try body(rows.row(r), r >= batch.decoded) }
        }
    }

    /// The stored pixels (2^k·i, 2^k·j) of a started interlaced PNG, ⌈W/2^k⌉ × ⌈H/2^k⌉, read from
    /// the passes that hold them and no further (k = 0: the whole picture), and whether any of
    /// them is grey fill or translucent. Asks `stop` every `streamedRows` pass rows.
    static func adam7Picture(
        _ reader: PNGRowReader, reduction k: Int, until stop: () -> Bool
    ) throws(ImageDecodeError) -> (pixels: PixelBuffer, seen: PNGRowsSeen) {
        let stored = reader.info.storedSize
        let step = 1 << k
        let grid = try ImageDecoder.zeroedPixels(
            PixelSize(width: (stored.width + step - 1) >> k, height: (stored.height + step - 1) >> k), for: reader.info)
        let rows = PixelBuffer(width: stored.width, height: streamedRows)
        var seen = PNGRowsSeen()
        while true {
            if stop() { throw .stopped }
            let batch = try reader.read(into: rows.pixels, rowPixels: rows.rowPixels, maxRows: rows.height)
            // Each pass is finer than the one before: once one leaves the grid, so do the rest.
            guard batch.count > 0, batch.lies(onGridOf: step) else { break }
            seen.note(batch)
            let x0 = batch.x0 >> k, dx = batch.dx >> k
            for r in 0..<batch.count {
                let source = rows.row(r), target = grid.row((batch.y0 + (batch.firstRow + r) * batch.dy) >> k)
                for i in 0..<batch.width { target[x0 + i * dx] = source[i] }
            }
        }
        return (grid, seen)
    }
}
