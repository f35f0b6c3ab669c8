import Dispatch
import Foundation
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleDisplay
import RiffleGeometry
import RiffleImageIO
import RiffleInteraction
import RiffleRaster
import Testing

/// A decoder for tests: full decodes (and previews too, with `holdPreviews`) wait until
/// `release(_:)`, so the waiting states can be looked at; what passes decodes for real.
final class GatedDecoder: @unchecked Sendable {
    private let holdPreviews: Bool
    private let gate = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var requested: [DecodeRequest] = []

    init(holdPreviews: Bool = false) { self.holdPreviews = holdPreviews }

    /// Every request a worker started, in order.
    var started: [DecodeRequest] { lock.withLock { requested } }

    func decode(_ decoding: PhotoDecoding, _ request: DecodeRequest, _ cancellation: DecodeCancellation) -> DecodeOutput {
        lock.withLock { requested.append(request) }
        if holdPreviews || !request.job.isPreview { gate.wait() }
        return decoding.perform(request, cancellation: cancellation)
    }

    /// Lets `count` held full decodes go.
    func release(_ count: Int) { for _ in 0..<count { gate.signal() } }
}

func viewer(decoder: GatedDecoder, display: HeadlessDisplay, workers: Int = 2, budget: Int = 192 << 20, startAt path: String = TestPaths.photos) -> (Viewer, PhotoPipeline) {
    var problems: [String] = []
    let library = PhotoLibrary.collect(paths: [path], problems: &problems)
    let pipeline = pipeline(photos: library.photos, decoder: decoder, workers: workers, budget: budget)
    let viewer = Viewer(
        library: library, display: display, pipeline: pipeline, frameObserver: nil, wallClock: MonotonicClock().now)
    return (viewer, pipeline)
}

extension Viewer {
    /// Composites and presents the pager's frame on `display`, when it has one, as its scene
    /// would (for tests that drive a pager without a scene); true if it drew.
    @discardableResult
    func drawFrame(on display: Display) -> Bool {
        guard let frame = frameIfNeeded() else { return false }
        Compositor().render(frame, into: display.frameBuffer())
        display.present()
        return true
    }
}

/// A pipeline of its own for a test, without a thumbnail cache, its decodes going through
/// `decoder`.
func pipeline(photos: [Photo], decoder: GatedDecoder, workers: Int = 2, budget: Int = 192 << 20) -> PhotoPipeline {
    PhotoPipeline(
        photos: photos, memoryBudget: budget, thumbnailFolder: nil, workers: workers, clock: { MonotonicClock().now() }, decode: { decoder.decode($0, $1, $2) })
}

/// Photo decoding with tile sources of its own and no thumbnail cache, for tests that call
/// `perform` directly.
func standaloneDecoding() -> PhotoDecoding { PhotoDecoding(tileSources: TileSources(), thumbnailCache: nil) }

/// Waits on the wall clock, checking every 5 ms, until `condition` holds; true if it did.
///
/// A wait that runs out after `seconds` records an issue at the caller: what a test waits for
/// is what it checks, so it must never go on with a partial state as if it had arrived. The
/// bound is generous (30 s) because a timeout is a failure, not a pace: decodes on a loaded
/// two-core machine take tens of milliseconds, not seconds.
@discardableResult
func eventually(within seconds: Double = 30, sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("waited \(seconds) s for a condition that never held", sourceLocation: sourceLocation)
            return false
        }
        Thread.sleep(forTimeInterval: 0.005)
    }
    return true
}

@Suite struct EventuallyTests {
    /// A wait that runs out is a failure of the test that waited, not a silent return.
    @Test func aWaitThatRunsOutRecordsAnIssue() {
        withKnownIssue {
            #expect(!eventually(within: 0.02) { false })
        }
        #expect(eventually { true })
    }
}

