/// Which cursor the window shows, from the pointer events and what lies under the pointer: an
/// open hand over a zoomed photo, a closed hand while a drag that began on one is held, the arrow
/// elsewhere, and, in fullscreen, no pointer once it has rested `fullscreenHideDelay`.
///
/// Input arrives as data (events with their times); the cursor is a pure function of the time
/// asked about and of whether the window is fullscreen, which the model does not keep: the scene
/// owns that and passes it in (`cursor(at:fullscreen:)`, `hideTime(fullscreen:)`), telling the
/// model when it changes (`fullscreenChanged()`). A runtime asks for the cursor after input and
/// again at the hide time.
public struct PointerCursorModel: Sendable {
    /// Seconds a still pointer stays visible in fullscreen before it hides: the rest after which
    /// the pager's bars fade (`ChromeVisibility.idleDelay`), so the pointer and the bars leave the
    /// photo alone together.
    public static let fullscreenHideDelay = ChromeVisibility.idleDelay

    /// When the pointer last moved, was pressed or released, or fullscreen began or ended, in seconds;
    /// nil until the first time is seen.
    public private(set) var lastMotion: Double?
    /// True while the left button is held after a press on a zoomed photo.
    public private(set) var isHoldingPhoto = false
    /// Whether the pointer, where it last was, lay over a zoomed photo.
    private var overZoomedPhoto = false
    /// The latest time seen, for changes that carry none.
    private var latest: Double?

    /// A model before any time or input: the arrow, shown.
    public init() {}

    /// The window entered or left fullscreen at `now`: the rest after which a fullscreen pointer
    /// hides starts anew, from then.
    public mutating func fullscreenChanged(at now: Double) {
        advance(to: now)
        lastMotion = latest
    }

    /// Notes the clock at `now` with no input; the first time seen starts the rest after which
    /// a fullscreen pointer hides (a window opened fullscreen hides it 2 s after opening).
    public mutating func advance(to now: Double) {
        latest = max(latest ?? now, now)
        if lastMotion == nil { lastMotion = latest }
    }

    /// Takes in one event at `now`; `overZoomedPhoto` says whether the event's position (for
    /// events without one, the pointer's last position) lies over a zoomed photo.
    public mutating func handle(_ event: InputEvent, now: Double, overZoomedPhoto: Bool) {
        advance(to: now)
        switch event {
        case let .pointerDown(_, button, _, _):
            lastMotion = now
            self.overZoomedPhoto = overZoomedPhoto
            if button == .left { isHoldingPhoto = overZoomedPhoto }
        case let .pointerUp(_, button, _, _):
            lastMotion = now
            self.overZoomedPhoto = overZoomedPhoto
            if button == .left { isHoldingPhoto = false }
        case .pointerMove:
            lastMotion = now
            self.overZoomedPhoto = overZoomedPhoto
        case .scroll, .pinch, .key, .resize, .expose:
            // The photo may have zoomed in or out under a pointer that did not move. A wheel or a
            // key leaves a hidden pointer hidden: only moving it is a wish to see it.
            self.overZoomedPhoto = overZoomedPhoto
        case .focus, .close, .dropHighlight, .drop:
            break
        }
    }

    /// The cursor at `now` (not before the last event), in a window that is `fullscreen` or not.
    public func cursor(at now: Double, fullscreen: Bool) -> PointerCursor {
        if isHoldingPhoto { return .closedHand }
        if let hide = hideTime(fullscreen: fullscreen), now >= hide { return .hidden }
        return overZoomedPhoto ? .openHand : .arrow
    }

    /// When a resting pointer hides if nothing happens first; nil when it never will (not
    /// `fullscreen`, or a drag holds the photo).
    public func hideTime(fullscreen: Bool) -> Double? {
        guard fullscreen, !isHoldingPhoto, let lastMotion else { return nil }
        return lastMotion + Self.fullscreenHideDelay
    }
}
