/// How an image's pixels are interpolated between their centres when drawn (see the pixel-centre
/// convention in `ReferenceBilinear.swift`: a destination centre maps to the source position
/// x0 + f, between the centres of source pixels x0 and x0 + 1).
public enum SamplingFilter: Sendable, Hashable {
    /// Bilinear: the second pixel weighs f.
    case bilinear
    /// Nearest neighbour: the pixel whose centre is nearer, the second one from f = 1/2 on, so
    /// each source pixel is drawn as a crisp square.
    case nearest

    /// 3: from three screen pixels per image pixel on, images are drawn nearest-neighbour.
    /// Bilinear draws an image pixel that large as a soft ramp as wide as the pixel itself, which
    /// hides exactly what a person zooms that far to see; below it, nearest would make edges
    /// stair-step visibly (eog and Loupe switch to crisp pixels when zoomed in; the figure is
    /// Riffle's choice).
    public static let nearestScale = 3.0

    /// The filter for an image's own pixels drawn at `scaleX` × `scaleY` destination pixels per
    /// source pixel: nearest when both are at least `nearestScale`. (The compositor draws reduced
    /// copies, such as previews, bilinear at any scale.)
    public static func forScale(x scaleX: Double, y scaleY: Double) -> SamplingFilter {
        min(scaleX, scaleY) >= nearestScale ? .nearest : .bilinear
    }

    /// The weight of the second pixel for a position a fraction `f` (0 ≤ f < 1) of the way from
    /// the first pixel's centre to the second's.
    @inline(__always)
    func secondWeight(_ f: Double) -> Double {
        switch self {
        case .bilinear: f
        case .nearest: f < 0.5 ? 0 : 1
        }
    }
}
