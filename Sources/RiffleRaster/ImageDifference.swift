/// How far two pictures of the same size are apart, channel by channel: the measure behind every
/// screenshot comparison (goldens, headless vs X11).
public struct ImageDifference: Sendable {
    /// Largest absolute difference of any channel of any pixel (0...255).
    public let maxChannel: Int
    /// Number of pixels with any channel differing by more than the tolerance given.
    public let pixelsOverTolerance: Int
    /// A picture of the differences: black where equal, brighter where further apart
    /// (each channel shows |a − b| scaled ×4), opaque.
    public let visualization: PixelBuffer

    /// Compares `a` and `b` (they must have the same size), counting pixels off by more than
    /// `tolerance` in some channel.
    public init(_ a: PixelBuffer, _ b: PixelBuffer, tolerance: Int) {
        precondition(a.size == b.size, "compared pictures differ in size: \(a.size) vs \(b.size)")
        let out = PixelBuffer(width: a.width, height: a.height)
        var worst = 0, over = 0
        for y in 0..<a.height {
            let ra = a.row(y), rb = b.row(y), ro = out.row(y)
            for x in 0..<a.width {
                var pixelWorst = 0
                var shown: UInt32 = 0xFF00_0000
                for shift: UInt32 in [0, 8, 16, 24] {
                    let d = abs(Int((ra[x] >> shift) & 0xFF) - Int((rb[x] >> shift) & 0xFF))
                    pixelWorst = max(pixelWorst, d)
                    if shift < 24 { shown |= UInt32(min(255, d * 4)) << shift }
                }
                worst = max(worst, pixelWorst)
                if pixelWorst > tolerance { over += 1 }
                ro[x] = shown
            }
        }
        maxChannel = worst
        pixelsOverTolerance = over
        visualization = out
    }
}
