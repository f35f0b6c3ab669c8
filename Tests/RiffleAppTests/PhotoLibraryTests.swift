import Foundation
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import Testing

@Suite struct PhotoLibraryTests {
    @Test(arguments: [
        (["img10.jpg", "img2.jpg", "IMG1.jpg"], ["IMG1.jpg", "img2.jpg", "img10.jpg"]),
        (["a-002.png", "a-1.png", "a-10.png"], ["a-1.png", "a-002.png", "a-10.png"]),
        (["b.jpg", "A.jpg", "c.jpg"], ["A.jpg", "b.jpg", "c.jpg"]),
        (["x9y10", "x9y9", "x10y1"], ["x9y9", "x9y10", "x10y1"]),
        // Beyond ASCII, lowercased as Unicode does: "e" (U+0065) before "é" (U+00E9).
        (["été 10.jpg", "Été 2.jpg", "ete 1.jpg"], ["ete 1.jpg", "Été 2.jpg", "été 10.jpg"]),
    ])
    func naturalOrder(input: [String], sorted: [String]) {
        #expect(input.sorted(by: NaturalOrder.areInIncreasingOrder) == sorted)
        #expect(NaturalOrder.sorted(input) == sorted)
    }

    /// Sorting by keys made once gives the order the comparator gives, on names with digit runs,
    /// leading zeros, case and non-ASCII letters.
    @Test func sortingByKeysAgreesWithTheComparator() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["img", "IMG", "0", "00", "7", "10", "007", "a", "B", "é", "É", "_", "-", ".jpg", "2024", "x"]
        for _ in 0..<50 {
            let names = (0..<200).map { _ in (0..<Int.random(in: 1...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined() }
            #expect(NaturalOrder.sorted(names) == names.sorted(by: NaturalOrder.areInIncreasingOrder))
        }
    }

    @Test func folderListsImagesByExtensionAndContentInNaturalOrder() throws {
        var problems: [String] = []
        let library = PhotoLibrary.collect(paths: [TestPaths.photos], problems: &problems)
        #expect(problems.isEmpty)
        #expect(library.photos.map(\.name) == ["1 coffee.png", "2 friends.jpg", "3 notes.jpg", "4 truncated.png", "10 hubble.jpg"])
        #expect(library.startIndex == 0)
    }

    // The window once said "found no JPEG or PNG files in /nowhere" for a path that is not there.
    @Test func theEmptyPageSaysWhyNothingWasFound() throws {
        var problems: [String] = []
        let missing = PhotoLibrary.collect(paths: ["/nowhere/riffle-\(getpid())"], problems: &problems)
        #expect(missing.photos.isEmpty)
        #expect(missing.emptyExplanation == "/nowhere/riffle-\(getpid()) does not exist.")
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-none-\(getpid())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let none = PhotoLibrary.collect(paths: [empty.path], problems: &problems)
        #expect(none.emptyExplanation == "Riffle found no photos in \(empty.path).")
        let both = PhotoLibrary.collect(paths: [empty.path, "/nowhere/x"], problems: &problems)
        #expect(both.emptyExplanation == "/nowhere/x does not exist.")
    }

    @Test func aFileOpensItsFolderAtThatFile() {
        var problems: [String] = []
        let library = PhotoLibrary.collect(paths: [TestPaths.photos + "/2 friends.jpg"], problems: &problems)
        #expect(library.photos.count == 5)
        #expect(library.startIndex == 1)
    }

    @Test func contentSniffingFindsImagesWithOddNamesAndSkipsOthers() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-sniff-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(atPath: TestPaths.photos + "/1 coffee.png", toPath: dir.appendingPathComponent("photo.data").path)
        try Data("hello".utf8).write(to: dir.appendingPathComponent("readme.txt"))
        try Data("x".utf8).write(to: dir.appendingPathComponent(".hidden.jpg"))
        try FileManager.default.copyItem(atPath: TestPaths.photos + "/10 hubble.jpg", toPath: dir.appendingPathComponent("UPPER.JPG").path)
        var problems: [String] = []
        let library = PhotoLibrary.collect(paths: [dir.path], problems: &problems)
        #expect(library.photos.map(\.name) == ["photo.data", "UPPER.JPG"])
    }

    @Test func missingPathsAreReportedNotFatal() {
        var problems: [String] = []
        let library = PhotoLibrary.collect(paths: ["/nonexistent/riffle", TestPaths.photos], problems: &problems)
        #expect(problems.count == 1 && problems[0].contains("/nonexistent/riffle"))
        #expect(library.photos.count == 5)
        #expect(library.missing == ["/nonexistent/riffle"])
        #expect(!library.everyPathIsMissing)
    }

    // `riffle typo.jpg` fails on the command line (exit 2); a missing path beside a real one, or
    // an empty folder, still opens the window.
    @Test func onlyAllPathsMissingIsACommandLineError() throws {
        var problems: [String] = []
        #expect(PhotoLibrary.collect(paths: ["/nowhere/a.jpg"], problems: &problems).everyPathIsMissing)
        #expect(PhotoLibrary.collect(paths: ["/nowhere/a", "/nowhere/b"], problems: &problems).everyPathIsMissing)
        #expect(!PhotoLibrary.collect(paths: ["/nowhere/a", TestPaths.photos], problems: &problems).everyPathIsMissing)
        #expect(!PhotoLibrary.collect(paths: [TestPaths.photos + "/3 notes.jpg"], problems: &problems).everyPathIsMissing)
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(!PhotoLibrary.collect(paths: [empty.path], problems: &problems).everyPathIsMissing)
        #expect(!PhotoLibrary.collect(paths: [], problems: &problems).everyPathIsMissing)
    }
}
