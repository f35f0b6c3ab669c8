import RiffleGeometry

/// Which sampler implementation draws images.
public enum RasterPath: Sendable, Hashable {
    /// `ReferenceBilinear`: double precision per pixel; the truth every fast path must match.
    case reference
    /// `FastBilinear` (plain copies and fixed-point bilinear) and `TurnedBilinear`, split in row
    /// bands when a `parallel` runner is given.
    case fast
}

/// Draws a layer tree into a pixel buffer.
///
/// The tree is first flattened into a list of draw operations with absolute mappings and pixel
/// clips; the list is then executed in horizontal bands, each band running every operation in
/// order restricted to its rows, so bands are independent and can run on different cores.
public struct Compositor: Sendable {
    /// Runs `count` jobs `job(0) ..< job(count)`, possibly concurrently, returning when all are
    /// done. Injected by the app (Dispatch) so this floor owns no threads.
    public typealias ParallelRunner = @Sendable (_ count: Int, _ job: @Sendable (Int) -> Void) -> Void

    public var path: RasterPath
    public var parallel: ParallelRunner?
    /// How many workers share a frame when `parallel` is set (normally the core count); the
    /// frame is cut into `bandsPerWorker` times as many row bands.
    public var bands: Int

    /// Row bands per worker: a core that loses time to another process (or a band that costs
    /// more, such as the one holding the chrome) leaves its share to the others instead of
    /// holding up the frame. An upscaling band re-interpolates at most two source rows its
    /// neighbour also needs: at 2× into 1080 rows, 8 bands add about 1 % to the work.
    static let bandsPerWorker = 4
    /// The thinnest band worth scheduling, in rows, so small buffers are not cut to slivers.
    static let minimumBandRows = 16

    public init(path: RasterPath = .fast, parallel: ParallelRunner? = nil, bands: Int = 1) {
        self.path = path
        self.parallel = parallel
        self.bands = max(1, bands)
    }

    /// Draws `root` over the current contents of `target`.
    public func render(_ root: Layer, into target: PixelBuffer) {
        var ops: [DrawOperation] = []
        flatten(root, frame: .aligned(.identity, .identity), clip: PixelRect(size: target.size), opacity: 1, into: &ops)
        if path == .fast { ops = ops.compactMap { $0.preparedForFastPath() } }
        let height = target.height
        let n = min(bands * Self.bandsPerWorker, height / Self.minimumBandRows)
        if let parallel, bands > 1, path == .fast, n > 1 {
            let ops = ops, spans = ops.map(\.rows)
            parallel(n) { band in
                let rows = (height * band / n)..<(height * (band + 1) / n)
                // An operation outside the band is passed over without touching it (copying
                // one retains its pixels): the strip's many small cells lie in one band.
                for i in ops.indices where spans[i].overlaps(rows) { ops[i].execute(rows: rows, path: .fast, into: target) }
            }
        } else {
            for op in ops { op.execute(rows: 0..<height, path: path, into: target) }
        }
    }

    /// Where a layer's coordinates land in the target while the tree is flattened.
    private enum Frame {
        /// Turned by whole quarter turns, if at all: the layer's coordinates go through the
        /// scale-translate into an unturned frame of pixels, which the pixel turn lays onto the
        /// target's pixels.
        case aligned(ScaleTranslate, PixelTurn)
        /// Turned by an angle between quarter turns: straight into the target (equal scales).
        case turned(TurnedMapping)

