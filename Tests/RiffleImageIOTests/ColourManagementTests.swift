import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing

/// Colour management against lcms2's own command-line transform (`transicc`, from
/// liblcms2-utils: floating point, unoptimised) of the same values, and against the formulas of
/// the colour spaces. Riffle's transforms are lcms2's 8-bit optimised ones, which round through
/// 16-bit tables: each channel may differ from the float result by up to `tolerance`.
@Suite("Colour management")
struct ColourManagementTests {
    /// Saturated primaries, greys, and colours inside every gamut in play.
    static let patches: [(red: UInt8, green: UInt8, blue: UInt8)] = [
        (255, 0, 0), (0, 255, 0), (0, 0, 255), (128, 128, 128), (200, 100, 50), (30, 160, 220), (255, 255, 255), (0, 0, 0),
    ]
    /// Pixels a side of each patch: two JPEG MCUs, so a patch's centre is untouched by its
    /// neighbours.
    static let side = 32
    /// Levels an 8-bit optimised lcms2 transform may differ from its float transform by.
    static let tolerance = 2

    @Test("A Display P3 PNG (iCCP) is shown as lcms2 transforms its values to sRGB")
    func displayP3PNG() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path + "/p3.png"
        try write(HandMadePNG.patches(Self.patches, side: Self.side, chunks: [HandMadePNG.iccpChunk(ColourProfiles.displayP3)]), to: path)
        let decoded = try Self.decodeForSRGBDisplay(path)
        #expect(decoded.info.iccProfile == ColourProfiles.displayP3)
        let expected = try Self.transicc(Self.patches.map { (Int($0.red), Int($0.green), Int($0.blue)) }, from: ColourProfiles.displayP3, to: nil)
        try Self.expectPatches(decoded.pixels, near: expected)
    }

    @Test("A Display P3 JPEG, its profile split over three APP2 chunks, is reassembled and transformed")
    func displayP3JPEG() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let untaggedPath = folder.path + "/untagged.jpg", taggedPath = folder.path + "/p3.jpg"
        let jpeg = try JPEGEncoder.encode(Self.patchBuffer(), quality: 100, sampling: .yuv444)
        try write(jpeg, to: untaggedPath)
        try write(Self.insertingICC(ColourProfiles.displayP3, into: jpeg, chunks: 3), to: taggedPath)
        // The reference starts from the JPEG's own decoded values: what lcms2 is given.
        let inputs = Self.patchColours(try Self.decodeUntagged(untaggedPath))
        let decoded = try Self.decodeForSRGBDisplay(taggedPath)
        #expect(decoded.info.iccProfile == ColourProfiles.displayP3)
        try Self.expectPatches(decoded.pixels, near: try Self.transicc(inputs, from: ColourProfiles.displayP3, to: nil))
    }

    @Test("A JPEG whose 400 KB LUT profile spans seven APP2 chunks, past the head read for the header, is transformed through it")
    func largeLUTProfileJPEG() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let untaggedPath = folder.path + "/untagged.jpg", taggedPath = folder.path + "/lut.jpg"
        let jpeg = try JPEGEncoder.encode(Self.patchBuffer(), quality: 100, sampling: .yuv444)
        try write(jpeg, to: untaggedPath)
        let profile = Self.lutProfile(gridPoints: 41)
        #expect(profile.count > ImageCodecs.headBytes)
        // ICC.1 B.4: at most 65,519 bytes of profile in each APP2 segment.
        try write(Self.insertingICC(profile, into: jpeg, chunks: (profile.count + 65_518) / 65_519), to: taggedPath)
        let inputs = Self.patchColours(try Self.decodeUntagged(untaggedPath))
        #expect(try ImageDecoder.probeFile(atPath: taggedPath).iccProfile == profile)
        let decoded = try Self.decodeForSRGBDisplay(taggedPath)
        #expect(decoded.info.iccProfile == profile)
        try Self.expectPatches(decoded.pixels, near: try Self.transicc(inputs, from: profile, to: nil))
    }

    /// An ICC version 2 input profile (ICC.1:2001-04) whose A2B0 is a lut16Type (10.9, 'mft2')
    /// with a CLUT of `gridPoints`³ entries to 16-bit CIELAB (PCS encoding of 6.5.5: L* 100 at
    /// 0xFF00, a* and b* 0 at 0x8000), identity curves around it: RGB with sRGB's primaries (their
    /// D50-adapted matrix, IEC 61966-2-1 Amendment 1) and a pure 1.8 gamma, so it maps colours
    /// unlike sRGB. 41 points make a 413,526-byte table, a profile as large as a press's.
    static func lutProfile(gridPoints: Int) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func s15Fixed16(_ v: Double) -> [UInt8] { u32(Int((v * 65536).rounded()) & 0xFFFF_FFFF) }
        let d50 = (x: 0.9642, y: 1.0, z: 0.8249)
        let matrix = [[0.4360747, 0.3850649, 0.1430804], [0.2225045, 0.7168786, 0.0606169], [0.0139322, 0.0971045, 0.7141733]]
        func lab(_ rgb: [Double]) -> [UInt8] {
            let linear = rgb.map { pow($0, 1.8) }
            let xyz = matrix.map { row in zip(row, linear).map(*).reduce(0, +) }
            // CIE 15: f(t) = t^(1/3) above (6/29)³, else linear.
            func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
            let fx = f(xyz[0] / d50.x), fy = f(xyz[1] / d50.y), fz = f(xyz[2] / d50.z)
            let l = 116 * fy - 16, a = 500 * (fx - fy), b = 200 * (fy - fz)
            func clamped(_ v: Double) -> Int { min(65535, max(0, Int(v.rounded()))) }
            return u16(clamped(l * 0xFF00 / 100)) + u16(clamped((a + 128) * 256)) + u16(clamped((b + 128) * 256))
        }
        var clut: [UInt8] = []
        clut.reserveCapacity(gridPoints * gridPoints * gridPoints * 6)
        let step = 1 / Double(gridPoints - 1)
        for r in 0..<gridPoints { for g in 0..<gridPoints { for b in 0..<gridPoints { clut += lab([Double(r) * step, Double(g) * step, Double(b) * step]) } } }
        let identityCurves = (0..<3).flatMap { _ in u16(0) + u16(65535) }
        let a2b0 = Array("mft2".utf8) + u32(0) + [3, 3, UInt8(gridPoints), 0]
            + (0..<9).flatMap { s15Fixed16($0 % 4 == 0 ? 1 : 0) } + u16(2) + u16(2) + identityCurves + clut + identityCurves
        let wtpt = Array("XYZ ".utf8) + u32(0) + s15Fixed16(d50.x) + s15Fixed16(d50.y) + s15Fixed16(d50.z)
        let name = Array("Riffle test LUT".utf8) + [0]
        let desc = Array("desc".utf8) + u32(0) + u32(name.count) + name + u32(0) + u32(0) + u16(0) + [0] + [UInt8](repeating: 0, count: 67)
        let tags: [(String, [UInt8])] = [("desc", desc), ("wtpt", wtpt), ("A2B0", a2b0)]
        var table: [UInt8] = u32(tags.count), data: [UInt8] = []
        let dataStart = 128 + 4 + 12 * tags.count
        for (signature, body) in tags {
            while data.count % 4 != 0 { data.append(0) }
            table += Array(signature.utf8) + u32(dataStart + data.count) + u32(body.count)
            data += body
        }
        var header = u32(dataStart + data.count) + u32(0) + u32(0x0210_0000) + Array("scnrRGB Lab ".utf8)
        header += [UInt8](repeating: 0, count: 12) + Array("acsp".utf8) + [UInt8](repeating: 0, count: 4 + 4 + 8 + 8) + u32(0)
        header += s15Fixed16(d50.x) + s15Fixed16(d50.y) + s15Fixed16(d50.z) + [UInt8](repeating: 0, count: 4 + 16 + 28)
        return header + table + data
    }

    @Test("An sRGB-tagged photo on an sRGB display is left exactly as it is")
    func sRGBTaggedIsUntouched() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path + "/srgb.png"
        try write(HandMadePNG.patches(Self.patches, side: Self.side, chunks: [HandMadePNG.iccpChunk(ColourProfiles.sRGB)]), to: path)
        let decoded = try Self.decodeForSRGBDisplay(path)
        #expect(decoded.pixels.packedPixels == (try Self.decodeUntagged(path)).packedPixels)
    }

    @Test("A PNG's gAMA of 1.0 (linear light) is encoded with the sRGB curve, IEC 61966-2-1")
    func linearGammaPNG() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path + "/linear.png"
        let greys: [(red: UInt8, green: UInt8, blue: UInt8)] = [(0, 0, 0), (16, 16, 16), (64, 64, 64), (128, 128, 128), (255, 255, 255)]
        let gAMA = HandMadePNG.chunk("gAMA", HandMadePNG.bigEndian(100_000))
        try write(HandMadePNG.patches(greys, side: Self.side, chunks: [gAMA]), to: path)
        let decoded = try Self.decodeForSRGBDisplay(path)
        // sRGB's encoding of linear L: 12.92 L below 0.0031308, else 1.055 L^(1/2.4) − 0.055.
        func sRGB(_ level: UInt8) -> Int {
            let linear = Double(level) / 255
            let encoded = linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
            return Int((encoded * 255).rounded())
        }
        try Self.expectPatches(decoded.pixels, near: greys.map { (sRGB($0.red), sRGB($0.green), sRGB($0.blue)) })
    }

    @Test("A PNG marked sRGB by its gAMA of 45455 alone, or by an sRGB chunk, has no profile to apply", arguments: [
        [HandMadePNG.chunk("gAMA", HandMadePNG.bigEndian(45_455))],
        [HandMadePNG.chunk("sRGB", [0]), HandMadePNG.chunk("gAMA", HandMadePNG.bigEndian(45_455))],
        [],
    ])
    func sRGBPNGHasNoProfile(chunks: [[UInt8]]) throws {
        let png = HandMadePNG.patches(Self.patches, side: 4, chunks: chunks)
        #expect(try ImageDecoder.probe(png).iccProfile == nil)
    }

    @Test("A camera JPEG marked Adobe RGB in EXIF (ColorSpace uncalibrated, InteroperabilityIndex R03) converts as Adobe RGB")
    func adobeRGBByExif() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let untaggedPath = folder.path + "/untagged.jpg", cameraPath = folder.path + "/camera.jpg"
        let jpeg = try JPEGEncoder.encode(Self.patchBuffer(), quality: 100, sampling: .yuv444)
        try write(jpeg, to: untaggedPath)
        let app1 = Self.segment(marker: 0xE1, Array("Exif".utf8) + [0, 0] + Self.adobeRGBExif(interoperabilityIndex: "R03"))
        try write(Array(jpeg[0..<2]) + app1 + Array(jpeg[2...]), to: cameraPath)
        #expect(ExifDetails.read(fromJPEGHead: try Array(Data(contentsOf: URL(fileURLWithPath: cameraPath))))?.declaresAdobeRGB == true)
        let inputs = Self.patchColours(try Self.decodeUntagged(untaggedPath))
        let decoded = try Self.decodeForSRGBDisplay(cameraPath)
        #expect(decoded.info.iccProfile == ColourProfiles.adobeRGB)
        try Self.expectPatches(decoded.pixels, near: try Self.transicc(inputs, from: ColourProfiles.adobeRGB, to: nil))
    }

    @Test("ColorSpace uncalibrated with InteroperabilityIndex R98 (sRGB) is not Adobe RGB")
    func uncalibratedR98IsNotAdobe() throws {
        let jpeg = try JPEGEncoder.encode(Self.patchBuffer(), quality: 90)
        let app1 = Self.segment(marker: 0xE1, Array("Exif".utf8) + [0, 0] + Self.adobeRGBExif(interoperabilityIndex: "R98"))
        let camera = Array(jpeg[0..<2]) + app1 + Array(jpeg[2...])
        #expect(ExifDetails.read(fromJPEGHead: camera)?.declaresAdobeRGB == false)
        #expect(try ImageDecoder.probe(camera).iccProfile == nil)
    }

    @Test("An untagged sRGB photo on a Display P3 display is transformed into the display's profile")
    func displayProfile() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path + "/untagged.png"
        try write(HandMadePNG.patches(Self.patches, side: Self.side, chunks: []), to: path)
        let decoded = ColourManagement(displayProfile: ColourProfiles.displayP3).toDisplay(try Self.decodeFull(path))
        let expected = try Self.transicc(Self.patches.map { (Int($0.red), Int($0.green), Int($0.blue)) }, from: nil, to: ColourProfiles.displayP3)
        try Self.expectPatches(decoded.pixels, near: expected)
    }

    /// Display P3's primaries and secondaries, saturated (the first three outside sRGB), and an
    /// in-gamut colour, at alphas from nearly clear to nearly opaque.
    static let translucentColours: [(Int, Int, Int)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (0, 255, 255), (255, 0, 255), (200, 100, 50)]
    static let translucentAlphas = [1, 17, 64, 128, 200, 254]

    @Test("Translucent pixels are transformed unpremultiplied and stay premultiplied, alpha kept")
    func translucentPixels() throws {
        let colours = Self.translucentColours, alphas = Self.translucentAlphas
        let buffer = PixelBuffer(width: colours.count, height: alphas.count)
        for (y, alpha) in alphas.enumerated() {
            for (x, c) in colours.enumerated() { buffer[x, y] = Channels(straightRed: c.0, green: c.1, blue: c.2, alpha: alpha).packed }
        }
        let transform = try #require(try ColourTransform.make(from: ColourProfiles.displayP3, to: nil, isOpaque: false))
        transform.apply(to: buffer)
        let expected = try Self.transicc(colours, from: ColourProfiles.displayP3, to: nil)
        for (y, alpha) in alphas.enumerated() {
            for (x, c) in colours.enumerated() {
                let result = Channels(buffer[x, y])
                let label = "P3 \(c) at alpha \(alpha): \(result)"
                #expect(result.a == alpha, "\(label)")
                // A premultiplied pixel's colour never exceeds its alpha.
                #expect(max(result.r, result.g, result.b) <= result.a, "colour above alpha: \(label)")
                // Compared premultiplied: lcms2's `tolerance` on the straight colour scales by
                // alpha/255, and the premultiplication rounds once more (± 1). The input's
                // colours are exact at every alpha (0 and 255 premultiply exactly; 200, 100, 50
                // unpremultiply to within 255/(2·alpha) levels, which the transform carries).
                let e = expected[x]
                let want = Channels(straightRed: e.0, green: e.1, blue: e.2, alpha: alpha)
                let inputSlack = (c == (200, 100, 50) ? 255.0 / (2 * Double(alpha)) : 0) + Double(Self.tolerance)
                let slack = Int((inputSlack * Double(alpha) / 255).rounded(.up)) + 1
                #expect(abs(result.r - want.r) <= slack && abs(result.g - want.g) <= slack && abs(result.b - want.b) <= slack,
                        "\(label), lcms2 gives \(want) (± \(slack))")
            }
        }
    }

    @Test("A profile that does not describe the pixels (CMYK, unreadable) leaves them as they are")
    func unusableProfiles() throws {
        #expect(throws: ImageDecodeError.self) { try ColourTransform.make(from: [1, 2, 3], to: nil, isOpaque: true) }
        let buffer = PixelBuffer(width: 1, height: 1)
        buffer[0, 0] = 0xFF11_2233
        ColourManagement(displayProfile: nil).convert(buffer, from: [1, 2, 3], isOpaque: true)
        #expect(buffer[0, 0] == 0xFF11_2233)
    }

    // MARK: helpers

    /// The file at `path` decoded at full size and brought to an sRGB display.
    static func decodeForSRGBDisplay(_ path: String) throws -> DecodedImage {
        ColourManagement(displayProfile: nil).toDisplay(try decodeFull(path))
    }

    static func decodeFull(_ path: String) throws -> DecodedImage {
        try ImageDecoder.decodeFile(atPath: path, shrunkTo: { $0.uprightSize })
    }

    /// The raw values of the file at `path`, no colour management.
    static func decodeUntagged(_ path: String) throws -> PixelBuffer { try decodeFull(path).pixels }

    /// The patches as a picture, for the JPEG encoder.
    static func patchBuffer() -> PixelBuffer {
        let buffer = PixelBuffer(width: side * patches.count, height: side)
        for y in 0..<side {
            for x in 0..<buffer.width {
                let patch = patches[x / side]
                buffer[x, y] = Channels(straightRed: Int(patch.red), green: Int(patch.green), blue: Int(patch.blue), alpha: 255).packed
            }
        }
        return buffer
    }

    /// Each patch's centre pixel, as 8-bit R, G, B.
    static func patchColours(_ pixels: PixelBuffer) -> [(r: Int, g: Int, b: Int)] {
        let count = pixels.width / side
        return (0..<count).map { i in
            let c = Channels(pixels[i * side + side / 2, side / 2])
            return (c.r, c.g, c.b)
        }
    }

    static func expectPatches(_ pixels: PixelBuffer, near expected: [(Int, Int, Int)], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let actual = patchColours(pixels)
        try #require(actual.count == expected.count, sourceLocation: sourceLocation)
        for (a, e) in zip(actual, expected) {
            let worst = max(abs(a.r - e.0), abs(a.g - e.1), abs(a.b - e.2))
            #expect(worst <= tolerance, "got \(a), lcms2's float transform gives \(e)", sourceLocation: sourceLocation)
        }
    }

    /// lcms2's own transform of `colours` (`LCMSReference`).
    static func transicc(_ colours: [(Int, Int, Int)], from: [UInt8]?, to: [UInt8]?) throws -> [(Int, Int, Int)] {
        try LCMSReference.transform(colours, from: from, to: to)
    }

    /// `jpeg` with `profile` in `chunks` APP2 "ICC_PROFILE" segments (ICC.1:2010 Annex B.4)
    /// right after SOI.
    static func insertingICC(_ profile: [UInt8], into jpeg: [UInt8], chunks: Int) -> [UInt8] {
        let size = (profile.count + chunks - 1) / chunks
        var segments: [UInt8] = []
        for i in 0..<chunks {
            let part = profile[min(i * size, profile.count)..<min((i + 1) * size, profile.count)]
            segments += segment(marker: 0xE2, Array("ICC_PROFILE".utf8) + [0, UInt8(i + 1), UInt8(chunks)] + part)
        }
        return Array(jpeg[0..<2]) + segments + Array(jpeg[2...])
    }

    /// A JPEG marker segment: FF, the marker, the 16-bit length (counting itself), the data.
    static func segment(marker: UInt8, _ data: [UInt8]) -> [UInt8] {
        let length = data.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + data
    }

    /// A little-endian TIFF structure as a camera writes EXIF: IFD0 pointing to the Exif IFD,
    /// which holds ColorSpace 0xFFFF (uncalibrated) and points to an Interoperability IFD whose
    /// InteroperabilityIndex is `interoperabilityIndex` (CIPA DC-008, Exif 2.32, 4.6.3 and 4.6.5).
    static func adobeRGBExif(interoperabilityIndex: String) -> [UInt8] {
        func short(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func long(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        func entry(tag: Int, type: Int, count: Int, value: [UInt8]) -> [UInt8] {
            short(tag) + short(type) + long(count) + value + [UInt8](repeating: 0, count: 4 - value.count)
        }
        let ifd0 = 8, exif = ifd0 + 2 + 12 + 4, interop = exif + 2 + 2 * 12 + 4
        var bytes: [UInt8] = Array("II".utf8) + short(42) + long(ifd0)
        bytes += short(1) + entry(tag: 0x8769, type: 4, count: 1, value: long(exif)) + long(0)
        bytes += short(2) + entry(tag: 0xA001, type: 3, count: 1, value: short(0xFFFF))
            + entry(tag: 0xA005, type: 4, count: 1, value: long(interop)) + long(0)
        bytes += short(1) + entry(tag: 0x0001, type: 2, count: 4, value: Array(interoperabilityIndex.utf8) + [0]) + long(0)
        return bytes
    }

    func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}

/// A CMYK JPEG with its CMYK profile embedded (what a print workflow writes), made by ImageMagick
/// from sRGB patches through Ghostscript's SWOP profile (Debian's libgs-common): the decoder
/// converts its rows through that profile (perceptual, with black point compensation), within
/// `tolerance` of ImageMagick's own lcms2 conversion back to sRGB with the same intent; the naive
/// formula (used without a profile) is far off.
@Suite("CMYK JPEG colour")
struct CMYKColourTests {
    static let cmykProfile = "/usr/share/color/icc/ghostscript/default_cmyk.icc"
    static let sRGBProfile = "/usr/share/color/icc/ghostscript/srgb.icc"
    /// ImageMagick (Q16) converts through 16-bit transforms into Ghostscript's sRGB profile;
    /// Riffle through lcms2's 8-bit one (the profile's 4-D table interpolated at 8 bits) into
    /// lcms2's built-in sRGB: seen up to 5 levels apart on these patches.
    static let tolerance = 6

    @Test("A CMYK JPEG with an embedded CMYK profile is converted through it")
    func cmykThroughProfile() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let source = folder.path + "/patches.png", cmyk = folder.path + "/cmyk.jpg", reference = folder.path + "/reference.png"
        try Data(HandMadePNG.patches(ColourManagementTests.patches, side: ColourManagementTests.side, chunks: [])).write(
            to: URL(fileURLWithPath: source))
        try Self.convert([source, "-profile", Self.sRGBProfile, "-profile", Self.cmykProfile, "-quality", "98", cmyk])
        try Self.convert([
            cmyk, "-intent", "Perceptual", "-black-point-compensation", "-profile", Self.sRGBProfile, "-depth", "8", "PNG24:" + reference,
        ])

        let decoded = try ColourManagementTests.decodeForSRGBDisplay(cmyk)
        #expect(decoded.info.iccProfile == nil, "the decoder used the CMYK profile: its pixels are sRGB")
        let expected = ColourManagementTests.patchColours(try ColourManagementTests.decodeUntagged(reference)).map { ($0.r, $0.g, $0.b) }
        let actual = ColourManagementTests.patchColours(decoded.pixels)
        for (a, e) in zip(actual, expected) {
            #expect(max(abs(a.r - e.0), abs(a.g - e.1), abs(a.b - e.2)) <= Self.tolerance, "got \(a), ImageMagick gives \(e)")
        }

        // Without its profile the same file goes through the naive formula, which misses by far.
        let naivePath = folder.path + "/naive.jpg"
        try Data(Self.removingICC(Array(try Data(contentsOf: URL(fileURLWithPath: cmyk))))).write(to: URL(fileURLWithPath: naivePath))
        let naive = ColourManagementTests.patchColours(try ColourManagementTests.decodeUntagged(naivePath))
        let worstNaive = zip(naive, expected).map { max(abs($0.r - $1.0), abs($0.g - $1.1), abs($0.b - $1.2)) }.max() ?? 0
        #expect(worstNaive > 20, "the naive conversion is within \(worstNaive) levels: the profile was not needed to tell")
    }

    /// Runs ImageMagick's `convert` with `arguments`.
    static func convert(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["convert"] + arguments
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "convert \(arguments.joined(separator: " ")) failed (Debian: imagemagick, libgs-common)")
    }

    /// `jpeg` without its APP2 segments (the ICC profile's chunks).
    static func removingICC(_ jpeg: [UInt8]) -> [UInt8] {
        var kept: [UInt8] = Array(jpeg[0..<2])
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF, jpeg[offset + 1] != 0xDA {
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            if jpeg[offset + 1] != 0xE2 { kept += jpeg[offset..<(offset + 2 + length)] }
            offset += 2 + length
        }
        return kept + jpeg[offset...]
    }
}
