import RiffleGeometry
import RiffleImageIO
import RiffleLibrary

/// What a decode request asks for of its photo: one kind of work, with what that work needs.
enum DecodeJob: Hashable, Sendable {
    /// For the library grid: the stored thumbnail of a size class (the Freedesktop cache), else
    /// the camera's embedded one as a stand-in, else word that it must be made
    /// (`makeThumbnail`). Reads one small PNG and the photo's first 256 KiB, never decodes the
    /// photo: quick.
    case thumbnail(ThumbnailSize)
    /// For the library grid: the thumbnail of a size class made from the photo and stored (or
    /// the valid one stored meanwhile by another program). A 1/8-scale decode or more: not quick.
    case makeThumbnail(ThumbnailSize)
    /// For the library grid: the thumbnail of a size class of a photo written anew, made from
    /// the file as it is now and stored over the one stored, which is not looked at: a rewrite
    /// within the second the stored one's Thumb::MTime names, to the same byte count, leaves
    /// the stored stamp matching (`ThumbnailStamp`). Not quick.
    case remakeThumbnail(ThumbnailSize)
    /// For a neighbour of the pager's photo: the camera's EXIF thumbnail, else the thumbnail the
    /// thumbnail cache holds (the grid's, or another program's), nothing when there is neither
    /// (a 1/8 decode would cost a good part of the real one). Quick.
    case exifPreview
    /// A coarse look at the photo fitted in `viewport`, shown while the real decode runs: the
    /// EXIF thumbnail, else the cached thumbnail, else a 1/8-scale decode, else nothing when the real decode is at 1/8
    /// already. (A PNG, which has no cheap reduced decode, gets its real decode at fit.)
    case preview(viewport: PixelSize)
    /// The focused photo's stand-in while its fit decode runs, fitted in `viewport`: a draft
    /// (`PhotoDecoding.draftFraction`: sharp at fit, at a fraction of the fit decode's cost)
    /// when the photo allows one, else a 1/8-scale decode, else nothing when the real decode is
    /// at 1/8 already. Its EXIF thumbnail is the `exifPreview` job's.
    case draft(viewport: PixelSize)
    /// The whole photo at the size it is shown fitted in `viewport`.
    case fit(viewport: PixelSize)
    /// The whole photo `factor` (> 1) times sharper than at fit in `viewport`, up to its full
    /// resolution: a zoomed photo. Made with `whole(viewport:detail:)`, which gives `fit` for 1.
    case detail(viewport: PixelSize, factor: Double)
    /// Pyramid tiles of a huge photo seen zoomed in, all in one job so that the decoder can
    /// share the rows it must read.
    case tiles([TileKey])
    /// Opening a huge photo's tile source (reading the file and indexing its scan) ahead of any
    /// zoom, so that the first zoomed view's tiles need only their own rows.
    case openTiles
    /// Frames `first ..< first + count` of the focused animated photo (numbered on through its
    /// loops), each at the size the photo is shown fitted in `viewport` (`AnimationSources`).
    case frames(viewport: PixelSize, first: Int, count: Int)

    /// The whole photo for `viewport`, `detail` times sharper than at fit: `fit` when `detail`
    /// is 1 or less, else `detail(viewport:factor:)`.
    static func whole(viewport: PixelSize, detail: Double) -> DecodeJob {
        detail > 1 ? .detail(viewport: viewport, factor: detail) : .fit(viewport: viewport)
    }

    /// True for work bounded by a few milliseconds (a stored thumbnail's PNG; an EXIF thumbnail:
    /// the file's first KiB and a 160×120 decode), which the service's quick lane takes so that
    /// it never waits behind a photo's 100 ms decode.
    var isQuick: Bool {
        switch self {
        case .thumbnail, .exifPreview: true
        case .makeThumbnail, .remakeThumbnail, .preview, .draft, .fit, .detail, .tiles, .openTiles, .frames: false
        }
    }

    /// True for the pager's stand-ins: a preview, an EXIF-only preview or a draft.
    var isPreview: Bool {
        switch self {
        case .preview, .exifPreview, .draft: true
        case .thumbnail, .makeThumbnail, .remakeThumbnail, .fit, .detail, .tiles, .openTiles, .frames: false
        }
    }

    /// How much sharper than at fit a whole-photo decode is asked for: 1 for every job but
    /// `detail`.
    var detail: Double {
        if case .detail(_, let factor) = self { return factor }
        return 1
    }

    /// The window size a whole-photo job (`preview`, `draft`, `fit`, `detail`) decodes for; nil
    /// for the others.
    var viewport: PixelSize? {
        switch self {
        case .preview(let viewport), .draft(let viewport), .fit(let viewport), .detail(let viewport, _): viewport
        case .thumbnail, .makeThumbnail, .remakeThumbnail, .exifPreview, .tiles, .openTiles, .frames: nil
        }
    }
}

/// A job for one photo of the library: which photo (its identity, and its file as it was named
/// when asked) and what of it.
package struct DecodeRequest: Hashable, Sendable {
    let photo: PhotoID
    let path: String
    let job: DecodeJob

    /// True when the service's quick lane may take it (`DecodeJob.isQuick`).
    var isQuick: Bool { job.isQuick }
}
