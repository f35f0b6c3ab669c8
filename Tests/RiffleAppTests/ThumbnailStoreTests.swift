import Dispatch
import Foundation
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Synchronization
import Testing

/// The grid's thumbnail store, each test with a pipeline of its own over photos in a scratch
/// folder and a thumbnail cache there (`cache/thumbnails`), given explicitly.
@Suite(.serialized) struct ThumbnailStoreTests {
    /// Decode jobs recorded as they start and, when `holds`, held until let go or cancelled;
    /// then carried out for real.
    final class Jobs: @unchecked Sendable {
        private let lock = NSLock()
        private var requests: [DecodeRequest] = []
        private let gate = DispatchSemaphore(value: 0)
        private let holds: Bool

        init(holds: Bool) { self.holds = holds }

        /// Every request a worker started, in order.
        var started: [DecodeRequest] { lock.withLock { requests } }

        func decode(_ decoding: PhotoDecoding, _ request: DecodeRequest, _ cancellation: DecodeCancellation) -> DecodeOutput {
            lock.withLock { requests.append(request) }
            while holds && gate.wait(timeout: .now() + .milliseconds(2)) == .timedOut {
                if cancellation.isCancelled { return .cancelled }
            }
            return decoding.perform(request, cancellation: cancellation)
        }

        /// Lets `count` held jobs go, running or to come.
        func release(_ count: Int) { for _ in 0..<count { gate.signal() } }
    }

    let scratch: ScratchFolder
    let cacheFolder: String

    init() throws {
        scratch = try ScratchFolder()
        try scratch.makeFolder("photos")
        try scratch.makeFolder("cache")
        cacheFolder = scratch.path("cache/thumbnails")
    }

    /// A 200×150 baseline JPEG in `colour`: its normal thumbnail is 128×96.
    static func photo(_ colour: Color, exifThumbnail: PixelBuffer? = nil) throws -> [UInt8] {
        try ThumbnailCacheTests.jpeg(width: 200, height: 150, left: colour, thumbnail: exifThumbnail)
    }

    /// `count` photos in `photos/`, each `bytes`, named so they sort in order.
    func photos(count: Int, bytes: [UInt8]) throws -> [Photo] {
        Photo.numbered(try (0..<count).map { try scratch.write(bytes, to: String(format: "photos/p%02d.jpg", $0)) })
    }

    /// A pipeline for `photos` with one decode worker (jobs then start in the order wanted)
    /// and no quick lane, its thumbnails in the scratch cache.
    func pipeline(_ photos: [Photo], jobs: Jobs, thumbnailBudget: Int = ThumbnailStore.defaultBudget) -> PhotoPipeline {
        PhotoPipeline(
            photos: photos, memoryBudget: 192 << 20, thumbnailBudget: thumbnailBudget, thumbnailFolder: cacheFolder,
            workers: 1, clock: { MonotonicClock().now() }, decode: { jobs.decode($0, $1, $2) })
    }

    /// Lets every job asked for finish and takes the results in, `rounds` times (a thumbnail
    /// takes two jobs, the second asked for once the first is in), at clock time `now`.
    @discardableResult
    static func settle(_ store: ThumbnailStore, at now: Double = 1, rounds: Int = 3) -> [PhotoID] {
        var changed: [PhotoID] = []
        for _ in 0..<rounds {
            store.waitForThumbnails()
            changed += store.absorbResults(at: now)
        }
        return changed
    }

    /// The thumbnail in `state`: its pixels, arrival and whether it is a stand-in; nil for none.
    static func thumbnail(_ state: ThumbnailState) -> (pixels: PixelBuffer, arrivedAt: Double, isStandIn: Bool)? {
        guard case .thumbnail(let image, let arrivedAt, let isStandIn) = state else { return nil }
        return (image.pixels, arrivedAt, isStandIn)
    }

    static func isWaiting(_ state: ThumbnailState) -> Bool {
        if case .waiting = state { return true }
        return false
    }

    /// The grid's visible cells are made by the focus workers, at the app's own priority (what
    /// a person looking at the grid waits for); the rows ahead by the workers below it; the
    /// strip's visible cells too, under the pager's photo.
    @Test func visibleCellsAreMadeAtTheAppsPriority() throws {
        let photos = try photos(count: 8, bytes: Self.photo(ThumbnailCacheTests.red))
        let focused = Mutex<[PhotoID: Bool]>([:])
        let pipeline = PhotoPipeline(
            photos: photos, memoryBudget: 192 << 20, thumbnailFolder: cacheFolder, workers: 1, focusWorkers: 1,
            clock: { MonotonicClock().now() }, decode: { decoding, request, cancellation in
                focused.withLock { $0[request.photo] = cancellation.isFocused }
                return decoding.perform(request, cancellation: cancellation)
            })
        defer { pipeline.shutdown() }
        for store in [pipeline.thumbnailStore, pipeline.stripThumbnailStore] {
            focused.withLock { $0 = [:] }
            store.show(visible: 0..<3, ahead: 3..<6)
            Self.settle(store)
            let seen = focused.withLock { $0 }
            #expect(Set(seen.keys) == Set(photos[0..<6].map { $0.id }))
            let byFocusWorkers = Set(seen.filter { $0.value }.keys)
            #expect(byFocusWorkers == (store === pipeline.thumbnailStore ? Set(photos[0..<3].map { $0.id }) : []), "\(seen)")
            store.show(visible: 0..<0, ahead: 0..<0)
        }
    }

