import Foundation
import Glibc
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import Testing

@Suite("File paths and figures")
struct FilePathsTests {
    @Test("A path splits into its folder and name the way the shell reads it", arguments: [
        ("a/b.jpg", "a", "b.jpg"),
        ("/b.jpg", "/", "b.jpg"),
        ("b.jpg", ".", "b.jpg"),
        ("/x/y/z.png", "/x/y", "z.png"),
        ("./c d.jpeg", ".", "c d.jpeg"),
    ])
    func splitsFolderAndName(path: String, folder: String, name: String) {
        #expect(FilePaths.folder(of: path) == folder)
        #expect(FilePaths.name(of: path) == name)
        #expect(FilePaths.join(folder, name) == (folder == "/" ? "/" + name : folder + "/" + name))
    }

    @Test("Extensions are lower-cased; a hidden name or a bare name has none", arguments: [
        ("IMG_1.JPG", "jpg"), ("a.tar.gz", "gz"), (".hidden", ""), ("README", ""), ("x.", ""),
    ])
    func extensions(name: String, want: String) {
        #expect(FilePaths.pathExtension(of: name) == want)
    }

    @Test("Kinds come from stat: a folder, a file, nothing")
    func kinds() {
        #expect(FilePaths.kind(of: "/") == .directory)
        #expect(FilePaths.kind(of: "/proc/self/status") == .file)
        #expect(FilePaths.kind(of: "/no/such/path") == nil)
    }

    /// A listing's kinds come from d_type: a folder, a file, a FIFO (a "file": refused when
    /// opened), and nil for a symbolic link, whose target `kind(of:)` follows.
    @Test func entriesTellTheirKinds() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-entries-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data([1]).write(to: URL(fileURLWithPath: folder + "/a.jpg"))
        #expect(mkfifo(folder + "/pipe.jpg", 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.jpg", withDestinationPath: folder + "/a.jpg")
        let kinds = Dictionary(uniqueKeysWithValues: try FilePaths.entries(inFolder: folder).map { ($0.name, $0.kind) })
        #expect(kinds.count == 4)
        #expect(kinds["sub"] == Optional(Optional(FilePaths.Kind.directory)))
        #expect(kinds["a.jpg"] == Optional(Optional(FilePaths.Kind.file)))
        #expect(kinds["pipe.jpg"] == Optional(Optional(FilePaths.Kind.file)))
        #expect(kinds["link.jpg"] == Optional(Optional<FilePaths.Kind>.none))
        #expect(FilePaths.kind(of: folder + "/link.jpg") == .file)
    }

    @Test("An unreadable folder's error is the OS's reason")
    func unreadableFolder() {
        #expect(throws: FilePaths.FolderError.self) { try FilePaths.names(inFolder: "/no/such/folder") }
        do {
            _ = try FilePaths.names(inFolder: "/no/such/folder")
        } catch {
            #expect(error.reason == "No such file or directory")
        }
    }

    @Test("Figures print with a fixed number of decimals, rounded", arguments: [
        (12.345, 2, "12.35"), (0.004, 2, "0.00"), (7.0, 1, "7.0"), (1023.96, 1, "1024.0"), (-1.25, 1, "-1.3"), (3.5, 0, "4"),
    ])
    func fixedDecimals(value: Double, places: Int, want: String) {
        #expect(FrameStatistics.fixed(value, places: places) == want)
    }
}
