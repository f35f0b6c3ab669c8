import RiffleRaster

/// A `w`×`h` picture of random premultiplied pixels from `rng` (each colour channel at most its
/// alpha; alpha 255 when `opaque`): noise, whose resampling overshoots most.
public func randomImage(_ w: Int, _ h: Int, opaque: Bool, using rng: inout SeededGenerator) -> PixelBuffer {
    let b = PixelBuffer(width: w, height: h)
    for y in 0..<h {
        for x in 0..<w {
            let a = opaque ? 255 : UInt32.random(in: 0...255, using: &rng)
            func c() -> UInt32 { UInt32.random(in: 0...a, using: &rng) }
            b[x, y] = a << 24 | c() << 16 | c() << 8 | c()
        }
    }
    return b
}