    /// The square crop of a 3:2 photo's thumbnail covers the cell: at 3 columns of a 1280-pixel
    /// window (426-pixel cells) an x-large thumbnail's 341-pixel crop would still be enlarged,
    /// so xx-large.
    @Test("The size class follows the cell size in device pixels", arguments: [
        (64, ThumbnailSize.normal), (85, .normal), (86, .large), (128, .large), (171, .large), (172, .xLarge),
        (256, .xLarge), (341, .xLarge), (342, .xxLarge), (426, .xxLarge), (2000, .xxLarge),
    ])
    func sizeClassForCell(pixels: Int, size: ThumbnailSize) {
        #expect(ThumbnailStore.sizeClass(forCell: pixels) == size)
    }

    @Test("The visible cells are asked for first, in order, then the rows ahead, nearest first",
          arguments: [(ahead: 7..<10, order: [4, 5, 6, 7, 8, 9]), (ahead: 1..<4, order: [4, 5, 6, 3, 2, 1])])
    func visibleThenAhead(ahead: Range<Int>, order: [Int]) throws {
        let jobs = Jobs(holds: true)
        let pipeline = pipeline(try photos(count: 12, bytes: try Self.photo(ThumbnailCacheTests.red)), jobs: jobs)
        defer { jobs.release(64); pipeline.shutdown() }
        let store = pipeline.thumbnailStore
        store.resize(cellSize: 160)
        store.show(visible: 4..<7, ahead: ahead)
        jobs.release(order.count)
        store.waitForThumbnails()
        #expect(jobs.started.map(\.photo.number) == order)
        #expect(jobs.started.allSatisfy { $0.job == .thumbnail(.large) }, "\(jobs.started.map(\.job))")
    }

    @Test("Photos scrolled past both ranges are dropped from the queue, and cancelled when running")
    func scrolledPastRowsAreDropped() throws {
        let jobs = Jobs(holds: true)
        let pipeline = pipeline(try photos(count: 12, bytes: try Self.photo(ThumbnailCacheTests.red)), jobs: jobs)
        defer { jobs.release(64); pipeline.shutdown() }
        let store = pipeline.thumbnailStore
        store.show(visible: 0..<2, ahead: 2..<4)
        eventually { jobs.started.map(\.photo.number) == [0] }
        store.show(visible: 8..<10, ahead: 10..<12)
        // Photo 0's job gives up before any is let go; the worker goes on to photo 8.
        eventually { jobs.started.map(\.photo.number) == [0, 8] }
        jobs.release(4)
        store.waitForThumbnails()
        #expect(jobs.started.map(\.photo.number) == [0, 8, 9, 10, 11], "photo 0 given up, 1 to 3 never started")
        #expect(store.absorbResults(at: 1).isEmpty, "quick looks that found nothing, and a cancelled job")
        #expect(Self.isWaiting(store.state(of: PhotoID(0))))
    }

    @Test("Over the budget, the thumbnails farthest from the visible cells go first, never a visible one")
    func budgetEvictsFarthestFirst() throws {
        let jobs = Jobs(holds: false)
        let thumbnailBytes = 128 * 96 * 4
        let pipeline = pipeline(
            try photos(count: 10, bytes: try Self.photo(ThumbnailCacheTests.red)), jobs: jobs, thumbnailBudget: 3 * thumbnailBytes)
        defer { pipeline.shutdown() }
        let store = pipeline.thumbnailStore
        store.show(visible: 0..<2, ahead: 2..<4)
        Self.settle(store)
        let held = { (0..<10).filter { Self.thumbnail(store.state(of: PhotoID($0))) != nil } }
        #expect(held() == [0, 1, 2], "photo 3, the farthest, let go")
        #expect(store.bytesHeld <= store.budget)
        let asked = jobs.started.count
        Self.settle(store)
        #expect(jobs.started.count == asked, "a photo ahead let go is not asked for again while it stays ahead")
        store.show(visible: 4..<6, ahead: 6..<8)
        Self.settle(store)
        #expect(held() == [4, 5, 6])
        #expect(store.bytesHeld == 3 * thumbnailBytes)
        // A visible cell is kept over the budget.
        store.show(visible: 0..<5, ahead: 5..<5)
        Self.settle(store)
        #expect(held() == [0, 1, 2, 3, 4])
    }

