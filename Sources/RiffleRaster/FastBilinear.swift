import RiffleGeometry

/// The fast paths of the sampler, which must match `ReferenceBilinear` (see its pixel-centre
/// convention) within the raster tests' tolerance:
///
/// - an exact 1:1 mapping at whole-pixel offsets of an opaque source at full opacity is a plain
///   row copy;
/// - the same mapping of a translucent source, or at partial opacity (a grid cell fading in), is
///   a faded copy: each channel times the opacity in 16-bit fixed point (`PixelBlend.fade`, within
///   0.502 of exact), then source-over, eight pixels at a time (within 2 of the reference: 0.5
///   for the fade, 0.5 for its effect on the destination's weight, a rounding each);
/// - an exact 2× mapping at whole-pixel offsets of the same is `ExactDoubling`, blends of whole
///   bytes;
/// - everything else is separable SIMD bilinear (`BilinearPlan`): each source row a band needs
///   is interpolated horizontally once into a scratch row, and each destination row blends two
///   such rows vertically, four pixels per step in SSE2-sized vectors; nearest-neighbour
///   (`SamplingFilter.nearest`) runs the same code with every weight 0 or 1;
/// - an image turned by whole quarter turns takes whichever of these it would take unturned,
///   into a scratch buffer turned into place (`QuarterTurnedImage`): the quarter turn of the
///   unturned draw, pixel for pixel;
/// - an image turned between quarter turns (a photo while it turns) is `TurnedBilinear`,
///   integer-weighted taps found where the reference finds them.
enum FastBilinear {
    /// Draws `source` mapped by `mapping` into `target` within `clip`, rows `rows` only (so the
    /// caller can split the work in bands), source-over with `opacity`.
    ///
    /// A convenience for one band; the compositor prepares a `BilinearPlan` once per frame and
    /// runs it for every band.
    static func draw(
        _ source: PixelBuffer, mapping: ImageMapping, filter: SamplingFilter = .bilinear, opaque: Bool, opacity: Double,
        clip: PixelRect, rows band: Range<Int>, into target: PixelBuffer
    ) {
        BilinearPlan(source, mapping: mapping, filter: filter, opaque: opaque, opacity: opacity, clip: clip)?
            .draw(rows: band, into: target)
    }
}

/// One image draw prepared for the fast paths: everything that depends on the columns (source
/// positions, weights) is computed once, so every row band only runs the per-row work.
///
/// ## Fixed-point format
/// A channel travels through the sampler in a 16-bit lane as an 8.8 fixed-point number (value
/// · 256, at most 255 · 256 = 65280). A weight is a 16-bit fraction of 65536
/// (`weightScale`), and weighting is the SSE2 high multiply `mulhi(x, w) = (x · w) >> 16`, so:
///
///     horizontal  h = mulhi(a · 256, wx0) + mulhi(b · 256, wx1)       (8.8)
///     vertical    v = mulhi(hTop, wy0) + mulhi(hBottom, wy1)          (8.8)
///     output      (v + 128) >> 8
///
/// with wx0 + wx1 ≤ 65536 and wy0 + wy1 ≤ 65536 (so v ≤ 65280 never overflows). Each high
/// multiply truncates by less than 1/256 of a channel step and each weight is off its exact
/// value by at most 1/65536, so before the final rounding v is within 4/256 of the exact
/// bilinear value: the fast path is within 1 of the reference per channel, plus whatever the
/// source-over blend turns that into. The opacity is folded into the vertical weights
/// (wy0 + wy1 = opacity · 65536), so it costs nothing and is applied before the one rounding,
/// as the reference does.
///
/// Two channels share a 32-bit pixel's halves: a pixel B, G, R, A (bytes in memory) read as
/// two UInt16 lanes is G·256 + B and A·256 + R, so `lane << 8` is blue and red in 8.8 and
/// `lane & 0xFF00` is green and alpha in 8.8; four pixels fill two `SIMD8<UInt16>` vectors.
struct BilinearPlan: @unchecked Sendable {
    /// Four pixels in a pair of 8 × 16-bit vectors: blue/red and green/alpha, 8.8 each.
    typealias Lanes = SIMD8<UInt16>
    /// Destination pixels handled per vector step (four 32-bit pixels fill 128 bits).
    static let groupWidth = 4
    /// A weight of 1 in the 16-bit weight fractions.
    static let weightScale = 65536.0
    /// The largest weight a 16-bit lane holds (one step short of 1).
    static let maxWeight = 65535.0
    /// Half a channel step in 8.8, added before truncating to 8 bits to round to nearest.
    static let roundingHalf: UInt16 = 0x80
    /// Alpha of a fully opaque pixel, the top byte of a packed pixel.
    static let opaqueAlpha: UInt32 = 255
    /// Vertical scale from which source rows are interpolated horizontally once into scratch
    /// rows and shared by the destination rows that need them (`drawSeparable`). Below it a
    /// source row serves fewer than about two destination rows, and interpolating the four taps
    /// of each destination pixel directly (`drawDirect`) does less work: no scratch round trip,
    /// one column table lookup for both rows. (Measured with riffle-bench: at fit, 0.27, the
    /// direct path halves the separable one's time; at 2× the separable path wins by 2×.)
    static let separableMinimumScale = 1.0

