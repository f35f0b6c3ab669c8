import RealModule

/// How fast a fling slows down: the fraction of velocity kept per millisecond (UIScrollView's
/// `decelerationRate`).
///
/// v(t) = v0 · r^(1000·t) = v0 · e^(−k·t) with the decay constant k = −1000 · ln r per second.
public struct DecelerationRate: Hashable, Sendable {
    /// r: velocity kept after one millisecond, 0 < r < 1.
    public let perMillisecond: Double

    /// A rate keeping `perMillisecond` of the velocity each millisecond; requires 0 < r < 1.
    public init(perMillisecond: Double) {
        precondition(perMillisecond > 0 && perMillisecond < 1, "deceleration rate must lie in (0, 1)")
        self.perMillisecond = perMillisecond
    }

    /// UIScrollView `.normal`: 0.998 per ms (Apple's constant name,
    /// https://developer.apple.com/documentation/uikit/uiscrollview/decelerationrate-swift.struct;
    /// the value a community measurement, docs/physics.md, "Deceleration"). Paging and ordinary
    /// scrolling.
    public static let normal = DecelerationRate(perMillisecond: 0.998)

    /// UIScrollView `.fast`: 0.99 per ms (community measurement; docs/physics.md, "Deceleration").
    /// Apple's PhotoScroller sets it on the zoom view (`ImageScrollView.m`).
    public static let fast = DecelerationRate(perMillisecond: 0.99)

    /// r^1000: velocity kept after one second (0.135 for `.normal`, Flutter's fling drag).
    public var perSecond: Double { Double.pow(perMillisecond, 1000) }

    /// k = −1000 · ln r, in 1/s (2.002 for `.normal`, 10.05 for `.fast`); v(t) = v0 · e^(−k·t).
    public var decayConstant: Double { -1000 * Double.log(perMillisecond) }

    /// 1/k, in seconds: the distance to rest per unit of initial velocity, ∫₀^∞ e^(−k·t) dt.
    ///
    /// 0.4995 s for `.normal`, 0.0995 s for `.fast`. The projection r/(1 − r)/1000 (0.499 s,
    /// 0.099 s; PhotoSwipe's `project()` in `src/js/gestures/drag-handler.js`) is the discrete
    /// per-millisecond sum of the same decay; Riffle uses the continuous integral everywhere so
    /// that position is exactly the integral of velocity (docs/physics.md, "Deceleration").
    public var distancePerVelocity: Double { 1 / decayConstant }
}
