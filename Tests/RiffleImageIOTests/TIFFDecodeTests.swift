import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

/// TIFF through libtiff, against ImageMagick's decode of the same files (libtiff underneath,
/// its own conversions above): every layout `convert` and `tiffcp` write.
@Suite("TIFF decoding", StillFixtures.needing("convert", "tiffcp", "tiffset"))
struct TIFFDecodeTests {
    static let size = PixelSize(width: 96, height: 64)

    /// The layouts, as `convert` options, each with the largest channel difference allowed
    /// from ImageMagick's decode: 0 where both reduce the same samples the same way (8-bit
    /// samples; 16-bit by (v·255 + 32767)/65535, ImageMagick's ScaleQuantumToChar); 1 where
    /// alpha is premultiplied (Riffle rounds c·a/255 from 8-bit straight channels, ImageMagick
    /// at 16 bits before writing straight PNG channels that Riffle premultiplies again) and for
    /// CMYK (ImageMagick computes (1−C)(1−K) at 16 bits); 1 for a palette and 16-bit grey, whose
    /// 8-bit values ImageMagick takes through its own grey and colour-map scalings, a level off
    /// round(v·255/65535) at some values (16-bit RGB, taken the plain way, agrees exactly); 3 for JPEG-compressed YCbCr, whose
    /// chroma libjpeg upsamples for ImageMagick and TIFFRGBAImage's own way for Riffle.
    static let layouts: [(name: String, options: [String], alpha: Bool, tolerance: Int)] = [
        ("strips, LZW, 8-bit RGB", ["-compress", "lzw"], false, 0),
        ("strips, deflate, 8-bit RGB", ["-compress", "zip"], false, 0),
        ("tiles of 32×32", ["-define", "tiff:tile-geometry=32x32"], false, 0),
        ("16-bit RGB", ["-depth", "16"], false, 0),
        ("greyscale, 8-bit", ["-colorspace", "gray"], false, 0),
        ("greyscale, 16-bit", ["-colorspace", "gray", "-depth", "16"], false, 1),
        ("palette", ["-type", "palette"], false, 1),
        ("CMYK", ["-colorspace", "cmyk"], false, 1),
        ("unassociated alpha", [], true, 1),
        ("associated alpha", ["-define", "tiff:alpha=associated"], true, 1),
        ("16-bit with alpha, tiled", ["-depth", "16", "-define", "tiff:tile-geometry=16x16"], true, 1),
        ("separate planes (TIFFRGBAImage)", ["-interlace", "plane"], false, 0),
        ("JPEG-compressed (TIFFRGBAImage)", ["-compress", "jpeg", "-quality", "95"], false, 3),
    ]

    /// Makes the TIFF of `layout` and ImageMagick's PNG of it.
    static func make(_ name: String, options: [String], alpha: Bool) throws -> (tiff: String, reference: String) {
        // Each path is the call's own (two tests make the same layouts at once).
        let slug = name.filter { $0.isLetter || $0.isNumber }
        let source = try StillFixtures.png("tiff-source-\(slug).png", StillFixtures.picture(size, alpha: alpha))
        let tiff = StillFixtures.path("\(slug).tif"), reference = StillFixtures.path("\(slug)-reference.png")
        try StillFixtures.run("convert", [source] + options + [tiff])
        // ImageMagick's 16-bit greyscale comes out a level off its own 8-bit one, so a 16-bit
        // file's reference is ImageMagick's 8-bit conversion of the source (the 16-bit samples
        // are that value × 257, which (v·255 + 32767)/65535 takes back exactly).
        let deep = options.contains("16") && options.contains("gray")
        try StillFixtures.run("convert", deep ? [source] + options.filter { $0 != "-depth" && $0 != "16" } + ["-depth", "8", reference] : [tiff, "-depth", "8", reference])
        return (tiff, reference)
    }

