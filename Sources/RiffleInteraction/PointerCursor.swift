/// The pointer's shape over the window, which the display takes from the user's cursor theme.
public enum PointerCursor: Hashable, Sendable {
    /// The theme's default arrow.
    case arrow
    /// An open hand: the photo under the pointer is zoomed in, and a drag will pan it.
    case openHand
    /// A closed hand: a drag is holding a zoomed photo.
    case closedHand
    /// No pointer at all: it rested in fullscreen, and the photo is left alone.
    case hidden
}
