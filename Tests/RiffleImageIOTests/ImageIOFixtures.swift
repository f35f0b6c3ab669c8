import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster

/// Locates and reads the files in Fixtures/ (made by Fixtures/make_fixtures.py) from this
/// source file's path, never from the working directory, and mirrors their pixel patterns.
enum ImageIOFixtures {
    static let directory: String = {
        let file = #filePath
        let folder = file[..<file.lastIndex(of: "/")!]
        return folder + "/Fixtures"
    }()

    static func path(_ name: String) -> String { directory + "/" + name }

    /// The bytes of fixture `name`.
    static func bytes(_ name: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path(name)) else {
            throw ImageDecodeError(reason: "missing fixture \(name)")
        }
        return [UInt8](data)
    }

    static func decode(
        _ name: String, atLeast target: PixelSize? = nil, pixelLimit: Int = ImageDecoder.defaultPixelLimit
    ) throws(ImageDecodeError) -> DecodedImage {
        try ImageDecoder.decodeFile(atPath: path(name), atLeast: target, pixelLimit: pixelLimit)
    }

    /// The error decoding `name` throws, or nil when it decodes.
    static func decodeError(_ name: String, pixelLimit: Int = ImageDecoder.defaultPixelLimit) -> ImageDecodeError? {
        do {
            _ = try decode(name, pixelLimit: pixelLimit)
            return nil
        } catch {
            return error
        }
    }

    // MARK: the quadrant picture of the JPEG fixtures (make_fixtures.py QUADRANTS)

    /// Straight RGB of each quadrant of the upright picture.
    static let topLeft = (r: 255, g: 0, b: 0)
    static let topRight = (r: 0, g: 255, b: 0)
    static let bottomLeft = (r: 0, g: 0, b: 255)
    static let bottomRight = (r: 255, g: 255, b: 0)

    /// The colour each quadrant of an upright picture of `size` should have, sampled at the
    /// quadrant's centre and at its outer corner.
    static func quadrantSamples(_ size: PixelSize) -> [(x: Int, y: Int, rgb: (r: Int, g: Int, b: Int))] {
        let w = size.width, h = size.height
        return [
            (w / 4, h / 4, topLeft), (0, 0, topLeft),
            (3 * w / 4, h / 4, topRight), (w - 1, 0, topRight),
            (w / 4, 3 * h / 4, bottomLeft), (0, h - 1, bottomLeft),
            (3 * w / 4, 3 * h / 4, bottomRight), (w - 1, h - 1, bottomRight),
        ]
    }

    // MARK: the sample pattern of the PNG fixtures (make_fixtures.py sample())

    static let pngSize = PixelSize(width: 13, height: 7)
    private static let multipliers = [37, 53, 71, 97]
    private static let offsets = [11, 5, 3, 200]

    /// Channel `channel` of pixel (x, y) as stored in a file whose samples go up to `maxValue`.
    static func sample(x: Int, y: Int, channel: Int, maxValue: Int) -> Int {
        let i = x + y * pngSize.width
        return (i * multipliers[channel] + offsets[channel]) % (maxValue + 1)
    }

    /// A stored sample of `bitDepth` bits as the 8-bit value the decoder should produce: sub-byte
    /// depths by bit replication (exact: 255 is a multiple of 1, 3 and 15), 16-bit rounded.
    static func eightBit(_ value: Int, bitDepth: Int) -> Int {
        let maxValue = (1 << bitDepth) - 1
        return (value * 255 + maxValue / 2) / maxValue
    }

    /// A colour sample of `bitDepth` bits (9 to 16) at stored pixel (x, y) as the decoders reduce
    /// it (rfi_dither.h), in integers: ⌊(v·255·128 + max·(2·B + 1)) / (max·128)⌋, B being Bayer's
    /// 8×8 threshold (`bayer`).
    static func dithered(_ value: Int, bitDepth: Int, x: Int, y: Int) -> Int {
        let maxValue = (1 << bitDepth) - 1
        return (value * 255 * 128 + maxValue * (2 * bayer(x: x, y: y) + 1)) / (maxValue * 128)
    }

    /// Bayer's 8×8 ordered-dither threshold (0...63) at column x, row y, from its closed form:
    /// the bits of (x XOR y) and y interleaved, x XOR y's first, then read in reverse order
    /// (Bayer 1973), so that a test does not share the shim's table.
    static func bayer(x: Int, y: Int) -> Int {
        let v = (x ^ y) & 7, w = y & 7
        var threshold = 0
        for bit in 0..<3 {
            threshold |= ((v >> bit) & 1) << (5 - 2 * bit)
            threshold |= ((w >> bit) & 1) << (4 - 2 * bit)
        }
        return threshold
    }
}

/// A pixel split into its bytes.
struct Channels: Equatable, CustomStringConvertible {
    var a: Int
    var r: Int
    var g: Int
    var b: Int

    init(_ pixel: UInt32) {
        a = Int(pixel >> 24)
        r = Int((pixel >> 16) & 0xFF)
        g = Int((pixel >> 8) & 0xFF)
        b = Int(pixel & 0xFF)
    }

    /// Channels given as they are stored (already premultiplied).
    init(packedAlpha a: Int, red r: Int, green g: Int, blue b: Int) {
        self.a = a
        self.r = r
        self.g = g
        self.b = b
    }

    /// Premultiplied channels from straight ones, rounding c·a/255 to nearest.
    init(straightRed r: Int, green g: Int, blue b: Int, alpha a: Int) {
        func premultiply(_ c: Int) -> Int { (c * a + 127) / 255 }
        self.a = a
        self.r = premultiply(r)
        self.g = premultiply(g)
        self.b = premultiply(b)
    }

    /// The pixel as stored: 0xAARRGGBB.
    var packed: UInt32 { UInt32(a) << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b) }

    /// The straight (unpremultiplied) colour, rounding c·255/a to nearest; black for alpha 0.
    var unpremultiplied: (r: Int, g: Int, b: Int) {
        guard a > 0 else { return (0, 0, 0) }
        func straight(_ c: Int) -> Int { min(255, (c * 255 + a / 2) / a) }
        return (straight(r), straight(g), straight(b))
    }

    /// Largest per-channel difference from an opaque straight colour.
    func distance(toOpaque rgb: (r: Int, g: Int, b: Int)) -> Int {
        max(abs(r - rgb.r), abs(g - rgb.g), abs(b - rgb.b), abs(a - 255))
    }

    var description: String { "a\(a) r\(r) g\(g) b\(b)" }
}

extension PixelBuffer {
    /// Every pixel, row by row, without row padding.
    var packedPixels: [UInt32] {
        (0..<height).flatMap { y in (0..<width).map { x in self[x, y] } }
    }
}
