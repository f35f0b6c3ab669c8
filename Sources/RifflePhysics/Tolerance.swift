/// How close a simulation must come to rest before it counts as done (Flutter's `Tolerance`).
///
/// `distance` is in the simulation's position unit (pixels for scrolling, scale units for zoom);
/// `velocity` is in that unit per second. Both are magnitudes (≥ 0).
public struct Tolerance: Hashable, Sendable {
    /// Largest |position − target| that counts as "there".
    public var distance: Double
    /// Largest |velocity| that counts as "at rest".
    public var velocity: Double

    /// A tolerance of `distance` units and `velocity` units per second.
    public init(distance: Double, velocity: Double) {
        self.distance = distance
        self.velocity = velocity
    }

    /// Flutter's `Tolerance.defaultTolerance`: 1e-3 in every unit; for unit-free simulations.
    public static let standard = Tolerance(distance: 1e-3, velocity: 1e-3)

    /// Scrolling in device pixels: within half a pixel, slower than 20 px/s.
    // 0.5 px: a rest within half a device pixel rounds to the final pixel (Riffle's settling goal).
    // 20 px/s: Flutter `ScrollPhysics.toleranceFor`, velocity 1 / (0.050 · devicePixelRatio),
    // i.e. less than one device pixel per 50 ms; Riffle works in device pixels (ratio 1).
    public static let pixels = Tolerance(distance: 0.5, velocity: 20)

    /// Opacity (0…1): within half an 8-bit level, slower than one level per 50 ms.
    // The `pixels` tolerance measured in 8-bit levels instead of device pixels: a rest within half
    // a level rounds to the final level; 20 levels per second is one level per 50 ms.
    public static let opacity = Tolerance(distance: 0.5 / 255, velocity: 20.0 / 255)

    /// Zoom scale (unit-free multiplier): within 0.1 % of the scale, slower than 0.01 per second.
    // 1e-3: 0.1 % of a 1000 px image is one pixel, the same visual bar as `pixels`.
    // 1e-2 /s: at 60 Hz a step of 1.7e-4 per frame, a fifth of a pixel on that image.
    public static let zoomScale = Tolerance(distance: 1e-3, velocity: 1e-2)
}
