import Dispatch
import Foundation
import Glibc
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Synchronization
import Testing

/// The thumbnail cache, each test in a scratch folder of its own: `photos/` and an existing
/// `cache/` (XDG_CACHE_HOME) whose `thumbnails/` the cache creates, given to the cache
/// explicitly (where the environment puts it is `ThumbnailFolderTests`' concern).
@Suite("Thumbnail cache")
struct ThumbnailCacheTests {
    let scratch: ScratchFolder
    /// `$XDG_CACHE_HOME/thumbnails`.
    let folder: String
    let messages = Messages()

    init() throws {
        scratch = try ScratchFolder()
        try scratch.makeFolder("photos")
        try scratch.makeFolder("cache")
        folder = scratch.path("cache/thumbnails")
    }

    /// What the cache says on standard error, collected.
    final class Messages: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    func makeCache(writable: Bool = true, folder: String? = nil) -> ThumbnailCache {
        ThumbnailCache(folder: folder ?? self.folder, writable: writable, report: { [messages] in messages.append($0) })
    }

    static let red = Color(red: UInt8(220), green: 30, blue: 40)
    static let blue = Color(red: UInt8(20), green: 40, blue: 210)
    static let green = Color(red: UInt8(30), green: 190, blue: 60)
    static let magenta = Color(red: UInt8(255), green: 0, blue: 255)

