/// UIScrollView's rubber band: how far content follows a finger dragged past an edge.
///
/// b(x) = (1 − 1 / (x·c/d + 1)) · d for an excess x ≥ 0 beyond the edge, with c = 0.55 and d the
/// viewport's size along the axis. b(0) = 0, b'(0) = c, b is increasing and b(x) < d for every x:
/// the content never moves further than one viewport past its edge. Negative excesses are
/// mirrored: b(−x) = −b(x). An empty viewport (d ≤ 0) does not stretch at all.
public enum RubberBand {
    /// c = 0.55: UIScrollView's rubber-band coefficient, a community measurement (Grant Paul's
    /// formula, republished at https://gist.github.com/originell/6961057; docs/physics.md,
    /// "Rubber band").
    public static let coefficient = 0.55

    /// The displayed excess b(x) for a raw (finger) excess `x` past the edge, pixels.
    public static func stretched(_ excess: Double, dimension: Double, coefficient: Double = coefficient) -> Double {
        guard dimension > 0 else { return 0 }
        let x = abs(excess)
        let b = (1 - 1 / (x * coefficient / dimension + 1)) * dimension
        return excess < 0 ? -b : b
    }

    /// The inverse of `stretched`: x = (d/c) · b / (d − b) for a displayed excess |b| < d;
    /// ±infinity at or beyond d (no finger distance stretches that far). 0 for d ≤ 0.
    public static func unstretched(_ displayedExcess: Double, dimension: Double, coefficient: Double = coefficient) -> Double {
        guard dimension > 0 else { return 0 }
        let b = abs(displayedExcess)
        let x = b < dimension ? dimension / coefficient * b / (dimension - b) : Double.infinity
        return displayedExcess < 0 ? -x : x
    }

    /// The displayed offset for a raw `offset` that may lie outside `bounds`: unchanged inside,
    /// `upperBound + b(offset − upperBound)` above, `lowerBound − b(lowerBound − offset)` below.
    public static func clamp(_ offset: Double, bounds: ClosedRange<Double>, dimension: Double) -> Double {
        if offset > bounds.upperBound {
            return bounds.upperBound + stretched(offset - bounds.upperBound, dimension: dimension)
        }
        if offset < bounds.lowerBound {
            return bounds.lowerBound - stretched(bounds.lowerBound - offset, dimension: dimension)
        }
        return offset
    }

    /// The inverse of `clamp`: the raw offset that displays as `displayed`. Use it when a drag
    /// begins on an already stretched scroll, so the finger picks the content up where it is.
    public static func unclamp(_ displayed: Double, bounds: ClosedRange<Double>, dimension: Double) -> Double {
        if displayed > bounds.upperBound {
            return bounds.upperBound + unstretched(displayed - bounds.upperBound, dimension: dimension)
        }
        if displayed < bounds.lowerBound {
            return bounds.lowerBound - unstretched(bounds.lowerBound - displayed, dimension: dimension)
        }
        return displayed
    }
}
