import RiffleGeometry
import RiffleImageIO
import RiffleRaster

/// Pixels of a photo as decoded for showing: `pixels` stand for the upright full-resolution
/// `fullSize` (the compositor stretches them over it).
public struct DecodedPhoto: Sendable {
    public let pixels: PixelBuffer
    public let fullSize: PixelSize
    public let isOpaque: Bool
    /// `pixels` box-halved down to the shown size, for a photo decoded sharper than shown (a
    /// zoom): the compositor samples these when the photo is zoomed back out.
    public let smaller: [PixelBuffer]
    /// A quick, coarse look shown while the real decode runs: the EXIF thumbnail, or a
    /// 1/8-scale decode.
    public let isPreview: Bool
    /// For a photo too large to decode whole at full resolution (above
    /// `TilePyramid.tilingThresholdPixels`, and not progressive, interlaced or translucent): the
    /// pyramid its zoomed-in views are cut from.
    public let pyramid: TilePyramid?
    /// What the decoder recovered from (a truncated or corrupt file); nil for a clean decode.
    public var damage: ImageDamage? = nil

    /// The words of the badge this photo wears; nil for a clean one.
    public var damageText: String? { damage.map(Self.badgeText) }

    /// The words of the badge a photo with `damage` wears, e.g. "Incomplete file: the bottom 40%
    /// is missing".
    public static func badgeText(for damage: ImageDamage) -> String {
        switch damage {
        case .damagedData:
            return "Damaged file: parts of the picture may be wrong"
        case .truncated(let missing?):
            let side = switch missing.side { case .top: "top"; case .bottom: "bottom"; case .left: "left"; case .right: "right" }
            // Never "0%" for a file that did lose data, nor "100%" for one that showed some.
            let percent = min(max(Int((missing.share * 100).rounded()), 1), 99)
            return "Incomplete file: the \(side) \(percent)% is missing"
        case .truncated(nil):
            return "Incomplete file: parts of the picture are missing"
        }
    }
}

/// What a decode worker hands back: a photo's pixels (or why not), or the tiles asked for.
public enum DecodeOutput: Sendable {
    case photo(PhotoContent)
    case tiles(Result<[TilePixels], ImageDecodeError>)
    /// A preview not made: a thumbnail-only preview of a file without one, or a photo without
    /// an EXIF thumbnail so large that it is shown at 1/8 or less, whose real decode is already
    /// at libjpeg's cheapest scale (two such decodes of one file in parallel would only slow
    /// the first view down).
    case redundantPreview
    /// Given up part-way: the photo stopped being wanted while it decoded.
    case cancelled
    /// The photo's tile source is open (or why it could not be).
    case tilesOpened(Result<Void, ImageDecodeError>)
}

/// What the viewer holds for one photo.
public enum PhotoContent: Sendable {
    /// Decoded pixels, a preview or the real thing.
    case image(DecodedPhoto)
    /// The file could not be shown; `reason` says why in words for a person.
    case failure(reason: String)
}

/// Decodes one photo for a window size: the header first (cheap), then the pixels at no less
/// than twice the size the photo is shown at (fitted, times the zoom's `detail`), never at full
/// size when less will do, and finally Lanczos-3 resampled down to exactly that size, so that a
/// photo at fit is composited 1:1, as sharp as its full resolution allows, and the cache holds
/// no pixel nobody sees.
public enum PhotoDecoding {
    /// Largest number of pixels Riffle decodes into one buffer (24 MP · 4 B ≈ 96 MiB; 64 MP is
    /// 256 MiB). A JPEG larger than that at the size asked for is decoded DCT-scaled (or refused
    /// with a message if even 1/8 is larger), a PNG is streamed into a smaller picture.
    public static let pixelLimit = 64_000_000

    /// A preview without an EXIF thumbnail is decoded at this fraction of the shown size:
    /// libjpeg's smallest DCT scale (1/8) is the cheap one, and scaled up it reads as a soft
    /// version of the photo.
    public static let previewFraction = 1.0 / 8

    /// The pixel size a photo of `fullSize` occupies when fitted in `viewport`, rounded up
    /// (at least 1×1).
    public static func shownSize(of fullSize: PixelSize, in viewport: PixelSize) -> PixelSize {
        let s = AspectFit.scale(content: Size(fullSize), viewport: Size(viewport))
        return PixelSize(
            width: max(1, Int((Double(fullSize.width) * s).rounded(.up))),
            height: max(1, Int((Double(fullSize.height) * s).rounded(.up))))
    }

    /// The size to decode `fullSize` at: shown size × `factor`, within 1×1 and the full size.
    static func target(for fullSize: PixelSize, in viewport: PixelSize, factor: Double) -> PixelSize {
        let shown = shownSize(of: fullSize, in: viewport)
        return PixelSize(
            width: min(fullSize.width, max(1, Int((Double(shown.width) * factor).rounded(.up)))),
            height: min(fullSize.height, max(1, Int((Double(shown.height) * factor).rounded(.up)))))
    }

