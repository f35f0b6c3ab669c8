import Foundation
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

/// `riffle FILE` decodes its photo from the first moment (`HeadStartDecode`); the pager's first
/// fit decode of that file takes it, once, for the same file and viewport only.
@Suite struct HeadStartDecodeTests {
    static let viewport = PixelSize(width: 960, height: 600)

    /// A copy of friends.jpg in a folder of its own, removed by the caller.
    static func copiedPhoto() throws -> (folder: URL, path: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-head-start-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("friends.jpg").path
        try FileManager.default.copyItem(atPath: TestPaths.photos + "/2 friends.jpg", toPath: path)
        return (folder, path)
    }

    @Test("The first fit decode of the file takes the head start: the same pixels, once")
    func theFirstFitDecodeTakesIt() throws {
        let (folder, path) = try Self.copiedPhoto()
        defer { try? FileManager.default.removeItem(at: folder) }
        let headStart = HeadStartDecode(path: path, viewport: Self.viewport)
        let decoding = PhotoDecoding(tileSources: TileSources(), thumbnailCache: nil, headStart: headStart)
        // The folder's spelling of the path, not the command line's: the file is the same.
        let request = DecodeRequest(photo: PhotoID(0), path: folder.path + "/./friends.jpg", job: .fit(viewport: Self.viewport))
        guard case .photo(.image(let early)) = decoding.perform(request),
              case .photo(.image(let plain)) = standaloneDecoding().perform(request)
        else {
            Issue.record("a fit decode failed")
            return
        }
        #expect(!early.isPreview && early.pixels.size == plain.pixels.size && early.fullSize == plain.fullSize)
        #expect(ImageDifference(early.pixels, plain.pixels, tolerance: 0).maxChannel == 0)
        #expect(headStart.take(path: path, viewport: Self.viewport) == nil, "taken twice")
    }

    @Test("Another viewport or another file does not take it; a file rewritten since it began drops it")
    func onlyTheSameFileAndViewport() throws {
        let (folder, path) = try Self.copiedPhoto()
        defer { try? FileManager.default.removeItem(at: folder) }
        let other = folder.appendingPathComponent("other.jpg").path
        try FileManager.default.copyItem(atPath: path, toPath: other)
        let headStart = HeadStartDecode(path: path, viewport: Self.viewport)
        #expect(headStart.take(path: path, viewport: PixelSize(width: 1280, height: 800)) == nil)
        #expect(headStart.take(path: other, viewport: Self.viewport) == nil)
        // Rewritten in place: its modification and change times move.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        Thread.sleep(forTimeInterval: 0.01)
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(headStart.take(path: path, viewport: Self.viewport) == nil)
        let fresh = HeadStartDecode(path: path, viewport: Self.viewport)
        guard case .success(let decoded)? = fresh.take(path: path, viewport: Self.viewport) else {
            Issue.record("an unchanged file's head start was not taken")
            return
        }
        #expect(decoded.pixels.size == PixelSize(width: 400, height: 600))
    }

    @Test("An abandoned head start (the window got another size) is never taken, not even for its own viewport")
    func anAbandonedOneIsNotTaken() throws {
        let (folder, path) = try Self.copiedPhoto()
        defer { try? FileManager.default.removeItem(at: folder) }
        let headStart = HeadStartDecode(path: path, viewport: Self.viewport)
        headStart.abandon()
        #expect(headStart.take(path: path, viewport: Self.viewport) == nil)
    }
}
