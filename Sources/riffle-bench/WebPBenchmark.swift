import Foundation
import RiffleApp
import RiffleGeometry
import RiffleImageIO
import RifflePipeline
import RiffleRaster

/// Decode time of a 24-megapixel WebP (made by libwebp's `cwebp -q 90` from the synthetic
/// photo) at full size through libwebp alone (the anchor: what `dwebp` does, in process), and
/// through the viewer's decode for a 1920×1080 window at fit: libwebp rescaling to twice the size
/// shown as it decodes, then Lanczos-3 (what the viewer does), beside libwebp rescaling straight
/// to the size shown (area averaging) and the full decode shrunk by Lanczos-3 (what a format
/// decoded whole gets), each with its ratio to the full decode.
enum WebPBenchmark {
    static func run(photo: PixelBuffer) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-bench-webp-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("photo.png").path, path = folder.appendingPathComponent("photo.webp").path
        try PNGEncoder.write(photo, toPath: png)
        let encoder = Process()
        encoder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        encoder.arguments = ["cwebp", "-quiet", "-q", "90", png, "-o", path]
        try encoder.run()
        encoder.waitUntilExit()
        guard encoder.terminationStatus == 0 else {
            print("webp: cwebp (Debian's webp package) could not make the WebP; skipped")
            return
        }
        let bytes = try FileBytes.read(atPath: path)
        let size = photo.size
        let full = Stopwatch.median(minimumRuns: 3) { _ = try! ImageDecoder.decode(bytes) }
        let shown = PhotoDecoding.shownSize(of: size, in: PixelSize(width: 1920, height: 1080))
        let fit = Stopwatch.median(minimumRuns: 5) { _ = try! ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in shown }) }
        let area = Stopwatch.median(minimumRuns: 5) {
            _ = try! ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in shown }, filter: .area)
        }
        let whole = Stopwatch.median(minimumRuns: 3) {
            _ = DownscaleFilter.lanczos3.shrink(try! ImageDecoder.decode(bytes).pixels, to: shown)
        }
        print("decode \(size.width)x\(size.height) WebP (\(bytes.count / 1024) KiB, cwebp -q 90): libwebp at full size \(ms(full))")
        print("  1920x1080 window at fit (\(shown)): libwebp to 2x then Lanczos-3 \(ms(fit)) (\(ratio(fit, full)) of full); "
            + "libwebp straight to the size \(ms(area)) (\(ratio(area, full))); full size then Lanczos-3 \(ms(whole)) (\(ratio(whole, full)))")
    }
}
