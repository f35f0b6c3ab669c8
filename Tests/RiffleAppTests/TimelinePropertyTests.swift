import Foundation
@testable import RiffleApp
import RiffleDisplay
import RiffleGeometry
import RiffleInteraction
import RiffleLibrary
import RiffleTestSupport
import Testing

/// Random walks through a timeline (Tests/Timeline) never lose the photo they hold on to: a
/// level changed at a photo (Ctrl+wheel over its cell, or the keys at the photo in the middle)
/// shows that photo at the new level; a photo opened is the one shown in the pager, and flies
/// back into a cell that shows once dismissed; scrolls in between change nothing of that.
@Suite struct TimelinePropertyTests {
    static let steps = 40

    @Test(arguments: [1, 2, 3, 4, 5, 6].map { PropertySeed.forRun(fixed: UInt64($0) * 7_919) })
    func randomZoomsScrollsOpensAndDismissesKeepTheirPhoto(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let headless = HeadlessSession(
            [TestPaths.testsFolder.appendingPathComponent("Timeline").path], size: PixelSize(width: 480, height: 360))
        let scene = headless.session.scene
        var now = 0.0
        func run(_ seconds: Double) { headless.run(seconds, from: &now) }
        func send(_ event: InputEvent) { _ = scene.handle(event, now: now) }
        let window = Rect(x: 0, y: 34, width: 480, height: 360 - 34 - 44)
        func isShown(_ photo: Int) -> Bool { scene.shownCellRect(ofPhoto: photo).flatMap { $0.intersection(window) } != nil }
        /// The photos whose cells show now, and where.
        func shownCells() -> [LevelMorph.Cell] {
            (scene.levelView?.visibleCells ?? []).filter { window.contains($0.rect.center) }
        }
        run(0.5)
        var levelChanges = 0, opens = 0
        for step in 0..<Self.steps {
            let context = "seed \(seed), step \(step)"
            guard scene.isShowingGrid else {
                // In the pager: back to the timeline, the photo's cell in view.
                let photo = headless.session.viewer.current
                send(.key(.escape, modifiers: [], time: now))
                run(0.8)
                #expect(scene.isShowingGrid, "\(context): Escape did not dismiss")
                #expect(isShown(photo), "\(context): photo \(photo) flew back to no cell in view")
                continue
            }
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                // Ctrl+wheel over a cell at a level: the next level keeps that photo in view.
                guard let cell = shownCells().randomElement(using: &random) else { fallthrough }
                let notch = Bool.random(using: &random) ? 1.0 : -1.0
                let before = scene.levelView?.level
                send(.scroll(delta: Point(x: 0, y: notch), position: cell.rect.center, modifiers: .control, precise: false, time: now))
                run(0.6)
                if scene.levelView?.level != before {
                    levelChanges += 1
                    #expect(isShown(cell.photo), "\(context): photo \(cell.photo) under the pointer lost by the level change")
                }
            case 1:
                // A level's key: the photo in the middle stays in view.
                let key = ["y", "m", "d", "a"].randomElement(using: &random)!
                let middle = scene.levelView?.interaction.photoAtMiddle
                let before = scene.levelView?.level
                send(.key(.character(Character(key)), modifiers: [], time: now))
                run(0.6)
                if scene.levelView?.level != before { levelChanges += 1 }
                if let middle { #expect(isShown(middle), "\(context): \(key) lost photo \(middle)") }
            case 2:
                // Scrolls, with the wheel.
                let notches = Double(Int.random(in: -4...4, using: &random))
                send(.scroll(delta: Point(x: 0, y: notches), position: Point(x: 240, y: 180), modifiers: [], precise: false, time: now))
                run(0.5)
            default:
                // A click on a day's photo, or a cell of All Photos, opens it.
                let level = scene.levelView?.level ?? .allPhotos
                guard level == .days || level == .allPhotos else {
                    send(.key(.character("d"), modifiers: [], time: now))
                    run(0.6)
                    continue
                }
                let cells = level == .days ? shownCells() : scene.visibleGridCells.filter { window.contains($0.rect.center) }
                guard let cell = cells.randomElement(using: &random) else { continue }
                if level == .days, case .more? = scene.levelView?.interaction.visibleCells.first(where: { $0.frame.contains(cell.rect.center) })?.content {
                    continue
                }
                send(.pointerDown(position: cell.rect.center, button: .left, modifiers: [], time: now))
                send(.pointerUp(position: cell.rect.center, button: .left, modifiers: [], time: now + 0.05))
                run(0.8)
                opens += 1
                #expect(!scene.isShowingGrid, "\(context): the click on photo \(cell.photo) opened nothing")
                #expect(headless.session.viewer.current == cell.photo, "\(context): opened \(headless.session.viewer.current), not \(cell.photo)")
            }
        }
        // A walk that never changed level or never opened a photo shows nothing.
        #expect(levelChanges > 0 && opens > 0, "seed \(seed): \(levelChanges) level changes, \(opens) opens")
    }
}
