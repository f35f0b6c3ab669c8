import Foundation
import RiffleApp
import RiffleDisplay
import RiffleGeometry
import RiffleInteraction
import RiffleLibrary
import RiffleTestSupport
import Testing

/// The navigation scene (grid, pager, flights) under random input: clicks, drags, wheel notches
/// and keys in any order and at any time, decodes settled before every frame as in a replay.
/// Whatever happened, once input stops and the clock runs on, the scene comes to rest either on
/// the grid or on a photo, says so in the window's title, and draws nothing more.
@Suite struct NavigationPropertyTests {
    /// This run's seed (`PropertySeed`), named in any failure.
    static let seeds = [PropertySeed.forRun(fixed: 20_250_603)]

    static let size = PixelSize(width: 320, height: 200)
    static let keys: [Key] = [.enter, .escape, .right, .left, .up, .down, "+", "-", "0", .pageDown, .pageUp, .home, .end, "f"]

    /// One random event at time `t` (or a run of pointer events for a drag).
    static func events(at t: Double, using generator: inout SeededGenerator) -> [InputEvent] {
        func point() -> Point {
            Point(x: Double.random(in: 0..<Double(size.width), using: &generator), y: Double.random(in: 0..<Double(size.height), using: &generator))
        }
        switch Int.random(in: 0..<6, using: &generator) {
        case 0:
            let p = point()
            return [.pointerDown(position: p, button: .left, modifiers: [], time: t), .pointerUp(position: p, button: .left, modifiers: [], time: t + 0.05)]
        case 1:
            let from = point(), to = point()
            let steps = Int.random(in: 2...8, using: &generator)
            var run: [InputEvent] = [.pointerDown(position: from, button: .left, modifiers: [], time: t)]
            for k in 1...steps {
                let f = Double(k) / Double(steps)
                run.append(.pointerMove(position: from + (to - from) * f, modifiers: [], time: t + 0.016 * Double(k)))
            }
            run.append(.pointerUp(position: to, button: .left, modifiers: [], time: t + 0.016 * Double(steps + 1)))
            return run
        case 2:
            let notches = Double(Int.random(in: -3...3, using: &generator))
            return [.scroll(delta: Point(x: 0, y: notches), position: point(), modifiers: [], precise: false, time: t)]
        case 3:
            return [.key(.up, modifiers: .alt, time: t)]
        default:
            return [.key(keys[Int.random(in: 0..<keys.count, using: &generator)], modifiers: [], time: t)]
        }
    }

    @Test(arguments: seeds)
    func theSceneAlwaysComesToRestSomewhereSensible(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let headless = HeadlessSession([TestPaths.photos], size: Self.size)
        let (display, session) = (headless.display, headless.session)
        var scene: Scene = session.scene
        let performer = AppCommandPerformer(display: display)
        var t = 0.0
        var queued: [InputEvent] = []
        func frame() {
            t += 1.0 / 60
            scene.settleDecodes()
            while let next = queued.first, (next.time ?? t) <= t {
                queued.removeFirst()
                let onGrid = session.scene.isShowingGrid
                let commands = scene.handle(next, now: next.time ?? t)
                _ = performer.perform(commands, on: &scene)
                // q is never sent; Escape quits from the grid only (in the pager it goes back).
                if commands.contains(.quit) {
                    #expect(onGrid && next == .key(.escape, modifiers: [], time: next.time ?? t), "RIFFLE_PROPERTY_SEED=\(seed): quit on \(next)")
                }
            }
            _ = performer.perform(scene.advance(to: t), on: &scene)
            scene.renderIfNeeded()
        }
        for _ in 0..<60 {
            queued += Self.events(at: t + Double.random(in: 0.01...0.4, using: &generator), using: &generator)
            queued.sort { ($0.time ?? 0) < ($1.time ?? 0) }
            for _ in 0..<Int.random(in: 1...20, using: &generator) { frame() }
        }
        while !queued.isEmpty { frame() }
        // The longest motion (a zoom label's fade, a spring, a flight) is over well within 3 s.
        for _ in 0..<180 { frame() }
        #expect(!scene.isAnimating, "RIFFLE_PROPERTY_SEED=\(seed): still moving at rest")
        #expect(!scene.renderIfNeeded(), "RIFFLE_PROPERTY_SEED=\(seed): a frame drawn with nothing changing")
        // The library as the scene holds it now (the text file named as a photo probed out).
        let library = session.viewer.library
        let current = session.viewer.current
        #expect((0..<library.photos.count).contains(current), "RIFFLE_PROPERTY_SEED=\(seed)")
        let title = session.scene.isShowingGrid ? WindowTitle.grid(library: library) : WindowTitle.text(library: library, index: current)
        #expect(display.title == title, "RIFFLE_PROPERTY_SEED=\(seed): grid \(session.scene.isShowingGrid), title \(display.title)")
    }
}

