import RiffleGeometry

/// What a key press asks of the viewer, from its X keysym name and modifiers.
public enum KeyCommand: Hashable, Sendable {
    /// Left, BackSpace, Prior / Page_Up.
    case previousPage
    /// Right, space, Next / Page_Down.
    case nextPage
    /// Home.
    case firstPage
    /// End.
    case lastPage
    /// Ctrl + arrow: pan a zoomed photo by `translation` (the photo moves by it, so Ctrl+Left
    /// shows more of its left side), one wheel notch (`WheelRecognizer.panStep`) per press
    /// (eog, Loupe).
    case pan(translation: Point)
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
    /// q, Escape.
    case quit

    /// The command for keysym `name` with `modifiers`, or nil for a key Riffle ignores.
    public init?(keyName name: String, modifiers: Modifiers) {
        let step = WheelRecognizer.panStep
        if modifiers.contains(.control) {
            switch name {
            case "Left": self = .pan(translation: Point(x: step, y: 0)); return
            case "Right": self = .pan(translation: Point(x: -step, y: 0)); return
            case "Up": self = .pan(translation: Point(x: 0, y: step)); return
            case "Down": self = .pan(translation: Point(x: 0, y: -step)); return
            default: break
            }
        }
        switch name {
        case "Left", "BackSpace", "Prior", "Page_Up": self = .previousPage
        case "Right", "space", "Next", "Page_Down": self = .nextPage
        case "Home": self = .firstPage
        case "End": self = .lastPage
        case "plus", "equal", "KP_Add": self = .zoomIn
        case "minus", "KP_Subtract": self = .zoomOut
        case "0", "KP_0": self = .zoomToFit
        case "1", "KP_1": self = .zoomToActualSize
        case "f", "F", "F11": self = .toggleFullscreen
        case "q", "Escape": self = .quit
        default: return nil
        }
    }
}