        /// The frame of a sublayer placed by `transform` and turned by `rotation` in this one.
        /// A whole turn turns the pixel grid about the pixel corner nearest the sublayer's
        /// origin (exactly its origin when that lies on a corner); what is left of the offset
        /// is kept, turned back, in the new frame.
        func sublayer(_ transform: ScaleTranslate, rotation: Rotation) -> Frame {
            switch self {
            case let .aligned(parent, turn):
                let placed = parent.concatenating(transform)
                guard let quarters = rotation.wholeQuarters else {
                    let origin = turn.apply(placed.offset)
                    let total = Rotation(quarterTurns: Double(turn.quarters) + rotation.quarterTurns)
                    return .turned(TurnedMapping(scaleX: placed.scale, scaleY: placed.scale, rotation: total, offset: origin))
                }
                if quarters == 0 { return .aligned(placed, turn) }
                let pivot = Point(x: placed.offset.x.rounded(), y: placed.offset.y.rounded())
                let pixelTurn = PixelTurn(quarters: quarters, dx: Int(pivot.x), dy: Int(pivot.y))
                let rest = Rotation(quarterTurns: Double(quarters)).inverse.apply(placed.offset - pivot)
                return .aligned(ScaleTranslate(scale: placed.scale, offset: rest), turn.concatenating(pixelTurn))
            case let .turned(mapping):
                return .turned(TurnedMapping(
                    scaleX: mapping.scaleX * transform.scale, scaleY: mapping.scaleY * transform.scale,
                    rotation: Rotation(quarterTurns: mapping.rotation.quarterTurns + rotation.quarterTurns),
                    offset: mapping.apply(transform.offset)))
            }
        }

        /// The target pixels whose centres lie in `rect` (layer coordinates); for a turn between
        /// quarter turns, in the box around the turned rectangle.
        func box(of rect: Rect) -> PixelRect {
            switch self {
            case let .aligned(placement, turn):
                PixelRect(covering: turn.apply(placement.apply(rect)))
            case let .turned(mapping):
                PixelRect(covering: mapping.bounds(of: rect))
            }
        }
    }

    private func flatten(_ layer: Layer, frame parent: Frame, clip: PixelRect, opacity: Double, into ops: inout [DrawOperation]) {
        let frame = parent.sublayer(layer.transform, rotation: layer.rotation)
        var clip = clip
        if let own = layer.clip { clip = clip.clipped(to: frame.box(of: own)) }
        let opacity = opacity * layer.opacity
        guard !clip.isEmpty, opacity > 0 else { return }
        switch (layer.content, frame) {
        case let (.fill(rect, color)?, .aligned):
            let box = clip.clipped(to: frame.box(of: rect))
            if !box.isEmpty { ops.append(.fill(box, color, opacity)) }
        case let (.image(image)?, .aligned(placement, turn)):
            let frameRect = placement.apply(Rect(origin: .zero, size: image.size))
            let pixels = image.level(forFrameWidth: frameRect.width)
            if pixels.width > 0, pixels.height > 0, !frameRect.size.isEmpty {
                let mapping = ImageMapping(source: pixels.size, onto: frameRect)
                // Crisp squares show a photo's real pixels; a reduced copy (a preview) scaled up
                // stays smooth, since its pixels are not the photo's.
                let filter = image.isFullResolution ? SamplingFilter.forScale(x: mapping.scaleX, y: mapping.scaleY) : .bilinear
                if turn.isIdentity {
                    ops.append(.image(pixels, mapping, filter, image.isOpaque, opacity, clip))
                } else if let turned = QuarterTurnedImage(
                    pixels, mapping: mapping, filter: filter, opaque: image.isOpaque, opacity: opacity, clip: turn.inverse.apply(clip),
                    turn: turn) {
                    ops.append(.quarterTurned(turned))
                }
            }
        case let (.image(image)?, .turned(placement)):
            let pixels = image.level(forFrameWidth: placement.scaleX * image.size.width)
            if pixels.width > 0, pixels.height > 0, !image.size.isEmpty {
                let mapping = TurnedMapping(
                    scaleX: placement.scaleX * image.size.width / Double(pixels.width),
                    scaleY: placement.scaleY * image.size.height / Double(pixels.height),
                    rotation: placement.rotation, offset: placement.offset)
                let filter = image.isFullResolution ? SamplingFilter.forScale(x: mapping.scaleX, y: mapping.scaleY) : .bilinear
                ops.append(.turned(pixels, mapping, filter, image.isOpaque, opacity, clip))
            }
        case let (.text(mask, origin, color)?, .aligned(placement, turn)) where turn.isIdentity:
            let at = placement.apply(origin)
            ops.append(.mask(mask, x: Int(at.x.rounded()), y: Int(at.y.rounded()), color, opacity, clip))
        case (.fill?, .turned), (.text?, _), (nil, _):
            // Fills under a turn between quarter turns and text under any turn: not drawn (see
            // `Layer.rotation`).
            break
        }
        for sub in layer.sublayers { flatten(sub, frame: frame, clip: clip, opacity: opacity, into: &ops) }
    }
}

