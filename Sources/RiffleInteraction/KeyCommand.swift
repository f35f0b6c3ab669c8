import RiffleGeometry

/// What a key press asks of the pager (`KeyMap`'s pager bindings).
public enum KeyCommand: Hashable, Sendable {
    /// Backspace, Page Up, Ctrl+Left.
    case previousPage
    /// Space, Page Down, Ctrl+Right.
    case nextPage
    /// An arrow key without Ctrl: pans a zoomed photo by a third of the window, and pages (left,
    /// right) from its edge or at fit, as a drag hands over (eog, Loupe).
    case arrow(ArrowDirection)
    /// Home.
    case firstPage
    /// End.
    case lastPage
    /// + (either), =: zoom in ×1.3 about the window centre.
    case zoomIn
    /// - (either): zoom out ×1/1.3 about the window centre.
    case zoomOut
    /// 0 (either): back to fit.
    case zoomToFit
    /// 1 (either): one image pixel per screen pixel, about the window centre.
    case zoomToActualSize
    /// q.
    case quit
    /// Escape: steps back one level (close a panel, else back to the library, else quit). The
    /// window's Escape, asked first, leaves fullscreen.
    case escape
    /// Alt+Up: back to the library (as in a file manager, up to the folder).
    case backToLibrary
    /// i: shows or hides the info panel.
    case toggleInfo
    /// ?, F1: shows or hides the help overlay.
    case toggleHelp
    /// r: turns the photo a quarter clockwise (the view, not the file).
    case rotateClockwise
    /// R (Shift+r): turns the photo a quarter anticlockwise.
    case rotateAnticlockwise
    /// s: starts the slideshow, or pauses it.
    case toggleSlideshow
}

/// Which arrow key.
public enum ArrowDirection: Hashable, Sendable {
    case left, right, up, down
}
