import RiffleGeometry
import RiffleImageIO
import RiffleLibrary
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
    /// A stand-in shown while the real decode runs: the EXIF thumbnail, a 1/8-scale decode, or
    /// a draft (`isDraft`).
    public let isPreview: Bool
    /// For a photo too large to decode whole at full resolution (above
    /// `TilePyramid.tilingThresholdPixels`, and not progressive, interlaced or translucent): the
    /// pyramid its zoomed-in views are cut from.
    public let pyramid: TilePyramid?
    /// What the decoder recovered from (a truncated or corrupt file); nil for a clean decode.
    public var damage: ImageDamage? = nil
    /// A draft: a stand-in at `PhotoDecoding.draftFraction` of the shown size or more, sharp at
    /// fit, made the cheap way (no Lanczos-3).
    public var isDraft = false
    /// The photo moves (`ImageInfo.isAnimated`): these pixels are its first frame, and its
    /// frames play while it is the pager's photo (`AnimationPlayback`).
    public var isAnimated = false

    /// The words of the badge this photo wears; nil for a clean one.
    public var damageText: String? { damage.map(Self.badgeText) }

    /// The words of the badge a photo with `damage` wears, e.g. "Incomplete file: the bottom 40%
    /// is missing".
    public static func badgeText(for damage: ImageDamage) -> String {
        switch damage {
        case .damagedData:
            return "Damaged file: parts of the picture may be wrong"
        case .truncated(let missing?):
            return "Incomplete file: the \(missing.wording.side) \(missing.wording.percent)% is missing"
        case .truncated(nil):
            return "Incomplete file: parts of the picture are missing"
        }
    }
}

extension ImageDamage.MissingPart {
    /// The side the band lies along and its share in whole percent, as a badge words them:
    /// never 0 % for a part that is missing, nor 100 % for a picture that shows some.
    var wording: (side: String, percent: Int) {
        let name = switch side { case .top: "top"; case .bottom: "bottom"; case .left: "left"; case .right: "right" }
        return (name, min(max(Int((share * 100).rounded()), 1), 99))
    }
}

/// What a decode worker hands back: a photo's pixels (or why not), the tiles asked for, or a
/// thumbnail for the grid.
package enum DecodeOutput: Sendable {
    case photo(PhotoContent)
    case tiles(Result<[TilePixels], ImageDecodeError>)
    /// A preview not made: an EXIF-only preview of a file without an EXIF thumbnail, or a photo
    /// without one so large that it is shown at 1/8 or less, whose real decode is already at
    /// libjpeg's cheapest scale (two such decodes of one file in parallel would only slow the
    /// first view down).
    case redundantPreview
    /// Given up part-way: the photo stopped being wanted while it decoded.
    case cancelled
    /// The photo's tile source is open (or why it could not be).
    case tilesOpened(Result<Void, ImageDecodeError>)
    /// What came of a `thumbnail` or `makeThumbnail` job.
    case thumbnail(ThumbnailOutcome)
    /// An animated photo's frames (or why they could not be decoded).
    case frames(Result<DecodedFrames, ImageDecodeError>)
}

