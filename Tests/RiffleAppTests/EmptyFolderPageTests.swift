import Foundation
import RiffleDisplay
import RiffleGeometry
import RiffleRaster
import Testing

@testable import RiffleApp
@testable import RiffleLibrary

/// The page an empty folder opens on says why there is nothing, then how to open photos:
/// dropping them onto the window (which `DragAndDropTests` drives for real).
@Suite struct EmptyFolderPageTests {
    /// A folder at a fixed path (the page names it, and the golden holds its pixels), emptied.
    static let folder = "/tmp/riffle-empty-folder-page"

    @Test func anEmptyFoldersPageHintsAtDropping() throws {
        try? FileManager.default.removeItem(atPath: Self.folder)
        try FileManager.default.createDirectory(atPath: Self.folder, withIntermediateDirectories: true)
        var problems: [String] = []
        let library = PhotoLibrary.collect(paths: [Self.folder], problems: &problems)
        #expect(library.photos.isEmpty)
        let display = HeadlessDisplay(size: PixelSize(width: 800, height: 500))
        let session = RiffleSession(library: library, display: display, options: SessionOptions(thumbnailFolder: nil))
        session.scene.advance(to: 0)
        session.scene.renderIfNeeded()
        let frame = try display.capture()
        // The page's lines: runs of rows holding dark text on the white grid. "No photos", why,
        // and the hint; each one line in a window this wide.
        let inked = (0..<500).map { y in (0..<800).contains { x in frame[x, y] & 0xFF < 128 } }
        let lines = zip([false] + inked, inked).filter { !$0.0 && $0.1 }.count
        #expect(lines == 3, "\(lines) lines of text on the empty page")
        try GoldenImage.check(frame, golden: "empty-folder/page")
    }
}
