import Foundation
import RiffleApp
import RiffleGeometry
import RiffleImageIO
import RifflePipeline
import RiffleRaster

/// The still formats: for each, a 24-megapixel photo (`SyntheticPhoto`, made once by the
/// format's own encoder) decoded at the size a 1920×1080 window shows it (the viewer's fit
/// decode: `ImageDecoder.decodeFile(atPath:shrunkTo:)` to `PhotoDecoding.shownSize`) beside the
/// library's full decode of the same file in this process; then a 12-megapixel HEIC beside a
/// 12-megapixel JPEG of the same picture, time to the sharp fit picture, and their ratio
/// (target: at most 1.5×). A format whose encoder is not installed is skipped with a line saying
/// so. Nothing is asserted.
enum StillsBenchmark {
    /// Name, file extension, and the command that writes `output` from the PNG `input`.
    static let encoders: [(name: String, ext: String, command: @Sendable (String, String) -> [String])] = [
        ("TIFF (LZW strips)", "tif", { ["convert", $0, "-compress", "lzw", $1] }),
        ("TIFF (tiles)", "tif", { ["convert", $0, "-define", "tiff:tile-geometry=256x256", $1] }),
        // x265's and aom's fastest settings: the encode is setup, not the figure.
        ("HEIC", "heic", { ["heif-enc", "-q", "85", "-p", "preset=ultrafast", "-o", $1, $0] }),
        ("AVIF", "avif", { ["heif-enc", "-A", "-q", "85", "-p", "speed=9", "-o", $1, $0] }),
        ("JPEG XL", "jxl", { ["cjxl", $0, $1, "-d", "1", "-e", "3"] }),
    ]

    static func run(workspace: URL) throws {
        let window = PixelSize(width: 1920, height: 1080)
        print("stills: 24 MP photos at fit in a \(window.width)x\(window.height) window beside the library's full decode")
        let photo = SyntheticPhoto.make(width: 6000, height: 4000)
        let source = workspace.appendingPathComponent("stills-24mp.png").path
        if !FileManager.default.fileExists(atPath: source) { try PNGEncoder.write(photo, toPath: source) }
        for encoder in encoders {
            let file = workspace.appendingPathComponent("stills-24mp-\(encoder.name.filter { $0.isLetter }).\(encoder.ext)").path
            guard encode(encoder.command(source, file), output: file) else {
                print("  \(encoder.name): skipped (\(encoder.command(source, file)[0]) is not installed or failed)")
                continue
            }
            report(encoder.name, file: file, window: window)
        }

        print("stills: 12 MP HEIC beside 12 MP JPEG, time to the sharp fit picture (target: HEIC at most 1.5x the JPEG)")
        let twelve = SyntheticPhoto.make(width: 4000, height: 3000, variant: 1)
        let jpeg = workspace.appendingPathComponent("stills-12mp.jpg").path
        let png = workspace.appendingPathComponent("stills-12mp.png").path
        let heic = workspace.appendingPathComponent("stills-12mp.heic").path
        try SyntheticPhoto.cameraFile(twelve, quality: 90, toPath: jpeg)
        if !FileManager.default.fileExists(atPath: png) { try PNGEncoder.write(twelve, toPath: png) }
        guard encode(["heif-enc", "-q", "85", "-p", "preset=ultrafast", "-o", heic, png], output: heic) else {
            print("  skipped: heif-enc is not installed")
            return
        }
        let jpegFit = fitSeconds(jpeg, window: window), heicFit = fitSeconds(heic, window: window)
        print("  JPEG \(ms(jpegFit)), HEIC \(ms(heicFit)); HEIC/JPEG \(ratio(heicFit, jpegFit))")
    }

    /// Runs `command` unless `output` exists already (a kept workspace); true when it exists after.
    private static func encode(_ command: [String], output: String) -> Bool {
        if FileManager.default.fileExists(atPath: output) { return true }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0 && FileManager.default.fileExists(atPath: output)
    }

    /// The median time of the viewer's fit decode of `path` for `window`.
    private static func fitSeconds(_ path: String, window: PixelSize) -> Double {
        Stopwatch.median(minimumRuns: 3, minimumSeconds: 0) {
            _ = try! ImageDecoder.decodeFile(atPath: path, shrunkTo: { PhotoDecoding.shownSize(of: $0.uprightSize, in: window) })
        }
    }

    private static func report(_ name: String, file: String, window: PixelSize) {
        let full = Stopwatch.median(minimumRuns: 3, minimumSeconds: 0) { _ = try! ImageDecoder.decodeFile(atPath: file) }
        let fit = fitSeconds(file, window: window)
        let kib = ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0) / 1024
        print("  \(name) (\(kib) KiB): full decode \(ms(full)); fit \(ms(fit)); fit/full \(ratio(fit, full))")
    }
}
