import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

/// Samples deeper than 8 bits are reduced by ordered dithering (`rfi_dither.h`): a smooth
/// gradient made at test time by each deep format's own encoder (ImageMagick for 16-bit PNG and
/// TIFF, `heif-enc` for 10-bit HEIC, `cjxl` for 16-bit JPEG XL) must decode to the formula's
/// pixels exactly, keep the gradient's tones on average over small windows (where rounding
/// steps), show no flat band wider than the dither's 8-pixel period (where rounding gives bands
/// a level wide), and stay within 1 of the rounded value at every pixel; the same picture at 8
/// bits decodes to its samples exactly, with no dither.
@Suite("Deep samples dithered to 8 bits")
struct DeepSampleDitherTests {
    /// The gradient's size: 1024 columns, rows all alike, two 8-row periods of the matrix.
    static let width = 1024, height = 16

    /// A gradient across, the same in every row: its R, G, B samples at column x, of `bits` bits.
    struct Gradient: Sendable {
        let bits: Int
        let samples: @Sendable (Int) -> [Int]

        var maxValue: Int { (1 << bits) - 1 }

        /// Column x's channel c as a fraction of 8-bit levels, v·255/max.
        func exact(_ x: Int, _ c: Int) -> Double { Double(samples(x)[c]) * 255 / Double(maxValue) }
    }

    /// 16 bits: red rises a level every 32 columns, green falls one every 64, blue holds
    /// 30000 (116.73 levels: rounding shows 117 everywhere).
    static let sixteen = Gradient(bits: 16) { x in [16384 + 8 * x, 50000 - 4 * x, 30000] }
    /// 10 bits (HEIF): red rises a level about every 16 columns, green falls one every 32, blue
    /// holds 600 (149.56 levels).
    static let ten = Gradient(bits: 10) { x in [300 + x / 4, 900 - x / 8, 600] }

    /// Writes `gradient` as a 16-bit binary PPM (netpbm's ppm(5): big-endian words), samples of
    /// fewer bits widened by bit replication (v·2^(16−bits) + v >> (2·bits − 16)), which every
    /// tool reads back to `bits` bits exactly; or at 8 bits, rounded.
    static func ppm(_ gradient: Gradient, name: String, eightBit: Bool = false) -> String {
        var bytes = Array((eightBit ? "P6\n\(width) \(height)\n255\n" : "P6\n\(width) \(height)\n65535\n").utf8)
        var row: [UInt8] = []
        for x in 0..<width {
            for v in gradient.samples(x) {
                if eightBit {
                    row.append(UInt8(ImageIOFixtures.eightBit(v, bitDepth: gradient.bits)))
                } else {
                    let wide = v << (16 - gradient.bits) | v >> (2 * gradient.bits - 16)
                    row += [UInt8(wide >> 8), UInt8(wide & 0xFF)]
                }
            }
        }
        for _ in 0..<height { bytes += row }
        return StillFixtures.write(bytes, to: name)
    }

    /// A name of this test's own (tests run at once).
    static func slug(_ name: String) -> String { name + "-" + UUID().uuidString.prefix(8) }

    /// The file of `format` ("PNG", "TIFF" or "JPEG XL") its own encoder makes from the PPM at
    /// `source` (16-bit, or 8-bit with `eightBit`), lossless.
    static func encode(_ format: String, source: String, slug: String, eightBit: Bool = false) throws -> String {
        switch format {
        case "JPEG XL":
            let file = StillFixtures.path(slug + ".jxl")
            try StillFixtures.run("cjxl", [source, file, "-d", "0", "--quiet"])
            return file
        default:
            let file = StillFixtures.path(slug + (format == "PNG" ? ".png" : ".tif"))
            try StillFixtures.run("convert", [source, "-depth", eightBit ? "8" : "16", file])
            return file
        }
    }

    /// The formats ImageMagick's `convert` writes; JPEG XL (`cjxl`) has tests of its own, so that
    /// without its tool they are skipped visibly (`StillFixtures.needing`).
    static let sixteenBitFormats = ["PNG", "TIFF"]

