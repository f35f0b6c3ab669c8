import Foundation
import RiffleApp
import RiffleGeometry
import RiffleInteraction
import Testing

/// Paging fast never shows a black page: every page that slides across the window has at least
/// its placeholder (its photo's shape, `PagePlaceholder`), with decodes finished before each
/// frame as in a replay. (While paging passes photos, one without a cheap preview, a PNG, shows
/// its placeholder until paging rests: it gets no full decode.)
@Suite struct FastPagingTests {
    /// A folder of `count` links to the test photos (JPEGs with and without EXIF thumbnails, a
    /// PNG), named so they sort in order.
    static func library(count: Int) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-fast-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let sources = ["2 friends.jpg", "10 hubble.jpg", "1 coffee.png"]
        for k in 0..<count {
            let source = sources[k % sources.count]
            try FileManager.default.createSymbolicLink(
                atPath: dir.appendingPathComponent(String(format: "p%02d.%@", k, (source as NSString).pathExtension)).path,
                withDestinationPath: TestPaths.photos + "/" + source)
        }
        return dir
    }

    /// Runs `keys` (name and press time) from page 3, frame by frame for `seconds`, and returns
    /// the frames (time, black pages) where a page on screen was black: nothing to show, not
    /// even its placeholder.
    static func blankFrames(keys: [(Key, Double)], seconds: Double) throws -> [(Double, [Int])] {
        let dir = try library(count: 20)
        defer { try? FileManager.default.removeItem(at: dir) }
        let h = ViewerHarness(paths: [dir.appendingPathComponent("p03.jpg").path])
        var blank: [(Double, [Int])] = []
        var pending = keys
        for frame in 1...Int(seconds * 60) {
            let t = Double(frame) / 60
            h.viewer.settleDecodes()
            while let (name, at) = pending.first, at <= t {
                h.viewer.handle(.key(name, modifiers: [], time: at), now: at)
                pending.removeFirst()
            }
            h.viewer.advance(to: t)
            h.session.scene.renderIfNeeded()
            // The first frames, before the opening photo's own decode, are the launch's.
            if t > 0.1, !h.viewer.blackPages.isEmpty { blank.append((t, h.viewer.blackPages)) }
        }
        return blank
    }

    @Test func tenPresses30msApartShowNoBlackPage() throws {
        let presses = (0..<10).map { (Key.right, 0.5 + 0.03 * Double($0)) }
        let blank = try Self.blankFrames(keys: presses, seconds: 2)
        #expect(blank.isEmpty, "blank pages: \(blank)")
    }

    // Home and End jump to the target's neighbour and slide one page: both pages show from the
    // first frame.
    @Test(arguments: [Key.end, .home])
    func homeAndEndSlideFromTheTargetsRealNeighbour(key: Key) throws {
        let blank = try Self.blankFrames(keys: [(key, 0.5)], seconds: 1.5)
        #expect(blank.isEmpty, "blank pages: \(blank)")
    }
}