    /// The source, widened to two identical columns when it is one pixel wide so that every
    /// horizontal tap pair (x, x + 1) can be read.
    let source: PixelBuffer
    let mapping: ImageMapping
    /// Destination columns drawn.
    let cols: Range<Int>
    /// Destination rows drawn (before any band restriction).
    let rows: Range<Int>
    /// How the pixels are produced.
    let method: Method
    /// False when the result is opaque (opaque source at full opacity) and simply stored.
    let blends: Bool
    /// Opacity folded into the vertical weights: 0...1.
    let opacity: Double
    /// How the weights follow the fractions.
    let filter: SamplingFilter

    enum Method {
        /// A plain copy: source pixel (x, y) lands at (x + dx, y + dy).
        case copy(dx: Int, dy: Int)
        /// The same placement, each source pixel faded by `weight`/65536 and blended over.
        case fadedCopy(dx: Int, dy: Int, weight: UInt32)
        /// Exactly 2× with the source's corner at a whole pixel.
        case doubling(ExactDoubling)
        /// Bilinear with the tap pairs and weights of every destination column.
        case bilinear(ColumnTaps)
    }

    /// Prepares drawing `source` mapped by `mapping` into `clip`, source-over with `opacity`;
    /// nil when nothing would be drawn.
    init?(
        _ source: PixelBuffer, mapping: ImageMapping, filter: SamplingFilter = .bilinear, opaque: Bool, opacity: Double,
        clip: PixelRect
    ) {
        let frame = mapping.frame(of: source.size)
        let cols = coveredPixels(lower: frame.minX, upper: frame.maxX, clipLower: clip.x, clipUpper: clip.maxX)
        let rows = coveredPixels(lower: frame.minY, upper: frame.maxY, clipLower: clip.y, clipUpper: clip.maxY)
        guard !cols.isEmpty, !rows.isEmpty, source.width > 0, source.height > 0, opacity > 0 else { return nil }
        self.mapping = mapping
        self.opacity = min(1, opacity)
        self.filter = filter
        blends = !(opaque && opacity >= 1)
        if mapping.isIntegerTranslation(for: source.size), !blends {
            // Within the copy tolerance the frame's edges may sit a hair off whole pixels:
            // copy exactly the source's pixels.
            let dx = Int(mapping.offsetX.rounded()), dy = Int(mapping.offsetY.rounded())
            method = .copy(dx: dx, dy: dy)
            self.cols = cols.clamped(to: dx..<(dx + source.width))
            self.rows = rows.clamped(to: dy..<(dy + source.height))
            self.source = source
        } else if mapping.isIntegerTranslation(for: source.size) {
            // Both filters sample each source pixel exactly at 1:1.
            let dx = Int(mapping.offsetX.rounded()), dy = Int(mapping.offsetY.rounded())
            method = .fadedCopy(dx: dx, dy: dy, weight: UInt32((min(1, opacity) * Self.weightScale).rounded()))
            self.cols = cols.clamped(to: dx..<(dx + source.width))
            self.rows = rows.clamped(to: dy..<(dy + source.height))
            self.source = source
        } else if mapping.isWholePixelScaling(by: 2, for: source.size), !blends {
            let dx = Int(mapping.offsetX.rounded()), dy = Int(mapping.offsetY.rounded())
            self.cols = cols.clamped(to: dx..<(dx + 2 * source.width))
            self.rows = rows.clamped(to: dy..<(dy + 2 * source.height))
            self.source = source
            method = .doubling(ExactDoubling(source: source, dx: dx, dy: dy, cols: self.cols))
        } else {
            self.cols = cols
            self.rows = rows
            self.source = source.width == 1 ? Self.widened(source) : source
            method = .bilinear(
                ColumnTaps(
                    cols: cols, scale: mapping.scaleX, offset: mapping.offsetX, sourceWidth: self.source.width,
                    filter: filter))
        }
    }

