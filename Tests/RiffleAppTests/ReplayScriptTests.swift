import RiffleApp
import RiffleGeometry
import RiffleInteraction
import Testing

@Suite struct ReplayScriptTests {
    @Test func parsesEveryCommand() throws {
        let script = try ReplayScript(parsing: """
            # a comment line

            wait 100
            down 10 20
            move 30 40 200   # interpolated
            move 1 2
            up
            click 5 6
            doubleclick 7 8
            wheel 2 100 50 ctrl
            wheel -1 100 50
            hwheel 3 10 10
            key Right
            resize 640 480
            snapshot after-zoom
            """)
        #expect(script.steps.map(\.command) == [
            .wait(milliseconds: 100), .down(Point(x: 10, y: 20)), .move(Point(x: 30, y: 40), milliseconds: 200),
            .move(Point(x: 1, y: 2), milliseconds: 0), .up, .click(Point(x: 5, y: 6)), .doubleClick(Point(x: 7, y: 8)),
            .wheel(delta: Point(x: 0, y: 2), at: Point(x: 100, y: 50), modifiers: .control),
            .wheel(delta: Point(x: 0, y: -1), at: Point(x: 100, y: 50), modifiers: []),
            .wheel(delta: Point(x: 3, y: 0), at: Point(x: 10, y: 10), modifiers: []),
            .key("Right"), .resize(PixelSize(width: 640, height: 480)), .snapshot("after-zoom"),
        ])
        #expect(script.steps.first?.line == 3)
    }

    @Test(arguments: [
        ("wait 1\njump 3 4", 2, "unknown command 'jump'"),
        ("down 1", 1, "'down' takes 2 arguments, got 1"),
        ("wait soon", 1, "'wait' expects a number as argument 1"),
        ("wheel 1 2 3 alt", 1, "unknown wheel modifier 'alt'"),
        ("resize 0 10", 1, "'resize' needs whole sizes"),
        ("snapshot ../x", 1, "snapshot names are plain file names"),
    ])
    func errorsNameTheLine(text: String, line: Int, message: String) {
        do {
            _ = try ReplayScript(parsing: text)
            Issue.record("no error for \(text)")
        } catch {
            #expect(error.line == line)
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
    }
}
