import RiffleDisplay
import RiffleGeometry
import RiffleInteraction
import RiffleTestSupport
import Testing

@testable import RiffleApp

/// A level of the timeline follows the window's size: Days, Months and Years are laid out again
/// for the new width, on the photo they showed in the middle, or at the end when they were there.
@Suite struct TimelineResizeTests {
    @Test(arguments: ["y", "m", "d"] as [Character])
    func aLevelIsLaidOutAgainForTheWindowsNewSize(key: Character) throws {
        let headless = HeadlessSession(
            [TestPaths.testsFolder.appendingPathComponent("Timeline").path], size: PixelSize(width: 480, height: 360))
        let scene = headless.session.scene
        var now = 0.0
        headless.run(0.5, from: &now)
        _ = scene.handle(.key(.character(key), modifiers: [], time: now), now: now)
        headless.run(1, from: &now)
        // Away from the end (a level opens there, on the newest photo).
        scene.levelView?.scroll { $0.scroll(toFraction: 0.3) }
        headless.run(1.0 / 60, from: &now)
        let before = try #require(scene.levelView)
        let middle = before.interaction.photoAtMiddle
        let larger = PixelSize(width: 800, height: 600)
        headless.display.inject(.resize(larger))
        for event in headless.display.pollEvents() { _ = scene.handle(event, now: now) }
        headless.run(1.0 / 60, from: &now)
        let after = try #require(scene.levelView)
        #expect(after.level == before.level)
        #expect(after.interaction.viewport == Size(larger))
        #expect(after.interaction.layout.width > before.interaction.layout.width, "laid out for the new width")
        #expect(after.interaction.photoAtMiddle == middle, "on the photo it showed")
        // Its cells grow with it (Days' four columns, Months' and Years' one).
        #expect(after.interaction.layout.cellSide > before.interaction.layout.cellSide)
        #expect(after.visibleCells.allSatisfy { $0.rect.maxX <= 800 })
    }

    @Test func aLevelAtItsEndStaysAtItsEnd() throws {
        let headless = HeadlessSession(
            [TestPaths.testsFolder.appendingPathComponent("Timeline").path], size: PixelSize(width: 480, height: 360))
        let scene = headless.session.scene
        var now = 0.0
        headless.run(0.5, from: &now)
        _ = scene.handle(.key(.character("d"), modifiers: [], time: now), now: now)
        headless.run(1, from: &now)
        #expect(scene.levelView?.interaction.scrollFraction == 1, "Days opens at the newest")
        headless.display.inject(.resize(PixelSize(width: 800, height: 600)))
        for event in headless.display.pollEvents() { _ = scene.handle(event, now: now) }
        headless.run(1.0 / 60, from: &now)
        #expect(scene.levelView?.interaction.viewport == Size(width: 800, height: 600))
        #expect(scene.levelView?.interaction.scrollFraction == 1)
    }
}