    /// The 16-bit weights of the two taps for a blend `fraction` of the way from the first to
    /// the second, scaled by `gain` (0...1): w0 + w1 = gain · 65536 before clamping each to
    /// `maxWeight`, so a sum never exceeds 65536.
    static func weights(fraction: Double, gain: Double) -> (UInt16, UInt16) {
        let total = (gain * weightScale).rounded()
        let w1 = (fraction * total).rounded()
        return (UInt16(min(maxWeight, total - w1)), UInt16(min(maxWeight, w1)))
    }

    /// `count` pixels from `source`, faded by `weight`/65536, blended over those from `target`.
    private static func blendFaded(
        _ source: UnsafeMutablePointer<UInt32>, weight: UInt32, over target: UnsafeMutablePointer<UInt32>, count: Int
    ) {
        typealias Lanes = PixelBlend.Lanes
        var i = 0
        while i + Lanes.scalarCount <= count {
            let s = PixelBlend.fade(UnsafeRawPointer(source + i).loadUnaligned(as: Lanes.self), by: weight)
            let d = UnsafeRawPointer(target + i).loadUnaligned(as: Lanes.self)
            UnsafeMutableRawPointer(target + i).storeBytes(of: PixelBlend.over(s, d), as: Lanes.self)
            i += Lanes.scalarCount
        }
        while i < count {
            let s = PixelBlend.fade(Lanes(repeating: source[i]), by: weight)
            target[i] = PixelBlend.over(s, Lanes(repeating: target[i]))[0]
            i += 1
        }
    }

    /// A two-column copy of a one-pixel-wide `source`.
    private static func widened(_ source: PixelBuffer) -> PixelBuffer {
        let out = PixelBuffer(width: 2, height: source.height)
        for y in 0..<source.height {
            let p = source[0, y]
            out[0, y] = p
            out[1, y] = p
        }
        return out
    }

    /// Draws the rows of this plan that fall in `band` into `target`.
    func draw(rows band: Range<Int>, into target: PixelBuffer) {
        let rows = self.rows.clamped(to: band)
        guard !rows.isEmpty else { return }
        switch method {
        case .copy(let dx, let dy):
            for j in rows {
                (target.row(j) + cols.lowerBound).update(from: source.row(j - dy) + (cols.lowerBound - dx), count: cols.count)
            }
        case .fadedCopy(let dx, let dy, let weight):
            for j in rows {
                Self.blendFaded(
                    source.row(j - dy) + (cols.lowerBound - dx), weight: weight, over: target.row(j) + cols.lowerBound,
                    count: cols.count)
            }
        case .doubling(let doubling):
            doubling.draw(rows: rows, into: target)
        case .bilinear(let columns) where mapping.scaleY < Self.separableMinimumScale:
            drawDirect(rows: rows, columns: columns, into: target)
        case .bilinear(let columns):
            drawSeparable(rows: rows, columns: columns, into: target)
        }
    }

    /// The two source rows destination row `j` blends and their weights (opacity included);
    /// `y1 == y0` when the second row has no weight or is clamped onto the first.
    private func rowTaps(_ j: Int) -> (y0: Int, y1: Int, w0: UInt16, w1: UInt16) {
        let sy = (Double(j) + 0.5 - mapping.offsetY) / mapping.scaleY - 0.5
        let y0f = sy.rounded(.down)
        let last = source.height - 1
        let y0 = min(max(Int(y0f), 0), last), y1 = min(max(Int(y0f) + 1, 0), last)
        let (w0, w1) = Self.weights(fraction: filter.secondWeight(sy - y0f), gain: opacity)
        return (y0, w1 == 0 ? y0 : y1, w0, w1)
    }

    /// Every destination pixel from its four taps: both source rows interpolated at the pixel's
    /// column, then blended vertically.
    private func drawDirect(rows: Range<Int>, columns: ColumnTaps, into target: PixelBuffer) {
        for j in rows {
            let (y0, y1, w0, w1) = rowTaps(j)
            let top = UnsafeRawPointer(source.row(y0)), bottom = UnsafeRawPointer(source.row(y1))
            let wTop = Lanes(repeating: w0), wBottom = Lanes(repeating: w1)
            writeRow(into: target.row(j) + cols.lowerBound) { g in
                let t = columns.interpolate(top, group: g), b = columns.interpolate(bottom, group: g)
                return Self.pack(
                    rb: mulhi(t.rb, wTop) &+ mulhi(b.rb, wBottom), ag: mulhi(t.ag, wTop) &+ mulhi(b.ag, wBottom))
            }
        }
    }

