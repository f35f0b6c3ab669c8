import Foundation
import RiffleApp
import RiffleDisplay
import RiffleGeometry
import RiffleRaster
import Testing

/// Runs a replay script headless against the test photos and returns its snapshots by name.
func replay(_ scriptName: String, path: RasterPath = .fast, size: PixelSize = PixelSize(width: 320, height: 200)) throws -> [(String, PixelBuffer)] {
    let script = try ReplayScript(parsing: try String(contentsOf: TestPaths.script(scriptName), encoding: .utf8))
    var problems: [String] = []
    let library = PhotoLibrary.collect(paths: [TestPaths.photos], problems: &problems)
    #expect(problems.isEmpty)
    let display = HeadlessDisplay(size: size)
    let session = RiffleSession(library: library, display: display, rasterPath: path, problems: &problems)
    var shots: [(String, PixelBuffer)] = []
    try session.replay(script, snapshots: { name, frame in shots.append((name, frame)) })
    return shots
}

@Suite struct ReplayGoldenTests {
    static let scripts = ["paging", "resize"]

    /// Every snapshot of every script matches its golden, drawn by the fast paths and again by
    /// the reference sampler (tiny-skia's rule: goldens pass both ways).
    @Test(arguments: scripts, [RasterPath.fast, .reference])
    func snapshotsMatchGoldens(script: String, path: RasterPath) throws {
        if GoldenImage.recording && path == .reference { return }
        let shots = try replay(script, path: path)
        #expect(!shots.isEmpty)
        for (name, frame) in shots { try GoldenImage.check(frame, golden: "\(script)/\(name)") }
    }

    @Test func replayIsDeterministic() throws {
        let a = try replay("paging"), b = try replay("paging")
        #expect(a.map(\.0) == b.map(\.0))
        for ((name, x), (_, y)) in zip(a, b) {
            #expect(ImageDifference(x, y, tolerance: 0).pixelsOverTolerance == 0, "snapshot \(name) differs between two runs")
        }
    }
}
