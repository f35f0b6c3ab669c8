import RiffleLibrary
import RiffleRaster

/// What the library grid has for one photo's cell.
package enum ThumbnailState {
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
///
/// What is held is held by `PhotoID`: a change of the folders (`follow`) moves nothing, it only
/// lets go of the photos that left and marks the rewritten ones stale. The ranges the owner
/// shows are places in the store's ordering (`photos`), which the owner's ordering is.
package final class ThumbnailStore {
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

    /// The ordering the owner's ranges are places in.
    private(set) var photos: PhotoOrder
    /// Most bytes of thumbnail pixels held at once (the visible cells' aside, when they alone
    /// need more).
    let budget: Int
    /// Bytes of thumbnail pixels held now.
    private(set) var bytesHeld = 0
    /// Every quick look that finished (a stored thumbnail read, or the camera's embedded one),
    /// and every thumbnail made (decoded and, when the cache writes, stored), in seconds, for
    /// `--stats`.
    package private(set) var lookSeconds: [Double] = []
    package private(set) var makeSeconds: [Double] = []
    /// The size class asked for, from the cell size (`resize(cellSize:)`).
    private(set) var size = ThumbnailSize.normal
    private let service: DecodeService<DecodeOutput>
    /// Who this store is to the decode service.
    private let client: DecodeClient
    private var held: [PhotoID: Held] = [:]
    /// Photos whose quick look at a size class is done: their next job is making the thumbnail.
    private var looked: [PhotoID: ThumbnailSize] = [:]
    /// Photos written anew whose thumbnail is still to be made again from the file
    /// (`DecodeJob.remakeThumbnail`): until it is, what they hold is stale.
    private var remake: Set<PhotoID> = []
    /// Photos ahead let go to keep within the budget: not asked for again while they stay ahead
    /// (they would only push another out), asked for again once visible or out and back in.
    private var shed: Set<PhotoID> = []
    private var visible: Range<Int> = 0..<0
    private var ahead: Range<Int> = 0..<0
    /// Photos shown one by one rather than as a run (the timeline's Years, Months and Days,
    /// whose cells are a few photos picked through the library): shown as visible ones are.
    private var picked: [Int] = []
    /// True while the store only has thumbnails made and stored in the cache (`store(around:count:)`),
    /// holding none of them.
    private var storesOnly = false
    /// Photos whose thumbnail of the size class is in the cache, made or found there while
    /// `storesOnly`: not asked for again while it lasts.
    private var stored: [PhotoID: ThumbnailSize] = [:]
    /// True when thumbnails made are written to a thumbnail cache (`store(around:count:)` is
    /// pointless without one).
    package let writesCache: Bool

    /// A store of the thumbnails of `photos`, asking `service` for them as `client` and holding
    /// at most `budget` bytes of their pixels.
    init(
        photos: PhotoOrder, service: DecodeService<DecodeOutput>, client: DecodeClient = .grid, budget: Int = defaultBudget,
        writesCache: Bool = false
    ) {
        self.photos = photos
        self.service = service
        self.client = client
        self.budget = budget
        self.writesCache = writesCache
    }

    /// The aspect ratio, long side over short, whose square crop a cell must show unenlarged:
    /// 3:2, the shape of most cameras' photos (a phone's 4:3 is narrower, and so covered).
    static let croppedAspect = 1.5

    /// The size class for square grid cells `devicePixels` wide: the smallest whose thumbnail
    /// of a `croppedAspect` photo, cropped square to its short side, covers the cell (normal up
    /// to 85 pixels, large to 171, x-large to 341, xx-large above), so that the crop is never
    /// drawn enlarged. (Fitted by the long side alone, a 3:2 photo's large thumbnail gave a
    /// 171-pixel crop blown up to a 426-pixel cell at 3 columns.) HiDPI cells are counted in
    /// device pixels, so they get the class their pixels need.
    static func sizeClass(forCell devicePixels: Int) -> ThumbnailSize {
        ThumbnailSize.allCases.first { Int((Double($0.edge) / croppedAspect).rounded()) >= devicePixels } ?? .xxLarge
    }

    /// What the grid has for `photo` now.
    package func state(of photo: PhotoID) -> ThumbnailState { held[photo]?.state ?? .waiting }

    /// The cells are now `devicePixels` on their longest side: a change of size class asks for
    /// the thumbnails of the new one, the ones held staying on show until they arrive.
    package func resize(cellSize devicePixels: Int) {
        let size = Self.sizeClass(forCell: devicePixels)
        guard size != self.size else { return }
        self.size = size
        askForThumbnails()
    }

    /// The grid shows the cells of `visible` (photo indices) and of `picked` (photos shown one
    /// by one, in the order given), and `ahead` are those of the rows next in the scroll
    /// direction: asks for the thumbnails missing, visible and picked cells first in order, then
    /// those ahead nearest first; drops from the queue (and cancels) the jobs of photos that are
    /// in none. Indices outside the library are ignored.
    package func show(visible: Range<Int>, ahead: Range<Int>, picked: [Int] = []) {
        show(visible: visible, ahead: ahead, picked: picked, storesOnly: false)
    }

    /// Has the thumbnails of the `count` photos nearest place `photo` made (or found) and stored
    /// in the cache, nearest first, holding none of them: for a grid hidden behind the pager,
    /// whose cells are not on screen, so that they are there when it shows (`riffle FILE`'s
    /// folder) at the cost of a quick look each, and the pager finds them as previews. Memory
    /// stays where it is. Ends with the next `show`.
    package func store(around photo: Int, count: Int) {
        let around = max(0, photo - count / 2)..<min(photos.photos.count, photo - count / 2 + count)
        // An empty visible range at the photo: the rest are asked for nearest it first.
        show(visible: photo..<photo, ahead: around, picked: [], storesOnly: true)
    }

    private func show(visible: Range<Int>, ahead: Range<Int>, picked: [Int], storesOnly: Bool) {
        let visible = visible.clamped(to: photos.photos.indices)
        let ahead = ahead.clamped(to: photos.photos.indices)
        let picked = picked.filter { photos.photos.indices.contains($0) }
        guard visible != self.visible || ahead != self.ahead || picked != self.picked || storesOnly != self.storesOnly else { return }
        self.storesOnly = storesOnly
        self.visible = visible
        self.ahead = ahead
        self.picked = picked
        looked = looked.filter { isShown($0.key) }
        shed = shed.filter { place(of: $0).map { ahead.contains($0) && !visible.contains($0) } ?? false }
        askForThumbnails()
    }

    /// The library changed (`LibraryUpdate`): `photos` is the ordering now, the photos of
    /// `rewritten` written anew. What is held stays with its photo; what belongs to a photo that
    /// left is let go; a rewritten photo's thumbnail stays on show, stale, until one made again
    /// from the file as it is now arrives (`DecodeJob.remakeThumbnail`, never the stored one,
    /// whose stamp may still match). The owner says what it shows again (`show`), which asks for
    /// what is missing.
    func follow(_ photos: PhotoOrder, rewritten: Set<PhotoID>) {
        // A thumbnail made before the change may have read a file since written anew.
        _ = service.takeResults(for: client)
        for (photo, thumbnail) in held where !photos.contains(photo) {
            bytesHeld -= thumbnail.bytes
            held[photo] = nil
        }
        for photo in rewritten where held[photo] != nil { held[photo]?.isStale = true }
        looked = looked.filter { photos.contains($0.key) && !rewritten.contains($0.key) }
        remake = remake.filter(photos.contains).union(rewritten)
        shed = []
        visible = 0..<0
        ahead = 0..<0
        self.photos = photos
    }

    /// Takes in the thumbnails and failures that arrived, stamping them with `now` (the app's
    /// clock, seconds), keeps the bytes held within the budget, asks for what is still missing,
    /// and returns the photos whose state changed.
    package func absorbResults(at now: Double) -> [PhotoID] {
        var changed: [PhotoID] = []
        for result in service.takeResults(for: client) {
            let photo = result.request.photo
            // Asked for before the library changed, and the photo has gone or been renamed since
            // (the file the job read is no longer the photo's).
            guard photos.photo(photo)?.path == result.request.path else { continue }
            // A cancelled job is asked for again below if its photo is still shown.
            guard case .thumbnail(let outcome) = result.output else { continue }
            let size: ThumbnailSize
            switch result.request.job {
            case .thumbnail(let asked):
                size = asked
                looked[photo] = asked
                lookSeconds.append(result.seconds)
            case .makeThumbnail(let asked):
                size = asked
                makeSeconds.append(result.seconds)
            case .remakeThumbnail(let asked):
                size = asked
                makeSeconds.append(result.seconds)
                remake.remove(photo)
            case .exifPreview, .preview, .draft, .fit, .detail, .tiles, .openTiles, .frames:
                continue
            }
            // Only stored: the cache has it (a look found it, or it was made and written).
            if storesOnly {
                switch outcome {
                case .thumbnail:
                    stored[photo] = size
                    continue
                case .standIn, .toMake:
                    continue
                case .failed:
                    break
                }
            }
            var arrived: Held
            switch outcome {
            case .thumbnail(let image):
                arrived = Held(
                    state: .thumbnail(image, arrivedAt: now, isStandIn: false), size: size, isStandIn: false,
                    bytes: image.pixels.byteCount)
            case .standIn(let image):
                // A stand-in never replaces a real thumbnail (of another size class).
                if let current = held[photo], !current.isStandIn, !current.isStale { continue }
                arrived = Held(
                    state: .thumbnail(image, arrivedAt: now, isStandIn: true), size: size, isStandIn: true,
                    bytes: image.pixels.byteCount)
            case .toMake:
                continue
            case .failed(let reason):
                arrived = Held(state: .failed(reason: reason), size: nil, isStandIn: false, bytes: 0)
            }
            // A job that began before its file was written anew may have read the old bytes.
            arrived.isStale = remake.contains(photo)
            // Made again over a stale thumbnail on show, it takes its place at once: the cell
            // never fades back in from its grey plate.
            if let current = held[photo], current.isStale, case .thumbnail(_, let shownSince, _) = current.state,
               case .thumbnail(let image, _, let isStandIn) = arrived.state {
                arrived.state = .thumbnail(image, arrivedAt: shownSince, isStandIn: isStandIn)
            }
            // A late thumbnail of a size class given up never replaces one of the current class.
            if let current = held[photo], current.size == self.size, arrived.size != self.size, !current.isStandIn, !current.isStale {
                continue
            }
            bytesHeld += arrived.bytes - (held[photo]?.bytes ?? 0)
            held[photo] = arrived
            changed.append(photo)
        }
        evictOverBudget()
        askForThumbnails()
        return changed
    }

    /// Blocks until every job asked for has finished (tests look at a settled state).
    package func waitForThumbnails() { service.waitUntilIdle() }

    /// `photo`'s place in the ordering, nil when it is not in it.
    private func place(of photo: PhotoID) -> Int? { photos.index(of: photo) }

    /// True when `photo` is in the visible range or the range ahead.
    private func isShown(_ photo: PhotoID) -> Bool {
        guard let index = place(of: photo) else { return false }
        return visible.contains(index) || ahead.contains(index) || picked.contains(index)
    }

    /// Tells the service the jobs wanted now: the visible cells' in order, then those ahead,
    /// nearest the visible range first. The grid's visible cells are what a person looking at
    /// it waits for: urgent, made by the focus workers at the app's priority (`DecodeService`),
    /// while those ahead wait for the workers below it. (The strip's cells, under the pager's
    /// photo, stay behind it.)
    private func askForThumbnails() {
        let aheadOrder = ahead.sorted { distance($0) < distance($1) }
        func requests(_ places: [Int]) -> [DecodeRequest] {
            places.map { photos.photos[$0] }.filter { !shed.contains($0.id) }.compactMap { photo in
                nextJob(photo.id).map { DecodeRequest(photo: photo.id, path: photo.path, job: $0) }
            }
        }
        let shown = requests(Array(visible) + picked)
        service.want(shown + requests(aheadOrder), for: client, urgent: client == .grid ? shown.count : 0)
    }

    /// The job `photo` needs next: its making again when its file was written anew; nil when
    /// it holds a real thumbnail of the size class or has failed; the making of the thumbnail
    /// once the quick look is done; else the quick look.
    private func nextJob(_ photo: PhotoID) -> DecodeJob? {
        if remake.contains(photo) { return .remakeThumbnail(size) }
        if storesOnly, stored[photo] == size { return nil }
        if let current = held[photo], !current.isStale {
            if current.size == nil || (current.size == size && !current.isStandIn) { return nil }
        }
        return looked[photo] == size ? .makeThumbnail(size) : .thumbnail(size)
    }

    /// How many cells place `index` lies from the visible range: 0 inside it.
    private func distance(_ index: Int) -> Int {
        if index < visible.lowerBound { return visible.lowerBound - index }
        if index >= visible.upperBound { return index - visible.upperBound + 1 }
        return 0
    }

    /// Lets the thumbnails farthest from the visible range go until the bytes held fit the
    /// budget, never a visible or picked one.
    private func evictOverBudget() {
        while bytesHeld > budget {
            let candidates = held.compactMap { photo, thumbnail -> (photo: PhotoID, place: Int)? in
                guard thumbnail.bytes > 0, let index = place(of: photo), !visible.contains(index), !picked.contains(index) else {
                    return nil
                }
                return (photo, index)
            }
            // Ties (as far above as below) go to the later photo, so eviction is deterministic.
            guard let farthest = candidates.max(by: { (distance($0.place), $0.place) < (distance($1.place), $1.place) }) else { return }
            bytesHeld -= held[farthest.photo]?.bytes ?? 0
            held[farthest.photo] = nil
            looked[farthest.photo] = nil
            if ahead.contains(farthest.place) { shed.insert(farthest.photo) }
        }
    }
}
