import RiffleApp
import RiffleGeometry
import RiffleInteraction
import Testing

@Suite struct ReplayScriptTests {
    static let everyCommand = """
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
        key c ctrl
        key C ctrl+shift
        key Up alt
        wheel 1 5 5 ctrl+shift
        resize 640 480
        snapshot after-zoom
        """

    @Test func parsesEveryCommand() throws {
        let script = try ReplayScript(parsing: Self.everyCommand)
        #expect(script.steps.map(\.command) == [
            .wait(milliseconds: 100), .down(Point(x: 10, y: 20)), .move(Point(x: 30, y: 40), milliseconds: 200),
            .move(Point(x: 1, y: 2), milliseconds: 0), .up, .click(Point(x: 5, y: 6)), .doubleClick(Point(x: 7, y: 8)),
            .wheel(delta: Point(x: 0, y: 2), at: Point(x: 100, y: 50), modifiers: .control),
            .wheel(delta: Point(x: 0, y: -1), at: Point(x: 100, y: 50), modifiers: []),
            .wheel(delta: Point(x: 3, y: 0), at: Point(x: 10, y: 10), modifiers: []),
            .key(.right, modifiers: []), .key("c", modifiers: .control), .key("C", modifiers: [.control, .shift]),
            .key(.up, modifiers: .alt),
            .wheel(delta: Point(x: 0, y: 1), at: Point(x: 5, y: 5), modifiers: [.control, .shift]),
            .resize(PixelSize(width: 640, height: 480)), .snapshot("after-zoom"),
        ])
        #expect(script.steps.first?.line == 3)
    }

    @Test("A script saved on Windows (CRLF, maybe a byte-order mark) parses as the same script", arguments: [
        (lineEnd: "\r\n", start: ""), (lineEnd: "\r\n", start: "\u{FEFF}"), (lineEnd: "\n", start: "\u{FEFF}"),
    ])
    func windowsLineEndings(lineEnd: String, start: String) throws {
        let lines = Self.everyCommand.split(separator: "\n", omittingEmptySubsequences: false)
        let text = start + lines.joined(separator: lineEnd)
        #expect(try ReplayScript(parsing: text).steps == ReplayScript(parsing: Self.everyCommand).steps)
    }

    @Test("An error in a CRLF script names the line an editor shows")
    func windowsLineNumbers() {
        do {
            _ = try ReplayScript(parsing: "wait 1\r\n\r\njump\r\nwait 2\r\n")
            Issue.record("no error")
        } catch {
            #expect(error.line == 3)
            #expect(error.message == "unknown command 'jump'")
        }
    }

    @Test("Values at the edges of their ranges parse", arguments: [
        ("wait 0", ReplayCommand.wait(milliseconds: 0)),
        ("wait 3600000", .wait(milliseconds: 3_600_000)),
        ("move -32768 32767 3600000", .move(Point(x: -32768, y: 32767), milliseconds: 3_600_000)),
        ("click 0.5 -0.5", .click(Point(x: 0.5, y: -0.5))),
        ("wheel -1000 0 0", .wheel(delta: Point(x: 0, y: -1000), at: .zero, modifiers: [])),
        ("hwheel 0.5 0 0 shift", .wheel(delta: Point(x: 0.5, y: 0), at: .zero, modifiers: .shift)),
        ("resize 16384 1", .resize(PixelSize(width: 16384, height: 1))),
        ("resize 640.0 480", .resize(PixelSize(width: 640, height: 480))),
        ("snapshot ...", .snapshot("...")),
        ("snapshot .hidden", .snapshot(".hidden")),
    ])
    func edges(text: String, command: ReplayCommand) throws {
        #expect(try ReplayScript(parsing: text).steps.map(\.command) == [command])
    }

    @Test(arguments: [
        ("wait 1\njump 3 4", 2, "unknown command 'jump'"),
        ("down 1", 1, "'down' takes 2 arguments, got 1"),
        ("wait soon", 1, "'wait' expects a number as argument 1"),
        ("wheel 1 2 3 meta", 1, "unknown 'wheel' modifier 'meta' (ctrl, shift and alt, joined by +)"),
        ("key c ctrl+", 1, "unknown 'key' modifier 'ctrl+' (ctrl, shift and alt, joined by +)"),
        // A key Riffle has no use for (a modifier alone), or a name X has no keysym for.
        ("key Shift_L", 1, "'key' takes a key Riffle reads by its X keysym name (Right, space, plus, Escape, q ...), got 'Shift_L'"),
        ("key Rig", 1, "'key' takes a key Riffle reads by its X keysym name"),
        ("resize 0 10", 1, "'resize' needs whole sizes"),
        ("snapshot ../x", 1, "snapshot names are plain file names"),
        // Not a number, or not a finite one.
        ("wait nan", 1, "'wait' expects a number as argument 1, got 'nan'"),
        ("wait inf", 1, "'wait' expects a number as argument 1, got 'inf'"),
        ("wait 1\nwait -infinity", 2, "'wait' expects a number as argument 1, got '-infinity'"),
        ("move 1 2 nan", 1, "'move' expects a number as argument 3, got 'nan'"),
        ("down nan 5", 1, "'down' expects a number as argument 1, got 'nan'"),
        ("click 5 inf", 1, "'click' expects a number as argument 2, got 'inf'"),
        ("doubleclick 5 -inf", 1, "'doubleclick' expects a number as argument 2, got '-inf'"),
        ("wheel nan 1 2", 1, "'wheel' expects a number as argument 1, got 'nan'"),
        ("hwheel 1 2 inf", 1, "'hwheel' expects a number as argument 3, got 'inf'"),
        ("resize nan 100", 1, "'resize' expects a number as argument 1, got 'nan'"),
        ("resize 100 inf", 1, "'resize' expects a number as argument 2, got 'inf'"),
        // Negative or over-long durations (an hour is the most; the runner steps every frame).
        ("wait -5", 1, "'wait' needs a duration from 0 to 3600000 ms, got '-5'"),
        ("wait 1e300", 1, "'wait' needs a duration from 0 to 3600000 ms, got '1e300'"),
        ("move 1 2 -5", 1, "'move' needs a duration from 0 to 3600000 ms, got '-5'"),
        ("move 1 2 3600001", 1, "'move' needs a duration from 0 to 3600000 ms, got '3600001'"),
        // Points outside X's 16-bit coordinates, wheels past the sanity bound.
        ("down 1e9 5", 1, "'down' needs coordinates from -32768 to 32767, got '1e9 5'"),
        ("move 5 -32769", 1, "'move' needs coordinates from -32768 to 32767, got '5 -32769'"),
        ("wheel 1 40000 0", 1, "'wheel' needs coordinates from -32768 to 32767, got '40000 0'"),
        ("wheel 1e300 1 2", 1, "'wheel' turns at most 1000 notches either way, got '1e300'"),
        ("hwheel -1001 1 2", 1, "'hwheel' turns at most 1000 notches either way, got '-1001'"),
        // Sizes: negative, oversized, fractional.
        ("resize -5 100", 1, "'resize' needs whole sizes from 1 to 16384, got '-5'"),
        ("resize 100000 100", 1, "'resize' needs whole sizes from 1 to 16384, got '100000'"),
        ("resize 100 16385", 1, "'resize' needs whole sizes from 1 to 16384, got '16385'"),
        ("resize 10.5 20", 1, "'resize' needs whole sizes from 1 to 16384, got '10.5'"),
        ("resize 640 479.9", 1, "'resize' needs whole sizes from 1 to 16384, got '479.9'"),
        // Snapshot names must stay inside the snapshot folder.
        ("snapshot .", 1, "snapshot names are plain file names, got '.'"),
        ("snapshot ..", 1, "snapshot names are plain file names, got '..'"),
        ("snapshot a/b", 1, "snapshot names are plain file names, got 'a/b'"),
        ("snapshot /tmp/x", 1, "snapshot names are plain file names, got '/tmp/x'"),
        ("wait 1\n\nsnapshot ./x", 3, "snapshot names are plain file names, got './x'"),
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

    @Test("Every command refuses too few and too many arguments, naming the line", arguments: [
        ("wait", "'wait' takes 1 argument, got 0"),
        ("wait 1 2", "'wait' takes 1 argument, got 2"),
        ("down", "'down' takes 2 arguments, got 0"),
        ("down 1 2 3", "'down' takes 2 arguments, got 3"),
        ("move 1", "'move' takes 2 to 3 arguments, got 1"),
        ("move 1 2 3 4", "'move' takes 2 to 3 arguments, got 4"),
        ("up 1", "'up' takes 0 arguments, got 1"),
        ("click 1", "'click' takes 2 arguments, got 1"),
        ("click 1 2 3", "'click' takes 2 arguments, got 3"),
        ("doubleclick 1", "'doubleclick' takes 2 arguments, got 1"),
        ("doubleclick 1 2 3", "'doubleclick' takes 2 arguments, got 3"),
        ("wheel 1 2", "'wheel' takes 3 to 4 arguments, got 2"),
        ("wheel 1 2 3 ctrl 5", "'wheel' takes 3 to 4 arguments, got 5"),
        ("hwheel 1 2", "'hwheel' takes 3 to 4 arguments, got 2"),
        ("hwheel 1 2 3 shift 5", "'hwheel' takes 3 to 4 arguments, got 5"),
        ("key", "'key' takes 1 to 2 arguments, got 0"),
        ("key a ctrl b", "'key' takes 1 to 2 arguments, got 3"),
        ("resize 640", "'resize' takes 2 arguments, got 1"),
        ("resize 640 480 2", "'resize' takes 2 arguments, got 3"),
        ("snapshot", "'snapshot' takes 1 argument, got 0"),
        ("snapshot a b", "'snapshot' takes 1 argument, got 2"),
        // A comment is not an argument.
        ("wait # 100", "'wait' takes 1 argument, got 0"),
    ])
    func argumentCounts(command: String, message: String) {
        let text = "wait 1\n# the second line\n" + command + "\nwait 2"
        do {
            _ = try ReplayScript(parsing: text)
            Issue.record("no error for \(command)")
        } catch {
            #expect(error.line == 3, "\(command)")
            #expect(error.message == message)
        }
    }
}
