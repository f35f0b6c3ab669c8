import RiffleInteraction
import Testing

@Suite struct KeyMapTests {
    static func pager(_ key: Key, _ modifiers: Modifiers = []) -> KeyCommand? {
        if case let .pager(command) = KeyMap.command(for: key, modifiers: modifiers, in: .pager) { return command }
        return nil
    }

    /// Every key the pager maps, without modifiers, with Shift (which changes nothing) and with
    /// Ctrl where Ctrl does not change the arrows' meaning.
    @Test(arguments: [
        (Key.left, KeyCommand.arrow(.left)), (.right, .arrow(.right)), (.up, .arrow(.up)), (.down, .arrow(.down)),
        (.backspace, .previousPage), (.pageUp, .previousPage), (.space, .nextPage), (.pageDown, .nextPage),
        (.home, .firstPage), (.end, .lastPage), ("+", .zoomIn), ("=", .zoomIn), ("-", .zoomOut),
        ("0", .zoomToFit), ("1", .zoomToActualSize),
        ("q", .quit), (.escape, .escape), ("i", .toggleInfo), ("?", .toggleHelp), (.function(1), .toggleHelp),
        ("r", .rotateClockwise), ("R", .rotateAnticlockwise), ("s", .toggleSlideshow),
    ])
    func pagerKeys(key: Key, command: KeyCommand) {
        #expect(Self.pager(key) == command)
        #expect(Self.pager(key, .shift) == command)
        if ![Key.left, .right, .up, .down].contains(key) {
            #expect(Self.pager(key, .control) == command)
        }
    }

    /// Ctrl + Left/Right page even when a photo is zoomed (the plain arrows pan it then);
    /// Ctrl + Up/Down mean nothing; Alt+Up goes back to the library, with Ctrl too.
    @Test(arguments: [(Key.left, KeyCommand?.some(.previousPage)), (.right, .nextPage), (.up, nil), (.down, nil)])
    func controlArrows(key: Key, command: KeyCommand?) {
        #expect(Self.pager(key, .control) == command)
        #expect(Self.pager(key, [.control, .shift]) == command)
        #expect(Self.pager(.up, .alt) == .backToLibrary)
        #expect(Self.pager(.up, [.alt, .control]) == .backToLibrary)
        #expect(Self.pager(.left, .alt) == .arrow(.left))
    }

    /// Keys the pager ignores, including case variants of mapped letters.
    @Test(arguments: [Key("a"), "Q", "S", "2", .enter, .tab, .function(12), .insert, "f", .function(11)])
    func unknownKeysAreIgnored(key: Key) {
        #expect(Self.pager(key) == nil)
        #expect(Self.pager(key, .alt) == nil)
    }

    /// The grid's keys, whatever modifiers are held.
    @Test(arguments: [Modifiers(), .shift, .control, .alt])
    func gridKeys(modifiers: Modifiers) {
        let expected: [(Key, GridKeyCommand)] = [
            (.left, .arrow(.left)), (.right, .arrow(.right)), (.up, .arrow(.up)), (.down, .arrow(.down)),
            (.pageUp, .pageUp), (.pageDown, .pageDown), (.home, .home), (.end, .end), (.enter, .open),
            ("q", .quit), (.escape, .quit),
        ]
        for (key, command) in expected {
            #expect(KeyMap.command(for: key, modifiers: modifiers, in: .grid) == .grid(command), "\(key)")
        }
        #expect(KeyMap.command(for: "x", modifiers: modifiers, in: .grid) == nil)
        #expect(KeyMap.command(for: .space, modifiers: modifiers, in: .grid) == nil)
    }

