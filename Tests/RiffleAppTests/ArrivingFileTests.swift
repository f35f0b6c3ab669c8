import Foundation
import Glibc
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing

/// A camera card being copied into a watched folder: a JPEG written in chunks by a writer that
/// holds it open, with pauses between them, while the pager shows it (`ArrivingPhoto`). While
/// it grows it is never shown as a broken file: before its header is whole the page says it is
/// still arriving, then what has arrived shows over the page's background (black here, never
/// the grey a truncated decode fills in) with a badge, more of it after each chunk, and the
/// whole photo once the writer closes it. A copy that ends short is then an incomplete file.
@Suite(.serialized) struct ArrivingFileTests {
    static let orange: UInt32 = 0xFFE0_8020
    /// The window, 640×400: the 1024×768 photo fits it at 0.52, 533 pixels wide and centred.
    static let window = PixelSize(width: 640, height: 400)
    static let scale = 400.0 / 768

    /// A 1024×768 baseline JPEG, orange with a seeded grain of ±8 levels: its entropy-coded data
    /// (most of the file) spreads evenly over its rows, so a share of the file holds about that
    /// share of the rows.
    static func grainyOrange() throws -> [UInt8] {
        let picture = PixelBuffer(width: 1024, height: 768)
        var generator = SeededGenerator(seed: 12)
        for y in 0..<768 {
            for x in 0..<1024 {
                let grain = UInt32(Int.random(in: 0...16, using: &generator))
                picture.row(y)[x] = orange - 0x08_0808 + grain * 0x01_0101
            }
        }
        return try JPEGEncoder.encode(picture, quality: 90)
    }

    /// A file being copied: made and opened for writing as cp makes it, its first `head` bytes
    /// of `jpeg` written, before the session opens the pager on it (Riffle sees the writes
    /// that follow).
    final class Copy {
        let folder: ScratchFolder
        let path: String
        let jpeg: [UInt8]
        private var descriptor: Int32
        private(set) var written = 0

        init(head: Int) throws {
            folder = try ScratchFolder()
            path = folder.path("card.jpg")
            jpeg = try ArrivingFileTests.grainyOrange()
            descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            precondition(descriptor >= 0, "open \(path)")
            write(upTo: head)
        }

        deinit { finish() }

        /// Writes the bytes up to `end` (the file stays open).
        func write(upTo end: Int) {
            let chunk = Array(jpeg[written..<end])
            precondition(Glibc.write(descriptor, chunk, chunk.count) == chunk.count, "write \(path)")
            written = end
        }

        /// Closes the file: the copy is over.
        func finish() {
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }
    }

    /// The photo the pager holds for the file, and whether the library takes it to be arriving.
    static func shown(_ watched: WatchedSession) -> (content: PhotoContent?, arriving: Bool) {
        (watched.session.pipeline.photoStore.content(of: PhotoID(0)), watched.session.viewer.library.photos[0].isArriving)
    }

    /// The window row `y` of the photo's full-resolution row `row`.
    static func windowRow(_ row: Double) -> Int { Int(row * scale) }

    @Test func aPhotoBeingCopiedShowsWhatHasArrivedThenTheWholePhoto() throws {
        let copy = try Copy(head: 60)
        let watched = WatchedSession(paths: [copy.path], size: Self.window, thumbnailFolder: nil)

        // Still inside the header: the page says the photo is arriving, not that it is broken.
        copy.write(upTo: 120)
        watched.takeInChanges()
        var shown = Self.shown(watched)
        #expect(shown.arriving)
        guard case .failure? = shown.content else {
            Issue.record("a header cut short decodes to nothing: \(String(describing: shown.content))")
            return
        }
        #expect(Self.matches(watched.display.frameBuffer(), page: DecodedPhoto.arrivingDetail, title: "card.jpg"))

        // Part of the picture: what has arrived shows, the rest is the page's black background.
        copy.write(upTo: copy.jpeg.count * 45 / 100)
        watched.takeInChanges()
        shown = Self.shown(watched)
        #expect(shown.arriving)
        guard case .image(let partial)? = shown.content, case .truncated(let missing?)? = partial.damage else {
            Issue.record("not a partial picture: \(String(describing: shown.content))")
            return
        }
        #expect(missing.side == .bottom && missing.share > 0.2 && missing.share < 0.9, "\(missing)")
        #expect(partial.arrivingText?.hasPrefix("Still arriving: the bottom") == true)
        let edge = Self.windowRow(partial.arrivedPart.maxY)
        #expect(isNear(watched.display.frameBuffer()[480, edge / 2], Self.orange), "what has arrived shows")
        let below = (edge + 340) / 2
        #expect(watched.pixel(480, below) == (0, 0, 0), "the part still to come is the background, not grey: \(watched.pixel(480, below))")

        // More of it.
        copy.write(upTo: copy.jpeg.count * 85 / 100)
        watched.takeInChanges()
        guard case .image(let more)? = Self.shown(watched).content else {
            Issue.record("the photo went")
            return
        }
        #expect(more.arrivedPart.maxY > partial.arrivedPart.maxY, "more of the photo shows")
        #expect(isNear(watched.display.frameBuffer()[480, below], Self.orange))

        // The copy ends: the whole photo, no badge.
        copy.write(upTo: copy.jpeg.count)
        copy.finish()
        watched.takeInChanges()
        shown = Self.shown(watched)
        #expect(!shown.arriving)
        guard case .image(let whole)? = shown.content else {
            Issue.record("the photo went")
            return
        }
        #expect(whole.damage == nil && !whole.isPreview)
        #expect(isNear(watched.display.frameBuffer()[480, 395], Self.orange), "the bottom row shows")
    }

    /// The writer closes the file short (a copy given up): what it holds is final, an
    /// incomplete file, its missing part grey under the badge that says so.
    @Test func aCopyThatEndsShortIsAnIncompleteFile() throws {
        let copy = try Copy(head: 60)
        let watched = WatchedSession(paths: [copy.path], size: Self.window, thumbnailFolder: nil)
        copy.write(upTo: copy.jpeg.count / 2)
        watched.takeInChanges()
        #expect(Self.shown(watched).arriving)
        copy.finish()
        watched.takeInChanges()
        let shown = Self.shown(watched)
        #expect(!shown.arriving)
        guard case .image(let photo)? = shown.content, case .truncated? = photo.damage else {
            Issue.record("not a truncated picture: \(String(describing: shown.content))")
            return
        }
        #expect(photo.damageText?.hasPrefix("Incomplete file") == true)
        let below = (Self.windowRow(photo.arrivedPart.maxY) + 340) / 2
        let grey = watched.pixel(480, below)
        #expect(abs(grey.red - 128) < 16 && abs(grey.green - 128) < 16 && abs(grey.blue - 128) < 16, "grey: \(grey)")
    }

    /// True when `frame` is exactly the page of a photo titled `title` that says `page`, on black.
    static func matches(_ frame: PixelBuffer, page: String, title: String) -> Bool {
        let size = Size(window)
        let expected = PixelBuffer(width: window.width, height: window.height)
        Compositor(path: .fast).render(
            Layer(sublayers: [
                Layer(content: .fill(Rect(origin: .zero, size: size), .black)),
                PageLabels().message(title: title, detail: page, in: size, color: .white),
            ]), into: expected)
        return ImageDifference(frame, expected, tolerance: 0).pixelsOverTolerance == 0
    }
}
