import RiffleRaster

/// What the library grid has for one photo's cell.
enum ThumbnailState {
    /// Nothing yet: not asked for, on its way, or let go to keep within the budget.
    case waiting
    /// A thumbnail to draw, which arrived at `arrivedAt` on the app's clock (seconds; the cell
    /// fades it in from then). A stand-in (`isStandIn`) is the camera's embedded thumbnail,
    /// shown until the real one arrives.
    case thumbnail(ImageContent, arrivedAt: Double, isStandIn: Bool)
    /// The photo cannot be shown: `reason` says why in words for a person (a broken file's cell).
    case failed(reason: String)
}

/// The library grid's thumbnails: asks the decode service for those of the cells on screen,
/// then those of the rows ahead in the scroll direction, and holds them within a byte budget of
/// their own (apart from the pager's photos).
///
/// A client of the decode service: the grid's store is `DecodeClient.grid`, the pager's
/// navigator strip has one of its own (`DecodeClient.strip`, its cells in view only), both
/// reading and filling the same Freedesktop cache; a thumbnail both want is decoded once. A
/// photo's thumbnail comes in
/// two jobs: a quick look (`DecodeJob.thumbnail`: the valid stored thumbnail of the Freedesktop
/// cache, else the camera's EXIF thumbnail as a stand-in), then, when no stored one was found,
/// the making of the real one (`DecodeJob.makeThumbnail`, stored in the cache when it writes).
/// Splitting them keeps the quick look in the service's quick lane, which promises work of a
/// few milliseconds, while making a thumbnail (a 1/8-scale decode or more) goes to the full
/// workers. A photo whose file was written anew skips the quick look: its thumbnail is made
/// again (`DecodeJob.remakeThumbnail`), the old one on show until it arrives. A photo that left both ranges has its jobs dropped from the queue, or cancelled
/// when running; what it holds stays until the budget needs room, the cells farthest from the
/// visible range going first, never a visible one.
final class ThumbnailStore {
    /// Default cap on thumbnail pixels held, bytes: 32 MiB, 170 large (256 × 192) thumbnails or
    /// 680 normal ones, a few screens of cells either way.
    static let defaultBudget = 32 << 20

    /// A thumbnail or a failure held for a photo.
    private struct Held {
        var state: ThumbnailState
        /// The size class of a thumbnail; nil for a failure.
        var size: ThumbnailSize?
        var isStandIn: Bool
        var bytes: Int
        /// Its file was written anew since: shown until a thumbnail of the file as it is now
        /// replaces it.
        var isStale = false
    }

    private(set) var photos: [Photo]
    /// Most bytes of thumbnail pixels held at once (the visible cells' aside, when they alone
    /// need more).
    let budget: Int
    /// Bytes of thumbnail pixels held now.
    private(set) var bytesHeld = 0
    /// Every quick look that finished (a stored thumbnail read, or the camera's embedded one),
    /// and every thumbnail made (decoded and, when the cache writes, stored), in seconds, for
    /// `--stats`.
    private(set) var lookSeconds: [Double] = []
    private(set) var makeSeconds: [Double] = []
    /// The size class asked for, from the cell size (`resize(cellSize:)`).
    private(set) var size = ThumbnailSize.normal
    private let service: DecodeService<DecodeOutput>
    /// Who this store is to the decode service.
    private let client: DecodeClient
    private var held: [Int: Held] = [:]
    /// Photos whose quick look at a size class is done: their next job is making the thumbnail.
    private var looked: [Int: ThumbnailSize] = [:]
    /// Photos written anew whose thumbnail is still to be made again from the file
    /// (`DecodeJob.remakeThumbnail`): until it is, what they hold is stale.
    private var remake: Set<Int> = []
    /// Photos ahead let go to keep within the budget: not asked for again while they stay ahead
    /// (they would only push another out), asked for again once visible or out and back in.
    private var shed: Set<Int> = []
    private var visible: Range<Int> = 0..<0
    private var ahead: Range<Int> = 0..<0

    /// A store of the thumbnails of `photos`, asking `service` for them as `client` and holding
    /// at most `budget` bytes of their pixels.
    init(photos: [Photo], service: DecodeService<DecodeOutput>, client: DecodeClient = .grid, budget: Int = defaultBudget) {
        self.photos = photos
        self.service = service
        self.client = client
        self.budget = budget
    }