/// What came of looking for, or making, a photo's thumbnail for the grid.
package enum ThumbnailOutcome: Sendable {
    /// The real thumbnail of the size class asked for: the valid one stored, or one made now.
    case thumbnail(ImageContent)
    /// The camera's embedded EXIF thumbnail, fitted to the size class: a coarse stand-in until
    /// the real one is made.
    case standIn(ImageContent)
    /// Neither a stored thumbnail nor an embedded one: the real one is still to be made.
    case toMake
    /// No thumbnail can be made: the file cannot be reached or decoded; `reason` in words for a
    /// person.
    case failed(reason: String)

    /// A thumbnail's pixels as an image, their opacity found by the worker that read or made them
    /// (a scan of every pixel), not by the app's thread as each thumbnail arrives.
    static func image(_ pixels: PixelBuffer) -> ImageContent {
        ImageContent(pixels: pixels, isOpaque: pixels.isOpaque)
    }
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
/// no pixel nobody sees. Also opens and cuts the tile pyramids of huge photos, and finds or makes
/// the grid's thumbnails.
///
/// A value holding the app's tile sources and thumbnail cache, which its `perform` uses; safe
/// to use from every decode worker at once.
public struct PhotoDecoding: Sendable {
    /// The tile decoders of the huge photo being zoomed.
    let tileSources: TileSources
    /// The Freedesktop thumbnail cache; nil when there is no thumbnails folder (no absolute
    /// XDG_CACHE_HOME nor HOME): thumbnails are then made in memory each time.
    let thumbnailCache: ThumbnailCache?
    /// Brings every decoded picture into the display's colours, once per decode.
    let colour: ColourManagement
    /// Makes thumbnails in sRGB when there is no cache to make them (as the cache does).
    private let thumbnailColour = ColourManagement(displayProfile: nil)
    /// The frame decoder of the animated photo playing.
    let animationSources: AnimationSources
    /// The command line's photo, decoding since the process began; its first fit decode takes it.
    let headStart: HeadStartDecode?

    init(
        tileSources: TileSources, thumbnailCache: ThumbnailCache?, colour: ColourManagement = ColourManagement(displayProfile: nil),
        animationSources: AnimationSources = AnimationSources(), headStart: HeadStartDecode? = nil
    ) {
        self.tileSources = tileSources
        self.thumbnailCache = thumbnailCache
        self.colour = colour
        self.animationSources = animationSources
        self.headStart = headStart
    }

    /// Largest number of pixels Riffle decodes into one buffer (24 MP · 4 B ≈ 96 MiB; 64 MP is
    /// 256 MiB). A JPEG larger than that at the size asked for is decoded DCT-scaled (or refused
    /// with a message if even 1/8 is larger), a PNG is streamed into a smaller picture.
    public static let pixelLimit = 64_000_000

    /// A preview without an EXIF thumbnail is decoded at this fraction of the shown size:
    /// libjpeg's smallest DCT scale (1/8) is the cheap one, and scaled up it reads as a soft
    /// version of the photo.
    public static let previewFraction = 1.0 / 8

    /// A draft of the focused photo is decoded at the smallest DCT scale whose output is at
    /// least this fraction of the shown size on both sides, then area-averaged to the shown size
    /// when larger: a 6000×4000 JPEG shown 1620×1080 decodes at 2/8 (1500×1000, stretched 1.08×
    /// by the compositor) in about a third of the fit decode's time (Lanczos-3 from 5/8, which
    /// libjpeg-turbo inverse-transforms without SIMD). A stretch of at most 1/0.9 ≈ 1.11× keeps
    /// the photo's edges crisp at fit; the fit decode replaces it (Riffle's choice).
    public static let draftFraction = 0.9

    /// A draft is made only when its DCT scale is at most 1/`draftSavingFactor` of the fit
    /// decode's, so it costs well under the fit decode it stands in for (a decode's cost
    /// grows with its scale); else the 1/8 preview stands in.
    static let draftSavingFactor = 2

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

    /// Carries out `request`'s job, giving a photo decode, a tile source's opening or a
    /// thumbnail's making up part-way once `cancellation` is raised.
    func perform(_ request: DecodeRequest, cancellation: DecodeCancellation = DecodeCancellation()) -> DecodeOutput {
        let path = request.path
        switch request.job {
        case .thumbnail(let size):
            return .thumbnail(quickThumbnail(path: path, size: size))
        case .makeThumbnail(let size):
            return makeThumbnail(path: path, size: size, cancellation: cancellation)
        case .remakeThumbnail(let size):
            return makeThumbnail(path: path, size: size, reusingStored: false, cancellation: cancellation)
        case .exifPreview:
            return Self.exifPreview(path: path, colour: colour) ?? cachedPreview(path: path) ?? .redundantPreview
        case .preview(let viewport):
            if let quick = Self.quickPreview(path: path, viewport: viewport, colour: colour, cached: cachedPreview) { return quick }
            return Self.photo(path: path, viewport: viewport, detail: 1, isPreview: true, colour: colour, cancellation: cancellation)
        case .draft(let viewport):
            return Self.draft(path: path, viewport: viewport, colour: colour, cancellation: cancellation)
        case .fit(let viewport):
            if let early = headStart?.take(path: path, viewport: viewport) {
                do throws(ImageDecodeError) {
                    return .photo(.image(Self.shown(colour.toDisplay(try early.get()), viewport: viewport, isPreview: false)))
                } catch {
                    return .photo(.failure(reason: error.reason))
                }
            }
            return Self.photo(path: path, viewport: viewport, detail: 1, isPreview: false, colour: colour, cancellation: cancellation)
        case .detail(let viewport, _):
            return Self.photo(
                path: path, viewport: viewport, detail: request.job.detail, isPreview: false, colour: colour,
                cancellation: cancellation)
        case .tiles(let keys):
            return .tiles(Result { () throws(ImageDecodeError) -> [TilePixels] in
                let tiles = try tileSources.decoder(forPath: path).decode(keys)
                let profile = (try? ImageDecoder.probeFile(atPath: path))?.iccProfile
                for tile in tiles { colour.convert(tile.pixels, from: profile, isOpaque: true) }
                return tiles
            })
        case .openTiles:
            let opened = Result { () throws(ImageDecodeError) in
                _ = try tileSources.decoder(forPath: path, until: { cancellation.isCancelled })
            }
            if case .failure(.stopped) = opened { return .cancelled }
            return .tilesOpened(opened)
        case .frames(let viewport, let first, let count):
            let decoded = Result { () throws(ImageDecodeError) -> DecodedFrames in
                try animationSources.frames(
                    path: path, viewport: viewport, first: first, count: count, colour: colour, until: { cancellation.isCancelled })
            }
            if case .failure(.stopped) = decoded { return .cancelled }
            return .frames(decoded)
        }
    }

    /// The grid's quick look at the file at `path`: its valid stored thumbnail of `size`, else
    /// the camera's embedded one as a stand-in, else `.toMake`. Never decodes the photo. The
    /// pixels are in the display's colours (a stored thumbnail is sRGB; an embedded one is in
    /// the photo's profile).
    func quickThumbnail(path: String, size: ThumbnailSize) -> ThumbnailOutcome {
        if let stored = thumbnailCache?.lookup(path: path, size: size) {
            colour.convert(stored, from: nil, isOpaque: false)
            return .thumbnail(ThumbnailOutcome.image(stored))
        }
        if let embedded = ThumbnailCache.embeddedThumbnail(path: path, size: size) {
            colour.convert(embedded.pixels, from: embedded.profile, isOpaque: true)
            return .standIn(ThumbnailOutcome.image(embedded.pixels))
        }
        return .toMake
    }

    /// The thumbnail of `size` of the file at `path`, made (and stored, when there is a cache
    /// that writes) unless a valid one is stored and `reusingStored`
    /// (`ThumbnailCache.thumbnail(path:size:reusingStored:until:)`); `.cancelled` once
    /// `cancellation` is raised part-way.
    func makeThumbnail(
        path: String, size: ThumbnailSize, reusingStored: Bool = true, cancellation: DecodeCancellation
    ) -> DecodeOutput {
        do throws(ImageDecodeError) {
            let stop = { cancellation.isCancelled }
            let pixels: PixelBuffer
            if let thumbnailCache {
                pixels = try thumbnailCache.thumbnail(path: path, size: size, reusingStored: reusingStored, until: stop)
            } else {
                pixels = try ThumbnailCache.make(path: path, size: size, colour: thumbnailColour, until: stop).pixels
            }
            colour.convert(pixels, from: nil, isOpaque: false)
            return .thumbnail(.thumbnail(ThumbnailOutcome.image(pixels)))
        } catch where error == .stopped {
            return .cancelled
        } catch {
            return .thumbnail(.failed(reason: error.reason))
        }
    }

    /// The whole photo at `path` for `viewport`, `detail` times sharper than at fit (a JPEG
    /// preview at `previewFraction` of fit instead); `.cancelled` once `cancellation` is raised
    /// part-way; its failure's reason when it cannot be decoded.
    static func photo(
        path: String, viewport: PixelSize, detail: Double, isPreview: Bool, colour: ColourManagement,
        cancellation: DecodeCancellation
    ) -> DecodeOutput {
        steadily(path: path) {
            do throws(ImageDecodeError) {
                return .photo(.image(try decode(
                    path: path, viewport: viewport, detail: detail, isPreview: isPreview, colour: colour,
                    cancellation: cancellation)))
            } catch where error == .stopped {
                return .cancelled
            } catch {
                return .photo(.failure(reason: error.reason))
            }
        }
    }

    /// A file read this many times that changed during every read is reported as changing.
    static let readAttempts = 3

    /// Runs `read` (a decode of the file at `path`) until the file is the same after it as
    /// before (`FileStamp`), so that a file rewritten while it decodes never shows a picture torn
    /// between its two states: the decode is done again, from the file as it is now. After
    /// `readAttempts` reads that all saw it change (a file still being copied), the reason says
    /// so; a cancelled read is given back as it is.
    static func steadily(path: String, _ read: () -> DecodeOutput) -> DecodeOutput {
        for _ in 0..<readAttempts {
            let before = FileStamp.current(ofFileAt: path)
            let output = read()
            if case .cancelled = output { return output }
            if FileStamp.current(ofFileAt: path) == before { return output }
        }
        return .photo(.failure(reason: "The file kept changing while it was read: it may still be being written"))
    }

    /// How much of a file is read to look at its header (`ImageCodecs.headBytes`).
    package static let headerBytes = ImageCodecs.headBytes

    /// The upright size of the photo at `path` from its header (within the file's first
    /// `headerBytes`: a millisecond's read); nil when it cannot be read there.
    package static func uprightSize(path: String) -> PixelSize? {
        (try? ImageDecoder.probeFile(atPath: path))?.uprightSize
    }

    /// The thumbnail embedded in the file at `path` (a JPEG's EXIF thumbnail: a camera's
    /// 160×120 decodes in well under a millisecond) as a preview; nil for a file without one.
    static func exifPreview(path: String, colour: ColourManagement) -> DecodeOutput? {
        guard let (head, codec, info) = probedHead(path: path) else { return nil }
        return embeddedPreview(head: head, path: path, codec: codec, info: info, colour: colour)
    }

    /// The sizes of stored thumbnail a preview is taken from, sharpest first: the grid's cells
    /// use `normal` and, in a large window or at 2×, the larger ones (`ThumbnailSize`).
    static let previewThumbnailSizes: [ThumbnailSize] = [.xxLarge, .xLarge, .large, .normal]

    /// The valid thumbnail the thumbnail cache holds of the photo at `path` (the grid made it,
    /// or another program did: the Freedesktop cache is shared), sharpest first, as a preview
    /// of the upright photo; nil without a cache, a readable header or a valid thumbnail. Reads
    /// one small PNG and stats the photo: a quick job.
    func cachedPreview(path: String) -> DecodeOutput? {
        guard let thumbnailCache, let info = try? ImageDecoder.probeFile(atPath: path) else { return nil }
        for size in Self.previewThumbnailSizes {
            guard let stored = thumbnailCache.lookup(path: path, size: size) else { continue }
            // Stored thumbnails are sRGB PNGs, as the grid converts them (`quickThumbnail`).
            colour.convert(stored, from: nil, isOpaque: false)
            return .photo(.image(DecodedPhoto(
                pixels: stored, fullSize: info.uprightSize, isOpaque: !info.hasAlpha, smaller: [], isPreview: true, pyramid: nil)))
        }
        return nil
    }

    /// The preview of a photo found from the start of its file alone: its embedded thumbnail
    /// (a JPEG's EXIF one), else `.redundantPreview` when the real decode for `viewport` already
    /// uses the smallest DCT scale, the one a 1/8 preview would use; nil when a 1/8 decode is
    /// the preview to make. A format without cheap reduced decodes (a PNG: libpng has none) has
    /// no other preview (`.redundantPreview`): its real decode is asked for beside it (two
    /// decodes of one file in parallel would only slow the first view down). nil for a file
    /// whose head cannot be read: its real decode says why.
    static func quickPreview(
        path: String, viewport: PixelSize, colour: ColourManagement, cached: (String) -> DecodeOutput? = { _ in nil }
    ) -> DecodeOutput? {
        guard let (head, codec, info) = probedHead(path: path) else { return nil }
        if let preview = embeddedPreview(head: head, path: path, codec: codec, info: info, colour: colour) { return preview }
        if let preview = cached(path) { return preview }
        guard codec.decodesReduced else { return .redundantPreview }
        let eighths = try? ImageDecoder.jpegScaleEighths(
            for: info, shrunkTo: target(for: info.uprightSize, in: viewport, factor: 1), filter: .lanczos3,
            pixelLimit: pixelLimit)
        return eighths == 1 ? .redundantPreview : nil
    }

    /// Starts a decode's Huffman pass (`ImageDecoder.SecondCore`) on a thread of its own at the
    /// priority of the focus worker that asks (a new thread inherits its creator's nice value:
    /// man 7 sched, "The nice value").
    static func secondCore(_ work: @escaping @Sendable () -> Void) {
        WorkerThread.start(stackBytes: DecodeService<DecodeOutput>.workerStackBytes, nicenessOffset: nil, work)
    }

    /// The draft of the photo at `path` for `viewport` (see `draftFraction`); where a draft would
    /// not save enough, the 1/8 preview, or `.redundantPreview` when the real decode is at 1/8
    /// already, or the format has no cheaper decode (a PNG), or the real decode runs on both
    /// cores (a focus worker's, `ImageDecoder.decodesOnTwoCores`): the draft would take a core
    /// from it to land barely sooner (for a 24 MP photo at 1080p, 71 ms for the draft on one
    /// core against 90 ms for the fit on two; `make bench`).
    static func draft(path: String, viewport: PixelSize, colour: ColourManagement, cancellation: DecodeCancellation) -> DecodeOutput {
        guard let (_, codec, info) = probedHead(path: path), codec.decodesReduced else { return .redundantPreview }
        let shown = shownSize(of: info.uprightSize, in: viewport)
        if cancellation.isFocused, ImageDecoder.decodesOnTwoCores(info, shrunkTo: shown, pixelLimit: pixelLimit) { return .redundantPreview }
        guard let size = draftSize(of: info, shown: shown) else {
            if let quick = quickPreview(path: path, viewport: viewport, colour: colour) { return quick }
            return photo(path: path, viewport: viewport, detail: 1, isPreview: true, colour: colour, cancellation: cancellation)
        }
        return steadily(path: path) {
            do throws(ImageDecodeError) {
                let decoded = colour.toDisplay(try ImageDecoder.decodeFile(
                    atPath: path, shrunkTo: { _ in size }, filter: .area, pixelLimit: pixelLimit, until: { cancellation.isCancelled }))
                return .photo(.image(DecodedPhoto(
                    pixels: decoded.pixels, fullSize: decoded.fullSize, isOpaque: decoded.isOpaque, smaller: [], isPreview: true,
                    pyramid: nil, damage: decoded.damage, isDraft: true)))
            } catch where error == .stopped {
                return .cancelled
            } catch {
                return .photo(.failure(reason: error.reason))
            }
        }
    }

    /// The upright size a draft of the JPEG `info` shown at `shown` is decoded to (the one format
    /// whose codec `decodesReduced`, through libjpeg's DCT scaling): its DCT
    /// output at the smallest scale reaching `draftFraction` of `shown`, capped at `shown`; nil
    /// when that scale is not at most 1/`draftSavingFactor` of the fit decode's.
    static func draftSize(of info: ImageInfo, shown: PixelSize) -> PixelSize? {
        let least = PixelSize(
            width: Int((Double(shown.width) * draftFraction).rounded(.up)), height: Int((Double(shown.height) * draftFraction).rounded(.up)))
        guard let eighths = try? ImageDecoder.jpegScaleEighths(for: info, atLeast: least, pixelLimit: pixelLimit),
              let fit = try? ImageDecoder.jpegScaleEighths(for: info, shrunkTo: shown, filter: .lanczos3, pixelLimit: pixelLimit),
              eighths * draftSavingFactor <= fit
        else { return nil }
        let scaled = ImageDecoder.jpegScaledUprightSize(of: info, eighths: eighths)
        return PixelSize(width: min(scaled.width, shown.width), height: min(scaled.height, shown.height))
    }

    /// The first `headerBytes` of the file at `path`, its codec and its header; nil for a file
    /// that cannot be read or is no image Riffle reads.
    private static func probedHead(path: String) -> (head: [UInt8], codec: any ImageCodec, info: ImageInfo)? {
        guard let head = try? FileBytes.read(atPath: path, upTo: headerBytes), let codec = try? ImageCodecs.codec(forHead: head),
              let info = try? codec.probe(head: head, path: path)
        else { return nil }
        return (head, codec, info)
    }

    /// The thumbnail embedded in the file at `path` (which starts with `head`) as a preview of
    /// the upright photo; nil when it has none.
    private static func embeddedPreview(
        head: [UInt8], path: String, codec: any ImageCodec, info: ImageInfo, colour: ColourManagement
    ) -> DecodeOutput? {
        guard let thumbnail = codec.embeddedThumbnail(head: head, path: path, info: info) else { return nil }
        colour.convert(thumbnail, from: info.iccProfile, isOpaque: true)
        return .photo(.image(DecodedPhoto(
            pixels: thumbnail, fullSize: info.uprightSize, isOpaque: true, smaller: [], isPreview: true, pyramid: nil)))
    }

    /// Decodes the file at `path` for `viewport`, `detail` times sharper than at fit (a JPEG
    /// preview at `previewFraction` of fit), streamed from the file and Lanczos-resampled as it
    /// decodes (`ImageDecoder.decodeFile(atPath:shrunkTo:filter:pixelLimit:until:)`); throws
    /// `ImageDecodeError.stopped` when `cancellation` is raised part-way.
    static func decode(
        path: String, viewport: PixelSize, detail: Double, isPreview: Bool, colour: ColourManagement,
        cancellation: DecodeCancellation
    ) throws(ImageDecodeError) -> DecodedPhoto {
        var preview = false
        let shrunk = { (info: ImageInfo) -> PixelSize in
            // A format without cheap reduced decodes (a PNG) gets its real one straight away.
            preview = isPreview && ImageCodecs.codec(for: info.format).decodesReduced
            return target(for: info.uprightSize, in: viewport, factor: preview ? previewFraction : detail)
        }
        // What is on screen takes both cores (the photo a person waits for); prefetch one.
        let decoded = colour.toDisplay(try cancellation.isFocused && !isPreview
            ? ImageDecoder.decodeFile(
                atPath: path, shrunkTo: shrunk, pixelLimit: pixelLimit, secondCore: Self.secondCore,
                until: { cancellation.isCancelled })
            : ImageDecoder.decodeFile(atPath: path, shrunkTo: shrunk, pixelLimit: pixelLimit, until: { cancellation.isCancelled }))
        return shown(decoded, viewport: viewport, isPreview: preview)
    }

    /// `decoded` (in the display's colours) as the photo shown in `viewport`: with its mip levels
    /// above the shown size, and the tile pyramid of a huge photo.
    static func shown(_ decoded: DecodedImage, viewport: PixelSize, isPreview preview: Bool) -> DecodedPhoto {
        let pixels = decoded.pixels
        let info = decoded.info
        let isOpaque = decoded.isOpaque
        // Mip levels, only above the shown size (the base decode has none).
        let shown = shownSize(of: info.uprightSize, in: viewport)
        var smaller: [PixelBuffer] = []
        var level = pixels
        while level.width >= 2 * shown.width && level.height >= 2 * shown.height {
            level = BoxDownsample.halved(level)
            smaller.append(level)
        }
        // Tiles draw over the base pixels, which would show through translucent ones; a
        // progressive JPEG or an interlaced PNG cannot be cut as it is read.
        let tiled = ImageCodecs.codec(for: info.format).cutsTiles && !info.hasMultipleScans && isOpaque && !info.isAnimated
            && TilePyramid.needsTiling(info.uprightSize)
        let pyramid = tiled ? TilePyramid(fullSize: info.uprightSize, scaledIn: info.orientation) : nil
        return DecodedPhoto(
            pixels: pixels, fullSize: decoded.fullSize, isOpaque: isOpaque, smaller: smaller, isPreview: preview, pyramid: pyramid,
            damage: decoded.damage, isAnimated: info.isAnimated)
    }
}
