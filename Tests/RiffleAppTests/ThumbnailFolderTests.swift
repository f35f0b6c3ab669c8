import Glibc
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import Testing

@Suite("Where the thumbnail cache is")
struct ThumbnailFolderTests {
    @Test("XDG_CACHE_HOME when it is an absolute path, else HOME's .cache", arguments: [
        ("/x/cache", "/home/u", "/x/cache/thumbnails"),
        ("/x/cache/", "/home/u", "/x/cache/thumbnails"),
        (nil, "/home/u", "/home/u/.cache/thumbnails"),
        ("", "/home/u", "/home/u/.cache/thumbnails"),
        ("relative/cache", "/home/u", "/home/u/.cache/thumbnails"),
        ("~/cache", "/home/u/", "/home/u/.cache/thumbnails"),
        ("/x/cache", nil, "/x/cache/thumbnails"),
    ] as [(String?, String?, String)])
    func resolved(xdgCacheHome: String?, home: String?, folder: String) {
        #expect(ThumbnailCache.standardFolder(xdgCacheHome: xdgCacheHome, home: home) == folder)
    }

    @Test("No folder when neither is an absolute path", arguments: [
        (nil, nil), ("", ""), ("cache", "home/u"),
    ] as [(String?, String?)])
    func unresolved(xdgCacheHome: String?, home: String?) {
        #expect(ThumbnailCache.standardFolder(xdgCacheHome: xdgCacheHome, home: home) == nil)
    }

    @Test("The environment's XDG_CACHE_HOME and HOME are the ones read")
    func environment() {
        let variables = ["XDG_CACHE_HOME": "relative", "HOME": "/home/u", "XDG_DATA_HOME": "/x"]
        #expect(ThumbnailCache.standardFolder(environment: { variables[$0] }) == "/home/u/.cache/thumbnails")
        #expect(ThumbnailCache.standardFolder(environment: { ["XDG_CACHE_HOME": "/c"][$0] }) == "/c/thumbnails")
        // By default, the process's own (read, never set, here: other tests run alongside).
        #expect(CacheHome.processEnvironment("HOME") == getenv("HOME").map { String(cString: $0) })
        #expect(CacheHome.processEnvironment("RIFFLE_SURELY_UNSET_VARIABLE") == nil)
    }
}
