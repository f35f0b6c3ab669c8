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
        options: SessionOptions = SessionOptions(thumbnailFolder: nil)
    ) {
        var problems: [String] = []
        library = PhotoLibrary.collect(paths: paths, problems: &problems)
        self.problems = problems
        display = HeadlessDisplay(size: size)
        session = RiffleSession(library: library, display: display, options: options)
    }
}
