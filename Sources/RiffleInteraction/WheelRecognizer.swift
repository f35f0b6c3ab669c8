import RealModule
import RiffleGeometry
import RifflePhysics

/// Turns wheel and smooth-scroll events into zooms, pan steps, page turns and continuous pans,
/// with the timers that end them (fired from `step(to:)`).
///
/// - Vertical notches (and Ctrl with any vertical delta): zoom by `zoomPerNotch`^delta.y at the
///   pointer, exponential so fractional smooth deltas compose exactly (Loupe). The gesture ends
///   (the bounce back into the limits is released) after the wheel is idle `zoomIdle`.
/// - Horizontal notches (delta.x, or Shift with delta.y, down = right): on a zoomed photo, pan by
///   `panStep` per notch; at fit, turn one page per burst (notches less than `zoomIdle` apart).
/// - Precise deltas without Ctrl: a continuous pan of `panStep` per unit, the photo following
///   the fingers; it ends after `preciseIdle` without events, with the velocity that
///   `VelocityTracker` measures on the accumulated scroll position, for momentum.
public struct WheelRecognizer: Hashable, Sendable {
    /// ×1.3 per notch (Loupe `ZOOM_FACTOR_SCROLL_WHEEL`, `src/widgets/image.rs`; docs/physics.md,
    /// "Wheel zoom").
    public static let zoomPerNotch = 1.3
    /// 0.15 s without wheel zoom releases the zoom bounce (Riffle's choice; docs/physics.md,
    /// "Wheel zoom"); also the gap that ends a burst of horizontal notches.
    public static let zoomIdle = 0.150
    /// 60 px per notch: Chromium on X11 scrolls 53 px per wheel notch (`kWheelScrollAmount`);
    /// Riffle rounds it up. Also one Ctrl+arrow key press.
    public static let panStep = 60.0
    /// 0.05 s without smooth-scroll events ends a trackpad pan and starts its momentum
    /// (X has no scroll-stop event; trackpads report every ~10 ms).
    public static let preciseIdle = 0.050

    /// What a scroll event or a timer asks of the viewer.
    public enum Action: Hashable, Sendable {
        /// Zoom by `factor` keeping the point under `anchor` (window pixels) fixed.
        case zoom(factor: Double, anchor: Point)
        /// The wheel zoom gesture is over: bounce back into the limits.
        case endZoom
        /// Pan a zoomed photo by `translation` (window pixels, the photo moves by it).
        case panStep(translation: Point)
        /// Turn `direction` (+1 next, −1 previous) pages.
        case page(direction: Int)
        /// Continuous pan by `delta` (window pixels, the photo moves by it).
        case precisePan(delta: Point)
        /// The continuous pan is over, moving at `velocity` pixels per second.
        case endPrecisePan(velocity: Point)
    }

    private var lastZoom: Double?
    private var lastPageNotch: Double?
    private var lastPrecise: Double?
    private var preciseTranslation = Point.zero
    private var tracker = VelocityTracker()

    /// No gesture in progress.
    public init() {}

    /// The earliest clock time at which `step(to:)` has something to do, or nil.
    public var deadline: Double? {
        let times = [lastZoom.map { $0 + Self.zoomIdle }, lastPrecise.map { $0 + Self.preciseIdle }]
        return times.compactMap { $0 }.min()
    }

    /// One scroll event; `photoIsZoomed` says whether horizontal notches pan or turn pages.
    public mutating func scroll(
        delta: Point, position: Point, modifiers: Modifiers, precise: Bool, time: Double, photoIsZoomed: Bool
    ) -> [Action] {
        var actions: [Action] = []
        let control = modifiers.contains(.control), shift = modifiers.contains(.shift)
        if precise && !control {
            let translation = Point(x: -delta.x * Self.panStep, y: delta.y * Self.panStep)
            if lastPrecise == nil {
                tracker.reset()
                preciseTranslation = .zero
                tracker.add(time: time, position: preciseTranslation)
            }
            preciseTranslation = preciseTranslation + translation
            tracker.add(time: time, position: preciseTranslation)
            lastPrecise = time
            return [.precisePan(delta: translation)]
        }
        let horizontal = delta.x + (shift && !control ? -delta.y : 0)
        let vertical = shift && !control ? 0 : delta.y
        if vertical != 0 {
            lastZoom = time
            actions.append(.zoom(factor: Double.pow(Self.zoomPerNotch, vertical), anchor: position))
        }
        if horizontal != 0 {
            if photoIsZoomed {
                actions.append(.panStep(translation: Point(x: -horizontal * Self.panStep, y: 0)))
            } else if lastPageNotch.map({ time - $0 >= Self.zoomIdle }) ?? true {
                actions.append(.page(direction: horizontal > 0 ? 1 : -1))
            }
            lastPageNotch = time
        }
        return actions
    }

    /// Fires the idle timers due by `t`.
    public mutating func step(to t: Double) -> [Action] {
        var actions: [Action] = []
        if let last = lastZoom, t >= last + Self.zoomIdle {
            lastZoom = nil
            actions.append(.endZoom)
        }
        if let last = lastPrecise, t >= last + Self.preciseIdle {
            lastPrecise = nil
            actions.append(.endPrecisePan(velocity: tracker.velocity(at: last)))
        }
        return actions
    }
}
