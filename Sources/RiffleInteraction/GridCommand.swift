/// An effect the library grid asks of the app around it. Returned by `GridInteraction.handle`,
/// never polled.
public enum GridCommand: Hashable, Sendable {
    /// Open item `index` in the viewer (a tap on its cell, or Enter on the focused one).
    case open(Int)
    /// End the app (q, Escape, the window manager's close).
    case quit
    /// Show the timeline's `level` at item `item` (its keys; Ctrl+wheel or a pinch zooming
    /// out past the most columns asks for Days), nil: the item nearest the middle.
    case showLevel(TimelineLayout.Level, item: Int?)
    /// Switch All Photos between square cells and the aspect-ratio grid (g).
    case toggleAspectGrid
}
