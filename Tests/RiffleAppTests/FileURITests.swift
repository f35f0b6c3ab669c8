@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleImageIO
import Testing

/// The expected URIs are GLib 2.74's `g_filename_to_uri` of each path, and the expected names
/// the MD5 of those URIs, both computed outside Riffle (libglib through Python's ctypes, and
/// Python's hashlib), so that Riffle finds the thumbnails eog, Nautilus and gthumb made.
@Suite("File URIs and thumbnail names")
struct FileURITests {
    @Test("Paths are escaped as GLib escapes them, and name thumbnails by the MD5 of that URI", arguments: [
        // The standard's own example.
        ("/home/jens/photos/me.png", "file:///home/jens/photos/me.png", "c6ee772d9e49320e97ec29a7eb5b1697"),
        ("/home/jens/photos/a b.jpg", "file:///home/jens/photos/a%20b.jpg", "adf52cca30a2dfc1ebf973605ebe9644"),
        ("/home/jens/Bilder/Sommer 2023/Strand-Überblick.jpg",
         "file:///home/jens/Bilder/Sommer%202023/Strand-%C3%9Cberblick.jpg", "c351ce96cc59494540560c93d6dbcb9d"),
        ("/home/jens/写真/東京 タワー.jpg",
         "file:///home/jens/%E5%86%99%E7%9C%9F/%E6%9D%B1%E4%BA%AC%20%E3%82%BF%E3%83%AF%E3%83%BC.jpg",
         "70dd93a063cbaf84e76b0ec4ca384620"),
        // A decomposed é (e and U+0301) stays decomposed: the bytes of the name are what count.
        ("/home/jens/cafe\u{301}.jpg", "file:///home/jens/cafe%CC%81.jpg", "f1bc0f7312459ae87c396754f067b306"),
        // Reserved characters GLib escapes ...
        ("/home/jens/photos/#1 50%; [draft]?.png", "file:///home/jens/photos/%231%2050%25%3B%20%5Bdraft%5D%3F.png",
         "2868cdb79d26023226d6f9d7d1506da1"),
        ("/home/jens/100% [1] {2} <3> |4| ^5^ `6` \"7\" \\8.jpg",
         "file:///home/jens/100%25%20%5B1%5D%20%7B2%7D%20%3C3%3E%20%7C4%7C%20%5E5%5E%20%606%60%20%227%22%20%5C8.jpg",
         "fc9d87836e24537941ce0b4f3cf614b0"),
        // ... and the ones it keeps (where RFC 3986's unreserved set alone would escape them).
        ("/tmp/!$&'()*+,:=@~_-.jpg", "file:///tmp/!$&'()*+,:=@~_-.jpg", "9e56294adda5a2eaff2dcb7e060ae6f0"),
        // An escape already in the name is escaped again.
        ("/home/jens/a%20b.jpg", "file:///home/jens/a%2520b.jpg", "96e0b90bf9265a11852c2aa2aacdba07"),
        // Control characters and DEL.
        ("/a\u{1}b\u{7F}c.jpg", "file:///a%01b%7Fc.jpg", "0de9f6f7625c38208c7d37509a897658"),
        ("/home/jens/tab\tand~tilde.jpg", "file:///home/jens/tab%09and~tilde.jpg", "95fe1de4e81f0526f487d1d30aa61e21"),
        // A name that is not UTF-8 (Latin-1 "café", as a `FileSystemPath`): its own byte, E9.
        (FileSystemPath.string(fromBytes: Array("/home/jens/caf".utf8) + [0xE9] + Array(".jpg".utf8)),
         "file:///home/jens/caf%E9.jpg", "7086ea01c680094485b6eb8425ef12a1"),
    ])
    func uriAndName(path: String, uri: String, md5: String) {
        #expect(FileURI.uri(forAbsolutePath: path) == uri)
        #expect(ThumbnailCache.fileName(forURI: uri) == md5 + ".png")
    }

    @Test("Every printable ASCII character at once")
    func printableASCII() {
        let path = "/" + String(decoding: (32...126).filter { $0 != UInt8(ascii: "/") }, as: UTF8.self)
        let uri = FileURI.uri(forAbsolutePath: path)
        #expect(uri == "file:///%20!%22%23$%25&'()*+,-.0123456789:%3B%3C=%3E%3F@ABCDEFGHIJKLMNOPQRSTUVWXYZ"
            + "%5B%5C%5D%5E_%60abcdefghijklmnopqrstuvwxyz%7B%7C%7D~")
        #expect(ThumbnailCache.fileName(forURI: uri) == "406b6c9836f8d0a509d6d94cdec4a441.png")
    }

    @Test("Paths are made absolute and cleaned as GLib's g_canonicalize_filename does", arguments: [
        ("a/b.jpg", "/home/u/a/b.jpg"),
        ("./a/./b.jpg", "/home/u/a/b.jpg"),
        ("../x.jpg", "/home/x.jpg"),
        ("../../../../x", "/x"),
        ("/a/../../b", "/b"),
        ("/a/b/..", "/a"),
        ("/..", "/"),
        (".", "/home/u"),
        ("a//", "/home/u/a"),
        ("//a//b", "//a/b"),
        ("///a", "/a"),
        ("/", "/"),
        ("/a/...jpg", "/a/...jpg"),
    ])
    func canonicalPaths(path: String, absolute: String) {
        #expect(FileURI.absolutePath(of: path, workingDirectory: "/home/u") == absolute)
    }
}
