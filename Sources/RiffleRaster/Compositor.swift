import RiffleGeometry

/// Which sampler implementation draws images.
public enum RasterPath: Sendable, Hashable {
    /// `ReferenceBilinear`: double precision per pixel; the truth every fast path must match.
    case reference
    /// `FastBilinear`: plain copies and fixed-point bilinear, split in row bands when a
    /// `parallel` runner is given.
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
        flatten(root, parent: .identity, clip: PixelBox(size: target.size), opacity: 1, into: &ops)
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

    private func flatten(_ layer: Layer, parent: ScaleTranslate, clip: PixelBox, opacity: Double, into ops: inout [DrawOperation]) {
        let transform = parent.concatenating(layer.transform)
        var clip = clip
        if let own = layer.clip { clip = clip.intersection(PixelBox(covering: transform.apply(own))) }
        let opacity = opacity * layer.opacity
        guard !clip.isEmpty, opacity > 0 else { return }
        switch layer.content {
        case .fill(let rect, let color)?:
            let box = clip.intersection(PixelBox(covering: transform.apply(rect)))
            if !box.isEmpty { ops.append(.fill(box, color, opacity)) }
        case .image(let image)?:
            let frame = transform.apply(Rect(origin: .zero, size: image.size))
            let pixels = image.level(forFrameWidth: frame.width)
            if pixels.width > 0, pixels.height > 0, !frame.size.isEmpty {
                let mapping = ImageMapping(source: pixels.size, onto: frame)
                // Crisp squares show a photo's real pixels; a reduced copy (a preview) scaled up
                // stays smooth, since its pixels are not the photo's.
                let filter = image.isFullResolution ? SamplingFilter.forScale(x: mapping.scaleX, y: mapping.scaleY) : .bilinear
                ops.append(.image(pixels, mapping, filter, image.isOpaque, opacity, clip))
            }
        case .text(let mask, let origin, let color)?:
            let at = transform.apply(origin)
            ops.append(.mask(mask, x: Int(at.x.rounded()), y: Int(at.y.rounded()), color, opacity, clip))
        case nil:
            break
        }
        for sub in layer.sublayers { flatten(sub, parent: transform, clip: clip, opacity: opacity, into: &ops) }
    }
}

/// One primitive of a flattened frame, in absolute destination pixels.
enum DrawOperation: @unchecked Sendable {
    case fill(PixelBox, Color, Double)
    case image(PixelBuffer, ImageMapping, SamplingFilter, Bool, Double, PixelBox)
    case mask(AlphaMask, x: Int, y: Int, Color, Double, PixelBox)
    /// An `.image` prepared once per frame for `FastBilinear`, then run band by band.
    case bilinear(BilinearPlan)

    /// The destination rows this operation may draw in (a superset: its clip's, for an image).
    var rows: Range<Int> {
        switch self {
        case .fill(let box, _, _): box.y0..<max(box.y0, box.y1)
        case .image(_, _, _, _, _, let clip): clip.y0..<max(clip.y0, clip.y1)
        case .mask(let mask, _, let y, _, _, let clip):
            max(y, clip.y0)..<max(max(y, clip.y0), min(y + mask.height, clip.y1))
        case .bilinear(let plan): plan.rows
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
                var band = clip
                band.y0 = max(band.y0, rows.lowerBound)
                band.y1 = min(band.y1, rows.upperBound)
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
        case .mask(let mask, let x, let y, let color, let opacity, let clip):
            SolidFill.fill(mask, atX: x, y: y, color: color, opacity: opacity, clip: clip, rows: rows, into: target)
        }
    }
}