    @Test("Every layout decodes as ImageMagick decodes it", arguments: layouts.map { $0.name })
    func layout(name: String) throws {
        let layout = try #require(Self.layouts.first { $0.name == name })
        let (tiff, reference) = try Self.make(name, options: layout.options, alpha: layout.alpha)
        let decoded = try ImageDecoder.decodeFile(atPath: tiff)
        #expect(decoded.format == .tiff)
        #expect(decoded.info.hasAlpha == layout.alpha)
        #expect(decoded.isOpaque == !layout.alpha)
        let expected = try StillFixtures.reference(reference)
        #expect(
            StillFixtures.maxDifference(decoded.pixels, expected) <= layout.tolerance,
            "\(StillFixtures.worstPixel(decoded.pixels, expected))")
    }

    /// CIELab TIFFs (PhotometricInterpretation 8: L* unsigned, a* and b* signed, TIFF 6.0 section
    /// 23) as ImageMagick writes them, relative to the WhitePoint tag it writes (D65), against
    /// ImageMagick's own conversion back to sRGB. ImageMagick converts Lab to RGB by the formulas
    /// at its white point, Riffle through lcms2 (Bradford adaptation to D50, lcms2's sRGB): they
    /// agree within `labDeltaE`, though near black one channel can be several 8-bit levels apart
    /// (sRGB's toe: 12.92 levels per 1/255 of light) where a colour lies at the gamut's edge. The
    /// source has a dark patch, (12, 14, 15), which libtiff's TIFFRGBAImage crushed to black
    /// (ΔE 4 from ImageMagick's decode of it).
    @Test("CIELab is converted as ImageMagick converts it", arguments: [8, 16])
    func cieLab(bits: Int) throws {
        let picture = StillFixtures.picture(Self.size)
        for y in 40..<64 { for x in 0..<24 { picture[x, y] = 0xFF0C_0E0F } }  // (12, 14, 15)
        let source = try StillFixtures.png("tiff-lab-source-\(bits).png", picture)
        let tiff = StillFixtures.path("lab-\(bits).tif"), reference = StillFixtures.path("lab-\(bits)-reference.png")
        try StillFixtures.run("convert", [source, "-colorspace", "Lab", "-depth", "\(bits)", tiff])
        try StillFixtures.run("convert", [tiff, "-colorspace", "sRGB", "-depth", "8", reference])
        let decoded = try ImageDecoder.decodeFile(atPath: tiff)
        let expected = try StillFixtures.reference(reference)
        #expect(decoded.info.iccProfile == nil)
        try #require(decoded.pixels.size == expected.size)
        let worst = Self.worstDeltaE(decoded.pixels, expected)
        #expect(
            worst.difference <= Self.labDeltaE,
            "(\(worst.x), \(worst.y)): \(Channels(decoded.pixels[worst.x, worst.y])) against \(Channels(expected[worst.x, worst.y]))")
        let patch = Channels(decoded.pixels[10, 50])
        #expect(max(patch.r, patch.g, patch.b) >= 10, "the dark patch is \(patch)")
    }

    /// How far apart (CIE 1976 ΔE*ab) Riffle's and ImageMagick's Lab conversions may be: 2, below
    /// the just noticeable difference of about 2.3 (Sharma, Digital Color Imaging Handbook,
    /// 2003, 1.7.2); seen up to 1.4 on these pictures.
    static let labDeltaE = 2.0

    /// CIE 1976 ΔE*ab between two sRGB colours (IEC 61966-2-1's curve and matrix, D65 white).
    static func deltaE(_ one: Channels, _ other: Channels) -> Double {
        func lab(_ c: Channels) -> [Double] {
            let rgb = [c.r, c.g, c.b].map { level -> Double in
                let v = Double(level) / 255
                return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
            }
            let x = (0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]) / 0.9505
            let y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
            let z = (0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]) / 1.089
            func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
            return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))]
        }
        return sqrt(zip(lab(one), lab(other)).map { ($0 - $1) * ($0 - $1) }.reduce(0, +))
    }

    /// The largest `deltaE` between two pictures of one size, and where it is.
    static func worstDeltaE(_ one: PixelBuffer, _ other: PixelBuffer) -> (difference: Double, x: Int, y: Int) {
        var worst = (difference: 0.0, x: 0, y: 0)
        for y in 0..<one.height {
            for x in 0..<one.width {
                let difference = deltaE(Channels(one[x, y]), Channels(other[x, y]))
                if difference > worst.difference { worst = (difference, x, y) }
            }
        }
        return worst
    }

    @Test("The streamed decode shrinks the rows as the whole decode's shrink does", arguments: [
        "strips, LZW, 8-bit RGB", "tiles of 32×32", "JPEG-compressed (TIFFRGBAImage)",
    ])
    func streamed(name: String) throws {
        let layout = try #require(Self.layouts.first { $0.name == name })
        let tiff = try Self.make(name, options: layout.options, alpha: layout.alpha).tiff
        let target = PixelSize(width: 40, height: 27)
        let streamed = try ImageDecoder.decodeFile(atPath: tiff, shrunkTo: { _ in target })
        let whole = try ImageDecoder.decodeFile(atPath: tiff)
        // The same rows pushed through the same resampler in the same order: equal.
        #expect(StillFixtures.maxDifference(streamed.pixels, DownscaleFilter.lanczos3.shrink(whole.pixels, to: target)) == 0)
    }

    @Test("The Orientation tag is applied once", arguments: [("RightTop", 6), ("BottomRight", 3), ("LeftBottom", 8)])
    func orientation(name: String, value: Int) throws {
        let source = try StillFixtures.png("tiff-orientation-source.png", StillFixtures.picture(Self.size))
        let tiff = StillFixtures.path("orient-\(name).tif"), reference = StillFixtures.path("orient-\(name).png")
        try StillFixtures.run("convert", [source, "-orient", name, tiff])
        try StillFixtures.run("convert", [tiff, "-auto-orient", reference])
        let decoded = try ImageDecoder.decodeFile(atPath: tiff)
        #expect(decoded.info.orientation.rawValue == value)
        #expect(StillFixtures.maxDifference(decoded.pixels, try StillFixtures.reference(reference)) == 0)
    }

    @Test("A multi-page file shows its first page")
    func multiPage() throws {
        let first = try StillFixtures.png("page1.png", StillFixtures.picture(Self.size))
        let second = try StillFixtures.png("page2.png", StillFixtures.picture(PixelSize(width: 20, height: 30), alpha: true))
        let tiff = StillFixtures.path("pages.tif")
        try StillFixtures.run("convert", [first, second, tiff])
        let decoded = try ImageDecoder.decodeFile(atPath: tiff)
        #expect(StillFixtures.maxDifference(decoded.pixels, StillFixtures.picture(Self.size)) == 0)
    }

    @Test("A directory past the file's head is read from the file")
    func directoryAtTheEnd() throws {
        // 600×400 uncompressed RGB: 720,000 bytes of pixels, libtiff writing the directory after them.
        let big = PixelSize(width: 600, height: 400)
        let source = try StillFixtures.png("tiff-big.png", StillFixtures.picture(big))
        let tiff = StillFixtures.path("big.tif")
        try StillFixtures.run("convert", [source, "-compress", "none", tiff])
        let bytes = try FileBytes.read(atPath: tiff)
        let directory = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        #expect(directory > ImageCodecs.headBytes)
        #expect(try ImageDecoder.probeFile(atPath: tiff).storedSize == big)
    }

    @Test("The ICC profile and the camera's tags are read")
    func profileAndDetails() throws {
        let source = try StillFixtures.png("tiff-icc-source.png", StillFixtures.picture(Self.size))
        let tiff = StillFixtures.path("icc.tif")
        try StillFixtures.run("convert", [source, tiff])
        try StillFixtures.run("tiffset", ["-s", "271", "Riffle Optics", tiff])
        try StillFixtures.run("tiffset", ["-s", "272", "Test Camera", tiff])
        // tiffset cannot write an UNDEFINED tag: a TIFF written here carries the profile (libtiff never
        // looks inside it).
        let profile = Array("riffle icc".utf8)
        let withProfile = StillFixtures.write(TIFFBuilder.rgb(width: 2, height: 2, extra: [TIFFBuilder.undefined(34675, profile)]), to: "icc-built.tif")
        #expect(try ImageDecoder.probeFile(atPath: withProfile).iccProfile == profile)
        let details = StillFixtures.details(tiff)
        #expect(details?.make == "Riffle Optics")
        #expect(details?.model == "Test Camera")
    }

    @Test("Broken TIFFs give a reason", arguments: [("truncated", 0), ("garbage", 1)])
    func broken(name: String, kind: Int) throws {
        let source = try StillFixtures.png("tiff-broken-source.png", StillFixtures.picture(PixelSize(width: 300, height: 200)))
        let tiff = StillFixtures.path("whole-\(name).tif")
        // Uncompressed, directory first (tiffcp writes it before the strips it copies).
        let uncompressed = StillFixtures.path("pre-\(name).tif")
        try StillFixtures.run("convert", [source, "-compress", "none", uncompressed])
        try StillFixtures.run("tiffcp", ["-c", "none", uncompressed, tiff])
        let bytes = try FileBytes.read(atPath: tiff)
        let broken = kind == 0 ? StillFixtures.truncated(bytes, to: 0.5) : StillFixtures.garbage(after: 8, of: bytes)
        let path = StillFixtures.write(broken, to: "broken-\(name).tif")
        #expect(throws: ImageDecodeError.self) { try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in PixelSize(width: 30, height: 20) }) }
        #expect(StillFixtures.decodeError(path)?.contains("TIFF") == true)
    }

    @Test("A TIFF named .jpg opens as a TIFF")
    func misnamed() throws {
        let source = try StillFixtures.png("tiff-named-source.png", StillFixtures.picture(Self.size))
        let tiff = StillFixtures.path("really-a-tiff.jpg")
        try StillFixtures.run("convert", [source, "tiff:" + tiff])
        let decoded = try ImageDecoder.decodeFile(atPath: tiff)
        #expect(decoded.format == .tiff)
        #expect(StillFixtures.maxDifference(decoded.pixels, StillFixtures.picture(Self.size)) == 0)
    }
}