@Suite(.serialized) struct PlaceholderTests {
    /// While the real decode runs, the draft is shown: friends.jpg (2056×3088, shown 400×600,
    /// no EXIF thumbnail) decoded at 2/8 (514×772, at least 0.9 of the shown size) and
    /// area-averaged to 400×600, where the real decode takes 4/8 and Lanczos-3. It looks sharp
    /// (for `--stats`) but is not the real decode, which replaces it.
    @Test func draftShowsWhileThePhotoDecodes() throws {
        let decoder = GatedDecoder()
        let display = HeadlessDisplay(size: PixelSize(width: 960, height: 600))
        // One worker, so the order it starts requests in is the queue's: held on the real
        // decode, it lights the page only if the draft came before it.
        let (v, pipeline) = viewer(decoder: decoder, display: display, workers: 1, startAt: TestPaths.photos + "/2 friends.jpg")
        defer { decoder.release(16); pipeline.shutdown() }
        // The clock stays before the spinner's delay: only a stand-in can light the page.
        eventually {
            v.advance(to: 0.1)
            v.drawFrame(on: display)
            return isPhotoShown(display)
        }
        v.drawFrame(on: display)
        guard case .image(let draft)? = pipeline.photoStore.content(of: PhotoID(1)) else {
            Issue.record("nothing shown while the real decode waits")
            return
        }
        #expect(draft.isDraft && draft.isPreview && draft.pixels.size == PixelSize(width: 400, height: 600))
        #expect(v.isCurrentSharp && !pipeline.photoStore.isSharp(PhotoID(1)))
        try GoldenImage.check(try display.capture(), golden: "placeholder/draft")
        // The draft is queued ahead of every full decode, the real one included.
        let draftRequest = DecodeRequest(photo: PhotoID(1), path: TestPaths.photos + "/2 friends.jpg", job: .draft(viewport: display.size))
        let fullDecode = decoder.started.firstIndex { !$0.job.isPreview } ?? decoder.started.endIndex
        #expect(decoder.started.prefix(upTo: fullDecode).contains(draftRequest))
        decoder.release(1)
        eventually {
            v.advance(to: 0.2)
            return pipeline.photoStore.isSharp(PhotoID(1))
        }
        guard case .image(let real)? = pipeline.photoStore.content(of: PhotoID(1)) else { return }
        #expect(!real.isPreview && !real.isDraft && real.pixels.size == PixelSize(width: 400, height: 600))
    }

    /// The draft looks like the real decode: within 2 grey levels on average of Lanczos-3 from
    /// 4/8, and nearly as sharp: its mean horizontal gradient within 15 % of the real one's
    /// (12 % softer here, from the area averaging of 514×772 to 400×600).
    @Test func theDraftLooksLikeTheRealDecode() throws {
        let path = TestPaths.photos + "/2 friends.jpg", viewport = PixelSize(width: 960, height: 600)
        let decoding = standaloneDecoding()
        guard case .photo(.image(let draft)) = decoding.perform(DecodeRequest(photo: PhotoID(0), path: path, job: .draft(viewport: viewport))),
              case .photo(.image(let real)) = decoding.perform(DecodeRequest(photo: PhotoID(0), path: path, job: .fit(viewport: viewport)))
        else {
            Issue.record("no draft or no real decode")
            return
        }
        #expect(draft.isDraft && draft.pixels.size == real.pixels.size)
        var difference = 0, draftGradient = 0, realGradient = 0
        for y in 0..<real.pixels.height {
            let a = draft.pixels.row(y), b = real.pixels.row(y)
            for x in 0..<real.pixels.width {
                for shift in [0, 8, 16] as [UInt32] {
                    func channel(_ p: UInt32) -> Int { Int(p >> shift & 0xFF) }
                    difference += abs(channel(a[x]) - channel(b[x]))
                    if x > 0 {
                        draftGradient += abs(channel(a[x]) - channel(a[x - 1]))
                        realGradient += abs(channel(b[x]) - channel(b[x - 1]))
                    }
                }
            }
        }
        let samples = Double(real.pixels.width * real.pixels.height * 3)
        #expect(Double(difference) / samples < 2, "mean difference \(Double(difference) / samples)")
        #expect(abs(Double(draftGradient) / Double(realGradient) - 1) < 0.15, "gradient ratio \(Double(draftGradient) / Double(realGradient))")
    }