/// One primitive of a flattened frame, in absolute destination pixels.
enum DrawOperation: @unchecked Sendable {
    case fill(PixelRect, Color, Double)
    case image(PixelBuffer, ImageMapping, SamplingFilter, Bool, Double, PixelRect)
    case mask(AlphaMask, x: Int, y: Int, Color, Double, PixelRect)
    /// An `.image` prepared once per frame for `FastBilinear`, then run band by band.
    case bilinear(BilinearPlan)
    /// An image turned by whole quarter turns, drawn exactly as unturned and turned into place.
    case quarterTurned(QuarterTurnedImage)
    /// An image turned by an angle between quarter turns (`TurnedBilinear`, its reference).
    case turned(PixelBuffer, TurnedMapping, SamplingFilter, Bool, Double, PixelRect)

    /// The destination rows this operation may draw in (a superset: its clip's, for an image).
    var rows: Range<Int> {
        switch self {
        case .fill(let box, _, _): box.rows
        case .image(_, _, _, _, _, let clip): clip.rows
        case .mask(let mask, _, let y, _, _, let clip):
            max(y, clip.y)..<max(max(y, clip.y), min(y + mask.height, clip.maxY))
        case .bilinear(let plan): plan.rows
        case .quarterTurned(let image): image.box.rows
        case .turned(_, _, _, _, _, let clip): clip.rows
        }
    }

    /// This operation with any image turned into a `BilinearPlan`; nil when it draws nothing.
    func preparedForFastPath() -> DrawOperation? {
        guard case .image(let pixels, let mapping, let filter, let opaque, let opacity, let clip) = self else { return self }
        return BilinearPlan(pixels, mapping: mapping, filter: filter, opaque: opaque, opacity: opacity, clip: clip)
            .map { .bilinear($0) }
    }

    func execute(rows: Range<Int>, path: RasterPath, into target: PixelBuffer) {
        switch self {
        case .fill(let box, let color, let opacity):
            SolidFill.fill(box, color: color, opacity: opacity, rows: rows, into: target)
        case .image(let pixels, let mapping, let filter, let opaque, let opacity, let clip):
            switch path {
            case .reference:
                let band = clip.limited(toRows: rows)
                if !band.isEmpty {
                    ReferenceBilinear.draw(pixels, mapping: mapping, filter: filter, opacity: opacity, clip: band, into: target)
                }
            case .fast:
                FastBilinear.draw(
                    pixels, mapping: mapping, filter: filter, opaque: opaque, opacity: opacity, clip: clip, rows: rows,
                    into: target)
            }
        case .bilinear(let plan):
            plan.draw(rows: rows, into: target)
        case .quarterTurned(let image):
            image.draw(rows: rows, path: path, into: target)
        case .turned(let pixels, let mapping, let filter, let opaque, let opacity, let clip):
            switch path {
            case .reference:
                let band = clip.limited(toRows: rows)
                if !band.isEmpty {
                    ReferenceBilinear.drawTurned(pixels, mapping: mapping, filter: filter, opacity: opacity, clip: band, into: target)
                }
            case .fast:
                TurnedBilinear.draw(
                    pixels, mapping: mapping, filter: filter, opaque: opaque, opacity: opacity, clip: clip, rows: rows, into: target)
            }
        case .mask(let mask, let x, let y, let color, let opacity, let clip):
            SolidFill.fill(mask, atX: x, y: y, color: color, opacity: opacity, clip: clip, rows: rows, into: target)
        }
    }
}
