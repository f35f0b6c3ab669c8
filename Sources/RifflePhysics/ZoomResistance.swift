import RealModule

/// How a zoom scale pushed past its limits is displayed: Loupe's power-law resistance.
///
/// Above `maximum`: z' = max · (z/max)^0.3, never more than 2·max. Below `minimum`:
/// z' = min · (z/min)^0.3, never less than min/2. Inside [min, max]: z' = z. Continuous at both
/// limits, non-decreasing everywhere and strictly increasing short of the caps.
public struct ZoomResistance: Hashable, Sendable {
    /// Loupe's exponent 0.3 (`RUBBERBANDING_EXPONENT`, `src/widgets/image.rs`; docs/physics.md,
    /// "Over-zoom resistance"): ten times the raw over-zoom
    /// shows as 10^0.3 ≈ 2x.
    public static let exponent = 0.3
    /// Loupe: the displayed scale goes at most 2x past either bound (`ZOOM_FACTOR_MAX_RUBBERBAND`,
    /// `src/widgets/image.rs`, applied in `src/widgets/image/zoom.rs`): at most 2x larger than the
    /// maximum, at most 2x smaller than the minimum.
    public static let limitFactor = 2.0

    /// The smallest resting scale (> 0).
    public let minimum: Double
    /// The largest resting scale (≥ minimum).
    public let maximum: Double

    /// Resistance for the resting range [minimum, maximum]; requires 0 < minimum ≤ maximum.
    public init(minimum: Double, maximum: Double) {
        precondition(minimum > 0 && minimum <= maximum, "zoom limits need 0 < minimum <= maximum")
        self.minimum = minimum
        self.maximum = maximum
    }

    /// The displayed scale for a raw scale `z` (> 0): see the type's formula.
    public func displayed(forRaw z: Double) -> Double {
        if z > maximum {
            return min(maximum * Double.pow(z / maximum, Self.exponent), Self.limitFactor * maximum)
        }
        if z < minimum {
            guard z > 0 else { return minimum / Self.limitFactor }
            return max(minimum * Double.pow(z / minimum, Self.exponent), minimum / Self.limitFactor)
        }
        return z
    }

    /// The raw scale that displays as `d`: bound · (d/bound)^(1/0.3) past a limit. At or past a
    /// cap (2·max, min/2) it answers the raw scale where the cap begins (max·2^(1/0.3) ≈ 10.1·max,
    /// min/10.1), so that a gesture resumed there continues without a jump.
    public func raw(forDisplayed d: Double) -> Double {
        let inverse = 1 / Self.exponent
        if d > maximum {
            return maximum * Double.pow(min(d, Self.limitFactor * maximum) / maximum, inverse)
        }
        if d < minimum {
            return minimum * Double.pow(max(d, minimum / Self.limitFactor) / minimum, inverse)
        }
        return d
    }
}
