import RiffleGeometry
import RiffleInteraction
import Testing

@Suite struct KeyCommandTests {
    /// Every keysym name Riffle maps, without modifiers, with Shift (which changes nothing) and
    /// with Ctrl where Ctrl does not change the arrows' meaning.
    @Test(arguments: [
        ("Left", KeyCommand.arrow(.left)), ("Right", .arrow(.right)), ("Up", .arrow(.up)), ("Down", .arrow(.down)),
        ("BackSpace", .previousPage), ("Prior", .previousPage), ("Page_Up", .previousPage),
        ("space", .nextPage), ("Next", .nextPage), ("Page_Down", .nextPage),
        ("Home", .firstPage), ("End", .lastPage),
        ("plus", .zoomIn), ("equal", .zoomIn), ("KP_Add", .zoomIn),
        ("minus", .zoomOut), ("KP_Subtract", .zoomOut),
        ("0", .zoomToFit), ("KP_0", .zoomToFit), ("1", .zoomToActualSize), ("KP_1", .zoomToActualSize),
        ("f", .toggleFullscreen), ("F", .toggleFullscreen), ("F11", .toggleFullscreen),
        ("q", .quit), ("Escape", .escape), ("i", .toggleInfo), ("question", .toggleHelp), ("F1", .toggleHelp),
        ("r", .rotateClockwise), ("R", .rotateAnticlockwise), ("s", .toggleSlideshow),
    ])
    func mappedKeys(name: String, command: KeyCommand) {
        #expect(KeyCommand(keyName: name, modifiers: []) == command)
        #expect(KeyCommand(keyName: name, modifiers: .shift) == command)
        if !["Left", "Right", "Up", "Down"].contains(name) {
            #expect(KeyCommand(keyName: name, modifiers: .control) == command)
        }
    }

    /// Ctrl + Left/Right page even when a photo is zoomed (the plain arrows pan it then);
    /// Ctrl + Up/Down mean nothing.
    @Test(arguments: [("Left", KeyCommand?.some(.previousPage)), ("Right", .nextPage), ("Up", nil), ("Down", nil)])
    func controlArrows(name: String, command: KeyCommand?) {
        #expect(KeyCommand(keyName: name, modifiers: .control) == command)
        #expect(KeyCommand(keyName: name, modifiers: [.control, .shift]) == command)
    }

    /// Keys Riffle ignores, including case variants of mapped names and keypad names it does not
    /// map.
    @Test(arguments: ["a", "Q", "S", "left", "SPACE", "2", "KP_2", "Return", "Tab", "KP_Left", "F12", ""])
    func unknownKeysAreIgnored(name: String) {
        #expect(KeyCommand(keyName: name, modifiers: []) == nil)
        #expect(KeyCommand(keyName: name, modifiers: .alt) == nil)
    }
}