    /// The size class for grid cells whose longest side is `devicePixels`: normal (128) for
    /// cells of 128 pixels or less, large (256) above, so that a thumbnail is never drawn
    /// enlarged by more than the cell's overshoot of 256.
    static func sizeClass(forCell devicePixels: Int) -> ThumbnailSize {
        devicePixels <= ThumbnailSize.normal.edge ? .normal : .large
    }

    /// What the grid has for photo `index` now.
    func state(at index: Int) -> ThumbnailState { held[index]?.state ?? .waiting }

    /// The cells are now `devicePixels` on their longest side: a change of size class asks for
    /// the thumbnails of the new one, the ones held staying on show until they arrive.
    func resize(cellSize devicePixels: Int) {
        let size = Self.sizeClass(forCell: devicePixels)
        guard size != self.size else { return }
        self.size = size
        askForThumbnails()
    }

    /// The grid shows the cells of `visible` (photo indices), and `ahead` are those of the rows
    /// next in the scroll direction: asks for the thumbnails missing, visible cells first in
    /// order, then those ahead nearest first; drops from the queue (and cancels) the jobs of
    /// photos that are in neither. Indices outside the library are ignored.
    func show(visible: Range<Int>, ahead: Range<Int>) {
        let visible = visible.clamped(to: photos.indices)
        let ahead = ahead.clamped(to: photos.indices)
        guard visible != self.visible || ahead != self.ahead else { return }
        self.visible = visible
        self.ahead = ahead
        looked = looked.filter { isShown($0.key) }
        shed = shed.filter { ahead.contains($0) && !visible.contains($0) }
        askForThumbnails()
    }

    /// The library changed (`LibraryUpdate`): `photos` now, old photo i being photo
    /// `newIndex[i]` (nil: gone), the photos at `rewritten` (new indices) written anew. What is
    /// held follows its photo; a rewritten photo's thumbnail stays on show, stale, until one
    /// made again from the file as it is now arrives (`DecodeJob.remakeThumbnail`, never the
    /// stored one, whose stamp may still match). Results finished before the change are
    /// dropped; the owner says what it shows again (`show`), which asks for what is missing.
    func renumber(photos: [Photo], newIndex: [Int?], rewritten: Set<Int>) {
        _ = service.takeResults(for: client)
        func moved(_ index: Int) -> Int? { newIndex.indices.contains(index) ? newIndex[index] : nil }
        var kept: [Int: Held] = [:]
        for (index, var thumbnail) in held {
            guard let now = moved(index) else {
                bytesHeld -= thumbnail.bytes
                continue
            }
            if rewritten.contains(now) { thumbnail.isStale = true }
            kept[now] = thumbnail
        }
        held = kept
        var followed: [Int: ThumbnailSize] = [:]
        for (index, size) in looked { if let now = moved(index), !rewritten.contains(now) { followed[now] = size } }
        looked = followed
        remake = Set(remake.compactMap(moved)).union(rewritten)
        shed = []
        visible = 0..<0
        ahead = 0..<0
        self.photos = photos
        service.want([], for: client)
    }

