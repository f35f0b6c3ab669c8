import RiffleGeometry

/// What a key press asks of the viewer, from its X keysym name and modifiers.
public enum KeyCommand: Hashable, Sendable {
    /// BackSpace, Prior / Page_Up, Ctrl+Left.
    case previousPage
    /// space, Next / Page_Down, Ctrl+Right.
    case nextPage
    /// An arrow key without Ctrl: pans a zoomed photo by a third of the window, and pages (left,
    /// right) from its edge or at fit, as a drag hands over (eog, Loupe).
    case arrow(ArrowDirection)
    /// Home.
    case firstPage
    /// End.
    case lastPage
    /// plus, equal, KP_Add: zoom in ×1.3 about the window centre.
    case zoomIn
    /// minus, KP_Subtract: zoom out ×1/1.3 about the window centre.
    case zoomOut
    /// 0: back to fit.
    case zoomToFit
    /// 1: one image pixel per screen pixel, about the window centre.
    case zoomToActualSize
    /// f, F, F11.
    case toggleFullscreen
    /// q.
    case quit
    /// Escape: steps back one level (leave fullscreen, else back to the library, else quit).
    case escape
    /// Alt+Up: back to the library (as in a file manager, up to the folder).
    case backToLibrary
    /// i: shows or hides the info panel.
    case toggleInfo
    /// question (?), F1: shows or hides the help overlay.
    case toggleHelp
    /// r: turns the photo a quarter clockwise (the view, not the file).
    case rotateClockwise
    /// R (Shift+r: X reports the keysym R): turns the photo a quarter anticlockwise.
    case rotateAnticlockwise
    /// s: starts the slideshow, or pauses it.
    case toggleSlideshow

    /// The command for keysym `name` with `modifiers`, or nil for a key Riffle ignores.
    public init?(keyName name: String, modifiers: Modifiers) {
        if modifiers.contains(.alt), name == "Up" { self = .backToLibrary; return }
        if modifiers.contains(.control) {
            switch name {
            case "Left": self = .previousPage; return
            case "Right": self = .nextPage; return
            case "Up", "Down": return nil
            default: break
            }
        }
        switch name {
        case "Left": self = .arrow(.left)
        case "Right": self = .arrow(.right)
        case "Up": self = .arrow(.up)
        case "Down": self = .arrow(.down)
        case "BackSpace", "Prior", "Page_Up": self = .previousPage
        case "space", "Next", "Page_Down": self = .nextPage
        case "Home": self = .firstPage
        case "End": self = .lastPage
        case "plus", "equal", "KP_Add": self = .zoomIn
        case "minus", "KP_Subtract": self = .zoomOut
        case "0", "KP_0": self = .zoomToFit
        case "1", "KP_1": self = .zoomToActualSize
        case "f", "F", "F11": self = .toggleFullscreen
        case "q": self = .quit
        case "Escape": self = .escape
        case "i": self = .toggleInfo
        case "question", "F1": self = .toggleHelp
        case "r": self = .rotateClockwise
        case "R": self = .rotateAnticlockwise
        case "s": self = .toggleSlideshow
        default: return nil
        }
    }
}

/// Which arrow key.
public enum ArrowDirection: Hashable, Sendable {
    case left, right, up, down
}
