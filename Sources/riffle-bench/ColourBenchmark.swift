import Foundation
import RiffleApp
import RiffleGeometry
import RiffleImageIO
import RifflePipeline
import RiffleRaster

/// What colour management adds to a decode: a 24-megapixel Display P3 JPEG decoded for a
/// 1920×1080 window at fit (the viewer's decode: DCT-scaled, Lanczos-3 to the shown size), then
/// transformed to sRGB by lcms2 as `ColourManagement` does it, once per decode on the shown
/// pixels; beside the same transform over the whole picture at full size, which is what
/// transforming every decoded row before the resampler would cost.
enum ColourBenchmark {
    static func run(photo: PixelBuffer, jpeg: [UInt8]) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bench-colour-\(getpid()).jpg").path
        let tagged = Array(jpeg[0..<2]) + iccSegments(ColourProfiles.displayP3) + Array(jpeg[2...])
        try Data(tagged).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let size = photo.size
        let shown = PhotoDecoding.shownSize(of: size, in: PixelSize(width: 1920, height: 1080))
        let colour = ColourManagement(displayProfile: nil)
        var decoded: DecodedImage?
        let decode = Stopwatch.median(minimumRuns: 5) {
            decoded = try! ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in shown })
        }
        guard let decoded, let profile = decoded.info.iccProfile else {
            print("colour: the Display P3 profile was not read back from the JPEG")
            return
        }
        let transform = Stopwatch.median(minimumRuns: 9) { colour.convert(decoded.pixels, from: profile, isOpaque: true) }
        let full = Stopwatch.median(minimumRuns: 3) { colour.convert(photo, from: profile, isOpaque: true) }
        print("colour: \(size.width)x\(size.height) Display P3 JPEG for a 1920x1080 window at fit (\(shown.width)x\(shown.height)):")
        print("  decode \(ms(decode)); lcms2 transform to sRGB of the shown pixels \(ms(transform)) "
            + "(\(percent(transform, decode)) of the decode; target at most 15 %)")
        print("  the same transform at full size (every decoded row) \(ms(full)), \(percent(full, decode)) of the decode")
    }

    /// `profile` as one APP2 "ICC_PROFILE" segment (ICC.1:2010 Annex B.4).
    static func iccSegments(_ profile: [UInt8]) -> [UInt8] {
        let data = Array("ICC_PROFILE".utf8) + [0, 1, 1] + profile
        let length = data.count + 2
        return [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + data
    }

    static func percent(_ part: Double, _ whole: Double) -> String {
        String(format: "%.1f %%", 100 * part / whole)
    }
}