/// Fullscreen is the scene's: Escape leaves it first, on the grid as on a photo.
@Suite struct SceneFullscreenTests {
    static func scene(opening path: String, fullscreen: Bool = false) -> NavigationScene {
        var options = SessionOptions(thumbnailFolder: nil)
        options.fullscreen = fullscreen
        let scene = HeadlessSession([path], options: options).session.scene
        // A runtime's first frame, before any input: it titles the window.
        _ = scene.advance(to: 0)
        return scene
    }

    static func key(_ scene: NavigationScene, _ name: Key, _ modifiers: Modifiers = []) -> [AppCommand] {
        scene.handle(.key(name, modifiers: modifiers, time: 0), now: 0)
    }

    @Test func onTheGridEscapeLeavesFullscreenThenQuits() {
        let scene = Self.scene(opening: TestPaths.photos)
        #expect(scene.isShowingGrid)
        #expect(Self.key(scene, .function(11)) == [.setFullscreen(true)])
        #expect(Self.key(scene, .escape) == [.setFullscreen(false)])
        #expect(Self.key(scene, .escape) == [.quit])
    }

    @Test func onAPhotoEscapeLeavesFullscreenThenGoesBackToTheGrid() {
        let scene = Self.scene(opening: TestPaths.photos + "/" + ScriptLibrary.firstPhoto)
        #expect(!scene.isShowingGrid)
        #expect(Self.key(scene, "f") == [.setFullscreen(true)])
        #expect(Self.key(scene, .escape) == [.setFullscreen(false)])
        #expect(Self.key(scene, .escape).isEmpty, "back to the grid: the flight begins")
        for t in 1...60 { scene.advance(to: Double(t) / 60) }
        #expect(scene.isShowingGrid)
    }

    /// The chrome's fullscreen button is the scene's fullscreen: Escape with a modifier held
    /// (which the pager, not the window, once answered from a copy of its own) leaves it, on
    /// the photo, rather than going back to the grid in a fullscreen window.
    @Test(arguments: [Modifiers.alt, .control])
    func theFullscreenButtonThenEscapeLeaveTheScenesFullscreen(modifiers: Modifiers) {
        let scene = Self.scene(opening: TestPaths.photos + "/" + ScriptLibrary.firstPhoto)
        let button = scene.pager.renderState.chrome.layout.frame(of: .fullscreen)
        let centre = button.center
        _ = scene.handle(.pointerMove(position: centre, modifiers: [], time: 0.1), now: 0.1)
        _ = scene.handle(.pointerDown(position: centre, button: .left, modifiers: [], time: 0.2), now: 0.2)
        let click = scene.handle(.pointerUp(position: centre, button: .left, modifiers: [], time: 0.3), now: 0.3)
        #expect(Self.withoutCursors(click) == [.setFullscreen(true)])
        #expect(scene.isFullscreen)
        let escape = scene.handle(.key(.escape, modifiers: modifiers, time: 0.4), now: 0.4)
        #expect(Self.withoutCursors(escape) == [.setFullscreen(false)])
        #expect(!scene.isFullscreen)
        for t in 1...60 { scene.advance(to: 0.4 + Double(t) / 60) }
        #expect(!scene.isShowingGrid, "Escape left fullscreen; it did not also go back")
    }

    static func withoutCursors(_ commands: [AppCommand]) -> [AppCommand] {
        commands.filter { if case .setCursor = $0 { false } else { true } }
    }

    /// f with Ctrl held toggles the scene's fullscreen, which the pointer and Escape then follow.
    @Test func fWithCtrlIsTheScenesFullscreen() {
        let scene = Self.scene(opening: TestPaths.photos + "/" + ScriptLibrary.firstPhoto)
        #expect(Self.key(scene, "f", .control) == [.setFullscreen(true)])
        #expect(scene.isFullscreen)
        #expect(Self.key(scene, "f") == [.setFullscreen(false)])
        #expect(!scene.isFullscreen)
    }

    // `riffle --fullscreen`: the window opens fullscreen and the scene knows it.
    @Test func aWindowOpenedFullscreenLeavesItOnTheFirstEscape() {
        let scene = Self.scene(opening: TestPaths.photos + "/" + ScriptLibrary.firstPhoto, fullscreen: true)
        #expect(scene.isFullscreen)
        #expect(Self.key(scene, .escape) == [.setFullscreen(false)])
    }
}
