/// The physical constants of a damped spring: mass m, stiffness k, damping c (Flutter's
/// `SpringDescription`).
///
/// The equation of motion for the displacement x from the target is m·x'' + c·x' + k·x = 0.
/// Natural frequency ω = √(k/m); damping ratio ζ = c / (2·√(m·k)): ζ = 1 critically damped,
/// ζ < 1 under-damped (overshoots and rings), ζ > 1 over-damped.
public struct SpringDescription: Hashable, Sendable {
    /// m > 0, in arbitrary mass units (only ratios with k and c matter).
    public let mass: Double
    /// k > 0, force per unit of displacement.
    public let stiffness: Double
    /// c ≥ 0, force per unit of velocity.
    public let damping: Double

    /// A spring of the given mass, stiffness and damping; requires m > 0, k > 0, c ≥ 0.
    public init(mass: Double, stiffness: Double, damping: Double) {
        precondition(mass > 0 && stiffness > 0 && damping >= 0, "spring needs m > 0, k > 0, c >= 0")
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
    }

    /// A spring with damping ratio ζ and natural frequency ω (rad/s): k = m·ω², c = 2·ζ·m·ω.
    public init(dampingRatio: Double, naturalFrequency: Double, mass: Double = 1) {
        self.init(
            mass: mass,
            stiffness: mass * naturalFrequency * naturalFrequency,
            damping: 2 * dampingRatio * mass * naturalFrequency
        )
    }

    /// A critically damped spring (ζ = 1) of natural frequency ω rad/s: the fastest return
    /// without oscillation. From rest at displacement D it follows D·(1 + ω·t)·e^(−ω·t).
    public static func critical(naturalFrequency: Double, mass: Double = 1) -> SpringDescription {
        SpringDescription(dampingRatio: 1, naturalFrequency: naturalFrequency, mass: mass)
    }

    /// ω = √(k/m), in rad/s.
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

    /// ζ = c / (2·√(m·k)).
    public var dampingRatio: Double { damping / (2 * (mass * stiffness).squareRoot()) }

    // PhotoSwipe's page-change spring: damping ratio 1, natural frequency 30 rad/s
    // (`moveIndexBy` in `src/js/main-scroll.js`). Loupe's page spring (m 0.5, k 500, ζ 1,
    // `src/widgets/sliding_view.rs`) has ω = √1000 ≈ 31.6 rad/s, nearly the same. Riffle reuses
    // it for the edge bounce-back (PhotoSwipe's own pan return is softer, its default 12 rad/s).
    // At ω = 30 a release from rest D px away is within 0.5 px after t with
    // (1 + 30t)·e^(−30t) = 0.5/D: 0.34 s for D = 1000 px, 0.39 s for 4000 px.
    // docs/physics.md, "Springs".
    /// Natural frequency of the page-snap and edge bounce-back springs: 30 rad/s (PhotoSwipe's
    /// page spring).
    public static let panNaturalFrequency = 30.0

    // PhotoSwipe springs the zoom back into its limits at 40 rad/s (`correctZoomPan` in
    // `src/js/gestures/zoom-handler.js`; docs/physics.md, "Springs"); critically
    // damped, from a 2x over-zoom (1.0 scale unit away) it is within 0.1 % of the limit after
    // 0.25 s, close to Loupe's 200 ms zoom return.
    /// Natural frequency of the zoom bounce-back spring: 40 rad/s (PhotoSwipe).
    public static let zoomNaturalFrequency = 40.0

    /// Page snapping after a swipe: critically damped, ω = 30 rad/s (PhotoSwipe's page spring;
    /// docs/physics.md, "Springs").
    public static let pageSnap = SpringDescription.critical(naturalFrequency: panNaturalFrequency)

    /// Return from a rubber-banded overscroll to the edge: critically damped, ω = 30 rad/s
    /// (Riffle's choice: the page-snap spring reused; docs/physics.md, "Springs").
    public static let edgeBounce = SpringDescription.critical(naturalFrequency: panNaturalFrequency)

    /// Return of the zoom scale into [min, max] after over- or under-zoom: critically damped,
    /// ω = 40 rad/s (PhotoSwipe's zoom spring; docs/physics.md, "Springs").
    public static let zoomBounce = SpringDescription.critical(naturalFrequency: zoomNaturalFrequency)
}
