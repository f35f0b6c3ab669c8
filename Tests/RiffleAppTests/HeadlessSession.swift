import RiffleApp
import RiffleDisplay
import RiffleGeometry
@testable import RiffleLibrary

/// The set-up the app's tests share: `paths` collected as the command line collects them, shown
/// by a session with `options` in a headless display of `size`. By default no thumbnail cache:
/// a test never writes the user's.
struct HeadlessSession {
    let library: PhotoLibrary
    let display: HeadlessDisplay
    let session: RiffleSession
    /// What collecting the paths complained of.
    let problems: [String]

    init(
        _ paths: [String], size: PixelSize = PixelSize(width: 320, height: 200),
        options: SessionOptions = .inMemory
    ) {
        var problems: [String] = []
        library = PhotoLibrary.collect(paths: paths, problems: &problems)
        self.problems = problems
        display = HeadlessDisplay(size: size)
        session = RiffleSession(library: library, display: display, options: options)
    }
}

extension SessionOptions {
    /// Options that keep nothing on disk: thumbnails made in memory, a tree's index in memory
    /// (tests never touch the user's cache).
    static var inMemory: SessionOptions {
        var options = SessionOptions(thumbnailFolder: nil)
        options.libraryIndexPath = nil
        options.viewSettingsPath = nil
        return options
    }
}
