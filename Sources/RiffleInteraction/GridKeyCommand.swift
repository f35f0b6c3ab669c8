/// What a key press asks of the library grid (`KeyMap`'s grid bindings).
public enum GridKeyCommand: Hashable, Sendable {
    /// An arrow key: moves the focus ring (Left/Right by one item, Up/Down by one row).
    case arrow(ArrowDirection)
    /// Page Up: a viewport less one row up.
    case pageUp
    /// Page Down: a viewport less one row down.
    case pageDown
    /// Home: the top, focus on the first item.
    case home
    /// End: the bottom, focus on the last item.
    case end
    /// Enter: open the focused item.
    case open
    /// q, Escape: quit.
    case quit
    /// y, m, d, a: the timeline's Years, Months, Days or All Photos (a library of a tree).
    case showLevel(TimelineLayout.Level)
    /// g: All Photos as the aspect-ratio grid, or back to square cells (a library of a tree).
    case toggleAspectGrid
}
