import Foundation
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleDisplay
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

/// A huge photo zoomed to 1:1 shows its full-resolution pixels, cut from pyramid tiles: what is
/// on screen equals the same region of a whole decode at full size (turned as the photo is).
@Suite struct TiledZoomTests {
    /// 8200 × 4200 = 34.4 MP: just above the tiling threshold (2^25 pixels), a fine pattern that
    /// any scaling would blur.
    static func makeHugeJPEG(in dir: URL) throws -> (path: String, pixels: PixelBuffer) {
        let w = 8200, h = 4200
        let picture = PixelBuffer(width: w, height: h)
        for y in 0..<h {
            let row = picture.row(y)
            for x in 0..<w {
                let check: UInt32 = ((x / 3 + y / 3) % 2 == 0) ? 200 : 40
                row[x] = 0xFF00_0000 | check << 16 | UInt32((x * 7) % 256) << 8 | UInt32((y * 5) % 256)
            }
        }
        let path = dir.appendingPathComponent("huge.jpg").path
        try JPEGEncoder.write(picture, quality: 95, toPath: path)
        return (path, picture)
    }

    /// Upright, and turned a quarter (r): the tiles in view are found in the photo's own frame
    /// and drawn turned with it.
    @Test(arguments: [0, 1])
    func oneToOneShowsFullResolutionTiles(quarters: Int) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-huge-\(getpid())-\(quarters)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, _) = try Self.makeHugeJPEG(in: dir)
        let headless = HeadlessSession([path])
        let (display, session) = (headless.display, headless.session)
        let v = session.viewer
        var t = 0.0
        func run(_ seconds: Double) {
            for _ in 0..<Int(seconds * 60) {
                t += 1.0 / 60
                v.settleDecodes()
                v.advance(to: t)
                session.scene.renderIfNeeded()
            }
        }
        run(0.2)
        for _ in 0..<quarters {
            v.handle(.key("r", modifiers: [], time: t), now: t)
            run(0.6)
        }
        v.handle(.key("1", modifiers: [], time: t), now: t)
        // Long enough for the tiles, and for the zoom label ("100 %") to have faded.
        run(1.5)
        let shown = try #require(v.renderState.pages.first)
        #expect(abs(shown.transform.scale - 1) < 1e-9)
        let frame = try display.capture()
        #expect(shown.rotation == Rotation(quarterTurns: Double(quarters)))
        // The same window cut from a whole decode at full size, turned: pixel (X, Y) of the
        // picture turned a quarter clockwise is pixel (Y, h − 1 − X) of the photo.
        let whole = try ImageDecoder.decodeFile(atPath: path).pixels
        let origin = shown.transform.invert(.zero)
        let ox = Int(origin.x.rounded()), oy = Int(origin.y.rounded())
        let expected = PixelBuffer(width: 320, height: 200)
        for y in 0..<200 {
            for x in 0..<320 {
                expected[x, y] = quarters == 1 ? whole[oy + y, whole.height - 1 - (ox + x)] : whole[ox + x, oy + y]
            }
        }
        let diff = ImageDifference(frame, expected, tolerance: 3)
        #expect(diff.pixelsOverTolerance == 0, "\(diff.pixelsOverTolerance) pixels differ (worst \(diff.maxChannel))")
        #expect(v.cacheHighWaterBytes < 64 << 20, "tiles, not a whole 34 MP decode (\(v.cacheHighWaterBytes) bytes)")
    }

    /// Once a huge photo is on screen its tile source is opened (file read, scan indexed) after
    /// the neighbours' decodes and before any zoom, so the first zoomed view needs only its own
    /// rows; paging away lets the file go.
    @Test func tileSourceOpensAheadOfZoom() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-open-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, _) = try Self.makeHugeJPEG(in: dir)
        let small = dir.appendingPathComponent("small.jpg").path
        try JPEGEncoder.write(PixelBuffer(width: 64, height: 48), quality: 90, toPath: small)
        final class Started: @unchecked Sendable {
            let lock = NSLock()
            var requests: [DecodeRequest] = []
        }
        let started = Started()
        let pipeline = PhotoPipeline(
            photos: Photo.numbered([path, small]), memoryBudget: 192 << 20, thumbnailFolder: nil, workers: 1, clock: { MonotonicClock().now() },
            decode: { decoding, request, cancellation in
                started.lock.withLock { started.requests.append(request) }
                return decoding.perform(request, cancellation: cancellation)
            })
        defer { pipeline.shutdown() }
        let store = pipeline.photoStore
        store.focus(on: 0, viewport: PixelSize(width: 320, height: 200), direction: 1)
        for _ in 0..<4 {
            store.waitForDecodes()
            _ = store.absorbResults()
        }
        let order = started.lock.withLock { started.requests.filter { !$0.job.isPreview } }.map { "\($0.photo.number)\($0.job == .openTiles ? " opens" : "")" }
        #expect(order == ["0", "1", "0 opens"], "\(order)")
        #expect(store.tileOpenSeconds.count == 1)
        let decoder = try pipeline.decoding.tileSources.decoder(forPath: path)
        guard case .success(let index)? = decoder.index else {
            Issue.record("the huge photo's scan was not indexed: \(String(describing: decoder.index))")
            return
        }
        #expect(index.mcuRows == (4200 + 15) / 16)
        store.focus(on: 1, viewport: PixelSize(width: 320, height: 200), direction: 1)
        store.waitForDecodes()
        _ = store.absorbResults()
        #expect(started.lock.withLock { started.requests.filter { $0.job == .openTiles }.count } == 1, "a small photo opens no tile source")
    }
}
