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

extension HeadlessSession {
    /// Runs the scene at 60 Hz for `seconds` after `now`, as a replay steps it: each frame's
    /// decodes settled, then the scene advanced and drawn; `now` ends at the last frame's time.
    func run(_ seconds: Double, from now: inout Double) {
        let scene = session.scene
        let end = now + seconds
        while now < end - 1e-9 {
            now += 1.0 / 60
            scene.settleDecodes()
            _ = scene.advance(to: now)
            scene.renderIfNeeded()
        }
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