    @Test("A 16-bit gradient is dithered by the formula, keeps its tones and shows no band", StillFixtures.needing("convert"),
          arguments: sixteenBitFormats)
    func sixteenBit(format: String) throws {
        let slug = Self.slug(format.filter(\.isLetter))
        let source = Self.ppm(Self.sixteen, name: slug + "-16.ppm")
        let file = try Self.encode(format, source: source, slug: slug)
        let decoded = try ImageDecoder.decodeFile(atPath: file).pixels
        try Self.checkDithered(decoded, against: { x, _ in Self.sixteen.samples(x) }, bits: 16)
        // The same file gives the same pixels every time: goldens stay put.
        #expect(StillFixtures.maxDifference(try ImageDecoder.decodeFile(atPath: file).pixels, decoded) == 0)
    }

    @Test("A 16-bit JPEG XL gradient is dithered by the formula, keeps its tones and shows no band", StillFixtures.needing("cjxl"))
    func sixteenBitJXL() throws { try sixteenBit(format: "JPEG XL") }

    @Test("A 10-bit HEIC gradient is dithered by the formula, keeps its tones and shows no band",
          StillFixtures.needing("heif-enc", "heif-convert"))
    func tenBitHEIF() throws {
        let (file, reference) = try Self.losslessHEIF(bits: 10)
        let decoded = try ImageDecoder.decodeFile(atPath: file).pixels
        try Self.checkDithered(decoded, against: { x, y in reference[y * Self.width + x] }, bits: 10)
    }

