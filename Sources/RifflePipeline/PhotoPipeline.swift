import RiffleImageIO
import RiffleLibrary

/// The photo pipeline of one app: the decode workers and everything that feeds them or holds
/// what they make — the pager's photo store, the grid's thumbnail store, the tile sources of
/// huge photos and the thumbnail cache. Made once per app (`RiffleSession`), never shared
/// between apps: two sessions in one process (as in the tests) each have their own.
///
/// The stores are the decode service's clients (`DecodeClient`): each states its own wish list
/// and takes its own results; the scene on screen says which is in front with `setFront(_:)`.
/// Everything here is used from the app's thread, except the workers'
/// `decode(decoding, request, cancellation)` calls.
public final class PhotoPipeline {
    /// The pager's decoded photos (`DecodeClient.pager`).
    package let photoStore: PhotoStore
    /// The library grid's thumbnails (`DecodeClient.grid`).
    package let thumbnailStore: ThumbnailStore
    /// The navigator strip's thumbnails (`DecodeClient.strip`), within `stripThumbnailBudget`.
    package let stripThumbnailStore: ThumbnailStore
    /// 4 MiB: 64 normal (128 px) thumbnails, the strip's cells in a 1920 px window with room
    /// to spare (Riffle's choice).
    static let stripThumbnailBudget = 4 << 20
    /// What the workers decode with: the tile sources, the animation sources and the thumbnail
    /// cache.
    let decoding: PhotoDecoding
    private let service: DecodeService<DecodeOutput>

    /// A pipeline for `photos` (the library's, in its order: the ordering the grid's, the
    /// strip's and the pager's places are places in).
    /// - Parameters:
    ///   - memoryBudget: most bytes of the pager's decoded pixels held at once.
    ///   - thumbnailBudget: most bytes of the grid's thumbnails held at once.
    ///   - thumbnailFolder: the Freedesktop thumbnails folder
    ///     (`ThumbnailCache.standardFolder()`); nil for none: thumbnails are made in memory.
    ///   - workers: decode threads that take any job (at least one); `quickWorkers` more take
    ///     only quick ones (`DecodeJob.isQuick`); both run below the process's priority.
    ///     `focusWorkers` more, at the process's priority, take only what is on screen (the
    ///     clients' urgent requests), which the others then leave to them.
    ///   - clock: the runtime's monotonic clock (seconds), on which decodes are timed.
    ///   - colour: brings decoded pixels into the display's colours.
    ///   - headStart: the command line's photo, decoding since the process began; the first
    ///     fit decode of it takes it (`HeadStartDecode`).
    ///   - decode: what a worker runs for a request; by default `PhotoDecoding.perform` (tests
    ///     wrap it to hold or count jobs).
    ///   - onResult: called from a worker after each result (the app wakes its loop).
    package init(
        photos: [Photo], memoryBudget: Int, thumbnailBudget: Int = ThumbnailStore.defaultBudget, thumbnailFolder: String?,
        workers: Int, quickWorkers: Int = 0, focusWorkers: Int = 0, clock: @escaping @Sendable () -> Double, colour: ColourManagement = ColourManagement(displayProfile: nil),
        headStart: HeadStartDecode? = nil,
        decode: @escaping @Sendable (PhotoDecoding, DecodeRequest, DecodeCancellation) -> DecodeOutput = {
            $0.perform($1, cancellation: $2)
        },
        onResult: @escaping @Sendable () -> Void = {}
    ) {
        let tileSources = TileSources()
        let animationSources = AnimationSources()
        let decoding = PhotoDecoding(
            tileSources: tileSources, thumbnailCache: thumbnailFolder.map { ThumbnailCache(folder: $0) }, colour: colour,
            animationSources: animationSources, headStart: headStart)
        self.decoding = decoding
        service = DecodeService(
            workers: workers, quickWorkers: quickWorkers, focusWorkers: focusWorkers, clock: clock, decode: { decode(decoding, $0, $1) }, onResult: onResult)
        let order = PhotoOrder(photos)
        photoStore = PhotoStore(
            photos: order, service: service, tileSources: tileSources, animationSources: animationSources, budget: memoryBudget)
        thumbnailStore = ThumbnailStore(photos: order, service: service, budget: thumbnailBudget, writesCache: thumbnailFolder != nil)
        stripThumbnailStore = ThumbnailStore(photos: order, service: service, client: .strip, budget: Self.stripThumbnailBudget)
    }

    /// Whether the command line's photo decoded from launch was taken for the pager (nil
    /// without one: `HeadStartDecode`).
    package var headStartTaken: Bool? { decoding.headStart?.wasTaken }

    /// Serves `client`'s wishes before the other clients' (the pager's focused photo aside,
    /// which always comes first): the client of the scene on screen. The pager is in front
    /// until this is called.
    package func setFront(_ client: DecodeClient) { service.setFront(client) }

    /// Whether the scene on screen moves (`DecodeService.setSceneMoves(_:)`); told every
    /// frame, passed on when it changes.
    package func setSceneMoves(_ moves: Bool) {
        guard moves != isSceneMoving else { return }
        isSceneMoving = moves
        service.setSceneMoves(moves)
    }

    /// The last `setSceneMoves(_:)`, on the app's thread.
    package private(set) var isSceneMoving = false

    /// The library changed: every store lets go of the photos that left and decodes the
    /// rewritten ones again; what they hold stays with its photo (`PhotoStore.follow`,
    /// `ThumbnailStore.follow`).
    package func follow(_ update: LibraryUpdate) {
        let order = update.library.order
        photoStore.follow(order, rewritten: update.rewritten)
        thumbnailStore.follow(order, rewritten: update.rewritten)
        stripThumbnailStore.follow(order, rewritten: update.rewritten)
    }

    /// Stops the decode workers after their current job; nothing more is decoded.
    package func shutdown() { service.shutdown() }
}
