import Foundation
@testable import RiffleLibrary
import Testing

/// The view options kept between runs: where (XDG_STATE_HOME, else ~/.local/state), what a file
/// says, and a round trip through one that replaces the last.
@Suite struct ViewSettingsTests {
    @Test func theyLiveInTheStateFolder() {
        #expect(ViewSettings.standardPath(environment: { ["XDG_STATE_HOME": "/s", "HOME": "/h"][$0] }) == "/s/riffle/view")
        #expect(ViewSettings.standardPath(environment: { ["XDG_STATE_HOME": "relative", "HOME": "/h"][$0] }) == "/h/.local/state/riffle/view")
        #expect(ViewSettings.standardPath(environment: { _ in nil }) == nil)
    }

    @Test func whatAFileSaysAndARoundTrip() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-state-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/riffle/view"
        #expect(ViewSettings.load(from: path) == ViewSettings(), "no file: the defaults")
        #expect(ViewSettings.load(from: nil) == ViewSettings())
        #expect(ViewSettings(aspectGrid: true).save(to: path))
        #expect(ViewSettings.load(from: path) == ViewSettings(aspectGrid: true))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "aspect-grid=1\n")
        #expect(ViewSettings(aspectGrid: false).save(to: path))
        #expect(ViewSettings.load(from: path) == ViewSettings(aspectGrid: false))
        #expect(!FileManager.default.fileExists(atPath: path + ".new"), "replaced whole, nothing left beside it")
        try "# a comment\nsomething else\n aspect-grid = 1 \n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(ViewSettings.load(from: path) == ViewSettings(aspectGrid: true), "lines not understood are skipped")
    }
}
