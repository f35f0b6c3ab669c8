import Foundation
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

/// Where the thumbnail cache holds a photo without an EXIF thumbnail (the grid made it, or
/// another program did), that thumbnail is the pager's preview of it: no 1/8 decode.
@Suite struct CachedPreviewTests {
    /// A 640×480 red JPEG without EXIF in a scratch folder, and a thumbnail cache beside it.
    let scratch: ScratchFolder
    let photo: String
    let cache: ThumbnailCache

    init() throws {
        scratch = try ScratchFolder()
        _ = try scratch.makeFolder("cache")
        photo = try scratch.write(
            try ThumbnailCacheTests.jpeg(width: 640, height: 480, left: ThumbnailCacheTests.red), to: "red.jpg")
        cache = ThumbnailCache(folder: scratch.path("cache/thumbnails"), report: { _ in })
    }

    func perform(_ job: DecodeJob) -> DecodeOutput {
        PhotoDecoding(tileSources: TileSources(), thumbnailCache: cache).perform(DecodeRequest(photo: PhotoID(0), path: photo, job: job))
    }

    /// With the grid's 128 px thumbnail stored, the quick preview job and the preview job both
    /// give it (128×96, red), as a preview of the 640×480 photo; a 1/8 decode would be 80×60.
    @Test(arguments: [DecodeJob.exifPreview, .preview(viewport: PixelSize(width: 1280, height: 960))])
    func theStoredThumbnailIsThePreview(job: DecodeJob) throws {
        _ = try cache.thumbnail(path: photo, size: .normal)
        guard case .photo(.image(let preview)) = perform(job) else {
            Issue.record("no preview from the stored thumbnail")
            return
        }
        #expect(preview.isPreview && preview.fullSize == PixelSize(width: 640, height: 480))
        #expect(preview.pixels.size == PixelSize(width: 128, height: 96))
        #expect(ThumbnailCacheTests.isClose(ThumbnailCacheTests.centre(preview.pixels), ThumbnailCacheTests.red))
    }

    /// Nothing stored: the quick job finds no preview (and makes no thumbnail); the preview job
    /// decodes at 1/8.
    @Test func withoutAStoredThumbnailNothingChanges() throws {
        guard case .redundantPreview = perform(.exifPreview) else {
            Issue.record("a quick preview without a thumbnail")
            return
        }
        #expect(cache.lookup(path: photo, size: .normal) == nil, "looking made no thumbnail")
        guard case .photo(.image(let preview)) = perform(.preview(viewport: PixelSize(width: 1280, height: 960))) else {
            Issue.record("no 1/8 preview")
            return
        }
        #expect(preview.pixels.size == PixelSize(width: 80, height: 60))
    }
}
