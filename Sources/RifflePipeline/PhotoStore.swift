import RiffleGeometry
import RiffleImageIO
import RiffleLibrary
import RiffleRaster

/// The decoded photos around the current one, within a byte budget, and the decode work that
/// brings them in.
///
/// Asks for: previews of the pages on screen or on the strip's way to its target that have
/// nothing to show (their EXIF thumbnails, nearest first, else 1/8 decodes), the focused
/// photo's EXIF thumbnail while it has nothing to show and its draft (`DecodeJob.draft`, sharp
/// at fit) while it has nothing finer than a preview, the focused photo at the size it is shown, the
/// EXIF thumbnails of its neighbours at ±1 (`radius`) that have nothing to show, then those
/// neighbours' real decodes, the direction of travel first, and last, for a huge photo, the
/// opening of its tile source (its scan index) ahead of any zoom, and previews of the library's
/// first two and last two photos (where Home and End land: their first frame shows the target's
/// neighbour); away from the focus an end keeps only a preview (`shrinkFarEnds`).
/// Only that neighbourhood, the pages in view and those ends are held — memory stays flat whatever the
/// library's size — and within it the bytes held never pass `budget` (a zoomed photo's sharper
/// pixels can be large): the photos farthest from the focus go first, never the focused one
/// nor one in view, and a neighbour is decoded only while it fits beside those nearer the
/// focus (`affordable`), so a small budget leaves the far ones out rather than decoding and
/// evicting them in turn. Results for photos that have
/// left the neighbourhood are dropped on arrival, so the budget is never passed by more than the
/// decodes in flight.
///
/// The focused photo, when it moves (`DecodedPhoto.isAnimated`), plays once its real decode is
/// in (`AnimationPlayback`: its frames at fit, decoded ahead on the workers, the next batch
/// asked for right after the focused photo's real decode): at fit and while zoomed (its frames
/// are not decoded sharper), until its loops are done. Paged away from, it pauses: the page
/// keeps the frame it was on while it stays in view; focused again, it plays from its first
/// frame (as a browser plays a GIF anew each time it is shown).
///
/// What is held is held by `PhotoID`; places (the focus, its neighbours, the pages in view, the
/// ends) are places in the store's ordering (`photos`), which is the pager's. A change of the
/// folders (`follow`) moves nothing: it lets go of what belongs to photos that left and marks
/// the rewritten ones stale.
///
/// While paging passes photos faster than a decode takes (`setPassing(_:refocus:)`: a held
/// key, fast presses), nothing is decoded in full: the pages in view and the focus get previews
/// only, until paging rests.
///
/// The pager's client of the decode service (`DecodeClient.pager`): everything up to the
/// focused photo's real decode (and its next frames) is urgent, ahead of the grid's thumbnails
/// even while the grid is in front (the photo a tap in the grid opens decodes during the
/// transition).
package final class PhotoStore {
    /// How many photos on each side of the focused one are decoded ahead and held: the photo
    /// one press away either way is sharp when it slides in. Two presses inside a decode's time
    /// are paging that passes (`setPassing`), and the photo it rests on decodes on both cores
    /// (90 ms for 24 MP at 1080p), so a second ring would hold 2 more fits (13.4 MiB at 1080p)
    /// for what a preview bridges.
    static let radius = 1

    /// An end (`ends`) away from the focus and out of view keeps its pixels at fit shrunk by this
    /// on each side, as a preview: a sixteenth of a fit's bytes (0.4 MiB of 6.7 for a 3:2 photo at
    /// 1080p, 405×270), finer than a camera's EXIF thumbnail (160×107). Riffle's choice.
    static let endPreviewShrink = 4

    private struct Entry {
        var content: PhotoContent
        /// The request the content was decoded for.
        var request: DecodeRequest
        var bytes: Int
        /// Its file was written anew since: shown until a decode of the file as it is now
        /// replaces it, but never taken for what the photo needs.
        var isStale = false
    }

    /// The pager's ordering of the photos.
    private(set) var photos: PhotoOrder
    /// Most bytes of decoded pixels held at once (the decodes in flight aside).
    let budget: Int
    /// Bytes of decoded pixels held now, and the most ever held.
    private(set) var bytesHeld = 0
    package private(set) var bytesHighWater = 0
    /// Every real photo decode, preview (EXIF thumbnail or 1/8 decode, or the look for one) and
    /// tile decode that finished, in seconds, for `--stats`.
    package private(set) var decodeSeconds: [Double] = []
    package private(set) var previewSeconds: [Double] = []
    /// Every draft job that finished (a draft, or the preview made in its place), in seconds.
    package private(set) var draftSeconds: [Double] = []
    package private(set) var tileDecodeSeconds: [Double] = []
    /// Every opening of a huge photo's tile source (reading and indexing the file), in seconds.
    package private(set) var tileOpenSeconds: [Double] = []
    /// Decodes given up part-way because their photo stopped being wanted.
    package private(set) var cancelledDecodes = 0
    /// How many full decodes (real decodes at fit or sharper, and drafts: each a whole pass over
    /// the file) each photo got, finished or given up part-way; a photo only passed while
    /// paging fast gets none (`setPassing(_:refocus:)`).
    package private(set) var fullDecodes: [PhotoID: Int] = [:]
    private let service: DecodeService<DecodeOutput>
    private let tileSources: TileSources
    private let animationSources: AnimationSources
    private var entries: [PhotoID: Entry] = [:]
    /// The focused photo playing, when it moves.
    private var playback: AnimationPlayback?
    /// The frame a photo paged away from was on, kept while its page is in view.
    private var paused: (photo: PhotoID, frame: PlaybackFrame)?
    /// Bytes of the frames held (the playback's and the paused one), as counted in `bytesHeld`.
    private var frameBytes = 0
    /// The place of the focused photo in `photos`.
    private var focus = 0
    private var viewport = PixelSize.zero
    private var direction = 0
    /// The zoom (relative to fit) the focused photo is shown at, for a sharper decode.
    private var detail = 1.0
    /// Pyramid tiles of the focused photo: those held, and those its view needs now.
    private var tiles: [TileKey: TilePixels] = [:]
    private var wantedTiles: [TileKey] = []
    /// Set when the focused photo's tiles cannot be decoded: it stays at its base pixels.
    private var tilesFailed = false
    /// Set once the focused photo's tile source is open (its file read and indexed).
    private var tilesOpened = false
    /// Neighbours whose EXIF thumbnail was looked for (found or not): not asked for again.
    private var thumbnailsTried: Set<PhotoID> = []
    /// Photos whose preview (EXIF thumbnail, else 1/8 decode) was made or found redundant: not
    /// asked for again (a redundant one would be asked for every time results arrive).
    private var previewsTried: Set<PhotoID> = []
    /// Photos whose draft job ran (a draft made, or a preview in its place, or nothing): not
    /// asked for again.
    private var draftsTried: Set<PhotoID> = []
    /// Pages on screen or on the strip's way to its target, the soonest seen first.
    private var inView: [PhotoID] = []
    /// False while the pager is out of sight (the grid at rest over it): nothing is asked for.
    private var isPagerSeen = true
    /// True while paging passes photos faster than a decode takes (`setPassing(_:refocus:)`).
    private var isPassing = false

    /// A store of `photos` asking `service` for decodes, letting a huge photo's file go from
    /// `tileSources` (those its decodes open) and an animated one's from `animationSources`
    /// when it loses the focus.
    init(
        photos: PhotoOrder, service: DecodeService<DecodeOutput>, tileSources: TileSources, animationSources: AnimationSources,
        budget: Int
    ) {
        self.photos = photos
        self.service = service
        self.tileSources = tileSources
        self.animationSources = animationSources
        self.budget = budget
    }

    /// The frame `photo` shows instead of its still pixels: the playing photo's frame, or the
    /// one a photo paged away from paused on; nil for any other photo.
    package func animationFrame(of photo: PhotoID) -> PlaybackFrame? {
        if let playback, playback.photo == photo { return playback.shown }
        if let paused, paused.photo == photo { return paused.frame }
        return nil
    }

    /// When the playing photo's next frame is due (and held); nil when nothing plays, or the
    /// next frame is still being decoded (its result wakes the app).
    package var animationWakeTime: Double? { isPagerSeen ? playback?.nextChange : nil }

    /// Moves the playing photo to clock time `now` (the first frames taken in start it playing
    /// then); true when the frame it shows changed. Asks for the next frames when that made
    /// room for them.
    package func advanceAnimation(to now: Double) -> Bool {
        guard var playing = playback, playing.advance(to: now) else { return false }
        playback = playing
        countFrameBytes()
        if playing.asked == nil, !playing.isFinished { focus(on: focus, viewport: viewport, direction: 0) }
        if playing.isFinished, let photo = photos.photo(playing.photo) { animationSources.release(path: photo.path) }
        return true
    }

    /// What is known of `photo`: nil while nothing of it has been decoded.
    package func content(of photo: PhotoID) -> PhotoContent? { entries[photo]?.content }

    /// True when `photo` shows its real pixels for the current viewport (or its error): no
    /// preview, nothing missing.
    package func isSharp(_ photo: PhotoID) -> Bool { isSatisfied(photo) }

    /// True when the store has nothing left to decode: paging at rest, the focused photo and
    /// every neighbour the budget affords sharp (or failed). Work of the app's own for later
    /// (the hidden grid's thumbnails) waits for this.
    package var isIdle: Bool {
        !isPassing && focusedPhoto != nil && affordable().allSatisfy(isSatisfied)
    }

    /// True when `photo` looks sharp at fit: `isSharp`, or its draft for the current viewport
    /// is shown while its real decode runs.
    package func looksSharp(_ photo: PhotoID) -> Bool {
        if isSatisfied(photo) { return true }
        guard let entry = entries[photo], !entry.isStale, case .image(let decoded) = entry.content else { return false }
        return decoded.isDraft && entry.request.job.viewport == viewport && (photo != focusedPhoto || detail == 1)
    }

    /// The photo at the focus, nil when the ordering is empty.
    private var focusedPhoto: PhotoID? { photos.photo(at: focus)?.id }

    /// Centres the store on place `index` of its ordering for `viewport` and asks for the
    /// decodes still needed. `direction` (−1, 0, 1) puts that side's neighbours first.
    package func focus(on index: Int, viewport: PixelSize, direction: Int) {
        if index != focus {
            detail = 1
            dropTiles()
            pausePlayback()
        }
        focus = index
        let focused = focusedPhoto
        if let kept = paused, kept.photo == focused || !inView.contains(kept.photo) { paused = nil }
        countFrameBytes()
        for far in entries.keys where !isKept(far) {
            bytesHeld -= entries[far]?.bytes ?? 0
            entries[far] = nil
        }
        shrinkFarEnds()
        thumbnailsTried = thumbnailsTried.filter(isKept)
        previewsTried = previewsTried.filter(isKept)
        draftsTried = draftsTried.filter(isKept)
        self.viewport = viewport
        if direction != 0 { self.direction = direction }
        guard isPagerSeen else {
            service.want([], for: .pager)
            return
        }
        var wanted: [DecodeRequest] = []
        // What is on screen now, or will be within a few frames, before anything else: its
        // thumbnail (the quick lane takes it at once), else a 1/8 decode, else (a photo whose
        // real decode is as cheap) the real decode.
        for page in inView where entries[page] == nil && page != focused {
            // While paging passes, never the real decode: the page shows its placeholder.
            if let preview = previewRequest(page) { wanted.append(preview) } else if !isPassing { wanted.append(wholeRequest(page)) }
        }
        if isPassing {
            // Only passed: what shows it (its preview; the pages in view have theirs above), no
            // full decode, which the next turn would abandon. Paging at rest asks for the rest.
            if let focused, entries[focused] == nil, let preview = previewRequest(focused) { wanted.append(preview) }
            for photo in neighbourhood.dropFirst() where entries[photo] == nil && !thumbnailsTried.contains(photo) && !inView.contains(photo) {
                wanted.append(request(photo, .exifPreview))
            }
            var seen = Set<DecodeRequest>()
            let once = wanted.filter { seen.insert($0).inserted }
            service.want(once, for: .pager, urgent: once.count)
            return
        }
        if let focused {
            // Its EXIF thumbnail at once (the quick lane), and beside it a draft, sharp at fit in
            // a fraction of the real decode's time (or the 1/8 preview where a draft saves too little).
            if entries[focused] == nil, !thumbnailsTried.contains(focused) { wanted.append(request(focused, .exifPreview)) }
            if stage(of: focused) < .draft, !draftsTried.contains(focused) {
                wanted.append(request(focused, .draft(viewport: viewport)))
            }
            let missingTiles = wantedTiles.filter { tiles[$0] == nil }
            if !missingTiles.isEmpty, !tilesFailed { wanted.append(request(focused, .tiles(missingTiles))) }
        }
        let needed = affordable().filter { !isSatisfied($0) }
        wanted += needed.prefix { $0 == focused }.map(wholeRequest)
        // A playing photo's next frames: on screen soon.
        if let frames = playbackRequest() { wanted.append(frames) }
        countFrameBytes()
        // The focused photo, and what is on screen, go ahead of every other client's work.
        let urgent = wanted.count
        // The neighbours' EXIF thumbnails (a few KiB each) before any neighbour's real decode,
        // so a photo sliding in before its decode is done still shows.
        for photo in neighbourhood.dropFirst() where entries[photo] == nil && !thumbnailsTried.contains(photo) && !inView.contains(photo) {
            wanted.append(request(photo, .exifPreview))
        }
        // Nothing for the neighbours competes with the focused photo until it is sharp (or has
        // failed): on two cores its decode takes both (`ImageDecoder.decodesOnTwoCores`), and
        // even a prefetch worker five nice levels down takes a quarter of a core from it.
        if focused.map(isSatisfied) ?? true {
            wanted += needed.drop { $0 == focused }.map(wholeRequest)
            // Previews of the ends, for Home and End, behind everything near the focus; only
            // previews: an end's real decode, let go for the budget, would be asked for again and
            // again (one on screen gets it through the pages in view).
            for (place, photo) in ends where entries[photo] == nil && !inView.contains(photo) && abs(place - index) > Self.radius {
                if let preview = previewRequest(photo) { wanted.append(preview) }
            }
        }
        // A huge photo's tile source last: paging on must not wait for it.
        if let focused, case .image(let photo)? = entries[focused]?.content, photo.pyramid != nil, !photo.isPreview, !tilesOpened,
           !tilesFailed {
            wanted.append(request(focused, .openTiles))
        }
        // One request once: a page in view near the focus can be asked for twice above.
        var seen = Set<DecodeRequest>()
        let once = wanted.enumerated().filter { seen.insert($0.element).inserted }
        service.want(once.map(\.element), for: .pager, urgent: once.count { $0.offset < urgent })
    }

    /// The pager comes into sight (`seen`: a photo opens, or is dragged down over the grid) or
    /// leaves it (the grid at rest over it). Out of sight the store asks for nothing, so the
    /// photos around the last one shown never hold a decoder the grid's thumbnails need; what
    /// it holds stays, but an animation's frames.
    package func setPagerSeen(_ seen: Bool) {
        guard seen != isPagerSeen else { return }
        isPagerSeen = seen
        // Out of sight nothing plays; seen again, the photo plays from its first frame.
        if !seen {
            stopPlayback()
            paused = nil
        }
        focus(on: focus, viewport: viewport, direction: 0)
    }

    /// Paging passes photos faster than a decode takes (`passing`: a held key, fast presses) or
    /// has come to rest. While it passes, the store asks for no full decode (no draft, no real
    /// decode of the focus or its neighbours, no tiles, no frames): only previews of the pages in
    /// view and of the focus, and the neighbours' EXIF thumbnails; what it holds stays. At rest
    /// it asks for everything again, for the photo paging rests on. With `refocus` false the
    /// caller focuses the store itself right after.
    package func setPassing(_ passing: Bool, refocus: Bool = true) {
        guard passing != isPassing else { return }
        isPassing = passing
        if refocus { focus(on: focus, viewport: viewport, direction: 0) }
    }

    /// The pages on screen now and those the strip will cross on its way to its target (soonest
    /// first), as places in the ordering: they are kept and get previews before anything else.
    package func keepInView(_ pages: [Int]) {
        let photos = pages.compactMap { self.photos.photo(at: $0)?.id }
        guard photos != inView else { return }
        inView = photos
        focus(on: focus, viewport: viewport, direction: 0)
    }

    /// The focus, then its neighbours out to `radius`, nearest first and at each distance the
    /// side of the direction of travel first (those the ordering has): the order their real
    /// decodes are asked for in (`affordable`), and the reverse of the order they are let go in
    /// (`evictOverBudget`).
    private var neighbourhood: [PhotoID] {
        let lead = direction < 0 ? -1 : 1
        let places = [focus] + (1...Self.radius).flatMap { [focus + lead * $0, focus - lead * $0] }
        return places.compactMap { photos.photo(at: $0)?.id }
    }

    /// True when `photo` may be held: near the focus, in view, or at an end.
    private func isKept(_ photo: PhotoID) -> Bool {
        guard let place = photos.index(of: photo) else { return false }
        return abs(place - focus) <= Self.radius || inView.contains(photo) || ends.contains { $0.photo == photo }
    }

    /// The first two and last two photos, with their places: where Home and End land and the
    /// page they slide from.
    private var ends: [(place: Int, photo: PhotoID)] {
        let count = photos.photos.count
        return Set([0, 1, count - 2, count - 1]).sorted().compactMap { place in photos.photo(at: place).map { (place, $0.id) } }
    }

    /// The focused photo is shown `detail` times larger than at fit; asks for a sharper decode
    /// when the pixels held are coarser than that (up to the photo's full resolution), and for
    /// the fit decode again once it is back at fit (within 10⁻⁶, taken as exactly 1).
    package func showFocused(atDetail detail: Double) {
        // A zoom animated back to fit may end a rounding error off it; at fit the decode must
        // be the very one paging brings in (`isSatisfied`).
        let detail = abs(detail - 1) <= 1e-6 ? 1 : detail
        guard abs(detail - self.detail) > 1e-6 else { return }
        self.detail = detail
        focus(on: focus, viewport: viewport, direction: 0)
    }

    /// The focused photo is seen zoomed in where it needs pyramid `keys` (empty: none); asks for
    /// the missing ones, current view first, and forgets tiles outside the view when the bytes
    /// held pass the budget. True when `keys` differ from those wanted before.
    @discardableResult
    package func showFocusedTiles(_ keys: [TileKey]) -> Bool {
        guard keys != wantedTiles else { return false }
        wantedTiles = keys
        focus(on: focus, viewport: viewport, direction: 0)
        return true
    }

    /// True when every tile the focused photo's view needs is held (or tiles failed, and the
    /// base pixels are all there will be).
    package var hasWantedTiles: Bool { tilesFailed || wantedTiles.allSatisfy { tiles[$0] != nil } }

    /// The focused photo's tiles held now, coarsest level first (finer ones draw over them).
    package func focusedTiles() -> [TilePixels] {
        tiles.values.sorted { ($0.key.level, $0.key.row, $0.key.column) > ($1.key.level, $1.key.row, $1.key.column) }
    }

    /// The library changed (`LibraryUpdate`): `photos` is the pager's ordering now, the photos
    /// of `rewritten` written anew. What is held stays with its photo; what belongs to a photo
    /// that left goes; a rewritten photo's pixels stay on show, stale, until its new decode
    /// replaces them, and an animation playing starts over. The focus stays on its photo (on
    /// place 0 when it left); the caller then focuses the store where the pager rests.
    func follow(_ photos: PhotoOrder, rewritten: Set<PhotoID>) {
        // A decode finished before the change may have read a file since written anew.
        _ = service.takeResults(for: .pager)
        let focused = focusedPhoto
        if focused.map({ !photos.contains($0) || rewritten.contains($0) }) ?? true { dropTiles() }
        stopPlayback()
        paused = nil
        for (photo, var entry) in entries {
            guard photos.contains(photo) else {
                bytesHeld -= entry.bytes
                entries[photo] = nil
                continue
            }
            if rewritten.contains(photo) {
                entry.isStale = true
                entries[photo] = entry
            }
        }
        func following(_ set: Set<PhotoID>) -> Set<PhotoID> { set.filter { photos.contains($0) && !rewritten.contains($0) } }
        thumbnailsTried = following(thumbnailsTried)
        previewsTried = following(previewsTried)
        draftsTried = following(draftsTried)
        inView = inView.filter(photos.contains)
        focus = focused.flatMap(photos.index(of:)) ?? 0
        self.photos = photos
    }

    /// Takes finished decodes into the store and returns, for each photo that changed, its
    /// full-resolution size (nil for a photo that failed).
    package func absorbResults() -> [(photo: PhotoID, fullSize: PixelSize?)] {
        var changed: [(photo: PhotoID, fullSize: PixelSize?)] = []
        var askAgain = false
        for result in service.takeResults(for: .pager) {
            switch result.request.job {
            case .fit, .detail, .draft: fullDecodes[result.request.photo, default: 0] += 1
            default: break
            }
            if case .cancelled = result.output {
                // Its photo may be wanted again by now; asking below re-queues it if so.
                cancelledDecodes += 1
                playback?.forget(result.request)
                askAgain = true
                continue
            }
            if case .frames(let outcome) = result.output {
                playback?.absorb(outcome, of: result.request)
                askAgain = true
                continue
            }
            let id = result.request.photo
            let job = result.request.job
            // Asked for before the library changed, and the photo has gone or been renamed since
            // (the file the job read is no longer the photo's).
            guard let listed = photos.photo(id), listed.path == result.request.path else {
                if case .tilesOpened = result.output { tileSources.release(path: result.request.path) }
                askAgain = true
                continue
            }
            if case .exifPreview = job { thumbnailsTried.insert(id) }
            if case .preview = job { previewsTried.insert(id) }
            if case .draft = job { draftsTried.insert(id) }
            if case .tilesOpened(let outcome) = result.output {
                tileOpenSeconds.append(result.seconds)
                guard id == focusedPhoto else {
                    // Opened after the photo lost the focus: let its file go.
                    tileSources.release(path: result.request.path)
                    continue
                }
                // Asking again would fail again; the base pixels stay.
                if case .failure = outcome { tilesFailed = true } else { tilesOpened = true }
                askAgain = true
                continue
            }
            if case .tiles = job {
                tileDecodeSeconds.append(result.seconds)
            } else if case .draft = job {
                draftSeconds.append(result.seconds)
            } else if job.isPreview {
                previewSeconds.append(result.seconds)
            } else {
                decodeSeconds.append(result.seconds)
            }
            guard isKept(id) else { continue }
            let content: PhotoContent
            switch result.output {
            case .tiles(let outcome):
                guard id == focusedPhoto else { continue }
                switch outcome {
                case .success(let decoded):
                    for tile in decoded {
                        bytesHeld += tile.pixels.byteCount - (tiles[tile.key]?.pixels.byteCount ?? 0)
                        tiles[tile.key] = tile
                    }
                case .failure:
                    // The base pixels stay; asking again would fail again.
                    tilesFailed = true
                }
                changed.append((id, fullSize(of: id)))
                continue
            case .photo(let photo):
                content = photo
            case .redundantPreview, .cancelled, .tilesOpened, .thumbnail, .frames:
                continue
            }
            // A late stand-in never replaces finer pixels: a preview a draft, a draft real ones.
            if job.isPreview, stage(of: id) > Stage(content) { continue }
            // A file still being written that cannot be decoded now (it grew during every read)
            // keeps the pixels of what had arrived before; its next write decodes it again.
            if case .failure = content, listed.isArriving, case .image? = entries[id]?.content {
                entries[id]?.isStale = false
                continue
            }
            let bytes: Int
            switch content {
            case .image(let photo):
                bytes = photo.smaller.reduce(photo.pixels.byteCount) { $0 + $1.byteCount }
                changed.append((id, photo.fullSize))
            case .failure:
                bytes = 0
                changed.append((id, nil))
            }
            bytesHeld += bytes - (entries[id]?.bytes ?? 0)
            entries[id] = Entry(content: content, request: result.request, bytes: bytes)
        }
        evictOverBudget()
        bytesHighWater = max(bytesHighWater, bytesHeld)
        if !changed.isEmpty || askAgain { focus(on: focus, viewport: viewport, direction: 0) }
        return changed
    }

    /// Blocks until every requested decode has finished (headless snapshots are deterministic).
    package func waitForDecodes() { service.waitUntilIdle() }

    /// The request for `job` of `photo`, a photo of the ordering, its file as named now.
    private func request(_ photo: PhotoID, _ job: DecodeJob) -> DecodeRequest {
        DecodeRequest(photo: photo, path: photos.photo(photo)?.path ?? "", job: job)
    }

    /// The real decode of `photo` for the viewport: at the zoom's detail for the focused photo,
    /// at fit for the others.
    private func wholeRequest(_ photo: PhotoID) -> DecodeRequest {
        request(photo, .whole(viewport: viewport, detail: wantedDetail(photo)))
    }

    /// How much sharper than at fit `photo` is wanted: the zoom's detail for the focused photo,
    /// unless it moves (its frames are decoded at fit, so a sharper still would show only until
    /// the first frame replaces it), else 1.
    private func wantedDetail(_ photo: PhotoID) -> Double {
        guard photo == focusedPhoto else { return 1 }
        if case .image(let decoded)? = entries[photo]?.content, decoded.isAnimated { return 1 }
        return detail
    }

    /// The focused photo's next frames to ask for, starting its playback once its real decode
    /// (for this viewport) shows it moves; nil when there is nothing to ask for.
    private func playbackRequest() -> DecodeRequest? {
        guard let focused = photos.photo(at: focus), let entry = entries[focused.id], !entry.isStale,
              case .image(let decoded) = entry.content, decoded.isAnimated, !decoded.isPreview
        else { return nil }
        if playback.map({ $0.photo != focused.id || $0.viewport != viewport }) ?? true {
            stopPlayback()
            playback = AnimationPlayback(photo: focused.id, viewport: viewport, frameBytes: decoded.pixels.byteCount)
        }
        return playback?.request(path: focused.path)
    }

    /// The focused photo loses the focus: its playback stops, the frame it was on kept for its
    /// page while in view.
    private func pausePlayback() {
        if let playback, let shown = playback.shown { paused = (playback.photo, shown) }
        stopPlayback()
    }

    /// Stops the playback and lets its decoder go.
    private func stopPlayback() {
        if let playback, let photo = photos.photo(playback.photo) { animationSources.release(path: photo.path) }
        playback = nil
    }

    /// The ends away from the focus and out of view keep previews only: finer pixels held of one
    /// (its fit while it was the focus or a neighbour, a draft, a real decode that arrived after
    /// the focus left, a sharper one made for a zoom) are area-averaged to `1 / endPreviewShrink`
    /// of the sides the photo has at fit, in place of a decode. The first and last photos are held for the whole session, for Home and End, and
    /// would otherwise hold a fit each; pressing End shows the preview at once and decodes the
    /// photo as any page it lands on.
    private func shrinkFarEnds() {
        for (place, photo) in ends where abs(place - focus) > Self.radius && !inView.contains(photo) {
            guard let entry = entries[photo], Stage(entry.content) > .preview, case .image(let decoded) = entry.content else { continue }
            let atFit = PhotoDecoding.target(for: decoded.fullSize, in: viewport, factor: 1)
            let width = min(atFit.width / Self.endPreviewShrink, decoded.pixels.width)
            let height = min(atFit.height / Self.endPreviewShrink, decoded.pixels.height)
            guard width > 0, height > 0 else { continue }
            let preview = DecodedPhoto(
                pixels: AreaResample.shrink(decoded.pixels, toWidth: width, height: height), fullSize: decoded.fullSize,
                isOpaque: decoded.isOpaque, smaller: [], isPreview: true, pyramid: nil, damage: decoded.damage)
            let bytes = preview.pixels.byteCount
            bytesHeld += bytes - entry.bytes
            entries[photo] = Entry(content: .image(preview), request: entry.request, bytes: bytes, isStale: entry.isStale)
        }
    }

    /// Counts the frames held (the playback's, the paused one) in `bytesHeld`.
    private func countFrameBytes() {
        let bytes = (playback?.bytes ?? 0) + (paused?.frame.pixels.byteCount ?? 0)
        bytesHeld += bytes - frameBytes
        frameBytes = bytes
        bytesHighWater = max(bytesHighWater, bytesHeld)
    }

    /// The cheapest look at `photo` not yet tried: its EXIF thumbnail, else a 1/8 decode; nil
    /// once both were tried (no thumbnail, and a real decode at 1/8 already, so a preview would
    /// be redundant: for a page in view the real decode then costs no more).
    private func previewRequest(_ photo: PhotoID) -> DecodeRequest? {
        if !thumbnailsTried.contains(photo) { return request(photo, .exifPreview) }
        return previewsTried.contains(photo) ? nil : request(photo, .preview(viewport: viewport))
    }

    /// How fine what is held of a photo is: nothing, a preview (EXIF thumbnail or 1/8 decode),
    /// a draft, or the real thing (real pixels, or the reason there are none).
    private enum Stage: Comparable {
        case none, preview, draft, real

        init(_ content: PhotoContent) {
            switch content {
            case .image(let photo): self = photo.isDraft ? .draft : photo.isPreview ? .preview : .real
            case .failure: self = .real
            }
        }
    }

    private func stage(of photo: PhotoID) -> Stage {
        guard let entry = entries[photo], !entry.isStale else { return .none }
        return Stage(entry.content)
    }

    private func fullSize(of photo: PhotoID) -> PixelSize? {
        if case .image(let decoded)? = entries[photo]?.content { return decoded.fullSize }
        return nil
    }

    private func dropTiles() {
        for tile in tiles.values { bytesHeld -= tile.pixels.byteCount }
        tiles.removeAll()
        wantedTiles.removeAll()
        tilesFailed = false
        tilesOpened = false
        if let focused = photos.photo(at: focus) { tileSources.release(path: focused.path) }
    }

    /// Drops tiles out of view, then photos until the bytes held fit the budget: the ends
    /// outside the neighbourhood, farthest first, then the neighbours in the reverse of
    /// `neighbourhood`'s order, so what `affordable` asks for is never what goes.
    private func evictOverBudget() {
        let needed = Set(wantedTiles)
        for (key, tile) in tiles where bytesHeld > budget && !needed.contains(key) {
            bytesHeld -= tile.pixels.byteCount
            tiles[key] = nil
        }
        let order = neighbourhood
        func rank(_ photo: PhotoID) -> (place: Int, distance: Int) {
            (order.firstIndex(of: photo) ?? order.count, photos.index(of: photo).map { abs($0 - focus) } ?? .max)
        }
        let focused = focusedPhoto
        while bytesHeld > budget {
            let candidates = entries.keys.filter { $0 != focused && !inView.contains($0) }
            guard let last = candidates.max(by: { rank($0) < rank($1) }) else { return }
            bytesHeld -= entries[last]?.bytes ?? 0
            entries[last] = nil
        }
    }

    /// The photos of `neighbourhood` whose real decodes fit in the budget together: the focus
    /// always, then each neighbour while the bytes of the tiles and frames held, of the photos
    /// before it and its own stay within `budget` (a photo's bytes: those held when it needs
    /// nothing more, else `expectedBytes`). The first that does not fit ends the list: decoded,
    /// it would be evicted for the budget and asked for again, over and over.
    private func affordable() -> [PhotoID] {
        var committed = frameBytes + tiles.values.reduce(0) { $0 + $1.pixels.byteCount }
        var fitting: [PhotoID] = []
        let focused = focusedPhoto
        for photo in neighbourhood {
            let bytes = isSatisfied(photo) ? entries[photo]?.bytes ?? 0 : expectedBytes(photo)
            if photo != focused && committed + bytes > budget { break }
            committed += bytes
            fitting.append(photo)
        }
        return fitting
    }

    /// The bytes photo `index`'s real decode will hold: its decode target at the wanted detail
    /// (`PhotoDecoding.target`) when its full size is known from a preview, else the viewport
    /// times the detail, which no target passes; 4 bytes a pixel, and a third more for the mip
    /// levels of a decode sharper than fit (each level a quarter of the one before).
    private func expectedBytes(_ photo: PhotoID) -> Int {
        let detail = wantedDetail(photo)
        let size = fullSize(of: photo).map { PhotoDecoding.target(for: $0, in: viewport, factor: detail) }
            ?? PixelSize(width: Int((Double(viewport.width) * detail).rounded(.up)), height: Int((Double(viewport.height) * detail).rounded(.up)))
        let base = size.width * size.height * 4
        return detail > 1 ? base + base / 3 : base
    }

    /// True when photo `index` needs no other decode for the current viewport and zoom: it
    /// failed, or its real (not preview) pixels were decoded at fit for the very size it is
    /// decoded for at fit now, or by a zoom for at least the size it is shown at — except that
    /// the focused photo at fit always needs its fit decode.
    ///
    /// A zoom's sharper decode is drawn at fit by the compositor's bilinear, from its
    /// box-halved levels, which differs from the fit decode, and the same photo at fit must
    /// look the same however it got there: once focused at fit it is decoded at fit again. A
    /// neighbour keeps it meanwhile, since it slides away (or back) still zoomed. Sizes are
    /// compared as decode targets, which fix the pixels a decode gives (`PhotoDecoding.target`),
    /// so a resize that leaves a photo's shown size alone decodes nothing.
    private func isSatisfied(_ photo: PhotoID) -> Bool {
        guard let entry = entries[photo], !entry.isStale else { return false }
        switch entry.content {
        case .failure:
            return true
        case .image(let decoded):
            if decoded.isPreview { return false }
            let wantedDetail = wantedDetail(photo)
            guard let decodedFor = entry.request.job.viewport else { return false }
            let held = PhotoDecoding.target(for: decoded.fullSize, in: decodedFor, factor: entry.request.job.detail)
            let wanted = PhotoDecoding.target(for: decoded.fullSize, in: viewport, factor: wantedDetail)
            if entry.request.job.detail == 1 || (photo == focusedPhoto && wantedDetail == 1) { return held == wanted }
            return held.width >= wanted.width && held.height >= wanted.height
        }
    }
}
