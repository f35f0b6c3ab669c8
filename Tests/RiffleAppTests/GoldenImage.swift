import Foundation
import RiffleImageIO
import RiffleRaster
import Testing

/// Screenshot comparison against committed golden PNGs.
///
/// Tolerance: 3 per channel. The goldens are recorded with the fast path; the reference path
/// differs from it by at most 2 (the fixed-point weights, see the raster tests), and one more
/// step absorbs libjpeg-turbo's IDCT rounding between builds with and without SIMD.
/// Set `RIFFLE_RECORD_GOLDENS=1` to (re)write the goldens from the current output (refused, as
/// a failure, when the `CI` environment variable is set: a CI run must never make its own
/// goldens pass); on a failure the actual frame and a difference picture are written to
/// `Tests/Failures/`.
enum GoldenImage {
    static let tolerance = 3

    /// Whether a run writes goldens or compares with them.
    enum RecordMode: Equatable {
        /// Compare (the default).
        case off
        /// Write every golden checked, and pass.
        case on
        /// Record mode asked for under CI: compare, and fail every check.
        case refused
    }

    /// The record mode `environment` asks for: on with `RIFFLE_RECORD_GOLDENS=1`, refused when
    /// `CI` is also set (to anything: CI services set it to `true` or `1`).
    static func recordMode(environment: [String: String]) -> RecordMode {
        guard environment["RIFFLE_RECORD_GOLDENS"] == "1" else { return .off }
        return environment["CI"] == nil ? .on : .refused
    }

    /// This run's record mode.
    static var mode: RecordMode { recordMode(environment: ProcessInfo.processInfo.environment) }
    /// True when this run writes goldens instead of comparing.
    static var recording: Bool { mode == .on }

    /// Why a frame does not match its golden.
    struct Mismatch {
        let message: String
        /// The difference picture, when the sizes agree.
        let difference: PixelBuffer?
    }

    /// Checks `actual` against the golden `name` (a path under `Goldens/`, without `.png`),
    /// recording an issue at the caller when it does not match; in record mode writes it instead.
    /// `golden` itself: for a test that picks among goldens (a table of window sizes), which
    /// names each through this call, its name a literal, so that `GoldenImageTests` sees it compared.
    static func named(golden: String) -> String { golden }

    static func check(_ actual: PixelBuffer, golden name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        switch mode {
        case .on:
            let url = file(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try PNGEncoder.write(actual, toPath: url.path)
            return
        case .refused:
            Issue.record("RIFFLE_RECORD_GOLDENS=1 under CI: goldens are not recorded here, \(name) is compared instead",
                         sourceLocation: sourceLocation)
        case .off:
            break
        }
        guard let mismatch = try mismatch(actual, golden: name) else { return }
        try writeFailure(actual, mismatch.difference, name: name)
        Issue.record("\(mismatch.message); see Tests/Failures/", sourceLocation: sourceLocation)
    }

    /// How `actual` differs from the golden `name` beyond the tolerance; nil when it matches.
    /// Reads the golden, writes nothing.
    static func mismatch(_ actual: PixelBuffer, golden name: String) throws -> Mismatch? {
        let url = file(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            return Mismatch(message: "no golden \(name).png; run the tests with RIFFLE_RECORD_GOLDENS=1 to record it", difference: nil)
        }
        let golden = try ImageDecoder.decodeFile(atPath: url.path).pixels
        guard golden.size == actual.size else {
            return Mismatch(message: "\(name): size \(actual.size), golden \(golden.size)", difference: nil)
        }
        let diff = ImageDifference(actual, golden, tolerance: tolerance)
        guard diff.pixelsOverTolerance > 0 else { return nil }
        return Mismatch(
            message: "\(name): \(diff.pixelsOverTolerance) pixels differ by more than \(tolerance) (worst \(diff.maxChannel))",
            difference: diff.visualization)
    }

    /// The golden PNG `name` names.
    static func file(_ name: String) -> URL { TestPaths.goldens.appendingPathComponent(name + ".png") }

    private static func writeFailure(_ actual: PixelBuffer, _ diff: PixelBuffer?, name: String) throws {
        let base = TestPaths.failures.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: base.deletingLastPathComponent(), withIntermediateDirectories: true)
        try PNGEncoder.write(actual, toPath: base.path + ".actual.png")
        if let diff { try PNGEncoder.write(diff, toPath: base.path + ".diff.png") }
    }
}