    /// Thumbnails are held by photo, not by place: a change of the folders that re-sorts the
    /// photos, removes one and rewrites another moves nothing and makes nothing again but the
    /// rewritten photo's thumbnail (its old one on show, stale, until then).
    @Test("Across a change of the folders, what is held stays with its photo")
    func heldThumbnailsFollowTheirPhotos() throws {
        let jobs = Jobs(holds: false)
        let photos = try photos(count: 4, bytes: try Self.photo(ThumbnailCacheTests.red))
        let pipeline = pipeline(photos, jobs: jobs)
        defer { pipeline.shutdown() }
        let store = pipeline.thumbnailStore
        store.show(visible: 0..<4, ahead: 4..<4)
        Self.settle(store)
        let before = photos.map { Self.thumbnail(store.state(of: $0.id))?.pixels }
        #expect(before.allSatisfy { $0 != nil })
        let bytes = store.bytesHeld
        let asked = jobs.started.count

        // Photo 2 is removed, photo 1 rewritten; the rest are shown in the reverse order.
        let order = PhotoOrder([photos[3], photos[1], photos[0]])
        store.follow(order, rewritten: [photos[1].id])
        #expect(Self.isWaiting(store.state(of: photos[2].id)), "what the photo that left held is let go")
        #expect(store.bytesHeld == bytes - 128 * 96 * 4)
        for photo in [photos[3], photos[0]] {
            #expect(Self.thumbnail(store.state(of: photo.id))?.pixels === before[photo.id.number], "\(photo.id) keeps its thumbnail")
        }
        #expect(Self.thumbnail(store.state(of: photos[1].id))?.pixels === before[1], "the rewritten photo's stays on show")
        store.show(visible: 0..<3, ahead: 3..<3)
        Self.settle(store)
        #expect(jobs.started.dropFirst(asked).map(\.photo) == [photos[1].id], "only the rewritten photo's is made again")
        #expect(jobs.started.last?.job == .remakeThumbnail(.normal))
        #expect(Self.thumbnail(store.state(of: photos[1].id))?.pixels !== before[1])
    }

    @Test("A file that cannot be decoded fails, with the decoder's reason")
    func brokenFileFails() throws {
        let jobs = Jobs(holds: false)
        let path = try scratch.write(Array("not a photo at all".utf8), to: "photos/broken.jpg")
        let pipeline = pipeline(Photo.numbered([path]), jobs: jobs)
        defer { pipeline.shutdown() }
        let store = pipeline.thumbnailStore
        store.show(visible: 0..<1, ahead: 0..<0)
        #expect(Self.settle(store) == [PhotoID(0)])
        let expected: String
        do throws(ImageDecodeError) {
            _ = try ThumbnailCache.make(path: path, size: .normal, colour: ColourManagement(displayProfile: nil))
            Issue.record("the broken file decoded")
            return
        } catch {
            expected = error.reason
        }
        guard case .failed(let reason) = store.state(of: PhotoID(0)) else {
            Issue.record("a broken file is \(store.state(of: PhotoID(0)))")
            return
        }
        #expect(reason == expected)
        #expect(jobs.started.map(\.job) == [.thumbnail(.normal), .makeThumbnail(.normal)], "made once, not asked for again")
    }

    @Test("A valid stored thumbnail is used without decoding the photo")
    func storedThumbnailReused() throws {
        let photo = try Self.photo(ThumbnailCacheTests.red)
        let path = try scratch.write(photo, to: "photos/stored.jpg")
        _ = try ThumbnailCache(folder: cacheFolder).thumbnail(path: path, size: .normal)
        // The photo's bytes become undecodable, its size and time as they were: the stored
        // thumbnail stays valid, and only a thumbnail that was not decoded can be red.
        let stamp = try ThumbnailStamp.current(ofFileAt: path)
        try scratch.write([UInt8](repeating: 0, count: photo.count), to: "photos/stored.jpg")
        setModificationTime(stamp.modificationTime, ofFileAt: path)
        let jobs = Jobs(holds: false)
        let pipeline = pipeline(Photo.numbered([path]), jobs: jobs)
        defer { pipeline.shutdown() }
        let store = pipeline.thumbnailStore
        store.show(visible: 0..<1, ahead: 0..<0)
        Self.settle(store, at: 2)
        guard let shown = Self.thumbnail(store.state(of: PhotoID(0))) else {
            Issue.record("no thumbnail: \(store.state(of: PhotoID(0)))")
            return
        }
        #expect(!shown.isStandIn && shown.arrivedAt == 2)
        #expect(shown.pixels.size == PixelSize(width: 128, height: 96))
        #expect(ThumbnailCacheTests.isClose(ThumbnailCacheTests.centre(shown.pixels), ThumbnailCacheTests.red))
        #expect(jobs.started.map(\.job) == [.thumbnail(.normal)])
    }

