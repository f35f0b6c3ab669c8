import RiffleGeometry
import RifflePhysics

/// The zoom limits and pan bounds of one photo in one viewport (Apple's PhotoScroller
/// `ImageScrollView`: min = fit, content centred while smaller than the viewport).
///
/// Scales map image pixels to page pixels. minimum = fit = `AspectFit.scale` (never above 1, so a
/// small photo rests at 1:1); maximum = max(2.5 · fit, 8, fill), fill = min(Vw/Cw, Vh/Ch) the
/// scale at which the whole photo just fills the viewport (above 1 for a photo smaller than it).
/// The offset (page position of the image
/// origin) along an axis of viewport size V and content size C at scale s lies in
/// [V − C·s, 0] when C·s > V, and is exactly (V − C·s)/2 otherwise: a photo smaller than the
/// viewport on an axis stays centred on it.
public struct ZoomBounds: Hashable, Sendable {
    /// The largest resting scale is at least 2.5 × fit, the double-click zoom (Loupe; see
    /// `doubleClickFitMultiple`), so a double-clicked photo never bounces back.
    public static let maximumFitMultiple = 2.5
    /// The largest resting scale is at least 8 (800 %, eight screen pixels per image pixel):
    /// enough to see single pixels of any photo (pixel peeping; Riffle's choice. Loupe allows
    /// 20x; the comparisons with eog and Photos are unverified: docs/physics.md, "Limits"). From
    /// `SamplingFilter.nearestScale` on, pixels are drawn as crisp squares.
    public static let maximumScaleFloor = 8.0
    /// Double-click zooms to 2.5 × fit (Loupe `ZOOM_FACTOR_DOUBLE_TAP`, `src/widgets/image.rs`;
    /// PhotoSwipe instead uses min(1, 3 × fit): docs/physics.md, "Double-click zoom"), capped at
    /// `maximum`.
    public static let doubleClickFitMultiple = 2.5
    // Relative slack under which a scale counts as fit: rounding in the homothety interpolation
    // is near 1e-15 relative; 1e-9 of a 10 000 px photo is 1e-5 px.
    private static let fitTolerance = 1e-9
    // An offset within this of the centred or clamped value counts as resting there, pixels.
    private static let offsetTolerance = 1e-6

    /// The photo's full-resolution upright size, pixels (positive).
    public let content: Size
    /// The page (viewport) size, pixels.
    public let viewport: Size

    /// Bounds for `content` shown in `viewport`; an empty content size stands for a viewport-sized
    /// photo (size not yet known).
    public init(content: Size, viewport: Size) {
        self.content = content.isEmpty ? viewport : content
        self.viewport = viewport
    }

    /// fit = min(Vw/Cw, Vh/Ch, 1).
    public var fit: Double { AspectFit.scale(content: content, viewport: viewport) }
    /// The smallest resting scale: fit.
    public var minimum: Double { fit }
    /// The scale at which the photo just fills the viewport, min(Vw/Cw, Vh/Ch): fit without
    /// fit's cap at 1.
    public var fill: Double { min(viewport.width / content.width, viewport.height / content.height) }
    /// The largest resting scale: max(2.5 · fit, 8, fill), so a 40×30 icon can be zoomed until it
    /// fills the window.
    public var maximum: Double { max(Self.maximumFitMultiple * fit, Self.maximumScaleFloor, fill) }
    /// The double-click target: min(2.5 · fit, maximum).
    public var doubleClickScale: Double { min(Self.doubleClickFitMultiple * fit, maximum) }
    /// Loupe's power-law resistance past [minimum, maximum].
    public var resistance: ZoomResistance { ZoomResistance(minimum: minimum, maximum: maximum) }

    /// The resting offsets along `axis` at `scale`: [V − C·s, 0], or the single centred value.
    public func offsetRange(_ axis: Axis, scale: Double) -> ClosedRange<Double> {
        let slack = viewport[axis] - content[axis] * scale
        return slack >= 0 ? slack / 2 ... slack / 2 : slack ... 0
    }

    /// `offset` moved into `offsetRange` on both axes at `scale`.
    public func clampOffset(_ offset: Point, scale: Double) -> Point {
        let x = offsetRange(.horizontal, scale: scale), y = offsetRange(.vertical, scale: scale)
        return Point(
            x: min(max(offset.x, x.lowerBound), x.upperBound),
            y: min(max(offset.y, y.lowerBound), y.upperBound))
    }

    /// `scale` moved into [minimum, maximum].
    public func clampScale(_ scale: Double) -> Double { min(max(scale, minimum), maximum) }

    /// The transform at fit: scale fit, centred on both axes.
    public var fitTransform: ScaleTranslate {
        ScaleTranslate(scale: fit, offset: clampOffset(.zero, scale: fit))
    }

    /// The transform of the same view with the scale in [minimum, maximum] and the offset in
    /// bounds, keeping the image point under `anchor` (page pixels) fixed as far as bounds allow.
    public func settled(_ transform: ScaleTranslate, anchor: Point) -> ScaleTranslate {
        let scale = clampScale(transform.scale)
        let point = transform.invert(anchor)
        return ScaleTranslate(scale: scale, offset: clampOffset(anchor - point * scale, scale: scale))
    }

    /// True when `transform` is a resting state: scale in [minimum, maximum], offset in bounds.
    public func isResting(_ transform: ScaleTranslate) -> Bool {
        let s = transform.scale
        guard s >= minimum * (1 - Self.fitTolerance), s <= maximum * (1 + Self.fitTolerance) else { return false }
        let clamped = clampOffset(transform.offset, scale: s)
        return (clamped - transform.offset).length <= Self.offsetTolerance
    }

    /// True when `transform` is the fit transform (within rounding).
    public func isAtFit(_ transform: ScaleTranslate) -> Bool {
        abs(transform.scale - fit) <= fit * Self.fitTolerance
            && (transform.offset - fitTransform.offset).length <= Self.offsetTolerance
    }

    /// True when the scale is above fit (beyond rounding): the photo can be panned.
    public func isZoomed(_ transform: ScaleTranslate) -> Bool {
        transform.scale > fit * (1 + Self.fitTolerance)
    }
}