    /// Carries out `request`: the tiles it names, or the whole photo, giving a photo up part-way
    /// once `cancellation` is raised.
    @Sendable public static func perform(_ request: DecodeRequest, cancellation: DecodeCancellation = DecodeCancellation()) -> DecodeOutput {
        if request.isPreview, let quick = quickPreview(request) { return quick }
        if request.opensTiles {
            let opened = Result { () throws(ImageDecodeError) in
                _ = try TileSources.shared.decoder(forPath: request.path, until: { cancellation.isCancelled })
            }
            if case .failure(.stopped) = opened { return .cancelled }
            return .tilesOpened(opened)
        }
        if request.tiles.isEmpty {
            do throws(ImageDecodeError) {
                return .photo(.image(try decode(request, cancellation: cancellation)))
            } catch where error == .stopped {
                return .cancelled
            } catch {
                return .photo(.failure(reason: error.reason))
            }
        }
        return .tiles(Result { () throws(ImageDecodeError) -> [TilePixels] in
            try TileSources.shared.decoder(forPath: request.path).decode(request.tiles)
        })
    }

    /// How much of a file is read to look at its header: room for the largest EXIF segment
    /// (64 KiB) and what comes before the frame header.
    static let headerBytes = 256 << 10

    /// The preview of a JPEG found from the start of its file alone: its EXIF thumbnail (a
    /// camera's 160×120 decodes in well under a millisecond), else `.redundantPreview` when the
    /// real decode for the request's viewport already uses the smallest DCT scale, the one a
    /// 1/8 preview would use, or when only a thumbnail was asked for (`thumbnailOnly`); nil
    /// when a 1/8 decode is the preview to make. A PNG has no preview (`.redundantPreview`).
    static func quickPreview(_ request: DecodeRequest) -> DecodeOutput? {
        guard let head = try? FileBytes.read(atPath: request.path, upTo: headerBytes), let info = try? ImageDecoder.probe(head)
        else { return request.thumbnailOnly ? .redundantPreview : nil }
        // libpng has no cheap smaller decode: a PNG's preview would cost as much as its real
        // decode, which is asked for beside it (and two decodes of one file in parallel would
        // only slow the first view down).
        guard info.format == .jpeg else { return .redundantPreview }
        if let thumbnail = ExifThumbnail.decode(fromJPEGHead: head, info: info) {
            return .photo(.image(DecodedPhoto(
                pixels: thumbnail, fullSize: info.uprightSize, isOpaque: true, smaller: [], isPreview: true, pyramid: nil)))
        }
        if request.thumbnailOnly { return .redundantPreview }
        let eighths = try? ImageDecoder.jpegScaleEighths(
            for: info, shrunkTo: target(for: info.uprightSize, in: request.viewport, factor: 1), filter: .lanczos3,
            pixelLimit: pixelLimit)
        return eighths == 1 ? .redundantPreview : nil
    }

    /// Decodes the file at `request.path` for `request.viewport`, streamed from the file and
    /// Lanczos-resampled as it decodes (`ImageDecoder.decodeFile(atPath:shrunkTo:filter:pixelLimit:until:)`);
    /// throws `ImageDecodeError.stopped` when `cancellation` is raised part-way.
    static func decode(_ request: DecodeRequest, cancellation: DecodeCancellation) throws(ImageDecodeError) -> DecodedPhoto {
        var preview = false
        let decoded = try ImageDecoder.decodeFile(atPath: request.path, shrunkTo: { info in
            // A PNG whose head could not be probed for a preview gets its real decode straight
            // away: it has no cheaper one.
            preview = request.isPreview && info.format == .jpeg
            return target(for: info.uprightSize, in: request.viewport, factor: preview ? previewFraction : request.detail)
        }, pixelLimit: pixelLimit, until: { cancellation.isCancelled })
        let pixels = decoded.pixels
        let info = decoded.info
        let isOpaque = decoded.isOpaque
        // Mip levels, only above the shown size (the base decode has none).
        let shown = shownSize(of: info.uprightSize, in: request.viewport)
        var smaller: [PixelBuffer] = []
        var level = pixels
        while level.width >= 2 * shown.width && level.height >= 2 * shown.height {
            level = BoxDownsample.halved(level)
            smaller.append(level)
        }
        // Tiles draw over the base pixels, which would show through translucent ones; a
        // progressive JPEG or an interlaced PNG cannot be cut as it is read.
        let tiled = !info.hasMultipleScans && isOpaque && TilePyramid.needsTiling(info.uprightSize)
        let pyramid = tiled ? TilePyramid(fullSize: info.uprightSize, scaledIn: info.orientation) : nil
        return DecodedPhoto(
            pixels: pixels, fullSize: decoded.fullSize, isOpaque: isOpaque, smaller: smaller, isPreview: preview, pyramid: pyramid,
            damage: decoded.damage)
    }
}
