@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleImageIO
import Testing

/// A drop's text/uri-list read into paths, and a `file://` URI read back into its path.
struct URIListTests {
    @Test func fileURIsBecomePathsCommentsAndOtherURIsAreSkipped() {
        let list = "# dragged from Files\r\nfile:///home/me/a%20b.jpg\r\nhttp://example.com/c.jpg\r\nfile://localhost/d/e.png\nfile://elsewhere.example/f.jpg\r\n"
        #expect(URIList.paths(in: list) == ["/home/me/a b.jpg", "/d/e.png"])
    }

    @Test func aURIGivesBackThePathItWasMadeFrom() {
        for path in ["/a b/Ü;1.jpg", "/p/100%.png", FileSystemPath.string(fromBytes: Array("/p/caf".utf8) + [0xE9] + Array(".jpg".utf8))] {
            #expect(FileURI.path(fromURI: FileURI.uri(forAbsolutePath: path)) == path)
        }
    }

    @Test(arguments: ["file:///a%2", "file:///a%zz", "file:///a%00b", "ftp:///a", "file:/a", "file://"])
    func brokenOrForeignURIsNameNoPath(uri: String) {
        #expect(FileURI.path(fromURI: uri) == nil)
    }
}
