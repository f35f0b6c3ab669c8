import RiffleGeometry

/// Whether a pinch or a burst of wheel zoom that shrank a photo below fit closes it (PhotoSwipe's
/// pinch-to-close, with Riffle's margin below fit): one value per gesture, fed the displayed
/// scale as it changes. docs/physics.md, "Zoom out to dismiss".
///
/// The gesture closes the photo when it began at fit (not zoomed in), never went more than
/// 1/15 above fit, and ended with the photo shown below 0.7 × fit. Otherwise (ending between
/// 0.7 × fit and fit, or having zoomed in first) the zoom bounces back into its limits as before.
/// Scales are the displayed ones (after `ZoomResistance`), so the rule follows what the person
/// sees: with Loupe's power law, 0.7 × fit shows when the raw scale is 0.7^(1/0.3) ≈ 0.30 × fit.
public struct ZoomOutDismissal: Hashable, Sendable {
    /// 0.7: a zoom gesture ending with the photo below this fraction of fit closes it (Riffle's
    /// choice: PhotoSwipe closes below fit itself; the margin lets a pinch that only nudged the
    /// photo smaller bounce back, as a drag short of the dismiss distance does).
    public static let dismissFitFraction = 0.7
    /// 1/15: a gesture that took the photo more than this fraction above fit was a zoom in, and
    /// never closes (PhotoSwipe `_wasOverFitZoomLevel`, `src/js/gestures/zoom-handler.js`).
    public static let overFitAllowance = 1.0 / 15

    /// The photo's fit scale.
    public let fit: Double
    /// False when the gesture began zoomed in or has gone more than 1/15 above fit.
    public private(set) var canDismiss: Bool

    /// A zoom gesture beginning with the photo shown at `startScale` in `bounds`.
    public init(bounds: ZoomBounds, startScale: Double) {
        fit = bounds.fit
        canDismiss = !bounds.isZoomed(ScaleTranslate(scale: startScale))
        zoomed(to: startScale)
    }

    /// Records the displayed scale after a change of the gesture.
    public mutating func zoomed(to scale: Double) {
        if scale > fit * (1 + Self.overFitAllowance) { canDismiss = false }
    }

    /// True when the gesture, ending with the photo shown at `scale`, closes it.
    public func dismisses(endingAt scale: Double) -> Bool {
        canDismiss && scale < Self.dismissFitFraction * fit
    }
}