    /// Where a draft would save too little, the draft job makes the 1/8 preview instead, or
    /// nothing: friends.jpg shown 67×100 is decoded for real from 1/8 already; a PNG has no
    /// cheaper decode.
    @Test func noDraftWhereItSavesTooLittle() throws {
        let decoding = standaloneDecoding()
        let jpeg = TestPaths.photos + "/2 friends.jpg", png = TestPaths.photos + "/1 coffee.png"
        for (path, viewport) in [(jpeg, PixelSize(width: 160, height: 100)), (png, PixelSize(width: 960, height: 600))] {
            guard case .redundantPreview = decoding.perform(DecodeRequest(photo: PhotoID(0), path: path, job: .draft(viewport: viewport))) else {
                Issue.record("a draft of \(path) at \(viewport)")
                continue
            }
        }
        // A 6000×4000 photo's header: its draft in a 1920×1080 window is 2/8 (1500×1000, under
        // the 1620×1080 shown, so not shrunk), its real decode 5/8; in a 640×400 window 1/8
        // (750×500, shrunk to the 600×400 shown), its real decode 2/8.
        let info = try ImageDecoder.probe(try JPEGEncoder.encode(PixelBuffer(width: 6000, height: 4000), quality: 50))
        #expect(PhotoDecoding.draftSize(of: info, shown: PixelSize(width: 1620, height: 1080)) == PixelSize(width: 1500, height: 1000))
        #expect(PhotoDecoding.draftSize(of: info, shown: PixelSize(width: 600, height: 400)) == PixelSize(width: 600, height: 400))
        // Shown 4000×2667: a draft at 5/8 against a real decode at 8/8 saves too little.
        #expect(PhotoDecoding.draftSize(of: info, shown: PixelSize(width: 4000, height: 2667)) == nil)
    }

    /// A preview is not asked for when the real decode is already at libjpeg's cheapest scale:
    /// friends.jpg (2056×3088) shown 67×100 is decoded from 1/8 (at least twice the shown size,
    /// 257×386), shown 400×600 from 4/8.
    @Test func noPreviewWhenTheRealDecodeIsAsCheap() throws {
        let decoding = standaloneDecoding()
        let small = DecodeRequest(photo: PhotoID(1), path: TestPaths.photos + "/2 friends.jpg", job: .preview(viewport: PixelSize(width: 160, height: 100)))
        let large = DecodeRequest(photo: PhotoID(1), path: TestPaths.photos + "/2 friends.jpg", job: .preview(viewport: PixelSize(width: 960, height: 600)))
        guard case .redundantPreview = decoding.perform(small) else {
            Issue.record("a 1/8 real decode still got a preview")
            return
        }
        guard case .photo(.image(let preview)) = decoding.perform(large) else {
            Issue.record("no preview where the real decode is at 4/8")
            return
        }
        #expect(preview.isPreview && preview.pixels.size == PixelSize(width: 50, height: 75))
    }

