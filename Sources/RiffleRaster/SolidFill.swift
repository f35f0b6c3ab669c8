import RiffleGeometry

/// Solid-colour drawing: rectangles and coverage masks, source-over.
enum SolidFill {
    /// Fills `box ∩ rows` with `color` scaled by `opacity`.
    static func fill(_ box: PixelRect, color: Color, opacity: Double, rows: Range<Int>, into target: PixelBuffer) {
        let a = UInt32(max(0, min(255, (opacity * 255).rounded())))
        let src = a == 255 ? color.packed : PixelBlend.scale(color.packed, by: a)
        let ys = box.rows.clamped(to: rows)
        guard !ys.isEmpty, box.maxX > box.x else { return }
        if src == 0 { return }  // transparent: changes nothing
        for y in ys {
            let row = target.row(y) + box.x
            if src >> 24 == 255 {
                row.update(repeating: src, count: box.width)
            } else {
                blend(src, over: row, count: box.width)
            }
        }
    }

    /// `PixelBlend.over(src, p)` for each of the `count` pixels p from `row`, eight at a time:
    /// src + scale(p, 255 − src.alpha) in 16-bit lanes (`PixelBlend.HalfLanes`), bit-exact with
    /// the pixel-by-pixel form, which does the rest. For a premultiplied `src` (each channel at
    /// most its alpha) no channel's sum passes 255, so adding the lanes adds the packed words.
    /// A translucent bar over a photo is a few hundred thousand such pixels a frame.
    static func blend(_ src: UInt32, over row: UnsafeMutablePointer<UInt32>, count: Int) {
        typealias HalfLanes = PixelBlend.HalfLanes
        let source = unsafeBitCast(PixelBlend.Lanes(repeating: src), to: HalfLanes.self)
        let inverse = HalfLanes(repeating: UInt16(255 - src >> 24))
        var i = 0
        while i + 8 <= count {
            let d = UnsafeRawPointer(row + i).loadUnaligned(as: HalfLanes.self)
            UnsafeMutableRawPointer(row + i).storeBytes(of: PixelBlend.scale(d, by: inverse) &+ source, as: HalfLanes.self)
            i += 8
        }
        while i < count {
            row[i] = PixelBlend.over(src, row[i])
            i += 1
        }
    }

    /// Blends `color` through `mask` (placed with its top-left at x, y) within `clip ∩ rows`:
    /// each pixel p becomes `PixelBlend.over(scale(color, k), p)` with k = ⌊c · a / 255⌋, c its
    /// coverage and a the opacity in 0...255. Eight pixels at a time (eight without coverage
    /// passed over at once), bit-exact with the pixel-by-pixel form, which does the rest: in
    /// the lanes ⌊x / 255⌋ is (x + ⌊x / 256⌋ + 1) / 256, exact for every x below 65535, and
    /// c · a is at most 65025. Text is tens of thousands of such pixels a frame with the bars.
    static func fill(
        _ mask: AlphaMask, atX x: Int, y: Int, color: Color, opacity: Double, clip: PixelRect, rows: Range<Int>,
        into target: PixelBuffer
    ) {
        typealias Lanes = PixelBlend.Lanes
        let a = UInt32(max(0, min(255, (opacity * 255).rounded())))
        let box = clip.clipped(to: PixelRect(minX: x, minY: y, maxX: x + mask.width, maxY: y + mask.height))
        let ys = box.rows.clamped(to: rows)
        guard !ys.isEmpty, box.maxX > box.x else { return }
        let colour = Lanes(repeating: color.packed), opacityLanes = Lanes(repeating: a)
        mask.coverage.withUnsafeBufferPointer { cov in
            let coverage = UnsafeRawPointer(cov.baseAddress!)
            for py in ys {
                let row = target.row(py)
                let maskRow = (py - y) * mask.width - x
                var px = box.x
                while px + Lanes.scalarCount <= box.maxX {
                    let bytes = coverage.loadUnaligned(fromByteOffset: maskRow + px, as: SIMD8<UInt8>.self)
                    if bytes != SIMD8<UInt8>() {
                        let ca = Lanes(truncatingIfNeeded: bytes) &* opacityLanes
                        let k = (ca &+ (ca &>> 8) &+ 1) &>> 8
                        let d = UnsafeRawPointer(row + px).loadUnaligned(as: Lanes.self)
                        UnsafeMutableRawPointer(row + px).storeBytes(
                            of: PixelBlend.over(PixelBlend.scale(colour, by: k), d), as: Lanes.self)
                    }
                    px += Lanes.scalarCount
                }
                while px < box.maxX {
                    let c = UInt32(cov[maskRow + px])
                    if c != 0 {
                        let k = c * a / 255
                        row[px] = PixelBlend.over(PixelBlend.scale(color.packed, by: k), row[px])
                    }
                    px += 1
                }
            }
        }
    }
}