    @Test("8-bit pictures decode to their samples exactly, without dither", StillFixtures.needing("convert"), arguments: sixteenBitFormats)
    func eightBitUnchanged(format: String) throws {
        let slug = Self.slug(format.filter(\.isLetter))
        let source = Self.ppm(Self.sixteen, name: slug + "-8.ppm", eightBit: true)
        let file = try Self.encode(format, source: source, slug: slug, eightBit: true)
        let decoded = try ImageDecoder.decodeFile(atPath: file).pixels
        try #require(decoded.size == PixelSize(width: Self.width, height: Self.height))
        let expected = PixelBuffer(width: Self.width, height: Self.height)
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                let v = Self.sixteen.samples(x).map { UInt32(ImageIOFixtures.eightBit($0, bitDepth: 16)) }
                expected[x, y] = 0xFF00_0000 | v[0] << 16 | v[1] << 8 | v[2]
            }
        }
        #expect(StillFixtures.maxDifference(decoded, expected) == 0, "\(StillFixtures.worstPixel(decoded, expected))")
    }

    @Test("8-bit JPEG XL pictures decode to their samples exactly, without dither", StillFixtures.needing("cjxl"))
    func eightBitJXLUnchanged() throws { try eightBitUnchanged(format: "JPEG XL") }

    @Test("An 8-bit HEIC decodes to heif-convert's samples exactly, without dither",
          StillFixtures.needing("heif-enc", "heif-convert"))
    func eightBitHEIF() throws {
        let slug = Self.slug("heic8")
        let source = try StillFixtures.png(slug + "-source.png", StillFixtures.picture(PixelSize(width: 96, height: 64)))
        let file = StillFixtures.path(slug + ".heic"), reference = StillFixtures.path(slug + "-reference.png")
        try StillFixtures.run("heif-enc", ["-L", "-p", "chroma=444", "--matrix_coefficients=0", "-o", file, source])
        try StillFixtures.run("heif-convert", [file, reference])
        let decoded = try ImageDecoder.decodeFile(atPath: file).pixels
        let expected = try StillFixtures.reference(reference)
        #expect(StillFixtures.maxDifference(decoded, expected) == 0, "\(StillFixtures.worstPixel(decoded, expected))")
    }

    @Test("The shim's reduction is the formula for every sample of 10, 12 and 16 bits at every place of the matrix")
    func formula() {
        for bits in [10, 12, 16] {
            let maxValue = (1 << bits) - 1
            var samples = [UInt8](repeating: 0, count: 8 * 64)
            var out = [UInt32](repeating: 0, count: 64)
            var mismatches = 0
            for v in stride(from: 0, through: maxValue, by: 1) {
                // One pixel per place of a row of the matrix: R = v, G = max − v, B = v / 2, A = v.
                for y in 0..<8 {
                    for i in 0..<8 {
                        for (c, sample) in [v, maxValue - v, v / 2, v].enumerated() {
                            samples[8 * i + 2 * c] = UInt8(sample & 0xFF)
                            samples[8 * i + 2 * c + 1] = UInt8(sample >> 8)
                        }
                    }
                    samples.withUnsafeBufferPointer { s in
                        out.withUnsafeMutableBufferPointer { o in
                            DeepSamples.reduce(s.baseAddress!, into: o.baseAddress!, count: 8, bits: bits, x0: 8, y: y)
                        }
                    }
                    for x in 0..<8 {
                        let c = Channels(out[x])
                        let expected = [v, maxValue - v, v / 2].map { ImageIOFixtures.dithered($0, bitDepth: bits, x: 8 + x, y: y) }
                        if [c.r, c.g, c.b] != expected || c.a != ImageIOFixtures.eightBit(v, bitDepth: bits) { mismatches += 1 }
                    }
                }
            }
            #expect(mismatches == 0, "\(bits) bits")
        }
    }

    @Test("Undithered, the shim's reduction rounds")
    func rounding() {
        var samples = [UInt8](repeating: 0, count: 8 * 65536)
        for v in 0..<65536 {
            for c in 0..<4 {
                samples[8 * v + 2 * c] = UInt8(v & 0xFF)
                samples[8 * v + 2 * c + 1] = UInt8(v >> 8)
            }
        }
        var out = [UInt32](repeating: 0, count: 65536)
        samples.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                DeepSamples.reduce(s.baseAddress!, into: o.baseAddress!, count: 65536, bits: 16, y: 3, dithered: false)
            }
        }
        #expect((0..<65536).allSatisfy { v in
            let e = UInt32(ImageIOFixtures.eightBit(v, bitDepth: 16))
            return out[v] == e << 24 | e << 16 | e << 8 | e
        })
    }

    /// A lossless 10-bit HEIC of `ten` made by `heif-enc` from a 16-bit PNG (RGB coded as is,
    /// 4:4:4), and the 10-bit samples libheif decodes from it, read from `heif-convert`'s 16-bit
    /// PNG (which widens 10 bits by a shift or bit replication: the top 10 bits either way).
    static func losslessHEIF(bits: Int) throws -> (file: String, samples: [[Int]]) {
        let slug = slug("heic\(bits)")
        let png = StillFixtures.path(slug + "-16.png")
        try StillFixtures.run("convert", [ppm(ten, name: slug + ".ppm"), "-depth", "16", png])
        let file = StillFixtures.path(slug + ".heic"), reference = StillFixtures.path(slug + "-reference.png")
        try StillFixtures.run(
            "heif-enc", ["-L", "-p", "chroma=444", "--matrix_coefficients=0", "-b", "\(bits)", "-o", file, png])
        try StillFixtures.run("heif-convert", [file, reference])
        let raw = [UInt8](try FormatTools.run("convert", [reference, "-depth", "16", "-endian", "LSB", "rgb:-"]))
        guard raw.count == width * height * 6 else { throw ImageDecodeError(reason: "heif-convert's PNG is not \(width)×\(height)") }
        func sample(_ i: Int, _ c: Int) -> Int {
            let low = Int(raw[6 * i + 2 * c]), high = Int(raw[6 * i + 2 * c + 1])
            return (low | high << 8) >> (16 - bits)
        }
        let samples: [[Int]] = (0..<(width * height)).map { i in [sample(i, 0), sample(i, 1), sample(i, 2)] }
        return (file, samples)
    }

    /// Checks a decoded gradient whose stored samples of `bits` bits at (x, y) are
    /// `samples(x, y)` (R, G, B):
    /// - every pixel is the formula's (`ImageIOFixtures.dithered`), opaque, and within 1 of the
    ///   rounded value;
    /// - over every window of 8 columns × all 16 rows, each channel's mean is the samples' mean
    ///   v·255/max within 0.1 of a level (the dither's mean over its 8×8 period is within 1/128;
    ///   here the ramp moves up to 1/4 level across a window), where rounding is off by more than
    ///   0.25 somewhere;
    /// - no block of rows 0–7 is one value across more columns than the samples' own widest run
    ///   of equal values plus 7 (the dither's period less one: its columns 0 and 4 mod 8 hold
    ///   thresholds from 1/128 to 127/128, so a run of one value ends within 8 columns of where
    ///   the samples change, unless they sit within 1/64 of a level), where rounding a gradient
    ///   gives wider bands (a level is 16 columns or more here). `heif-enc`'s 10-bit samples come
    ///   in runs of 8 equal columns, the 16-bit ones of 1.
    static func checkDithered(_ decoded: PixelBuffer, against samples: (Int, Int) -> [Int], bits: Int) throws {
        try #require(decoded.size == PixelSize(width: width, height: height))
        let maxValue = Double((1 << bits) - 1)
        var wrong: [String] = []
        for y in 0..<height {
            for x in 0..<width {
                let c = Channels(decoded[x, y]), v = samples(x, y)
                let expected = v.map { ImageIOFixtures.dithered($0, bitDepth: bits, x: x, y: y) }
                let rounded = v.map { ImageIOFixtures.eightBit($0, bitDepth: bits) }
                let got = [c.r, c.g, c.b]
                if got != expected || c.a != 255 || zip(got, rounded).contains(where: { abs($0 - $1) > 1 }) {
                    wrong.append("(\(x), \(y)): \(got) for samples \(v), the formula gives \(expected)")
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) pixels, first \(wrong.prefix(3))")
        for channel in 0..<3 {
            func level(_ x: Int, _ y: Int) -> Int {
                let c = Channels(decoded[x, y])
                return [c.r, c.g, c.b][channel]
            }
            var worstMean = 0.0, worstRoundedMean = 0.0
            for x0 in stride(from: 0, to: width, by: 8) {
                var exact = 0.0, got = 0.0, rounded = 0.0
                for x in x0..<(x0 + 8) {
                    for y in 0..<height {
                        let v = samples(x, y)[channel]
                        exact += Double(v) * 255 / maxValue
                        rounded += Double(ImageIOFixtures.eightBit(v, bitDepth: bits))
                        got += Double(level(x, y))
                    }
                }
                let n = Double(8 * height)
                worstMean = max(worstMean, abs(got - exact) / n)
                worstRoundedMean = max(worstRoundedMean, abs(rounded - exact) / n)
            }
            #expect(worstMean <= 0.1, "channel \(channel): a window's mean is off by \(worstMean) of a level")
            #expect(worstRoundedMean > 0.25, "channel \(channel): rounding this gradient would not step (\(worstRoundedMean))")
            var sourceRun = 1, run = 1
            for x in 1..<width {
                run = samples(x, 0)[channel] == samples(x - 1, 0)[channel] ? run + 1 : 1
                sourceRun = max(sourceRun, run)
            }
            let allowed = sourceRun + 7
            let band = widestBand { x, y in level(x, y) }
            #expect(band <= allowed, "channel \(channel): a flat band \(band) columns wide (samples' own runs: \(sourceRun))")
            if sourceRun < width {
                let roundedBand = widestBand { x, y in ImageIOFixtures.eightBit(samples(x, y)[channel], bitDepth: bits) }
                #expect(roundedBand > allowed, "channel \(channel): rounding this gradient would band only \(roundedBand) wide")
            }
        }
    }

    /// The most consecutive columns over which rows 0–7 all hold one value.
    static func widestBand(_ level: (Int, Int) -> Int) -> Int {
        var widest = 0, run = 0
        var previous: Int?
        for x in 0..<width {
            let first = level(x, 0)
            guard (1..<8).allSatisfy({ level(x, $0) == first }) else {
                run = 0
                previous = nil
                continue
            }
            run = first == previous ? run + 1 : 1
            previous = first
            widest = max(widest, run)
        }
        return widest
    }
}