    /// A JPEG with an EXIF thumbnail previews with it, whatever scale the real decode takes:
    /// a 160×107 picture read from the file's first bytes, not a 1/8 decode.
    @Test func exifThumbnailIsThePreview() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-thumbnail-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("camera.jpg").path
        let photo = try FileBytes.read(atPath: TestPaths.photos + "/2 friends.jpg")
        let thumbnail = try JPEGEncoder.encode(PixelBuffer(width: 107, height: 160), quality: 90)
        let file = try ExifThumbnail.inserting(thumbnail: thumbnail, into: photo)
        try Data(file).write(to: URL(fileURLWithPath: path))
        for viewport in [PixelSize(width: 320, height: 200), PixelSize(width: 960, height: 600)] {
            let request = DecodeRequest(photo: PhotoID(0), path: path, job: .preview(viewport: viewport))
            guard case .photo(.image(let preview)) = standaloneDecoding().perform(request) else {
                Issue.record("no thumbnail preview at \(viewport)")
                continue
            }
            #expect(preview.isPreview && preview.pixels.size == PixelSize(width: 107, height: 160))
            #expect(preview.fullSize == PixelSize(width: 2056, height: 3088))
        }
    }

    /// The neighbours' EXIF thumbnails are read before any neighbour's real decode, so a photo
    /// sliding in early is never black; a neighbour without one gets no 1/8 decode in its place,
    /// and is not looked at again.
    @Test func neighboursShowTheirThumbnails() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-neighbours-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let photo = try FileBytes.read(atPath: TestPaths.photos + "/2 friends.jpg")
        let thumbnail = try JPEGEncoder.encode(PixelBuffer(width: 107, height: 160), quality: 90)
        // Photo 1 is focused, between photo 0 (no thumbnail) and photo 2 (one).
        let paths = ["a.jpg", "b.jpg", "c.jpg"].map { dir.appendingPathComponent($0).path }
        try Data(photo).write(to: URL(fileURLWithPath: paths[0]))
        try Data(photo).write(to: URL(fileURLWithPath: paths[1]))
        try Data(try ExifThumbnail.inserting(thumbnail: thumbnail, into: photo)).write(to: URL(fileURLWithPath: paths[2]))
        let decoder = GatedDecoder()
        let pipeline = pipeline(photos: Photo.numbered(paths), decoder: decoder)
        let store = pipeline.photoStore
        defer { decoder.release(16); pipeline.shutdown() }
        store.focus(on: 1, viewport: PixelSize(width: 960, height: 600), direction: 1)
        // Full decodes are held: only previews can arrive.
        eventually {
            _ = store.absorbResults()
            return store.content(of: PhotoID(2)) != nil && decoder.started.filter { $0.photo.number == 0 && $0.job == .exifPreview }.count == 1
        }
        guard case .image(let neighbour)? = store.content(of: PhotoID(2)) else {
            Issue.record("photo 2 shows nothing while its decode waits")
            return
        }
        #expect(neighbour.isPreview && neighbour.pixels.size == PixelSize(width: 107, height: 160))
        #expect(store.content(of: PhotoID(0)) == nil, "no thumbnail, and no 1/8 decode for a neighbour")
        for _ in 0..<5 { _ = store.absorbResults() }
        #expect(decoder.started.filter { $0.photo.number == 0 && $0.job == .exifPreview }.count == 1, "looked for once")
        // The focused photo's EXIF thumbnail ("p") and draft ("d") beside its real decode.
        let order = decoder.started.map { "\($0.photo.number)\($0.job.isPreview ? $0.job == .draft(viewport: PixelSize(width: 960, height: 600)) ? "d" : "p" : "")" }
        #expect(Set(order.prefix(5)) == ["1p", "1d", "1", "2p", "0p"], "\(order)")
    }

    /// A page with nothing decoded shows its placeholder (the photo's shape) at first, no
    /// spinner, and the spinner over it after 0.5 s.
    @Test func spinnerAppearsOnlyAfterHalfASecond() throws {
        let decoder = GatedDecoder(holdPreviews: true)
        let display = HeadlessDisplay(size: PixelSize(width: 320, height: 200))
        let (v, pipeline) = viewer(decoder: decoder, display: display)
        defer { decoder.release(16); pipeline.shutdown() }
        v.advance(to: 0)
        v.drawFrame(on: display)
        v.advance(to: 0.4)
        v.drawFrame(on: display)
        let early = try display.capture()
        #expect(early.isOnlyPlaceholders && !early.isAllBlack, "the placeholder, and no spinner before 0.5 s")
        #expect(v.isAnimating, "the loop keeps ticking while a page waits")
        v.advance(to: 0.75)
        v.drawFrame(on: display)
        try GoldenImage.check(try display.capture(), golden: "placeholder/spinner")
    }
}

/// True when the display shows pixels of a photo: something besides black and placeholders.
func isPhotoShown(_ display: HeadlessDisplay) -> Bool {
    guard let frame = try? display.capture() else { return false }
    return !frame.isOnlyPlaceholders
}

extension PixelBuffer {
    var isAllBlack: Bool {
        for y in 0..<height { for x in 0..<width where self[x, y] != Color.black.packed { return false } }
        return true
    }

    /// True when every pixel is black or a placeholder's tone (`PagePlaceholder`): no photo's.
    var isOnlyPlaceholders: Bool {
        let allowed: Set<UInt32> = [Color.black.packed, PagePlaceholder.darkTone.packed, PagePlaceholder.lightTone.packed]
        for y in 0..<height { for x in 0..<width where !allowed.contains(self[x, y]) { return false } }
        return true
    }
}