    /// A baseline JPEG of one colour (or `left` and `right` halves), stored `width` × `height`,
    /// with an EXIF block when it has an orientation other than top-left or a thumbnail.
    static func jpeg(
        width: Int, height: Int, left: Color, right: Color? = nil, orientation: ImageOrientation = .topLeft,
        thumbnail: PixelBuffer? = nil
    ) throws -> [UInt8] {
        let picture = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            picture.row(y).update(repeating: left.packed, count: width / 2)
            (picture.row(y) + width / 2).update(repeating: (right ?? left).packed, count: width - width / 2)
        }
        let main = try JPEGEncoder.encode(picture, quality: 90)
        guard orientation != .topLeft || thumbnail != nil else { return main }
        let small = try thumbnail.map { try JPEGEncoder.encode($0, quality: 90) } ?? []
        return try ExifThumbnail.inserting(thumbnail: small, orientation: orientation, into: main)
    }

    /// Whether `pixel` is `color` give or take 12 a channel (JPEG's loss on flat colour, and
    /// area averaging at a colour edge nearby).
    static func isClose(_ pixel: UInt32, _ color: Color) -> Bool {
        let p = Color(packed: pixel)
        return abs(Int(p.red) - Int(color.red)) <= 12 && abs(Int(p.green) - Int(color.green)) <= 12
            && abs(Int(p.blue) - Int(color.blue)) <= 12
    }

    static func centre(_ buffer: PixelBuffer) -> UInt32 { buffer[buffer.width / 2, buffer.height / 2] }

    /// The stored thumbnail at `path`: its pixels and text.
    static func stored(_ path: String) throws -> (image: DecodedImage, text: [PNGTextChunk]) {
        try ImageDecoder.decodeWithText(FileBytes.read(atPath: path))
    }

    static func fileSize(_ path: String) throws -> Int {
        try FileBytes.read(atPath: path).count
    }

    // MARK: making, storing, finding

    @Test("A thumbnail is made, stored under the MD5 of its URI with the standard's keys, and found again")
    func makesStoresAndFinds() throws {
        let photo = try scratch.write(Self.jpeg(width: 600, height: 400, left: Self.red), to: "photos/Strand Überblick #1.jpg")
        setModificationTime(1_700_000_000, ofFileAt: photo)
        let cache = makeCache()
        #expect(cache.lookup(path: photo, size: .normal) == nil)

        let made = try cache.thumbnail(path: photo, size: .normal)
        #expect(made.size == PixelSize(width: 128, height: 85))
        #expect(Self.isClose(Self.centre(made), Self.red))

        let uri = "file://" + scratch.path + "/photos/Strand%20%C3%9Cberblick%20%231.jpg"
        let path = folder + "/normal/" + ThumbnailCache.fileName(forURI: uri)
        #expect(cache.thumbnailPath(forURI: uri, size: .normal) == path)
        let stored = try Self.stored(path)
        #expect(stored.text == [
            PNGTextChunk(key: "Thumb::URI", value: uri),
            PNGTextChunk(key: "Thumb::MTime", value: "1700000000"),
            PNGTextChunk(key: "Thumb::Size", value: String(try Self.fileSize(photo))),
            PNGTextChunk(key: "Thumb::Image::Width", value: "600"),
            PNGTextChunk(key: "Thumb::Image::Height", value: "400"),
            PNGTextChunk(key: "Software", value: "Riffle 0.1"),
        ])
        #expect(stored.image.pixels.size == made.size)

        let found = try #require(cache.lookup(path: photo, size: .normal))
        #expect(found.size == made.size && Self.isClose(Self.centre(found), Self.red))
        #expect(messages.all.isEmpty)
    }

    @Test("Each size class fits the photo in its square, aspect kept, in its own folder", arguments: [
        (ThumbnailSize.normal, "normal", 128, 96),
        (.large, "large", 256, 192),
        (.xLarge, "x-large", 512, 384),
        (.xxLarge, "xx-large", 1024, 768),
    ])
    func sizeClasses(size: ThumbnailSize, folderName: String, width: Int, height: Int) throws {
        let photo = try scratch.write(Self.jpeg(width: 1500, height: 2000, left: Self.blue), to: "photos/tall.jpg")
        // The same photo on its side: the upright 2000 × 1500 is what is fitted.
        let turned = try scratch.write(
            Self.jpeg(width: 1500, height: 2000, left: Self.blue, orientation: .rightTop), to: "photos/turned.jpg")
        let cache = makeCache()
        #expect(try cache.thumbnail(path: photo, size: size).size == PixelSize(width: height, height: width))
        #expect(try cache.thumbnail(path: turned, size: size).size == PixelSize(width: width, height: height))
        let name = ThumbnailCache.fileName(forURI: FileURI.uri(forAbsolutePath: turned))
        #expect(try Self.stored(folder + "/" + folderName + "/" + name).image.pixels.size == PixelSize(width: width, height: height))
    }

    /// A thumbnail is the smallest DCT scale that covers it, area-averaged: a 4800×3200 photo's
    /// x-large thumbnail (512×341) comes from libjpeg's 1/8 decode (600×400), not from the 2/8
    /// decode the fit's Lanczos-3 would take (twice the size shown). Checked against the 1/8
    /// decode and `AreaResample` done here, bit for bit, on a picture whose fine detail any
    /// other filter or scale would draw differently.
    @Test("A thumbnail is the 1/8 decode that covers it, area-averaged")
    func madeFromTheSmallestCoveringScale() throws {
        let picture = PixelBuffer(width: 4800, height: 3200)
        for y in 0..<picture.height {
            let row = picture.row(y)
            for x in 0..<picture.width {
                let grey = UInt32((x * 37 + y * 11) & 0xFF ^ (x * y >> 9) & 0x3F)
                row[x] = 0xFF00_0000 | grey << 16 | (255 - grey) << 8 | UInt32(x * 255 / picture.width)
            }
        }
        let photo = try scratch.write(JPEGEncoder.encode(picture, quality: 90), to: "photos/detailed.jpg")
        let eighth = try ImageDecoder.decodeFile(atPath: photo, atLeast: PixelSize(width: 512, height: 341))
        #expect(eighth.pixels.size == PixelSize(width: 600, height: 400), "the 1/8 decode covers x-large")
        let expected = AreaResample.shrink(eighth.pixels, toWidth: 512, height: 341)
        let made = try makeCache().thumbnail(path: photo, size: .xLarge)
        #expect(made.size == expected.size)
        let difference = ImageDifference(made, expected, tolerance: 0)
        #expect(difference.pixelsOverTolerance == 0, "\(difference.pixelsOverTolerance) pixels differ, by up to \(difference.maxChannel)")
    }

    @Test("A photo smaller than the size class keeps its size")
    func neverEnlarged() throws {
        let photo = try scratch.write(Self.jpeg(width: 100, height: 60, left: Self.green), to: "photos/small.jpg")
        #expect(try makeCache().thumbnail(path: photo, size: .large).size == PixelSize(width: 100, height: 60))
        #expect(ThumbnailSize.normal.fitted(PixelSize(width: 10_000, height: 10)) == PixelSize(width: 128, height: 1))
    }

    @Test("The EXIF orientation is applied, and the upright size recorded")
    func orientationApplied() throws {
        // Stored left half red, right half blue; turned a quarter clockwise (orientation 6, the
        // stored first column is the upright top row) the red half is on top.
        let photo = try scratch.write(
            Self.jpeg(width: 600, height: 400, left: Self.red, right: Self.blue, orientation: .rightTop),
            to: "photos/turned.jpg")
        let cache = makeCache()
        let made = try cache.thumbnail(path: photo, size: .normal)
        #expect(made.size == PixelSize(width: 85, height: 128))
        #expect(Self.isClose(made[42, 10], Self.red) && Self.isClose(made[42, 117], Self.blue))
        let text = try Self.stored(cache.thumbnailPath(forURI: FileURI.uri(forAbsolutePath: photo), size: .normal)).text
        #expect(text.value(forKey: "Thumb::Image::Width") == "400" && text.value(forKey: "Thumb::Image::Height") == "600")
    }

    @Test("A path with '.', '..' and doubled slashes finds the same thumbnail as its clean form")
    func uncleanPaths() throws {
        try scratch.makeFolder("photos/x")
        let photo = try scratch.write(Self.jpeg(width: 300, height: 200, left: Self.green), to: "photos/a.jpg")
        let cache = makeCache()
        _ = try cache.thumbnail(path: scratch.path("photos/./x/..//a.jpg"), size: .normal)
        #expect(cache.lookup(path: photo, size: .normal) != nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/normal").count == 1)
    }

    // MARK: validity

    @Test("A thumbnail whose Thumb::MTime is not the photo's is made again and written over", arguments: [100, -100])
    func staleMTime(shift: Int) throws {
        let photo = try scratch.write(Self.jpeg(width: 600, height: 400, left: Self.red), to: "photos/p.jpg")
        setModificationTime(1_700_000_000, ofFileAt: photo)
        let cache = makeCache()
        #expect(Self.isClose(Self.centre(try cache.thumbnail(path: photo, size: .normal)), Self.red))

        // Edited (or, for an older time, another file moved over it): a stale thumbnail.
        try scratch.write(Self.jpeg(width: 600, height: 400, left: Self.blue), to: "photos/p.jpg")
        setModificationTime(1_700_000_000 + shift, ofFileAt: photo)
        #expect(cache.lookup(path: photo, size: .normal) == nil)
        #expect(Self.isClose(Self.centre(try cache.thumbnail(path: photo, size: .normal)), Self.blue))
        let stored = try Self.stored(cache.thumbnailPath(forURI: FileURI.uri(forAbsolutePath: photo), size: .normal))
        #expect(stored.text.value(forKey: "Thumb::MTime") == String(1_700_000_000 + shift))
        #expect(Self.isClose(Self.centre(stored.image.pixels), Self.blue))
        #expect(Self.isClose(Self.centre(try #require(cache.lookup(path: photo, size: .normal))), Self.blue))
    }

    @Test("A thumbnail with another Thumb::Size, another URI, no MTime or a damaged file is not valid", arguments: [
        "size", "uri", "no mtime", "cut off",
    ])
    func invalidStored(defect: String) throws {
        let photo = try scratch.write(Self.jpeg(width: 600, height: 400, left: Self.red), to: "photos/p.jpg")
        setModificationTime(1_600_000_000, ofFileAt: photo)
        let uri = FileURI.uri(forAbsolutePath: photo)
        var text = [("Thumb::URI", uri), ("Thumb::MTime", "1600000000"), ("Thumb::Size", String(try Self.fileSize(photo)))]
        switch defect {
        case "size": text[2].1 = "12"
        case "uri": text[0].1 = uri + "x"
        case "no mtime": text.remove(at: 1)
        default: break
        }
        var png = HandMadePNG.rgb(width: 128, height: 85, red: 255, green: 0, blue: 255, text: text.map { (key: $0.0, value: $0.1) })
        if defect == "cut off" { png.removeLast(20) }
        let path = try ThumbnailFiles.writeForTest(png, folder: folder + "/normal", name: ThumbnailCache.fileName(forURI: uri))
        let cache = makeCache()
        #expect(cache.lookup(path: photo, size: .normal) == nil)
        #expect(Self.isClose(Self.centre(try cache.thumbnail(path: photo, size: .normal)), Self.red))
        #expect(try Self.stored(path).text.value(forKey: "Software") == "Riffle 0.1")
    }

    @Test("A thumbnail another program wrote (RGB, only URI and MTime, text before or after the image) is used as it is",
          arguments: [false, true])
    func foreignThumbnailReused(textAfterImageData: Bool) throws {
        try scratch.makeFolder("photos/Ferien 2024")
        let photo = try scratch.write(Self.jpeg(width: 600, height: 400, left: Self.red), to: "photos/Ferien 2024/Meer & Sand.jpg")
        setModificationTime(1_650_000_000, ofFileAt: photo)
        // As GNOME's thumbnail factory writes one: the URI as GLib spells it, no Thumb::Size.
        let uri = "file://" + scratch.path + "/photos/Ferien%202024/Meer%20&%20Sand.jpg"
        let png = HandMadePNG.rgb(
            width: 128, height: 85, red: 255, green: 0, blue: 255,
            text: [("Thumb::URI", uri), ("Thumb::MTime", "1650000000"), ("Software", "GNOME::ThumbnailFactory")],
            textAfterImageData: textAfterImageData)
        let path = try ThumbnailFiles.writeForTest(png, folder: folder + "/normal", name: ThumbnailCache.fileName(forURI: uri))
        let before = scratch.snapshot()

        let cache = makeCache()
        let found = try #require(cache.lookup(path: photo, size: .normal))
        #expect(found.size == PixelSize(width: 128, height: 85) && found[5, 5] == Self.magenta.packed)
        // Not made again (the photo is red), and the file is left alone.
        #expect(try cache.thumbnail(path: photo, size: .normal)[5, 5] == Self.magenta.packed)
        #expect(scratch.snapshot() == before)
        let untouched = try FileBytes.read(atPath: path) == png
        #expect(untouched)
    }

    // MARK: failures

    @Test("A file that cannot be decoded is recorded in fail/riffle-<version> and not tried again while it is unchanged")
    func failureRecorded() throws {
        let good = try Self.jpeg(width: 600, height: 400, left: Self.green)
        // Not an image, and exactly as long as the good photo.
        let photo = try scratch.write([UInt8](repeating: 0x42, count: good.count), to: "photos/broken.jpg")
        setModificationTime(1_500_000_000, ofFileAt: photo)
        let cache = makeCache()
        let reason = "The file is not an image in a format Riffle reads"
        #expect(throws: ImageDecodeError(reason: reason)) { try cache.thumbnail(path: photo, size: .normal) }

        let uri = FileURI.uri(forAbsolutePath: photo)
        let record = folder + "/fail/riffle-0.1/" + ThumbnailCache.fileName(forURI: uri)
        #expect(cache.failureFolder + "/" + ThumbnailCache.fileName(forURI: uri) == record)
        let stored = try Self.stored(record)
        #expect(stored.image.pixels.size == PixelSize(width: 1, height: 1))
        #expect(stored.text.value(forKey: "Thumb::URI") == uri)
        #expect(stored.text.value(forKey: "Thumb::MTime") == "1500000000")
        #expect(stored.text.value(forKey: "X-Riffle::Reason") == reason)
        #expect(ScratchFolder.mode(of: record) == 0o600)

        // The same name, time and size: the record stands, so the file is not read again, even
        // though it would now decode.
        try scratch.write(good, to: "photos/broken.jpg")
        setModificationTime(1_500_000_000, ofFileAt: photo)
        #expect(throws: ImageDecodeError(reason: reason)) { try cache.thumbnail(path: photo, size: .large) }
        #expect(!FileManager.default.fileExists(atPath: folder + "/large"))
        #expect(cache.lookup(path: photo, size: .normal) == nil)

        // Changed: tried again.
        setModificationTime(1_500_000_001, ofFileAt: photo)
        #expect(Self.isClose(Self.centre(try cache.thumbnail(path: photo, size: .large)), Self.green))
    }

    @Test("A decode told to stop is not a failure: nothing is recorded")
    func stoppedIsNotAFailure() throws {
        let photo = try scratch.write(Self.jpeg(width: 600, height: 400, left: Self.red), to: "photos/p.jpg")
        let cache = makeCache()
        #expect(throws: ImageDecodeError.stopped) { try cache.thumbnail(path: photo, size: .normal, until: { true }) }
        #expect(!FileManager.default.fileExists(atPath: folder))
        #expect(throws: ImageDecodeError.self) { try cache.thumbnail(path: scratch.path("photos/missing.jpg"), size: .normal) }
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    // MARK: what is written, and where

    @Test("Folders are made 0700 and files 0600")
    func permissions() throws {
        let photo = try scratch.write(Self.jpeg(width: 300, height: 200, left: Self.red), to: "photos/p.jpg")
        let broken = try scratch.write(Array("not a photo".utf8), to: "photos/broken.png")
        let cache = makeCache()
        _ = try cache.thumbnail(path: photo, size: .large)
        _ = try? cache.thumbnail(path: broken, size: .large)
        for made in ["", "/large", "/fail", "/fail/riffle-0.1"] {
            #expect(ScratchFolder.mode(of: folder + made) == 0o700, "\(made)")
        }
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }
        #expect(files.count == 2)
        for file in files { #expect(ScratchFolder.mode(of: folder + "/" + file) == 0o600, "\(file)") }
    }

    @Test("Nothing is written outside the thumbnails folder, the photos are untouched, and no temporary file is left")
    func writesOnlyInsideTheFolder() throws {
        let photo = try scratch.write(Self.jpeg(width: 600, height: 400, left: Self.red), to: "photos/a b.jpg")
        let other = try scratch.write(Self.jpeg(width: 400, height: 600, left: Self.blue), to: "photos/ü.jpg")
        let broken = try scratch.write([0xFF, 0xD8, 0xFF, 0xE0, 0, 2], to: "photos/broken.jpg")
        let before = scratch.snapshot()

        let cache = makeCache()
        for size in [ThumbnailSize.normal, .xLarge] {
            _ = try cache.thumbnail(path: photo, size: size)
            _ = try cache.thumbnail(path: other, size: size)
            _ = try? cache.thumbnail(path: broken, size: size)
        }
        _ = ThumbnailCache.embeddedThumbnail(path: photo, size: .normal)
        let after = scratch.snapshot()

        let isThumbnail = { (path: String) in path == "cache/thumbnails" || path.hasPrefix("cache/thumbnails/") }
        #expect(Set(before.keys) == Set(after.keys.filter { !isThumbnail($0) }))
        for (path, entry) in before where path != "cache" {
            #expect(after[path] == entry, "\(path) changed")
        }
        // The cache folder gained one entry, the thumbnails folder; its mode is unchanged.
        #expect(after["cache"]?.mode == before["cache"]?.mode)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path("cache")) == ["thumbnails"])

        let names = after.keys.filter(isThumbnail).filter { !after[$0]!.isFolder }.map { FilePaths.name(of: $0) }
        #expect(names.count == 5)
        #expect(names.allSatisfy { $0.count == 36 && $0.hasSuffix(".png") && $0.dropLast(4).allSatisfy(\.isHexDigit) })
    }

    @Test("A photo inside the thumbnails folder gets a thumbnail that is not stored")
    func photoInsideTheFolder() throws {
        let cache = makeCache()
        _ = try cache.thumbnail(path: try scratch.write(Self.jpeg(width: 300, height: 200, left: Self.red), to: "photos/p.jpg"), size: .large)
        let inside = folder + "/large/" + ThumbnailCache.fileName(forURI: "file:///elsewhere.jpg")
        try PNGEncoder.write(PixelBuffer(width: 200, height: 150), toPath: inside)
        let before = scratch.snapshot()
        #expect(try cache.thumbnail(path: inside, size: .normal).size == PixelSize(width: 128, height: 96))
        #expect(scratch.snapshot() == before)
    }

    // MARK: writing off

    @Test("A read-only cache reads, makes thumbnails in memory, records nothing and says nothing")
    func readOnly() throws {
        let photo = try scratch.write(Self.jpeg(width: 600, height: 400, left: Self.red), to: "photos/p.jpg")
        let broken = try scratch.write(Array("nothing".utf8), to: "photos/broken.jpg")
        _ = try makeCache().thumbnail(path: photo, size: .normal)
        let before = scratch.snapshot()

        let cache = makeCache(writable: false)
        #expect(!cache.isWritable)
        #expect(cache.lookup(path: photo, size: .normal) != nil)
        #expect(try cache.thumbnail(path: photo, size: .large).size == PixelSize(width: 256, height: 171))
        #expect(throws: ImageDecodeError.self) { try cache.thumbnail(path: broken, size: .normal) }
        #expect(scratch.snapshot() == before)
        #expect(messages.all.isEmpty)
    }

    @Test("A folder that cannot be written turns writing off, says so once, and thumbnails are still made",
          arguments: ["a file in the way", "a file where a parent folder should be"])
    func unwritable(setup: String) throws {
        let target: String
        if setup == "a file in the way" {
            target = try scratch.write(Array("a file".utf8), to: "cache/thumbnails")
        } else {
            target = try scratch.write(Array("a file".utf8), to: "home") + "/.cache/thumbnails"
        }
        let photos = try (0..<3).map { try scratch.write(Self.jpeg(width: 600, height: 400, left: Self.blue), to: "photos/\($0).jpg") }
        let broken = try scratch.write(Array("nothing".utf8), to: "photos/broken.jpg")
        let before = scratch.snapshot()

        let cache = makeCache(folder: target)
        #expect(cache.isWritable)
        for photo in photos {
            #expect(try cache.thumbnail(path: photo, size: .normal).size == PixelSize(width: 128, height: 85))
        }
        #expect(throws: ImageDecodeError.self) { try cache.thumbnail(path: broken, size: .normal) }
        #expect(!cache.isWritable)
        #expect(messages.all.count == 1)
        #expect(messages.all.first?.hasPrefix("riffle: thumbnails are kept in memory only from now on: Cannot ") == true)
        #expect(scratch.snapshot() == before)
    }

    /// A cache home that does not exist yet (a new account's ~/.cache) is made, 0700, and the
    /// thumbnails written into it.
    @Test func aMissingCacheHomeIsMade() throws {
        let target = scratch.path("home/.cache/thumbnails")
        let photo = try scratch.write(Self.jpeg(width: 600, height: 400, left: Self.blue), to: "photos/a.jpg")
        let cache = makeCache(folder: target)
        #expect(try cache.thumbnail(path: photo, size: .normal).size == PixelSize(width: 128, height: 85))
        #expect(cache.isWritable)
        #expect(messages.all.isEmpty)
        #expect(ScratchFolder.mode(of: scratch.path("home/.cache")) == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: target + "/normal").count == 1)
    }

    // MARK: EXIF thumbnails

    @Test("The EXIF thumbnail is a quick stand-in, fitted to the size class; a PNG has none")
    func embedded() throws {
        let small = PixelBuffer(width: 160, height: 107)
        small.fill(Self.red)
        let photo = try scratch.write(Self.jpeg(width: 600, height: 400, left: Self.blue, thumbnail: small), to: "photos/camera.jpg")
        let png = try scratch.write(PNGEncoder.encode(PixelBuffer(width: 60, height: 40)), to: "photos/drawing.png")
        let before = scratch.snapshot()

        let normal = try #require(ThumbnailCache.embeddedThumbnail(path: photo, size: .normal)).pixels
        #expect(normal.size == PixelSize(width: 128, height: 86) && Self.isClose(Self.centre(normal), Self.red))
        #expect(ThumbnailCache.embeddedThumbnail(path: photo, size: .xxLarge)?.pixels.size == PixelSize(width: 160, height: 107))
        #expect(ThumbnailCache.embeddedThumbnail(path: png, size: .normal) == nil)
        #expect(scratch.snapshot() == before)
    }

    // MARK: concurrency

    @Test("Workers making the same thumbnail at once all get it, and leave one complete file")
    func concurrentWorkers() throws {
        let photo = try scratch.write(Self.jpeg(width: 1200, height: 800, left: Self.green), to: "photos/p.jpg")
        let cache = makeCache()
        let sizes = Mutex<[PixelSize]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let made = try? cache.thumbnail(path: photo, size: .large)
            sizes.withLock { $0.append(made?.size ?? .zero) }
        }
        #expect(sizes.withLock { $0 } == Array(repeating: PixelSize(width: 256, height: 171), count: 4))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/large").count == 1)
        #expect(cache.lookup(path: photo, size: .large) != nil)
    }
}

extension ThumbnailFiles {
    /// Writes `bytes` as `name` in `folder` (made, with the folders above it, mode 0700), the
    /// way another program would leave a thumbnail there; returns its path.
    static func writeForTest(_ bytes: [UInt8], folder: String, name: String) throws -> String {
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try replace(atPath: folder + "/" + name, with: bytes)
        return folder + "/" + name
    }
}