    /// Takes in the thumbnails and failures that arrived, stamping them with `now` (the app's
    /// clock, seconds), keeps the bytes held within the budget, asks for what is still missing,
    /// and returns the photos whose state changed.
    func absorbResults(at now: Double) -> [Int] {
        var changed: [Int] = []
        for result in service.takeResults(for: client) {
            let index = result.request.index
            // Asked for before the library changed, and the photo has moved or gone since.
            guard photos.indices.contains(index), photos[index].path == result.request.path else { continue }
            // A cancelled job is asked for again below if its photo is still shown.
            guard case .thumbnail(let outcome) = result.output else { continue }
            let size: ThumbnailSize
            switch result.request.job {
            case .thumbnail(let asked):
                size = asked
                looked[index] = asked
                lookSeconds.append(result.seconds)
            case .makeThumbnail(let asked):
                size = asked
                makeSeconds.append(result.seconds)
            case .remakeThumbnail(let asked):
                size = asked
                makeSeconds.append(result.seconds)
                remake.remove(index)
            case .exifPreview, .preview, .draft, .fit, .detail, .tiles, .openTiles, .frames:
                continue
            }
            var arrived: Held
            switch outcome {
            case .thumbnail(let pixels):
                arrived = Held(
                    state: .thumbnail(Self.content(pixels), arrivedAt: now, isStandIn: false), size: size, isStandIn: false,
                    bytes: pixels.byteCount)
            case .standIn(let pixels):
                // A stand-in never replaces a real thumbnail (of another size class).
                if let current = held[index], !current.isStandIn, !current.isStale { continue }
                arrived = Held(
                    state: .thumbnail(Self.content(pixels), arrivedAt: now, isStandIn: true), size: size, isStandIn: true,
                    bytes: pixels.byteCount)
            case .toMake:
                continue
            case .failed(let reason):
                arrived = Held(state: .failed(reason: reason), size: nil, isStandIn: false, bytes: 0)
            }
            // A job that began before its file was written anew may have read the old bytes.
            arrived.isStale = remake.contains(index)
            // Made again over a stale thumbnail on show, it takes its place at once: the cell
            // never fades back in from its grey plate.
            if let current = held[index], current.isStale, case .thumbnail(_, let shownSince, _) = current.state,
               case .thumbnail(let image, _, let isStandIn) = arrived.state {
                arrived.state = .thumbnail(image, arrivedAt: shownSince, isStandIn: isStandIn)
            }
            // A late thumbnail of a size class given up never replaces one of the current class.
            if let current = held[index], current.size == self.size, arrived.size != self.size, !current.isStandIn, !current.isStale {
                continue
            }
            bytesHeld += arrived.bytes - (held[index]?.bytes ?? 0)
            held[index] = arrived
            changed.append(index)
        }
        evictOverBudget()
        askForThumbnails()
        return changed
    }

    /// A thumbnail's pixels as an image, their opacity found once (on arrival, not every frame).
    private static func content(_ pixels: PixelBuffer) -> ImageContent {
        ImageContent(pixels: pixels, isOpaque: pixels.isOpaque)
    }

    /// Blocks until every job asked for has finished (tests look at a settled state).
    func waitForThumbnails() { service.waitUntilIdle() }

    /// True when photo `index` is in the visible range or the range ahead.
    private func isShown(_ index: Int) -> Bool { visible.contains(index) || ahead.contains(index) }

    /// Tells the service the jobs wanted now: the visible cells' in order, then those ahead,
    /// nearest the visible range first.
    private func askForThumbnails() {
        let aheadOrder = ahead.sorted { distance($0) < distance($1) }
        let wanted = (Array(visible) + aheadOrder.filter { !shed.contains($0) }).compactMap { index in
            nextJob(index).map { DecodeRequest(index: index, path: photos[index].path, job: $0) }
        }
        service.want(wanted, for: client)
    }

    /// The job photo `index` needs next: its making again when its file was written anew;
    /// nil when it holds a real thumbnail of the size class or has failed; the making of the
    /// thumbnail once the quick look is done; else the quick look.
    private func nextJob(_ index: Int) -> DecodeJob? {
        if remake.contains(index) { return .remakeThumbnail(size) }
        if let current = held[index], !current.isStale {
            if current.size == nil || (current.size == size && !current.isStandIn) { return nil }
        }
        return looked[index] == size ? .makeThumbnail(size) : .thumbnail(size)
    }

    /// How many cells photo `index` lies from the visible range: 0 inside it.
    private func distance(_ index: Int) -> Int {
        if index < visible.lowerBound { return visible.lowerBound - index }
        if index >= visible.upperBound { return index - visible.upperBound + 1 }
        return 0
    }

    /// Lets the thumbnails farthest from the visible range go until the bytes held fit the
    /// budget, never a visible one.
    private func evictOverBudget() {
        while bytesHeld > budget {
            let candidates = held.filter { $0.value.bytes > 0 && !visible.contains($0.key) }.keys
            // Ties (as far above as below) go to the later photo, so eviction is deterministic.
            guard let farthest = candidates.max(by: { (distance($0), $0) < (distance($1), $1) }) else { return }
            bytesHeld -= held[farthest]?.bytes ?? 0
            held[farthest] = nil
            looked[farthest] = nil
            if ahead.contains(farthest) { shed.insert(farthest) }
        }
    }
}
