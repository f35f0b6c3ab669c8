import RiffleGeometry

/// A mouse button, numbered as X11 numbers them.
public enum PointerButton: Int, Sendable, Hashable {
    case left = 1
    case middle = 2
    case right = 3
    /// The "back" side button (X button 8).
    case back = 8
    /// The "forward" side button (X button 9).
    case forward = 9
}

/// Keyboard modifiers held during an event.
public struct Modifiers: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let shift = Modifiers(rawValue: 1 << 0)
    public static let control = Modifiers(rawValue: 1 << 1)
    public static let alt = Modifiers(rawValue: 1 << 2)
}

/// One input event as the app sees it, from the X server or from a replay script.
///
/// `time` is in seconds on the app's clock (the monotonic clock for a live window, the virtual
/// clock for a replay); positions are window pixels with the origin at the top-left corner.
public enum InputEvent: Sendable, Hashable {
    /// A button went down at `position`.
    case pointerDown(position: Point, button: PointerButton, modifiers: Modifiers, time: Double)
    /// The pointer moved (with or without a button held).
    case pointerMove(position: Point, modifiers: Modifiers, time: Double)
    /// A button came up at `position`.
    case pointerUp(position: Point, button: PointerButton, modifiers: Modifiers, time: Double)
    /// Wheel or smooth scroll: `delta` in notches, x > 0 right, y > 0 away from the user
    /// (X button 4, zooms in); `precise` marks trackpad-style continuous deltas.
    case scroll(delta: Point, position: Point, modifiers: Modifiers, precise: Bool, time: Double)
    /// A trackpad pinch (XInput 2.4 gesture): `scaleFactor` relative to the previous update.
    case pinch(scaleFactor: Double, center: Point, phase: GesturePhase, time: Double)
    /// A key was pressed (`KeyMap` says what it does where); `isRepeat` for the auto-repeat of a
    /// key held down, which does what a press does (the pager passes the photos it turns past).
    case key(Key, modifiers: Modifiers, time: Double, isRepeat: Bool = false)
    /// The window gained (true) or lost (false) the keyboard focus; it carries no time.
    case focus(Bool)
    /// The window now has this size.
    case resize(PixelSize)
    /// Part of the window must be drawn again.
    case expose
    /// The window manager asked the window to close.
    case close
    /// A drag from another program that Riffle would accept (it offers `text/uri-list`) came over
    /// the window (true), or left it or was dropped (false): the window shows a drop highlight
    /// exactly while the last of these said true. It carries no time.
    case dropHighlight(Bool)
    /// Files were dropped on the window: `uriList` is the drop's `text/uri-list` (RFC 2483: one
    /// URI a line, CRLF-separated, "#" lines comments). It carries no time.
    case drop(uriList: String)

    /// The event's timestamp, for the events that carry one.
    public var time: Double? {
        switch self {
        case .pointerDown(_, _, _, let t), .pointerMove(_, _, let t), .pointerUp(_, _, _, let t),
             .scroll(_, _, _, _, let t), .pinch(_, _, _, let t), .key(_, _, let t, _):
            return t
        case .focus, .resize, .expose, .close, .dropHighlight, .drop:
            return nil
        }
    }
}

/// Where a continuous gesture is in its life.
public enum GesturePhase: Sendable, Hashable {
    case began
    case changed
    case ended
}
