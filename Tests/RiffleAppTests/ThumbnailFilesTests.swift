import Foundation
import Glibc
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Synchronization
import Testing

@Suite("Thumbnail files")
struct ThumbnailFilesTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder() }

    static func inode(_ path: String) -> ino_t {
        var status = stat()
        precondition(stat(path, &status) == 0)
        return status.st_ino
    }

    /// A PNG of seeded noise, big enough (about 1 MiB) that writing it takes a while, whose
    /// text says `label`.
    static func noisePNG(seed: UInt64, label: String) throws -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        let picture = PixelBuffer(width: 512, height: 512)
        for y in 0..<512 {
            for x in 0..<512 { picture[x, y] = 0xFF00_0000 | UInt32(truncatingIfNeeded: random.next()) & 0xFF_FFFF }
        }
        return try PNGEncoder.encode(picture, text: [PNGTextChunk(key: "Label", value: label)])
    }

    @Test("A replaced file is a new file: a reader of the old one reads it whole, the name gives the new one whole")
    func replaceIsAtomic() throws {
        let path = scratch.path("thumbnail.png")
        let old = [UInt8](repeating: 1, count: 300_000), new = [UInt8](repeating: 2, count: 200_000)
        try ThumbnailFiles.replace(atPath: path, with: old)
        let oldInode = Self.inode(path)
        let reader = open(path, O_RDONLY)
        #expect(reader >= 0)
        defer { close(reader) }

        try ThumbnailFiles.replace(atPath: path, with: new)
        #expect(Self.inode(path) != oldInode)
        var readBack = [UInt8](repeating: 0, count: 400_000)
        var total = 0
        while case let count = readBack.withUnsafeMutableBytes({ read(reader, $0.baseAddress! + total, $0.count - total) }), count > 0 {
            total += count
        }
        // Compared to a Bool first: on a mismatch Swift Testing would diff the arrays, which
        // takes minutes at this length.
        let oldIsWhole = Array(readBack[0..<total]) == old
        let newIsWhole = try FileBytes.read(atPath: path) == new
        #expect(oldIsWhole && newIsWhole)
        #expect(ScratchFolder.mode(of: path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["thumbnail.png"])
    }

    @Test("A replace that fails leaves no temporary file and what was there as it was")
    func failedReplaceCleansUp() throws {
        // rename(2) cannot put a file over a folder.
        let path = try scratch.makeFolder("thumbnail.png")
        #expect(throws: ImageEncodeError.self) { try ThumbnailFiles.replace(atPath: path, with: [1, 2, 3]) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["thumbnail.png"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: path).isEmpty)
        // No folder to write in.
        #expect(throws: ImageEncodeError.self) { try ThumbnailFiles.replace(atPath: scratch.path("gone/t.png"), with: [1]) }
    }

    /// Whether the writer thread is still at it.
    final class Writing: Sendable {
        private let flag = Atomic<Bool>(true)
        var isOn: Bool { flag.load(ordering: .acquiring) }
        func end() { flag.store(false, ordering: .releasing) }
    }

    @Test("Readers never see part of a thumbnail while it is replaced again and again")
    func readersSeeWholeFiles() throws {
        let path = scratch.path("thumbnail.png")
        let versions = [try Self.noisePNG(seed: 1, label: "one"), try Self.noisePNG(seed: 2, label: "two")]
        try ThumbnailFiles.replace(atPath: path, with: versions[0])
        // The writer has a thread of its own, so the reader below cannot keep it from running.
        let writing = Writing()
        Thread {
            for round in 1...30 { try? ThumbnailFiles.replace(atPath: path, with: versions[round % 2]) }
            writing.end()
        }.start()
        var whole = 0
        var broken: [String] = []
        while writing.isOn {
            do {
                let text = try ImageDecoder.decodeWithText(FileBytes.read(atPath: path)).text
                if text.value(forKey: "Label") != nil { whole += 1 }
            } catch {
                broken.append(error.reason)
            }
        }
        #expect(broken.isEmpty)
        #expect(whole > 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["thumbnail.png"])
    }

    @Test("A new folder is 0700; an existing one is left as it is; a missing parent is an error")
    func folders() throws {
        let made = scratch.path("thumbnails")
        try ThumbnailFiles.makeFolder(atPath: made)
        #expect(ScratchFolder.mode(of: made) == 0o700)
        let existing = try scratch.makeFolder("existing")
        chmod(existing, 0o755)
        try ThumbnailFiles.makeFolder(atPath: existing)
        #expect(ScratchFolder.mode(of: existing) == 0o755)
        #expect(throws: ImageEncodeError.self) { try ThumbnailFiles.makeFolder(atPath: scratch.path("a/b")) }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("a")))
    }

    /// A cache home that does not exist yet ($XDG_CACHE_HOME/thumbnails on a new account) is
    /// made with its parents, each new one 0700; the folders above that exist keep their modes.
    @Test func missingParentsAreMade() throws {
        let existing = try scratch.makeFolder("home")
        chmod(existing, 0o755)
        let made = scratch.path("home/.cache/thumbnails")
        try ThumbnailFiles.makeFolderAndParents(atPath: made)
        #expect(ScratchFolder.mode(of: scratch.path("home/.cache")) == 0o700)
        #expect(ScratchFolder.mode(of: made) == 0o700)
        #expect(ScratchFolder.mode(of: existing) == 0o755)
        try ThumbnailFiles.makeFolderAndParents(atPath: made)
    }
}
