import RiffleGeometry

/// Everything the app needs to draw one frame of the library grid, read from `GridInteraction`.
public struct GridRenderState: Hashable, Sendable {
    /// One cell on screen.
    public struct Cell: Hashable, Sendable {
        /// The item's index.
        public var index: Int
        /// Where its square is drawn, window pixels (mid column change, between its old and new
        /// cells).
        public var rect: Rect
    }

    /// The window size, pixels.
    public var viewport: Size
    /// The cells overlapping the window with positive area, in index order.
    public var cells: [Cell]
    /// The item with the keyboard focus, in 0 ..< itemCount, or nil (no items, or neither a key
    /// nor a reveal has placed it yet).
    public var focusIndex: Int?
    /// True when the focus ring is drawn around `focusIndex`'s cell.
    public var isFocusRingVisible: Bool
    /// True while anything moves with time alone or a timer is outstanding: keep stepping.
    public var isAnimating: Bool
}
