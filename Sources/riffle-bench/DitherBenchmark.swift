import Foundation
import RiffleImageIO
import RiffleRaster

/// What dithering adds to the reduction of deep samples to 8 bits: a 24-megapixel (6000×4000)
/// picture of 16-bit R, G, B, A samples (a smooth ramp with a little texture, as a 16-bit scan
/// or a developed RAW holds) reduced to BGRA by the shim's `rfi_reduce_rgba16` as the 16-bit
/// PNG, HEIF and JPEG XL decoders run it (colour ordered-dithered, `DeepSamples`), beside the
/// same pass rounding (the reduction before dithering). The samples come from a band of 16 rows
/// reused down the picture (a decoder's rows arrive a band at a time); the 8-bit result is the
/// whole picture.
enum DitherBenchmark {
    static func run(width: Int, height: Int) {
        let bandRows = 16
        var band = [UInt8](repeating: 0, count: width * bandRows * 8)
        for y in 0..<bandRows {
            for x in 0..<width {
                let ramp = x * 65535 / max(1, width - 1), texture = (x * 7919 + y * 104_729) % 512
                for (c, v) in [ramp, 65535 - ramp, (ramp + texture) % 65536, 65535].enumerated() {
                    band[(y * width + x) * 8 + 2 * c] = UInt8(v & 0xFF)
                    band[(y * width + x) * 8 + 2 * c + 1] = UInt8(v >> 8)
                }
            }
        }
        let picture = PixelBuffer(width: width, height: height)
        func reduce(dithered: Bool) {
            band.withUnsafeBufferPointer { samples in
                for y in 0..<height {
                    DeepSamples.reduce(
                        samples.baseAddress! + (y % bandRows) * width * 8, into: picture.row(y), count: width, bits: 16, y: y,
                        dithered: dithered)
                }
            }
        }
        let rounded = Stopwatch.median(minimumRuns: 5) { reduce(dithered: false) }
        let dithered = Stopwatch.median(minimumRuns: 5) { reduce(dithered: true) }
        print("dither: \(width)x\(height) 16-bit RGBA samples reduced to 8-bit BGRA:")
        print("  rounded \(ms(rounded)); ordered dither (8x8 Bayer) \(ms(dithered)), \(ratio(dithered, rounded)) of rounding")
    }
}
