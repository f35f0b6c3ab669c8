/// Where a key binding applies. The scene asks `everywhere` first, whatever the window shows,
/// then the context of what it shows: the library grid, the pager, or a photo in flight between
/// them.
public enum KeyContext: Hashable, Sendable, CaseIterable {
    case everywhere, grid, pager, flight
}
