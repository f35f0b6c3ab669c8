import Foundation
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleGeometry
import RiffleImageIO
import RiffleInteraction
import RiffleRaster
import Testing

/// A photo written anew in a watched folder gets its thumbnails made again from its new
/// content, in the grid and in the pager's navigator strip, within half a second of the change
/// on the virtual clock (`WatchedSession`); the Freedesktop cache file is replaced with one
/// stamped with the file as it is now. The hard case is a rewrite within the second its stored
/// thumbnail's Thumb::MTime names, to the same byte count: the stamp still matches, and only
/// the watcher's word tells the stored thumbnail is stale.
@Suite(.serialized) struct RewrittenThumbnailTests {
    static let red: UInt32 = 0xFFE0_2020
    static let blue: UInt32 = 0xFF20_40E0
    static let green: UInt32 = 0xFF20_C040

    /// A watched folder holding "1 photo.jpg" (red) and "2 other.jpg" (green), a thumbnail
    /// cache of the test's own outside it, and the red and blue pictures padded to one length.
    static func folder() throws -> (photos: ScratchFolder, cache: ScratchFolder, red: [UInt8], blue: [UInt8]) {
        let photos = try ScratchFolder(), cache = try ScratchFolder()
        let plainRed = try flatJPEG(red), plainBlue = try flatJPEG(blue)
        let length = max(plainRed.count, plainBlue.count) + 4
        let red = try flatJPEG(red, length: length), blue = try flatJPEG(blue, length: length)
        try photos.write(red, to: "1 photo.jpg")
        try photos.write(try flatJPEG(green), to: "2 other.jpg")
        return (photos, cache, red, blue)
    }

    /// The thumbnail `store` holds for photo `index`: its centre pixel, and whether it is a real
    /// (not stand-in) one.
    static func centre(of store: ThumbnailStore, at index: Int) -> UInt32? {
        guard case let .thumbnail(image, _, false) = store.state(of: PhotoID(index)) else { return nil }
        return image.pixels[image.pixels.width / 2, image.pixels.height / 2]
    }

    /// Rewritten to the same length within the same second: the grid's cell shows the blue
    /// picture half a second after the change, drawn in the window, and the cache holds a blue
    /// thumbnail stamped with the file as it is now.
    @Test func theGridRemakesARewrittenPhotosThumbnail() throws {
        let (photos, cache, red, blue) = try Self.folder()
        #expect(red.count == blue.count)
        let path = photos.path("1 photo.jpg")
        let watched = WatchedSession(paths: [photos.path], thumbnailFolder: cache.path)
        let store = watched.session.pipeline.thumbnailStore
        #expect(Self.centre(of: store, at: 0).map { isNear($0, Self.red) } == true)
        let cached = ThumbnailCache(folder: cache.path, writable: false)
        #expect(cached.lookup(path: path, size: store.size).map { isNear($0[$0.width / 2, $0.height / 2], Self.red) } == true)
        let redCells = Self.count(Self.red, in: watched.display.frameBuffer())
        #expect(redCells > 0, "the red cell is drawn")

        let stamp = modificationTime(of: path)
        try rewrite(path, with: blue, modificationTime: stamp)
        let first = watched.takeInChanges()
        watched.wait(max(0, first + 0.5 - watched.now))
        #expect(watched.now - first <= 0.5 + 1e-9)
        #expect(Self.centre(of: store, at: 0).map { isNear($0, Self.blue) } == true, "the grid's thumbnail is made again")
        #expect(Self.centre(of: store, at: 1).map { isNear($0, Self.green) } == true, "the other photo's stays")
        #expect(Self.count(Self.red, in: watched.display.frameBuffer()) == 0, "no red cell is drawn")
        #expect(abs(Self.count(Self.blue, in: watched.display.frameBuffer()) - redCells) <= redCells / 10, "the cell is drawn blue, whole")
        // The stored thumbnail was replaced, its stamp the file's as it is now.
        let stored = try ImageDecoder.decodeWithText(
            FileBytes.read(atPath: cached.thumbnailPath(forURI: FileURI.uri(forAbsolutePath: path), size: store.size)))
        #expect(stored.text.value(forKey: ThumbnailStamp.Key.modificationTime) == String(stamp))
        #expect(stored.text.value(forKey: ThumbnailStamp.Key.byteCount) == String(blue.count))
        #expect(isNear(stored.image.pixels[stored.image.pixels.width / 2, stored.image.pixels.height / 2], Self.blue))
    }

    /// Rewritten as a new picture of another size, as an editor saves one: the stored thumbnail's
    /// stamp no longer matches at once (Thumb::MTime and Thumb::Size), and the navigator strip,
    /// asking the same cache, shows the new thumbnail half a second after the change.
    @Test func theStripRemakesARewrittenPhotosThumbnail() throws {
        let (photos, cache, _, _) = try Self.folder()
        let path = photos.path("1 photo.jpg")
        let watched = WatchedSession(paths: [path], thumbnailFolder: cache.path)
        // The pointer moves: the bars and the strip fade in.
        _ = watched.session.scene.handle(.pointerMove(position: Point(x: 320, y: 200), modifiers: [], time: watched.now), now: watched.now)
        watched.wait(0.3)
        watched.settle()
        let store = watched.session.pipeline.stripThumbnailStore
        #expect(Self.centre(of: store, at: 0).map { isNear($0, Self.red) } == true)
        #expect(Self.centre(of: store, at: 1).map { isNear($0, Self.green) } == true)

        let cached = ThumbnailCache(folder: cache.path, writable: false)
        #expect(cached.lookup(path: path, size: store.size) != nil)
        try rewrite(path, with: try flatJPEG(Self.blue, width: 80, height: 40), modificationTime: modificationTime(of: path) + 5)
        #expect(cached.lookup(path: path, size: store.size) == nil, "the stored thumbnail's stamp no longer matches")
        let first = watched.takeInChanges()
        watched.wait(max(0, first + 0.5 - watched.now))
        #expect(Self.centre(of: store, at: 0).map { isNear($0, Self.blue) } == true, "the strip's thumbnail is made again")
        #expect(Self.centre(of: store, at: 1).map { isNear($0, Self.green) } == true)
        #expect(cached.lookup(path: path, size: store.size).map { isNear($0[$0.width / 2, $0.height / 2], Self.blue) } == true)
        // And the pager's photo itself.
        guard case .image(let shown)? = watched.session.pipeline.photoStore.content(of: PhotoID(0)) else {
            Issue.record("the photo is not shown")
            return
        }
        #expect(shown.fullSize == PixelSize(width: 80, height: 40))
    }

    /// How many pixels of `frame` are within tolerance of `colour`.
    static func count(_ colour: UInt32, in frame: PixelBuffer) -> Int {
        var count = 0
        for y in 0..<frame.height { for x in 0..<frame.width where isNear(frame[x, y], colour) { count += 1 } }
        return count
    }
}
