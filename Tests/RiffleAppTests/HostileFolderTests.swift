import Foundation
import Glibc
import RiffleDisplay
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline

/// A folder as people have them: a photo beside a named pipe, a socket, an empty file, a
/// folder, dangling and looping links and a name that is not UTF-8, all called *.jpg. The grid
/// opens on it without blocking, each photo gets its thumbnail, and each of the rest a cell
/// that says what it is; the pager opens each and says the same.
@Suite(.timeLimit(.minutes(3))) struct HostileFolderTests {
    /// The raw bytes of a file name that is not UTF-8: "café.jpg" in Latin-1.
    static let latin1Name: [UInt8] = Array("d caf".utf8) + [0xE9] + Array(".jpg".utf8)

    /// Makes the folder inside `scratch`; returns its path.
    static func makeFolder(in scratch: ScratchFolder) throws -> String {
        let folder = try scratch.makeFolder("photos")
        let jpeg = try JPEGEncoder.encode(Self.picture(), quality: 90)
        try scratch.write(jpeg, to: "photos/a good.jpg")
        #expect(mkfifo(folder + "/b pipe.jpg", 0o600) == 0)
        try scratch.write([], to: "photos/c empty.jpg")
        let latin1 = Data(folder.utf8) + Data("/".utf8) + Data(latin1Name)
        let descriptor = latin1.withUnsafeBytes { raw -> Int32 in
            var path = [CChar](raw.bindMemory(to: CChar.self)) + [0]
            return open(&path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        #expect(descriptor >= 0)
        _ = jpeg.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        #expect(symlink(folder + "/nowhere.jpg", folder + "/e dangling.jpg") == 0)
        #expect(symlink(folder + "/f loop.jpg", folder + "/f loop.jpg") == 0)
        try scratch.makeFolder("photos/g folder.jpg")
        try bindSocket(at: folder + "/h socket.jpg")
        return folder
    }

    /// A 64 × 48 picture, red on the left, blue on the right.
    static func picture() -> PixelBuffer {
        let picture = PixelBuffer(width: 64, height: 48)
        for y in 0..<48 {
            for x in 0..<64 { picture[x, y] = x < 32 ? Color(red: 220, green: 20, blue: 20).packed : Color(red: 20, green: 20, blue: 220).packed }
        }
        return picture
    }

    /// A Unix socket bound at `path` (left open: the test process ends it).
    static func bindSocket(at path: String) throws {
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(socket >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
    }

    @Test func theGridOpensWithACellForEachAndNoneBlocks() throws {
        let scratch = try ScratchFolder()
        let folder = try Self.makeFolder(in: scratch)
        var problems: [String] = []
        let library = PhotoLibrary.collect(paths: [folder], problems: &problems)
        let names = library.photos.map(\.name)
        // Folders and links that lead nowhere are not photos; every file-like entry is.
        #expect(names.count == 5, "\(names)")
        let session = RiffleSession(
            library: library, display: HeadlessDisplay(size: PixelSize(width: 640, height: 400)),
            options: SessionOptions(thumbnailFolder: scratch.path("cache")))
        let scene = session.scene
        var t = 0.0
        for _ in 0..<30 {
            t += 1.0 / 60
            scene.settleDecodes()
            scene.advance(to: t)
            scene.renderIfNeeded()
        }
        let store = session.pipeline.thumbnailStore
        func state(_ prefix: String) -> ThumbnailState? {
            library.photos.firstIndex { $0.name.hasPrefix(prefix) }.map { store.state(of: PhotoID($0)) }
        }
        func reason(_ prefix: String) -> String? {
            if case .failed(let reason)? = state(prefix) { return reason }
            return nil
        }
        func hasThumbnail(_ prefix: String) -> Bool {
            if case .thumbnail(_, _, false)? = state(prefix) { return true }
            return false
        }
        #expect(hasThumbnail("a good"))
        #expect(hasThumbnail("d caf"), "a name that is not UTF-8 still names its file")
        #expect(reason("b pipe")?.contains("named pipe") == true, "\(String(describing: reason("b pipe")))")
        #expect(reason("h socket")?.contains("socket") == true, "\(String(describing: reason("h socket")))")
        #expect(reason("c empty")?.contains("empty") == true, "\(String(describing: reason("c empty")))")
    }
}
