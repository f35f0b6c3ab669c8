import RiffleDisplay
import RiffleGeometry
import RiffleInteraction
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

    static func titles(_ commands: [AppCommand]) -> [String] {
        commands.compactMap { if case let .setTitle(title) = $0 { title } else { nil } }
    }

    /// The scene asks for its title (`AppCommand.setTitle`) and never sets it on the display
    /// itself: once at its first frame, again when what it shows calls for another (a page
    /// turned, a photo flown open, back on the grid once the photo lands), never twice the same.
    @Test func theSceneAsksForTheTitleOfWhatItShows() {
        let display = HeadlessDisplay(size: PixelSize(width: 320, height: 200))
        let session = RiffleSession(library: Self.library([TestPaths.photos]), display: display, options: SessionOptions(thumbnailFolder: nil))
        let scene = session.scene
        #expect(display.title == "", "nothing asked of the display but through a command")
        // The probe has dropped "3 notes.jpg" (text, named as a photo) before the first frame.
        scene.settleDecodes()
        #expect(Self.titles(scene.advance(to: 0)) == ["Photos — 4 photos"])
        #expect(Self.titles(scene.advance(to: 0.1)).isEmpty)
        #expect(Self.titles(scene.handle(.key(.right, modifiers: [], time: 0.2), now: 0.2)).isEmpty, "the focus ring moves")
        #expect(Self.titles(scene.handle(.key(.enter, modifiers: [], time: 0.3), now: 0.3)) == ["1 coffee.png — 1 of 4"])
        for t in 19...60 { #expect(Self.titles(scene.advance(to: Double(t) / 60)).isEmpty) }
        #expect(!scene.isShowingGrid)
        #expect(Self.titles(scene.handle(.key(.right, modifiers: [], time: 1.1), now: 1.1)) == ["2 friends.jpg — 2 of 4"])
        #expect(Self.titles(scene.handle(.key(.escape, modifiers: [], time: 1.2), now: 1.2)).isEmpty, "flying back: still the photo")
        var landed: [String] = []
        for t in 73...180 { landed += Self.titles(scene.advance(to: Double(t) / 60)) }
        #expect(scene.isShowingGrid)
        #expect(landed == ["Photos — 4 photos"])
        #expect(display.title == "")
    }

    /// A replay carries the scene's title out on its display, as the live loop does (one
    /// performer serves both).
    @Test func aReplayTitlesItsWindow() throws {
        let display = HeadlessDisplay(size: PixelSize(width: 320, height: 200))
        let session = RiffleSession(
            library: Self.library([TestPaths.photos + "/1 coffee.png"]), display: display, options: SessionOptions(thumbnailFolder: nil))
        var titles: [String: String] = [:]
        try session.replay(try ReplayScript(parsing: "snapshot first\nkey Right\nwait 500\nsnapshot second\n")) { name, _ in
            titles[name] = display.title
        }
        #expect(titles == ["first": "1 coffee.png — 1 of 4", "second": "2 friends.jpg — 2 of 4"])
    }
}
