import Foundation
@testable import RiffleLibrary
import Testing

/// A tree of folders walked as a library: depth first in natural order, dot-folders and the
/// thumbnail cache skipped, links followed once (a loop ends).
@Suite struct PhotoTreeTests {
    @Test func aTreeIsWalkedOnceInNaturalOrder() throws {
        let tree = try ScratchFolder()
        let photo = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.photos + "/2 friends.jpg")))
        try tree.makeFolder("2019/07 July")
        try tree.makeFolder("2019/10 October")
        try tree.makeFolder("2019/9 September")
        try tree.makeFolder(".thumbnails/large")
        try tree.makeFolder(".git")
        try tree.makeFolder("cache/thumbnails")
        try tree.makeFolder("empty")
        try tree.write(photo, to: "top.jpg")
        try tree.write(photo, to: "2019/07 July/b.jpg")
        try tree.write(photo, to: "2019/07 July/a10.jpg")
        try tree.write(photo, to: "2019/07 July/a9.jpg")
        try tree.write(photo, to: "2019/07 July/.hidden.jpg")
        try tree.write(Array("not a photo".utf8), to: "2019/07 July/notes.txt")
        try tree.write(photo, to: "2019/10 October/c.jpg")
        try tree.write(photo, to: "2019/9 September/d.jpg")
        try tree.write(photo, to: ".thumbnails/large/t.png")
        try tree.write(photo, to: ".git/blob.jpg")
        try tree.write(photo, to: "cache/thumbnails/x.png")
        // A link back up the tree (a loop), and a second way into a folder already walked.
        try FileManager.default.createSymbolicLink(atPath: tree.path("2019/07 July/up"), withDestinationPath: tree.path)
        try FileManager.default.createSymbolicLink(atPath: tree.path("zz same as 2019"), withDestinationPath: tree.path("2019"))
        var problems: [String] = []
        let folders = PhotoTree.folders(under: tree.path, skipping: [tree.path("cache/thumbnails")], problems: &problems)
        #expect(folders.map(\.path) == [
            tree.path, tree.path("2019"), tree.path("2019/07 July"), tree.path("2019/9 September"), tree.path("2019/10 October"),
            tree.path("cache"), tree.path("empty"),
        ])
        #expect(folders.map { $0.photos.map { URL(fileURLWithPath: $0).lastPathComponent } } == [
            ["top.jpg"], [], ["a9.jpg", "a10.jpg", "b.jpg"], ["d.jpg"], ["c.jpg"], [], [],
        ])
        #expect(problems.isEmpty)
    }
}
