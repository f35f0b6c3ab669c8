/// What a key press asks of the library grid, from its X keysym name.
public enum GridKeyCommand: Hashable, Sendable {
    /// An arrow key: moves the focus ring (Left/Right by one item, Up/Down by one row).
    case arrow(ArrowDirection)
    /// Prior / Page_Up: a viewport less one row up.
    case pageUp
    /// Next / Page_Down: a viewport less one row down.
    case pageDown
    /// Home: the top, focus on the first item.
    case home
    /// End: the bottom, focus on the last item.
    case end
    /// Return, KP_Enter (X names the Enter key Return): open the focused item.
    case open
    /// q, Escape.
    case quit

    /// The command for keysym `name`, or nil for a key the grid ignores.
    public init?(keyName name: String) {
        switch name {
        case "Left": self = .arrow(.left)
        case "Right": self = .arrow(.right)
        case "Up": self = .arrow(.up)
        case "Down": self = .arrow(.down)
        case "Prior", "Page_Up": self = .pageUp
        case "Next", "Page_Down": self = .pageDown
        case "Home": self = .home
        case "End": self = .end
        case "Return", "KP_Enter": self = .open
        case "q", "Escape": self = .quit
        default: return nil
        }
    }
}