    /// Each source row the band needs interpolated horizontally once into a scratch row, and
    /// every destination row blended from two scratch rows.
    private func drawSeparable(rows: Range<Int>, columns: ColumnTaps, into target: PixelBuffer) {
        let groups = columns.groups
        // Two scratch rows (blue/red and green/alpha `Lanes` per group), per band and per draw
        // so concurrent bands never share one; `held` says which source row each one holds.
        let scratch = UnsafeMutablePointer<Lanes>.allocate(capacity: 2 * 2 * groups)
        defer { scratch.deallocate() }
        let slots = (scratch, scratch + 2 * groups)
        var held = (-1, -1)
        /// The slot (0 or 1) holding source row `y` interpolated, filling slot `spare` if needed.
        func interpolated(_ y: Int, spare: Int) -> Int {
            if held.0 == y { return 0 }
            if held.1 == y { return 1 }
            let out = spare == 0 ? slots.0 : slots.1
            let row = UnsafeRawPointer(source.row(y))
            for g in 0..<groups {
                let h = columns.interpolate(row, group: g)
                out[2 * g] = h.rb
                out[2 * g + 1] = h.ag
            }
            if spare == 0 { held.0 = y } else { held.1 = y }
            return spare
        }
        for j in rows {
            let (y0, y1, w0, w1) = rowTaps(j)
            let topSlot = interpolated(y0, spare: held.0 == y1 ? 1 : 0)
            let bottomSlot = y1 == y0 ? topSlot : interpolated(y1, spare: 1 - topSlot)
            let top = topSlot == 0 ? slots.0 : slots.1, bottom = bottomSlot == 0 ? slots.0 : slots.1
            let wTop = Lanes(repeating: w0), wBottom = Lanes(repeating: w1)
            writeRow(into: target.row(j) + cols.lowerBound) { g in
                Self.pack(
                    rb: mulhi(top[2 * g], wTop) &+ mulhi(bottom[2 * g], wBottom),
                    ag: mulhi(top[2 * g + 1], wTop) &+ mulhi(bottom[2 * g + 1], wBottom))
            }
        }
    }

    /// Writes the `cols.count` pixels starting at `out`, group `g` being `shade(g)`, stored or
    /// composited over what is there; a last partial group touches only its own pixels.
    @inline(__always)
    private func writeRow(into out: UnsafeMutablePointer<UInt32>, _ shade: (Int) -> SIMD4<UInt32>) {
        let raw = UnsafeMutableRawPointer(out)
        let vectorBytes = MemoryLayout<SIMD4<UInt32>>.size
        let whole = cols.count / Self.groupWidth
        if blends {
            for g in 0..<whole {
                let under = raw.loadUnaligned(fromByteOffset: g &* vectorBytes, as: SIMD4<UInt32>.self)
                raw.storeBytes(of: Self.over(shade(g), under), toByteOffset: g &* vectorBytes, as: SIMD4<UInt32>.self)
            }
        } else {
            for g in 0..<whole {
                raw.storeBytes(of: shade(g), toByteOffset: g &* vectorBytes, as: SIMD4<UInt32>.self)
            }
        }
        let tail = cols.count - whole * Self.groupWidth
        if tail > 0 {
            let first = whole * Self.groupWidth
            var p = shade(whole)
            if blends {
                var under = SIMD4<UInt32>.zero
                for k in 0..<tail { under[k] = out[first + k] }
                p = Self.over(p, under)
            }
            for k in 0..<tail { out[first + k] = p[k] }
        }
    }

    /// Four pixels from their blue/red and green/alpha 8.8 lanes, each channel rounded to 8 bits.
    @inline(__always)
    static func pack(rb: Lanes, ag: Lanes) -> SIMD4<UInt32> {
        unsafeBitCast(((rb &+ roundingHalf) &>> 8) | ((ag &+ roundingHalf) & 0xFF00), to: SIMD4<UInt32>.self)
    }

    /// Source-over of premultiplied pixels, four at a time: src + dst · (255 − src.alpha)/255
    /// per channel, rounded exactly as `PixelBlend.over` (so the result never carries into the
    /// next channel).
    @inline(__always)
    static func over(_ src: SIMD4<UInt32>, _ dst: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let inverse = opaqueAlpha &- (src &>> 24)
        let factor = unsafeBitCast(inverse | (inverse &<< 16), to: Lanes.self)
        let d = unsafeBitCast(dst, to: Lanes.self)
        // (x · a + 128 + ((x · a + 128) >> 8)) >> 8 is the exact rounded x · a / 255.
        var rb = (d & 0x00FF) &* factor &+ roundingHalf
        rb = (rb &+ (rb &>> 8)) &>> 8
        var ag = (d &>> 8) &* factor &+ roundingHalf
        ag = (ag &+ (ag &>> 8)) & 0xFF00
        return src &+ unsafeBitCast(rb | ag, to: SIMD4<UInt32>.self)
    }
}

