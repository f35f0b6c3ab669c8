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

    /// Folders listed on several threads are walked as one thread walks them: a wide, deep
    /// tree with links across it (each a second way into a folder, which a thread may reach
    /// first) gives the folders and photos of a plain depth-first walk written here, every time.
    @Test func aTreeListedOnEveryCoreIsWalkedAsOneThreadWalksIt() throws {
        let tree = try ScratchFolder()
        let photo = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.photos + "/2 friends.jpg")))
        for year in 1...4 {
            for month in 1...5 {
                let folder = "\(2010 + year)/\(month) month"
                try tree.makeFolder(folder + "/day")
                try tree.write(photo, to: folder + "/p\(month).jpg")
                try tree.write(photo, to: folder + "/day/q.jpg")
            }
            // A second way into another year, and into a month of this one.
            try FileManager.default.createSymbolicLink(
                atPath: tree.path("\(2010 + year)/~ another year"), withDestinationPath: tree.path("\(2010 + (year % 4) + 1)"))
            try FileManager.default.createSymbolicLink(
                atPath: tree.path("\(2010 + year)/0 again"), withDestinationPath: tree.path("\(2010 + year)/3 month"))
        }
        /// The walk one thread makes: depth first, natural order, each real folder once.
        func plainWalk() -> [(String, [String])] {
            var seen = Set<[UInt64]>()
            var walked: [(String, [String])] = []
            func visit(_ folder: String) {
                var status = stat()
                guard stat(folder, &status) == 0, seen.insert([UInt64(status.st_dev), UInt64(status.st_ino)]).inserted else { return }
                let names = NaturalOrder.sorted((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                var isFolder: ObjCBool = false
                let folders = names.filter { FileManager.default.fileExists(atPath: folder + "/" + $0, isDirectory: &isFolder) && isFolder.boolValue }
                walked.append((folder, names.filter { $0.hasSuffix(".jpg") }.map { folder + "/" + $0 }))
                for sub in folders { visit(folder + "/" + sub) }
            }
            visit(tree.path)
            return walked
        }
        let expected = plainWalk()
        #expect(expected.count == 1 + 4 * (1 + 5 * 2))
        for _ in 0..<5 {
            var problems: [String] = []
            let folders = PhotoTree.folders(under: tree.path, problems: &problems)
            #expect(folders.map(\.path) == expected.map(\.0))
            #expect(folders.map(\.photos) == expected.map(\.1))
            #expect(problems.isEmpty)
        }
    }
}
