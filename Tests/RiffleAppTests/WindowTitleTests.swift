import Testing

@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline

/// The window's title names what the window shows: the photo and its place in the pager, the
/// folder and its count in the grid, the folder even when Riffle was opened on one photo in it.
@Suite struct WindowTitleTests {
    static func library(_ paths: [String]) -> PhotoLibrary {
        var problems: [String] = []
        return PhotoLibrary.collect(paths: paths, problems: &problems)
    }

    @Test func theGridOfAFolderNamesTheFolder() {
        let library = Self.library([TestPaths.photos])
        #expect(WindowTitle.grid(library: library) == "Photos — \(library.photos.count) photos")
    }

    /// `riffle Photos/2 friends.jpg`, then back to the grid: the grid is Photos', not the file's.
    @Test func theGridOfAnOpenedPhotoNamesItsFolder() {
        let library = Self.library([TestPaths.photos + "/2 friends.jpg"])
        #expect(library.photos.count > 1)
        #expect(WindowTitle.text(library: library, index: library.startIndex) == "2 friends.jpg — 2 of \(library.photos.count)")
        #expect(WindowTitle.grid(library: library) == "Photos — \(library.photos.count) photos")
    }

    @Test func theGridOfSeveralPathsIsRiffles() {
        let library = Self.library([TestPaths.photos + "/2 friends.jpg", TestPaths.photos + "/1 coffee.png"])
        #expect(WindowTitle.grid(library: library) == "Riffle — 2 photos")
    }
}
