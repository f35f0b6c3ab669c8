import Foundation
import RiffleImageIO
import RiffleRaster
import Testing

/// Screenshot comparison against committed golden PNGs.
///
/// Tolerance: 3 per channel. The goldens are recorded with the fast path; the reference path
/// differs from it by at most 2 (the fixed-point weights, see the raster tests), and one more
/// step absorbs libjpeg-turbo's IDCT rounding between builds with and without SIMD.
/// Set `RIFFLE_RECORD_GOLDENS=1` to (re)write the goldens from the current output; on a failure
/// the actual frame and a difference picture are written to `Tests/Failures/`.
enum GoldenImage {
    static let tolerance = 3
    static var recording: Bool { ProcessInfo.processInfo.environment["RIFFLE_RECORD_GOLDENS"] == "1" }

    static func check(_ actual: PixelBuffer, golden name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = TestPaths.goldens.appendingPathComponent(name + ".png")
        if recording {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try PNGEncoder.write(actual, toPath: url.path)
            return
        }
        guard FileManager.default.fileExists(atPath: url.path) else {
            Issue.record("no golden \(url.lastPathComponent); run the tests with RIFFLE_RECORD_GOLDENS=1 to record it", sourceLocation: sourceLocation)
            return
        }
        let golden = try ImageDecoder.decodeFile(atPath: url.path).pixels
        guard golden.size == actual.size else {
            Issue.record("\(name): size \(actual.size), golden \(golden.size)", sourceLocation: sourceLocation)
            try writeFailure(actual, nil, name: name)
            return
        }
        let diff = ImageDifference(actual, golden, tolerance: tolerance)
        if diff.pixelsOverTolerance > 0 {
            try writeFailure(actual, diff.visualization, name: name)
            Issue.record(
                "\(name): \(diff.pixelsOverTolerance) pixels differ by more than \(tolerance) (worst \(diff.maxChannel)); see Tests/Failures/",
                sourceLocation: sourceLocation)
        }
    }

    private static func writeFailure(_ actual: PixelBuffer, _ diff: PixelBuffer?, name: String) throws {
        let base = TestPaths.failures.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: base.deletingLastPathComponent(), withIntermediateDirectories: true)
        try PNGEncoder.write(actual, toPath: base.path + ".actual.png")
        if let diff { try PNGEncoder.write(diff, toPath: base.path + ".diff.png") }
    }
}