/// For every destination column of a draw, in groups of `BilinearPlan.groupWidth`: the byte
/// offset in a source row of its tap pair (two adjacent pixels) and the 16-bit weights of the
/// pair's left and right pixel. Immutable once built, so bands share it.
final class ColumnTaps: @unchecked Sendable {
    typealias Lanes = BilinearPlan.Lanes
    /// Groups of four columns; the last one is padded by repeating the last column, whose
    /// extra results are never stored.
    let groups: Int
    private let offsets: UnsafeMutablePointer<Int>
    /// Per group: the left and right weights, each repeated in the two lanes of its pixel.
    private let weights: UnsafeMutablePointer<Lanes>

    /// Taps of destination columns `cols` for `offset + scale · x` mapping of a source
    /// `sourceWidth` (≥ 2) pixels wide, weighted by `filter`.
    init(cols: Range<Int>, scale: Double, offset: Double, sourceWidth: Int, filter: SamplingFilter) {
        let width = BilinearPlan.groupWidth
        groups = (cols.count + width - 1) / width
        offsets = .allocate(capacity: groups * width)
        weights = .allocate(capacity: 2 * groups)
        weights.initialize(repeating: .zero, count: 2 * groups)
        let lastPair = sourceWidth - 2
        for k in 0..<groups * width {
            let i = cols.lowerBound + min(k, cols.count - 1)
            let sx = (Double(i) + 0.5 - offset) / scale - 0.5
            let x0f = sx.rounded(.down)
            var x0 = Int(x0f)
            var fraction = filter.secondWeight(sx - x0f)
            // Past an edge both taps are the edge pixel: read the edge pair, all weight on it.
            if x0 < 0 {
                x0 = 0
                fraction = 0
            } else if x0 > lastPair {
                x0 = lastPair
                fraction = 1
            }
            (offsets + k).initialize(to: x0 * MemoryLayout<UInt32>.stride)
            let (w0, w1) = BilinearPlan.weights(fraction: fraction, gain: 1)
            let g = k / width, lane = 2 * (k % width)
            weights[2 * g][lane] = w0
            weights[2 * g][lane + 1] = w0
            weights[2 * g + 1][lane] = w1
            weights[2 * g + 1][lane + 1] = w1
        }
    }

    deinit {
        offsets.deallocate()
        weights.deallocate()
    }

    /// Source `row` interpolated horizontally at the four columns of group `g`, 8.8:
    /// h = mulhi(left · 256, w0) + mulhi(right · 256, w1) per channel.
    @inline(__always)
    func interpolate(_ row: UnsafeRawPointer, group g: Int) -> (rb: Lanes, ag: Lanes) {
        let k = g &* BilinearPlan.groupWidth
        // Each tap pair is two adjacent pixels: one 64-bit load, split into the left pixels
        // (even 32-bit lanes) and the right ones (odd lanes).
        let pairs = SIMD4<UInt64>(
            row.loadUnaligned(fromByteOffset: offsets[k], as: UInt64.self),
            row.loadUnaligned(fromByteOffset: offsets[k &+ 1], as: UInt64.self),
            row.loadUnaligned(fromByteOffset: offsets[k &+ 2], as: UInt64.self),
            row.loadUnaligned(fromByteOffset: offsets[k &+ 3], as: UInt64.self))
        let pixels = unsafeBitCast(pairs, to: SIMD8<UInt32>.self)
        let a = unsafeBitCast(pixels.evenHalf, to: Lanes.self)
        let b = unsafeBitCast(pixels.oddHalf, to: Lanes.self)
        let w0 = weights[2 &* g], w1 = weights[2 &* g &+ 1]
        return (mulhi(a &<< 8, w0) &+ mulhi(b &<< 8, w1), mulhi(a & 0xFF00, w0) &+ mulhi(b & 0xFF00, w1))
    }
}

/// The high half of each lane's 32-bit product, (a · b) >> 16: one SSE2 `pmulhuw`.
@inline(__always)
func mulhi(_ a: SIMD8<UInt16>, _ b: SIMD8<UInt16>) -> SIMD8<UInt16> {
    var r = SIMD8<UInt16>()
    for i in 0..<8 { r[i] = UInt16(truncatingIfNeeded: (UInt32(a[i]) &* UInt32(b[i])) &>> 16) }
    return r
}
