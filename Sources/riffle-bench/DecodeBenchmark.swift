import RiffleApp
import RiffleGeometry
import RiffleImageIO
import RiffleRaster

/// Decode time of a 24-megapixel JPEG at full size and at the DCT-scaled size the viewer uses
/// for a 1280×800 window, with the whole viewer decode path (probe, DCT scale, box shrink).
enum DecodeBenchmark {
    static func run(jpeg: [UInt8], size: PixelSize) {
        let full = Stopwatch.median(minimumRuns: 3) { _ = try! ImageDecoder.decode(jpeg, atLeast: nil) }
        let window = PixelSize(width: 1280, height: 800)
        let shown = PhotoDecoding.shownSize(of: size, in: window)
        var scaledSize = PixelSize.zero
        let scaled = Stopwatch.median(minimumRuns: 3) {
            scaledSize = try! ImageDecoder.decode(jpeg, atLeast: shown).pixels.size
        }
        print("decode \(size.width)x\(size.height) JPEG (\(jpeg.count / 1024) KiB):")
        print("  full size \(ms(full)); for a 1280x800 window (shown \(shown), decoded \(scaledSize)) \(ms(scaled)); full/scaled \(ratio(full, scaled))")
    }
}
