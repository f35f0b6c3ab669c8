/// One key binding: a key, the modifiers it needs and those it refuses, in one context, to one
/// command.
///
/// It matches a press of `key` with every one of `modifiers` held and none of `refused`; any
/// other modifier held is ignored (Shift+Space turns the page as Space does). Shift is already
/// in a character key's character, so a binding for "R" is Shift+r.
public struct KeyBinding: Hashable, Sendable {
    public let key: Key
    /// The modifiers that must be held.
    public let modifiers: Modifiers
    /// The modifiers that must not be held.
    public let refused: Modifiers
    public let context: KeyContext
    public let command: BoundCommand

    public init(_ key: Key, _ modifiers: Modifiers = [], refusing refused: Modifiers = [], in context: KeyContext, _ command: BoundCommand) {
        self.key = key
        self.modifiers = modifiers
        self.refused = refused
        self.context = context
        self.command = command
    }

    /// True when a press of `key` with `held` down matches this binding (in whatever context).
    public func matches(_ key: Key, held: Modifiers) -> Bool {
        key == self.key && held.isSuperset(of: modifiers) && held.isDisjoint(with: refused)
    }

    /// The binding as the help writes it: "Ctrl+Shift+C", "Alt+Up", "Shift+R", "Page Up". A
    /// letter with Ctrl or Alt is written in capitals, as shortcuts are ("Ctrl+C" for Ctrl+c); a
    /// capital letter alone is written with the Shift that types it.
    public var chord: String {
        var parts: [String] = []
        var name = key.name
        var shift = modifiers.contains(.shift)
        if modifiers.contains(.control) { parts.append("Ctrl") }
        if modifiers.contains(.alt) { parts.append("Alt") }
        if case let .character(c) = key, c.isLetter {
            if !modifiers.isDisjoint(with: [.control, .alt]) {
                name = c.uppercased()
            } else if c.isUppercase {
                shift = true
            }
        }
        if shift { parts.append("Shift") }
        return (parts + [name]).joined(separator: "+")
    }
}

extension Modifiers {
    /// How many modifiers the set holds.
    var count: Int { rawValue.nonzeroBitCount }
}