    @Test("The camera's EXIF thumbnail stands in until the real one is made")
    func standInThenTheRealOne() throws {
        let exif = PixelBuffer(width: 160, height: 120)
        exif.fill(ThumbnailCacheTests.green)
        let path = try scratch.write(try Self.photo(ThumbnailCacheTests.red, exifThumbnail: exif), to: "photos/camera.jpg")
        let jobs = Jobs(holds: false)
        let pipeline = pipeline(Photo.numbered([path]), jobs: jobs)
        defer { pipeline.shutdown() }
        let store = pipeline.thumbnailStore
        store.show(visible: 0..<1, ahead: 0..<0)
        #expect(Self.settle(store, at: 1, rounds: 1) == [PhotoID(0)])
        guard let standIn = Self.thumbnail(store.state(of: PhotoID(0))) else {
            Issue.record("no stand-in: \(store.state(of: PhotoID(0)))")
            return
        }
        #expect(standIn.isStandIn && standIn.arrivedAt == 1)
        #expect(ThumbnailCacheTests.isClose(ThumbnailCacheTests.centre(standIn.pixels), ThumbnailCacheTests.green))
        #expect(Self.settle(store, at: 2, rounds: 1) == [PhotoID(0)])
        guard let real = Self.thumbnail(store.state(of: PhotoID(0))) else {
            Issue.record("no thumbnail: \(store.state(of: PhotoID(0)))")
            return
        }
        #expect(!real.isStandIn && real.arrivedAt == 2)
        #expect(ThumbnailCacheTests.isClose(ThumbnailCacheTests.centre(real.pixels), ThumbnailCacheTests.red))
        #expect(jobs.started.map(\.job) == [.thumbnail(.normal), .makeThumbnail(.normal)])
    }

    @Test("The worker that makes or reads a thumbnail finds its opacity: an opaque photo's is opaque, a translucent one's is not")
    func thumbnailsArriveWithTheirOpacity() throws {
        let translucent = PixelBuffer(width: 200, height: 150)
        translucent.fill(.clear)
        translucent[3, 4] = 0x8040_2010
        let paths = [
            try scratch.write(try Self.photo(ThumbnailCacheTests.red), to: "photos/opaque.jpg"),
            try scratch.write(try PNGEncoder.encode(translucent), to: "photos/translucent.png"),
        ]
        let decoding = PhotoDecoding(tileSources: TileSources(), thumbnailCache: ThumbnailCache(folder: cacheFolder))
        for (path, opaque) in zip(paths, [true, false]) {
            // Made, then looked up: both ways the image comes with its opacity.
            for job in [DecodeJob.makeThumbnail(.normal), .thumbnail(.normal)] {
                guard case .thumbnail(.thumbnail(let image)) = decoding.perform(DecodeRequest(photo: PhotoID(0), path: path, job: job)) else {
                    Issue.record("no thumbnail of \(path) from \(job)")
                    continue
                }
                #expect(image.isOpaque == opaque && image.isOpaque == image.pixels.isOpaque, "\(path), \(job)")
            }
        }
    }

    @Test("The pager's focused photo is decoded before the grid's thumbnails even while the grid is in front")
    func focusedPhotoFirstWithTheGridInFront() throws {
        let jobs = Jobs(holds: true)
        let pipeline = pipeline(try photos(count: 12, bytes: try Self.photo(ThumbnailCacheTests.red)), jobs: jobs)
        defer { jobs.release(64); pipeline.shutdown() }
        pipeline.setFront(.grid)
        pipeline.thumbnailStore.show(visible: 0..<3, ahead: 3..<5)
        eventually { jobs.started.map(\.photo.number) == [0] }
        // A tap on photo 7 opens the pager on it while the grid is still in front.
        pipeline.photoStore.focus(on: 7, viewport: PixelSize(width: 320, height: 200), direction: 1)
        jobs.release(64)
        pipeline.photoStore.waitForDecodes()
        // Photo 7's EXIF thumbnail, draft and real decode, then the grid's list, then the pager's
        // neighbours.
        let order = jobs.started.prefix(9).map { request -> String in
            switch request.job {
            case .thumbnail: "g\(request.photo.number)"
            default: "p\(request.photo.number)"
            }
        }
        #expect(order == ["g0", "p7", "p7", "p7", "g1", "g2", "g3", "g4", "p8"], "\(jobs.started.map { ($0.photo.number, $0.job) })")
    }
}
