/// What a bound key asks for, by who carries it out.
public enum BoundCommand: Hashable, Sendable {
    /// The scene's, for the whole window.
    case window(WindowKeyCommand)
    /// The pager's.
    case pager(KeyCommand)
    /// The grid's.
    case grid(GridKeyCommand)
}
