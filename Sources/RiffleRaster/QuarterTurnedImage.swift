import RiffleGeometry

/// An image drawn through whole quarter turns (`PixelTurn`), pixel-exact on both paths: it is
/// drawn exactly as it would be unturned (the same mapping, sampler and fast path) into a scratch
/// buffer holding the target's pixels turned back, and the scratch is then turned into place.
/// The result is, pixel for pixel, the quarter turn of the unturned draw over the unturned
/// background, so the fast path matches the reference here exactly as far as it does unturned.
///
/// The scratch covers the target pixels the image may touch, turned back; each band of target
/// rows uses its own part of it (parts of different bands never overlap), so bands run
/// concurrently as for any other draw.
struct QuarterTurnedImage: @unchecked Sendable {
    let pixels: PixelBuffer
    /// The unturned draw, in scratch pixels.
    let mapping: ImageMapping
    let filter: SamplingFilter
    let opaque: Bool
    let opacity: Double
    /// Scratch pixel (a, b) is target pixel `turn.pixel(a, b)`.
    let turn: PixelTurn
    /// The target pixels the image may touch: the scratch's turned extent.
    let box: PixelRect
    private let scratch: PixelBuffer

    /// `pixels` mapped by `mapping` into an unturned frame whose pixel u lands on target pixel
    /// `turn.pixel(u)`, limited to `clip` (unturned frame pixels); nil when it covers no pixel.
    init?(
        _ pixels: PixelBuffer, mapping: ImageMapping, filter: SamplingFilter, opaque: Bool, opacity: Double, clip: PixelRect,
        turn: PixelTurn
    ) {
        let frame = mapping.frame(of: pixels.size)
        let covered = clip.clipped(to: PixelRect(covering: frame))
        guard !covered.isEmpty, opacity > 0 else { return nil }
        self.pixels = pixels
        // The scratch's top-left is the covered box's: moving the frame by whole pixels keeps
        // every sample position (for whole-pixel and dyadic offsets, exactly).
        self.mapping = ImageMapping(
            scaleX: mapping.scaleX, scaleY: mapping.scaleY, offsetX: mapping.offsetX - Double(covered.x),
            offsetY: mapping.offsetY - Double(covered.y))
        self.filter = filter
        self.opaque = opaque
        self.opacity = opacity
        self.turn = turn.concatenating(PixelTurn(quarters: 0, dx: covered.x, dy: covered.y))
        box = turn.apply(covered)
        scratch = PixelBuffer(width: covered.width, height: covered.height)
    }

    /// Draws the part of the image in target rows `rows` with `path`.
    func draw(rows: Range<Int>, path: RasterPath, into target: PixelBuffer) {
        let band = box.limited(toRows: rows)
        guard !band.isEmpty else { return }
        let part = turn.inverse.apply(band)
        // An opaque image at full opacity overwrites every pixel it covers: nothing to read.
        if !(opaque && opacity >= 1) { copy(part, from: target) }
        switch path {
        case .reference:
            ReferenceBilinear.draw(pixels, mapping: mapping, filter: filter, opacity: opacity, clip: part, into: scratch)
        case .fast:
            FastBilinear.draw(
                pixels, mapping: mapping, filter: filter, opaque: opaque, opacity: opacity, clip: part, rows: part.rows,
                into: scratch)
        }
        copy(part, into: target)
    }

    /// Scratch pixels `part` from their turned places in `target`.
    private func copy(_ part: PixelRect, from target: PixelBuffer) {
        let (alongRow, alongColumn) = turn.steps(rowPixels: target.rowPixels)
        let first = turn.pixel(part.x, part.y)
        var start = first.y * target.rowPixels + first.x
        for b in part.rows {
            let row = scratch.row(b)
            var index = start
            for a in part.columns {
                row[a] = target.pixels[index]
                index += alongRow
            }
            start += alongColumn
        }
    }

    /// Scratch pixels `part` to their turned places in `target`.
    private func copy(_ part: PixelRect, into target: PixelBuffer) {
        let (alongRow, alongColumn) = turn.steps(rowPixels: target.rowPixels)
        let first = turn.pixel(part.x, part.y)
        var start = first.y * target.rowPixels + first.x
        for b in part.rows {
            let row = scratch.row(b)
            var index = start
            for a in part.columns {
                target.pixels[index] = row[a]
                index += alongRow
            }
            start += alongColumn
        }
    }
}
