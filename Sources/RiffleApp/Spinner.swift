import Glibc
import RiffleGeometry
import RiffleRaster

/// The activity indicator shown on a page whose photo has kept the user waiting: a ring of dots
/// whose brightness runs round, as UIActivityIndicatorView's spokes do.
struct Spinner {
    /// Dots in the ring, the ring's radius and a dot's radius, in pixels.
    static let dots = 8
    static let ringRadius = 14.0
    static let dotRadius = 3.0
    /// One turn of the brightness takes this long, seconds (UIActivityIndicatorView: about 1 s).
    static let period = 0.8
    /// A page shows the spinner only after waiting this long (seconds): a short wait shows
    /// black, not a flicker of spinner.
    static let delay = 0.5

    /// An anti-aliased disc of `dotRadius`: coverage is the share of each pixel inside it
    /// (4×4 supersampling).
    let disc: AlphaMask = {
        let size = Int((Spinner.dotRadius * 2).rounded(.up)) + 2
        var mask = AlphaMask(width: size, height: size)
        let c = Double(size) / 2
        for y in 0..<size {
            for x in 0..<size {
                var inside = 0
                for sy in 0..<4 {
                    for sx in 0..<4 {
                        let dx = Double(x) + (Double(sx) + 0.5) / 4 - c, dy = Double(y) + (Double(sy) + 0.5) / 4 - c
                        if dx * dx + dy * dy <= Spinner.dotRadius * Spinner.dotRadius { inside += 1 }
                    }
                }
                mask[x, y] = UInt8(inside * 255 / 16)
            }
        }
        return mask
    }()

    /// The spinner centred at `center`, `elapsed` seconds into its turn, in `color`.
    func layer(center: Point, elapsed: Double, color: Color) -> Layer {
        let step = Int((elapsed / Self.period * Double(Self.dots)).rounded(.down))
        let half = Double(disc.width) / 2
        return Layer(sublayers: (0..<Self.dots).map { k in
            let angle = Double(k) / Double(Self.dots) * 2 * .pi
            let origin = Point(
                x: (center.x + Self.ringRadius * sin(angle) - half).rounded(),
                y: (center.y - Self.ringRadius * cos(angle) - half).rounded())
            // The lead dot is brightest; the ones behind it fade to a quarter.
            let age = ((step - k) % Self.dots + Self.dots) % Self.dots
            let opacity = 1 - 0.75 * Double(age) / Double(Self.dots - 1)
            return Layer(opacity: opacity, content: .text(disc, origin: origin, color: color))
        })
    }
}
