@testable import RiffleApp
import RiffleDisplay
import RiffleGeometry
import RiffleInteraction
import RiffleLibrary
import RiffleRaster
import Testing

/// Ctrl+C copies the photo and says "Copied" for a moment under the bar (Ctrl+Shift+C "Path
/// copied"), then the window is as it was.
@Suite struct CopiedNoticeTests {
    @Test(arguments: [false, true])
    func copyingSaysSoForAMoment(path: Bool) throws {
        let modifiers: Modifiers = path ? [.control, .shift] : .control, golden = path ? GoldenImage.named(golden: "copied-notice/path-copied") : GoldenImage.named(golden: "copied-notice/copied")
        var problems: [String] = []
        let library = PhotoLibrary.collect(paths: [TestPaths.photos + "/1 coffee.png"], problems: &problems)
        let display = HeadlessDisplay(size: PixelSize(width: 320, height: 200))
        let session = RiffleSession(library: library, display: display, options: SessionOptions(thumbnailFolder: nil))
        let scene = session.scene
        var now = 0.0
        func run(_ seconds: Double) throws -> PixelBuffer {
            let end = now + seconds
            while now < end - 1e-9 {
                now += 1.0 / 60
                _ = scene.advance(to: now)
                scene.settleDecodes()
                scene.renderIfNeeded()
            }
            return try display.capture()
        }
        let before = try run(0.5)
        let commands = scene.handle(.key(.character("c"), modifiers: modifiers, time: now), now: now)
        #expect(commands.contains { if case .copyPhoto = $0 { return true }; if case .copyPath = $0 { return true }; return false })
        let shown = try run(0.2)
        try GoldenImage.check(shown, golden: golden)
        // The notice is all that changed: a badge under the bar's place, in the top half.
        var rows: [Int] = []
        for y in 0..<200 where (0..<320).contains(where: { shown[$0, y] != before[$0, y] }) { rows.append(y) }
        let first = try #require(rows.first, "nothing was said")
        #expect(Double(first) >= ChromeLayout(viewport: Size(width: 320, height: 200)).bar.maxY)
        #expect((rows.last ?? 0) < 100)
        // Gone after its hold and fade, and the loop rests again.
        let after = try run(NoticeLabel.hold + NoticeLabel.fadeOut + 0.1)
        #expect((0..<200).allSatisfy { y in (0..<320).allSatisfy { after[$0, y] == before[$0, y] } }, "the notice stays")
        #expect(!scene.isAnimating)
    }
}
