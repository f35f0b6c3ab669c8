import RiffleGeometry
import RiffleInteraction
import Testing

@Suite struct KeyCommandTests {
    /// Every keysym name Riffle maps, without modifiers, with Shift (which changes nothing) and
    /// with Ctrl where Ctrl does not turn the key into a pan.
    @Test(arguments: [
        ("Left", KeyCommand.previousPage), ("BackSpace", .previousPage), ("Prior", .previousPage), ("Page_Up", .previousPage),
        ("Right", .nextPage), ("space", .nextPage), ("Next", .nextPage), ("Page_Down", .nextPage),
        ("Home", .firstPage), ("End", .lastPage),
        ("plus", .zoomIn), ("equal", .zoomIn), ("KP_Add", .zoomIn),
        ("minus", .zoomOut), ("KP_Subtract", .zoomOut),
        ("0", .zoomToFit), ("KP_0", .zoomToFit), ("1", .zoomToActualSize), ("KP_1", .zoomToActualSize),
        ("f", .toggleFullscreen), ("F", .toggleFullscreen), ("F11", .toggleFullscreen),
        ("q", .quit), ("Escape", .quit),
    ])
    func mappedKeys(name: String, command: KeyCommand) {
        #expect(KeyCommand(keyName: name, modifiers: []) == command)
        #expect(KeyCommand(keyName: name, modifiers: .shift) == command)
        if !["Left", "Right"].contains(name) {
            #expect(KeyCommand(keyName: name, modifiers: .control) == command)
        }
    }

    /// Ctrl + arrow pans by one wheel notch, 60 px, the photo moving the way the arrow points
    /// away from: Ctrl+Left moves it right (+x) to show more of its left side; y grows downwards.
    @Test(arguments: [
        ("Left", Point(x: 60, y: 0)), ("Right", Point(x: -60, y: 0)), ("Up", Point(x: 0, y: 60)), ("Down", Point(x: 0, y: -60)),
    ])
    func controlArrowsPan(name: String, translation: Point) {
        #expect(KeyCommand(keyName: name, modifiers: .control) == .pan(translation: translation))
        #expect(KeyCommand(keyName: name, modifiers: [.control, .shift]) == .pan(translation: translation))
    }

    /// Keys Riffle ignores, including Up and Down without Ctrl, case variants of mapped names and
    /// keypad names it does not map.
    @Test(arguments: ["Up", "Down", "a", "Q", "left", "SPACE", "2", "KP_2", "Return", "Tab", "KP_Left", "F12", ""])
    func unknownKeysAreIgnored(name: String) {
        #expect(KeyCommand(keyName: name, modifiers: []) == nil)
        #expect(KeyCommand(keyName: name, modifiers: .alt) == nil)
    }
}