    /// The window's keys: f, F11 and Escape with any modifiers (fullscreen is the scene's), Ctrl+C and
    /// Ctrl+Shift+C told apart by Shift (not by the letter's case, which Caps Lock flips), and
    /// never with Alt; in a flight only q.
    @Test func windowKeys() {
        func window(_ key: Key, _ modifiers: Modifiers = []) -> BoundCommand? {
            KeyMap.command(for: key, modifiers: modifiers, in: .everywhere)
        }
        #expect(window("f") == .window(.toggleFullscreen))
        #expect(window("F", .shift) == .window(.toggleFullscreen))
        #expect(window(.function(11)) == .window(.toggleFullscreen))
        #expect(window("f", .control) == .window(.toggleFullscreen))
        #expect(window(.function(11), .alt) == .window(.toggleFullscreen))
        #expect(window(.escape) == .window(.leaveFullscreen))
        #expect(window(.escape, .control) == .window(.leaveFullscreen))
        #expect(window("c", .control) == .window(.copyPhoto))
        #expect(window("C", .control) == .window(.copyPhoto), "Caps Lock")
        #expect(window("C", [.control, .shift]) == .window(.copyPath))
        #expect(window("c", [.control, .shift]) == .window(.copyPath), "Caps Lock")
        #expect(window("c", [.control, .alt]) == nil)
        #expect(window("c") == nil)
        #expect(window("q") == nil)
        #expect(KeyMap.command(for: "q", modifiers: [], in: .flight) == .window(.quit))
        #expect(KeyMap.command(for: .escape, modifiers: [], in: .flight) == nil)
    }

    /// Every key that does something in the pager (its own bindings or the window's), with any
    /// modifiers, is on a line of the pager's help, written as that line writes it; and every
    /// binding on those lines does what its line says it does.
    @Test func thePagersHelpListsEveryBindingAndNothingElse() {
        let lines = KeyMap.helpLines(shownIn: .pager)
        var keys: [Key] = [.left, .right, .up, .down, .pageUp, .pageDown, .home, .end, .enter, .escape, .backspace, .tab,
                           .insert, .delete, .space]
        keys += (1...35).map { .function($0) }
        keys += (33...126).map { Key.character(Character(Unicode.Scalar(UInt8($0)))) }
        let modifierSets = (0..<8).map { Modifiers(rawValue: $0) }
        for key in keys {
            for modifiers in modifierSets {
                for context in [KeyContext.everywhere, .pager] {
                    guard let command = KeyMap.command(for: key, modifiers: modifiers, in: context) else { continue }
                    let listed = lines.first { line in
                        line.bindings.contains { $0.context == context && $0.command == command && $0.matches(key, held: modifiers) }
                    }
                    guard let line = try? #require(listed, "\(key) with \(modifiers.rawValue) in \(context) is not in the help") else { continue }
                    let binding = line.bindings.first { $0.context == context && $0.matches(key, held: modifiers) }!
                    #expect(line.keys.contains(binding.chord), "\(line.keys) does not write \(binding.chord)")
                }
            }
        }
        for line in lines {
            #expect(!line.bindings.isEmpty)
            for binding in line.bindings {
                #expect([KeyContext.everywhere, .pager].contains(binding.context), "\(line.action): \(binding)")
                #expect(
                    KeyMap.command(for: binding.key, modifiers: binding.modifiers, in: binding.context) == binding.command,
                    "\(binding.chord) in \(line.keys) does something else")
            }
        }
        // The written keys are exactly the chords of the line's bindings.
        for line in lines {
            let written = Set(line.keys.split(separator: " / ").flatMap { $0.split(separator: ", ") }.map(String.init))
            #expect(written == Set(line.bindings.map(\.chord)), "\(line.keys)")
        }
    }

    /// How the help writes a binding.
    @Test func chords() {
        #expect(KeyBinding("C", .control, in: .everywhere, .window(.copyPhoto)).chord == "Ctrl+C")
        #expect(KeyBinding("c", .control, in: .everywhere, .window(.copyPhoto)).chord == "Ctrl+C")
        #expect(KeyBinding("C", [.control, .shift], in: .everywhere, .window(.copyPath)).chord == "Ctrl+Shift+C")
        #expect(KeyBinding("R", in: .pager, .pager(.rotateAnticlockwise)).chord == "Shift+R")
        #expect(KeyBinding("r", in: .pager, .pager(.rotateClockwise)).chord == "r")
        #expect(KeyBinding(.up, .alt, in: .pager, .pager(.backToLibrary)).chord == "Alt+Up")
        #expect(KeyBinding(.pageUp, in: .pager, .pager(.previousPage)).chord == "Page Up")
        #expect(KeyBinding("?", in: .pager, .pager(.toggleHelp)).chord == "?")
    }
}
