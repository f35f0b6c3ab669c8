import Foundation
import Glibc
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleDisplay
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing

/// A session on files in a folder watched for real (inotify, `LiveFolders`), its scene stepped on
/// a virtual clock: time stands still while the test waits for the watcher to report what was
/// done to the folder (30 s at most: a hang guard, never a pace), then moves on by the burst's
/// bound, and every decode asked for is let finish before the scene looks again. What a test
/// then sees is what the app shows `ChangeBurst.longest` after a change, however slow the
/// machine.
final class WatchedSession {
    let session: RiffleSession
    let display: HeadlessDisplay
    /// The virtual clock, seconds.
    private(set) var now = 100.0

    /// A session on `paths` (as the command line opens them) in a window of `size`, keeping
    /// thumbnails in `thumbnailFolder` (nil: in memory), watching its folders.
    init(paths: [String], size: PixelSize = PixelSize(width: 640, height: 400), thumbnailFolder: String?) {
        var options = SessionOptions(thumbnailFolder: thumbnailFolder)
        // A tree's index in memory: tests never write the user's cache.
        options.libraryIndexPath = nil
        options.viewSettingsPath = nil
        let headless = HeadlessSession(paths, size: size, options: options)
        display = headless.display
        session = headless.session
        session.scene.watchFolders(wake: {})
        settle()
    }

    deinit { session.scene.stopWatchingFolders() }

    /// Steps the scene to the clock and draws, as one turn of the live loop: what the scene asks
    /// of the window (its title) is carried out as the loop carries it out.
    func step() {
        var scene: Scene = session.scene
        _ = AppCommandPerformer(display: display).perform(session.scene.advance(to: now), on: &scene)
        session.scene.renderIfNeeded()
    }

    /// Lets the decodes and thumbnails asked for finish and takes them in, a few rounds (what
    /// arrives asks for more: a thumbnail's making after its quick look), the clock standing.
    func settle() {
        for _ in 0..<6 {
            session.scene.settleDecodes()
            step()
        }
    }

    /// Moves the clock on by `seconds` and draws.
    func wait(_ seconds: Double) {
        now += seconds
        step()
    }

    /// Waits for the watcher to report what the test did to the folder (the scene then has a
    /// burst under way), moves the clock to the burst's latest end (`ChangeBurst.longest` after
    /// its first event) and lets the decodes it asks for finish; a burst begun by events read
    /// late is taken in the same way. Returns the clock time of the burst's first event.
    @discardableResult
    func takeInChanges(sourceLocation: SourceLocation = #_sourceLocation) -> Double {
        eventually(sourceLocation: sourceLocation) {
            step()
            return session.scene.wakeTime != nil
        }
        let first = now
        for _ in 0..<10 {
            guard let wake = session.scene.wakeTime else { break }
            now = max(now, wake)
            step()
            settle()
        }
        return first
    }

    /// The pixel of the last frame at (`x`, `y`) as (red, green, blue).
    func pixel(_ x: Int, _ y: Int) -> (red: Int, green: Int, blue: Int) {
        let pixel = display.frameBuffer()[x, y]
        return (Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF))
    }
}

/// True when `pixel` (0xAARRGGBB) is within `tolerance` of `colour` in every channel.
func isNear(_ pixel: UInt32, _ colour: UInt32, tolerance: Int = 24) -> Bool {
    [16, 8, 0].allSatisfy { abs(Int(pixel >> $0 & 0xFF) - Int(colour >> $0 & 0xFF)) <= tolerance }
}

/// A JPEG of `width`×`height` in one flat `colour` (0xAARRGGBB), padded to `length` bytes
/// when given (`paddedJPEG`).
func flatJPEG(_ colour: UInt32, width: Int = 64, height: Int = 48, length: Int? = nil) throws -> [UInt8] {
    let picture = PixelBuffer(width: width, height: height)
    for y in 0..<height { for x in 0..<width { picture.row(y)[x] = colour } }
    let jpeg = try JPEGEncoder.encode(picture, quality: 95)
    return length.map { paddedJPEG(jpeg, to: $0) } ?? jpeg
}

/// Writes `bytes` over the file at `path` in place (opened, truncated, written, closed, as an
/// editor saving over it does), its modification time then set to `seconds` since 1970 when
/// given.
func rewrite(_ path: String, with bytes: [UInt8], modificationTime seconds: Int? = nil) throws {
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: Data(bytes))
    try handle.close()
    if let seconds { setModificationTime(seconds, ofFileAt: path) }
}

/// The modification time of the file at `path`, whole seconds since 1970 (Thumb::MTime).
func modificationTime(of path: String) -> Int {
    var status = stat()
    precondition(stat(path, &status) == 0, "stat \(path)")
    return status.st_mtim.tv_sec
}
