import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

/// Fixtures of the still formats made at test time by each format's own encoder (ImageMagick's
/// `convert` and libtiff's `tiffcp` for TIFF, libheif's `heif-enc` for HEIC and AVIF, libjxl's
/// `cjxl`), and reference decodes by the format's own tools (`heif-convert`, `djxl`, ImageMagick)
/// to PNG, which Riffle's PNG decoder (exact, see `PNGDecodeTests`) reads back. A test whose
/// tool is missing is skipped with a reason the test output shows (`needing`), except in CI,
/// where the Makefile's TEST_PACKAGES has installed every tool and a missing one fails.
enum StillFixtures {
    /// A folder of this process's own for the files made, removed when the process exits.
    static let folder: String = {
        try? FileManager.default.createDirectory(atPath: madeFolder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: StillFixtures.madeFolder) }
        return madeFolder
    }()

    private static let madeFolder = NSTemporaryDirectory() + "riffle-stills-\(getpid())"

    /// A new path in `folder` for a file called `name`, another at each call: tests run at
    /// once, and the cases of one parametrised test make files of the same name (one case's
    /// `cjxl` writing a file the other's was reading gave "The file is empty").
    static func path(_ name: String) -> String {
        folder + "/" + UUID().uuidString.prefix(8) + "-" + name
    }

    /// True when every one of `tools` is on the PATH.
    static func available(_ tools: String...) -> Bool { missing(tools).isEmpty }

    /// Those of `tools` not on the PATH.
    static func missing(_ tools: [String]) -> [String] {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return tools.filter { tool in
            !path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
        }
    }

    /// True in CI (the environment variable `CI` set, to any value, as `.ci/run` sets it).
    static var inCI: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    /// The trait of a test that needs `tools` (and `files`): off CI it runs when they are all
    /// there, else it is skipped and the test output says which are missing; in CI it always
    /// runs, so a missing one fails it (`run` names the tool), since CI installs them all.
    static func needing(_ tools: String..., files: [String] = []) -> ConditionTrait {
        let absent = missing(tools) + files.filter { !FileManager.default.fileExists(atPath: $0) }
        return .enabled(
            if: inCI || absent.isEmpty,
            "not installed: \(absent.joined(separator: ", ")) (the Makefile's TEST_PACKAGES has them; make test installs them)")
    }

    /// Runs `tool` with `arguments` and waits; throws with its standard error when it fails, or
    /// saying so when it is not installed.
    static func run(_ tool: String, _ arguments: [String]) throws {
        guard available(tool) else {
            throw ImageDecodeError(reason: "\(tool) is not installed (the Makefile's TEST_PACKAGES has it; make test installs it)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ImageDecodeError(reason: "\(tool) \(arguments.joined(separator: " ")) failed: \(text)")
        }
    }

    /// A smooth, colourful picture of `size` (lossy encoders keep it well): red across, green
    /// down, blue along the diagonal, and with `alpha` a transparency ramp across (opaque at
    /// the left, 0 at the right edge's last column but one).
    static func picture(_ size: PixelSize, alpha: Bool = false) -> PixelBuffer {
        let buffer = PixelBuffer(width: size.width, height: size.height)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let r = x * 255 / max(1, size.width - 1), g = y * 255 / max(1, size.height - 1)
                let b = (x + y) * 255 / max(1, size.width + size.height - 2)
                let a = alpha ? 255 - min(255, x * 255 / max(1, size.width - 2)) : 255
                func pre(_ c: Int) -> UInt32 { UInt32((c * a + 127) / 255) }
                buffer[x, y] = UInt32(a) << 24 | pre(r) << 16 | pre(g) << 8 | pre(b)
            }
        }
        return buffer
    }

    /// Writes `picture` as a PNG named `name` and returns its path.
    static func png(_ name: String, _ picture: PixelBuffer) throws -> String {
        let path = path(name)
        try PNGEncoder.write(picture, toPath: path)
        return path
    }

    /// The largest difference of one channel (alpha included) between two pictures of one size;
    /// `Int.max` when their sizes differ.
    static func maxDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        guard a.size == b.size else { return .max }
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y], q = b[x, y]
                for shift in stride(from: 0, through: 24, by: 8) {
                    worst = max(worst, abs(Int((p >> UInt32(shift)) & 0xFF) - Int((q >> UInt32(shift)) & 0xFF)))
                }
            }
        }
        return worst
    }

    /// Where two pictures differ most, for a failure's message: "(x, y): 0xAARRGGBB against
    /// 0xAARRGGBB", or the two sizes.
    static func worstPixel(_ a: PixelBuffer, _ b: PixelBuffer) -> String {
        guard a.size == b.size else { return "sizes \(a.size) and \(b.size)" }
        var worst = (difference: -1, x: 0, y: 0)
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y], q = b[x, y]
                var difference = 0
                for shift: UInt32 in [0, 8, 16, 24] {
                    let one = Int((p >> shift) & 0xFF), other = Int((q >> shift) & 0xFF)
                    difference = max(difference, abs(one - other))
                }
                if difference > worst.difference { worst = (difference, x, y) }
            }
        }
        let hex = { (v: UInt32) in "0x" + String(v, radix: 16, uppercase: true) }
        return "(\(worst.x), \(worst.y)): \(hex(a[worst.x, worst.y])) against \(hex(b[worst.x, worst.y]))"
    }

    /// The picture the reference tool decoded to the PNG at `path`, as Riffle reads PNGs.
    static func reference(_ path: String) throws -> PixelBuffer {
        try ImageDecoder.decodeFile(atPath: path).pixels
    }

    /// `bytes` with the end cut off, as a half-copied file is: the first `fraction` of them.
    static func truncated(_ bytes: [UInt8], to fraction: Double) -> [UInt8] {
        Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
    }

    /// The first `keep` bytes of `bytes` (a signature and a little more), then bytes that
    /// belong to no format, seeded.
    static func garbage(after keep: Int, of bytes: [UInt8], count: Int = 4096) -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let noise = (0..<count).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        return Array(bytes.prefix(keep)) + noise
    }

    /// Writes `bytes` to a file named `name` and returns its path.
    static func write(_ bytes: [UInt8], to name: String) -> String {
        let path = path(name)
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    /// The reason decoding the file at `path` fails with, nil when it decodes.
    static func decodeError(_ path: String) -> String? {
        do {
            _ = try ImageDecoder.decodeFile(atPath: path)
            return nil
        } catch {
            return error.reason
        }
    }

    /// The EXIF details the info panel would show for the file at `path`, through its codec.
    static func details(_ path: String) -> ExifDetails? {
        guard let head = try? FileBytes.read(atPath: path, upTo: ImageCodecs.headBytes),
              let codec = try? ImageCodecs.codec(forHead: head)
        else { return nil }
        return codec.exifDetails(head: head, path: path)
    }
}
