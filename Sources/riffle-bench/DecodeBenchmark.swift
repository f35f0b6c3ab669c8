import CRiffleImaging
import Foundation
import RiffleApp
import RiffleGeometry
import RiffleImageIO
import RifflePipeline
import RiffleRaster

/// Decode time of a 24-megapixel JPEG at full size (libjpeg-turbo alone, the anchor), and through
/// the viewer's whole decode path (streamed from the file, DCT-scaled, shrunk to exactly the
/// shown size) for a 1280×800 window at fit and at a double-click's 2.5× zoom, and a 1920×1080
/// one at fit: Lanczos-3 from at least twice the size (what the viewer does) beside area
/// averaging from the smallest DCT scale that covers it (what it did before), with their ratio;
/// and that fit's DCT-scaled decode alone with libjpeg-turbo's scalar 5×5 and 10×10 IDCTs
/// against Riffle's AVX2 ones (`jpeg_scaled_idct.c`).
enum DecodeBenchmark {
    static func run(jpeg: [UInt8], size: PixelSize) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bench-decode-\(getpid()).jpg").path
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let full = Stopwatch.median(minimumRuns: 3) { _ = try! ImageDecoder.decode(jpeg, atLeast: nil) }
        let small = PixelSize(width: 1280, height: 800), large = PixelSize(width: 1920, height: 1080)
        let shown = PhotoDecoding.shownSize(of: size, in: small)
        let zoomed = PixelSize(
            width: min(size.width, Int((Double(shown.width) * 2.5).rounded(.up))),
            height: min(size.height, Int((Double(shown.height) * 2.5).rounded(.up))))
        print("decode \(size.width)x\(size.height) JPEG (\(jpeg.count / 1024) KiB): full size \(ms(full))")
        let cases = [(small, "fit", shown), (small, "2.5x fit", zoomed), (large, "fit", PhotoDecoding.shownSize(of: size, in: large))]
        let info = try ImageDecoder.probe(jpeg)
        for (window, label, target) in cases {
            var seconds: [DownscaleFilter: Double] = [:]
            var scales: [DownscaleFilter: Int] = [:]
            for filter in [DownscaleFilter.area, .lanczos3] {
                scales[filter] = try ImageDecoder.jpegScaleEighths(
                    for: info, shrunkTo: target, filter: filter, pixelLimit: PhotoDecoding.pixelLimit)
                seconds[filter] = Stopwatch.median(minimumRuns: 5) {
                    _ = try! ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in target }, filter: filter)
                }
            }
            let area = seconds[.area]!, lanczos = seconds[.lanczos3]!
            print("  \(window) window at \(label) (\(target)): area from \(scales[.area]!)/8 \(ms(area)); "
                + "Lanczos-3 from \(scales[.lanczos3]!)/8 \(ms(lanczos)); Lanczos/area \(ratio(lanczos, area))")
        }
        // The 1080p fit on both cores (`JPEGPipelinedDecode`), against one core and against the
        // Huffman pass alone (a region of the last row at 1/8: libjpeg skips every row above it,
        // entropy-decoding them untransformed), the floor without restart markers.
        let target = PhotoDecoding.shownSize(of: size, in: large)
        let oneCore = Stopwatch.median(minimumRuns: 7) { _ = try! ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in target }) }
        let twoCores = Stopwatch.median(minimumRuns: 7) {
            _ = try! ImageDecoder.decodeFile(
                atPath: path, shrunkTo: { _ in target }, secondCore: { Thread.detachNewThread($0) }, until: { false })
        }
        let eighthHeight = (size.height + 7) / 8
        let floor = Stopwatch.median(minimumRuns: 7) {
            _ = try! JPEGRegionDecoder.decode(
                jpeg, region: PixelRect(x: 0, y: eighthHeight - 1, width: 1, height: 1), scaleDenominator: 8)
        }
        let eighths = try ImageDecoder.jpegScaleEighths(for: info, shrunkTo: target, filter: .lanczos3, pixelLimit: PhotoDecoding.pixelLimit)
        let scalarIDCT = Stopwatch.median(minimumRuns: 7) { decodeRows(path, eighths: eighths, vectorIDCT: false) }
        let vectorIDCT = Stopwatch.median(minimumRuns: 7) { decodeRows(path, eighths: eighths, vectorIDCT: true) }
        let decoded = ImageDecoder.scaledSize(info.storedSize, eighths: eighths)
        let swiftLanczos = lanczosAlone(from: decoded, to: target, kernels: .reference)
        let fastLanczos = lanczosAlone(from: decoded, to: target, kernels: .fastest)
        print("  its \(eighths)/8 decode alone, one core: libjpeg's scalar IDCTs \(ms(scalarIDCT)), "
            + (rfi_jpeg_vector_idct_available() != 0 ? "Riffle's AVX2 IDCTs \(ms(vectorIDCT)) (\(ratio(vectorIDCT, scalarIDCT)))" : "no AVX2 here")
            + "; its Lanczos-3 alone: Swift loops \(ms(swiftLanczos)), "
            + (rfi_lanczos_avx2_available() != 0 ? "AVX2 loops \(ms(fastLanczos)) (\(ratio(fastLanczos, swiftLanczos)))" : "no AVX2 here"))
        print("  1920x1080 window at fit on two cores: \(ms(twoCores)), one core \(ms(oneCore)) (\(ratio(twoCores, oneCore))); "
            + "the Huffman pass alone \(ms(floor)), two cores / floor \(ratio(twoCores, floor))")
    }

    /// The median time of `LanczosResampler` with `kernels` shrinking a `source`-sized picture
    /// (photo-like rows, 16 of them pushed over and over) to `target`, on one core.
    static func lanczosAlone(from source: PixelSize, to target: PixelSize, kernels: LanczosKernels) -> Double {
        let rows = SyntheticPhoto.make(width: source.width, height: 16, variant: 7)
        return Stopwatch.median(minimumRuns: 7) {
            var resampler = LanczosResampler(from: source, to: target, kernels: kernels)
            for y in 0..<source.height { resampler.push(rows.row(y % rows.height)) }
        }
    }

    /// The JPEG at `path` decoded at `eighths`/8 into a row buffer, rows discarded.
    static func decodeRows(_ path: String, eighths: Int, vectorIDCT: Bool) {
        let reader = try! JPEGRowReader(path: path, vectorIDCT: vectorIDCT)
        let size = try! reader.start(eighths: eighths, pixelLimit: PhotoDecoding.pixelLimit)
        let rows = UnsafeMutablePointer<UInt32>.allocate(capacity: size.width * 16)
        defer { rows.deallocate() }
        while try! reader.read(into: rows, rowPixels: size.width, maxRows: 16) > 0 {}
        _ = reader.finish()
    }
}
