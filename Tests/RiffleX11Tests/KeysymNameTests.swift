import RiffleDisplay
import RiffleInteraction
import Testing

@Suite struct KeysymNameTests {
    /// The names X gives the keys Riffle reads, and a replay script's spellings of them.
    @Test(arguments: [
        ("Left", Key.left), ("Right", .right), ("Up", .up), ("Down", .down),
        ("Prior", .pageUp), ("Page_Up", .pageUp), ("Next", .pageDown), ("Page_Down", .pageDown),
        ("Home", .home), ("End", .end), ("Return", .enter), ("KP_Enter", .enter), ("Escape", .escape),
        ("BackSpace", .backspace), ("Tab", .tab), ("space", .space), ("F1", .function(1)), ("F11", .function(11)),
        ("F35", .function(35)),
        ("plus", "+"), ("KP_Add", "+"), ("equal", "="), ("minus", "-"), ("KP_Subtract", "-"), ("question", "?"),
        ("0", "0"), ("KP_0", "0"), ("1", "1"), ("KP_1", "1"), ("KP_2", "2"), ("r", "r"), ("R", "R"), ("c", "c"), ("C", "C"),
        ("asciitilde", "~"), ("backslash", "\\"),
    ])
    func keys(name: String, key: Key) {
        #expect(KeysymName.key(named: name) == key)
    }

    /// Keys Riffle has no use for are no key: modifiers alone, the keypad's arrows (Num Lock
    /// off), media keys, letters outside ASCII, names in the wrong case, nothing.
    @Test(arguments: [
        "Shift_L", "Shift_R", "Control_L", "Control_R", "Alt_L", "Meta_L", "Super_L", "ISO_Level3_Shift", "Caps_Lock",
        "Num_Lock", "KP_Left", "KP_Home", "KP_Equal", "XF86AudioPlay", "eacute", "left", "SPACE", "F0", "F36", "F01", "KP_", "",
    ])
    func ignoredKeys(name: String) {
        #expect(KeysymName.key(named: name) == nil)
    }
}
