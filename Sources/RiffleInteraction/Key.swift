/// A key as Riffle's models read it: a named key, or the character a printable key types.
///
/// Where a key comes from (an X keysym, a replay script's word) is the display layer's business;
/// the models see only these values. A character is what the key types with Shift (and Caps
/// Lock) already applied — Shift+r is `.character("R")`, the keypad's + is `.character("+")` as
/// the main row's is — and never a space (`.space`) or a control character. A single-character
/// literal is the key that types it: `let rotate: Key = "r"`.
public enum Key: Hashable, Sendable, ExpressibleByExtendedGraphemeClusterLiteral {
    case left, right, up, down
    case pageUp, pageDown, home, end
    /// Return, and the keypad's Enter.
    case enter
    case escape, backspace, tab, insert, delete, space
    /// F1, F2, ...: `function(1)` is F1.
    case function(Int)
    /// A printable key: the character it types.
    case character(Character)

    /// The key that types `character`.
    public init(extendedGraphemeClusterLiteral character: Character) {
        self = .character(character)
    }

    /// The key as the help and the docs write it: "Left", "Page Up", "F11", "+", "r".
    public var name: String {
        switch self {
        case .left: "Left"
        case .right: "Right"
        case .up: "Up"
        case .down: "Down"
        case .pageUp: "Page Up"
        case .pageDown: "Page Down"
        case .home: "Home"
        case .end: "End"
        case .enter: "Enter"
        case .escape: "Escape"
        case .backspace: "Backspace"
        case .tab: "Tab"
        case .insert: "Insert"
        case .delete: "Delete"
        case .space: "Space"
        case let .function(n): "F\(n)"
        case let .character(c): String(c)
        }
    }
}
