import Foundation
import RiffleRaster

/// Lanczos-3 downscaling straight from the formula, in doubles, with no tables and no shortcuts:
/// the truth `LanczosResampler` is measured against, and the "Lanczos of the full-resolution
/// picture" a decode at fit is compared with.
///
///     sinc(x) = sin(πx)/(πx), sinc(0) = 1
///     L(x)    = sinc(x) · sinc(x/3) for |x| < 3, else 0
///
/// Shrinking m pixels to n, with f = m/n: output pixel i (centre i + 0.5) lies at source position
/// c = (i + 0.5)·f, and each source pixel s in the picture with |s + 0.5 − c| < 3f weighs
/// L((s + 0.5 − c)/f), the weights divided by their sum. Rows across, then columns down, with
/// no rounding between; each channel is then clamped to [0, 255], each colour to at most its
/// alpha, and rounded.
public enum ReferenceLanczos {
    public static func sinc(_ x: Double) -> Double { x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x) }

    public static func kernel(_ x: Double) -> Double { abs(x) < 3 ? sinc(x) * sinc(x / 3) : 0 }

    /// The source pixels output `i` of `n` reads from `m`, and their normalised weights.
    public static func weights(output i: Int, from m: Int, to n: Int) -> [(source: Int, weight: Double)] {
        let f = Double(m) / Double(n)
        let c = (Double(i) + 0.5) * f
        let taps = (0..<m).compactMap { s -> (Int, Double)? in
            let d = Double(s) + 0.5 - c
            return abs(d) < 3 * f ? (s, kernel(d / f)) : nil
        }
        let total = taps.reduce(0) { $0 + $1.1 }
        return taps.map { ($0.0, $0.1 / total) }
    }

    /// `source` shrunk to `width` × `height` (each no larger than the source's).
    public static func resample(_ source: PixelBuffer, toWidth width: Int, height: Int) -> PixelBuffer {
        let sw = source.width, sh = source.height
        let across = (0..<width).map { weights(output: $0, from: sw, to: width) }
        let down = (0..<height).map { weights(output: $0, from: sh, to: height) }
        // Rows across: sh rows of width pixels, 4 channels each, unrounded.
        var rows = [Double](repeating: 0, count: sh * width * 4)
        for y in 0..<sh {
            for x in 0..<width {
                for (s, w) in across[x] {
                    let pixel = source[s, y]
                    for c in 0..<4 { rows[(y * width + x) * 4 + c] += w * Double((pixel >> (8 * UInt32(c))) & 0xFF) }
                }
            }
        }
        let out = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                var channels = [0.0, 0, 0, 0]
                for (s, w) in down[y] {
                    for c in 0..<4 { channels[c] += w * rows[(s * width + x) * 4 + c] }
                }
                let clamped = channels.map { min(255, max(0, $0)) }
                var packed: UInt32 = 0
                for c in 0..<4 {
                    let value = c < 3 ? min(clamped[c], clamped[3]) : clamped[3]
                    packed |= UInt32(value.rounded()) << (8 * UInt32(c))
                }
                out[x, y] = packed
            }
        }
        return out
    }
}
