import RiffleInteraction

/// X keysym names read as `Key`s: the one table between X's names for keys and Riffle's. The X11
/// window reads its key presses through it, and a replay script's `key` line names its key the
/// same way (`key Right`, `key plus`, `key question`), so a script presses exactly the keys a
/// person can.
///
/// The names are those `XKeysymToString` returns (xev prints them): each keysym's name in
/// xorgproto's `include/X11/keysymdef.h` without its `XK_` prefix,
/// https://gitlab.freedesktop.org/xorg/proto/xorgproto/-/blob/master/include/X11/keysymdef.h
public enum KeysymName {
    /// The key keysym `name` stands for, or nil for a key Riffle has no use for: a modifier
    /// alone (Shift_L, Control_R, Alt_L, Caps_Lock ...), a media or dead key, the keypad's
    /// keys other than its digits, + and - and Enter, a letter outside ASCII. Such a key is no
    /// input at all: pressing Ctrl on its way to Ctrl+C does not pause a slideshow.
    public static func key(named name: String) -> Key? {
        if let key = named[name] { return key }
        // Function keys: F1 ... F35, the keysyms X defines.
        if name.hasPrefix("F"), let n = Int(name.dropFirst()), (1...35).contains(n), name == "F\(n)" { return .function(n) }
        // Letters and digits are their own names ("a", "R", "7").
        if name.count == 1, let c = name.first, c.isASCII, c.isLetter || c.isNumber { return .character(c) }
        if let c = punctuation[name] { return .character(c) }
        // The keypad's digits type the main row's (with Num Lock on; off, they are KP_Home ...).
        if name.hasPrefix("KP_"), name.count == 4, let c = name.last, c.isASCII, c.isNumber { return .character(c) }
        return nil
    }

    private static let named: [String: Key] = [
        "Left": .left, "Right": .right, "Up": .up, "Down": .down,
        // X names Page Up "Prior" and Page Down "Next"; keysymdef.h gives both spellings.
        "Prior": .pageUp, "Page_Up": .pageUp, "Next": .pageDown, "Page_Down": .pageDown,
        "Home": .home, "End": .end,
        // X names the Enter key "Return".
        "Return": .enter, "KP_Enter": .enter,
        "Escape": .escape, "BackSpace": .backspace, "Tab": .tab, "Insert": .insert, "Delete": .delete,
        "space": .space,
        "KP_Add": "+", "KP_Subtract": "-", "KP_Multiply": "*", "KP_Divide": "/",
    ]

    /// The printable ASCII punctuation's keysym names (keysymdef.h, Latin-1).
    private static let punctuation: [String: Character] = [
        "exclam": "!", "quotedbl": "\"", "numbersign": "#", "dollar": "$", "percent": "%", "ampersand": "&",
        "apostrophe": "'", "parenleft": "(", "parenright": ")", "asterisk": "*", "plus": "+", "comma": ",",
        "minus": "-", "period": ".", "slash": "/", "colon": ":", "semicolon": ";", "less": "<", "equal": "=",
        "greater": ">", "question": "?", "at": "@", "bracketleft": "[", "backslash": "\\", "bracketright": "]",
        "asciicircum": "^", "underscore": "_", "grave": "`", "braceleft": "{", "bar": "|", "braceright": "}",
        "asciitilde": "~",
    ]
}
