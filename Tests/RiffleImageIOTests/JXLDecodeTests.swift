import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing

/// JPEG XL through libjxl, made by `cjxl` and compared with `djxl`'s decode (libjxl both, so
/// they agree within 1: Riffle premultiplies djxl's straight values and reduces 16-bit samples
/// itself).
@Suite("JPEG XL decoding", .enabled(if: StillFixtures.available("cjxl", "djxl")))
struct JXLDecodeTests {
    static let size = PixelSize(width: 96, height: 64)

    /// Name, `cjxl` options, translucent, 16-bit source.
    static let cases: [(name: String, options: [String], alpha: Bool, deep: Bool)] = [
        ("lossy", ["-d", "1"], false, false),
        ("lossless", ["-d", "0"], false, false),
        ("lossless with alpha", ["-d", "0"], true, false),
        ("lossless 16-bit", ["-d", "0"], false, true),
    ]

    @Test("Decodes as djxl does", arguments: cases.map { $0.name })
    func decode(name: String) throws {
        let item = try #require(Self.cases.first { $0.name == name })
        let slug = name.filter { $0.isLetter || $0.isNumber } + "-" + UUID().uuidString.prefix(8)
        var source = try StillFixtures.png("jxl-\(slug).png", StillFixtures.picture(Self.size, alpha: item.alpha))
        if item.deep {
            let deep = StillFixtures.path("jxl-\(slug)-16.png")
            try StillFixtures.run("convert", [source, "-depth", "16", deep])
            source = deep
        }
        let file = StillFixtures.path(slug + ".jxl"), reference = StillFixtures.path(slug + "-reference.png")
        try StillFixtures.run("cjxl", [source, file] + item.options)
        try StillFixtures.run("djxl", [file, reference])
        let decoded = try ImageDecoder.decodeFile(atPath: file)
        #expect(decoded.format == .jxl)
        #expect(decoded.info.hasAlpha == item.alpha)
        let expected = try StillFixtures.reference(reference)
        #expect(StillFixtures.maxDifference(decoded.pixels, expected) <= 1, "\(StillFixtures.worstPixel(decoded.pixels, expected))")
        if item.options.contains("0") {
            // Lossless: the source itself (16-bit samples v·257 reduce back to v exactly).
            #expect(StillFixtures.maxDifference(decoded.pixels, StillFixtures.picture(Self.size, alpha: item.alpha)) <= (item.alpha ? 1 : 0))
        }
    }

    @Test("A JPEG recompressed into JPEG XL decodes to its pixels, oriented by its EXIF as djxl orients it")
    func recompressedJPEG() throws {
        let jpeg = try ExifThumbnail.inserting(
            thumbnail: [], orientation: .rightTop, into: JPEGEncoder.encode(StillFixtures.picture(Self.size), quality: 90))
        let source = StillFixtures.write(jpeg, to: "jxl-source.jpg")
        let file = StillFixtures.path("recompressed.jxl"), reference = StillFixtures.path("recompressed.png")
        try StillFixtures.run("cjxl", [source, file])
        try StillFixtures.run("djxl", [file, reference])
        let decoded = try ImageDecoder.decodeFile(atPath: file)
        let expected = try StillFixtures.reference(reference)
        #expect(decoded.pixels.size == expected.size)
        #expect(StillFixtures.maxDifference(decoded.pixels, expected) <= 2, "\(StillFixtures.worstPixel(decoded.pixels, expected))")
        #expect(decoded.info.orientation == .rightTop)
        // And JPEG's own decode of the same bytes, turned by the same EXIF, is the same picture.
        let original = try ImageDecoder.decode(jpeg).pixels
        #expect(StillFixtures.maxDifference(decoded.pixels, original) <= 2)
    }

    @Test("Broken files give a reason", arguments: ["truncated", "garbage"])
    func broken(kind: String) throws {
        let source = try StillFixtures.png("jxl-broken.png", StillFixtures.picture(PixelSize(width: 256, height: 256)))
        let file = StillFixtures.path("broken-source.jxl")
        try StillFixtures.run("cjxl", [source, file, "-d", "1"])
        let bytes = try FileBytes.read(atPath: file)
        let broken = kind == "truncated" ? StillFixtures.truncated(bytes, to: 0.5) : StillFixtures.garbage(after: 2, of: bytes)
        let path = StillFixtures.write(broken, to: "broken-\(kind).jxl")
        let reason = try #require(StillFixtures.decodeError(path))
        #expect(reason.contains("JPEG XL"))
    }

    @Test("A JPEG XL named .png opens as a JPEG XL")
    func misnamed() throws {
        let source = try StillFixtures.png("jxl-named.png", StillFixtures.picture(Self.size))
        let file = StillFixtures.path("named.jxl")
        try StillFixtures.run("cjxl", [source, file, "-d", "0"])
        let named = StillFixtures.write(try FileBytes.read(atPath: file), to: "not-really.png")
        #expect(try ImageDecoder.decodeFile(atPath: named).format == .jxl)
    }

    // The Exif box search once went round forever on a bare codestream, which has no box at
    // all: the window's title froze on the first JPEG XL paged to.
    @Test("A bare codestream has no EXIF details, and says so at once", .timeLimit(.minutes(1)))
    func bareCodestreamHasNoDetails() throws {
        let source = try StillFixtures.png("jxl-bare.png", StillFixtures.picture(Self.size))
        let file = StillFixtures.path("bare.jxl")
        try StillFixtures.run("cjxl", [source, file, "-d", "1"])
        let bytes = try FileBytes.read(atPath: file)
        #expect(ImageFormat.detect(bytes) == .jxl && bytes.starts(with: [0xFF, 0x0A]), "cjxl wrote a container")
        #expect(ImageCodecs.codec(for: .jxl).exifDetails(head: bytes, path: file) == nil)
        // Cut anywhere, the header read and the decode end too (the time limit is the check),
        // and a codestream cut short never decodes.
        for cut in [2, 16, bytes.count / 2] {
            _ = try? ImageDecoder.probe(Array(bytes.prefix(cut)))
            #expect((try? ImageDecoder.decode(Array(bytes.prefix(cut)))) == nil, "a codestream cut at \(cut) bytes decoded")
        }
    }

    /// A JPEG XL whose colour encoding is linear light (`cjxl -x color_space=…_Lin`: lossless
    /// keeps the values, which now mean linear sRGB; lossy codes them in XYB), and one whose
    /// source carries an ICC profile (Adobe RGB), which libjxl keeps as an ICC profile: decoding
    /// a lossy (XYB) one, libjxl 0.7 cannot reach that profile and delivers linear sRGB instead.
    /// Shown on an sRGB display: within 2 of lcms2's `transicc` of `djxl`'s values through the
    /// profile djxl says they are in (`--icc_out`).
    @Test("Linear light, and XYB from an ICC profile, are shown as lcms2 converts djxl's decode", arguments: [
        "linear lossless", "linear lossy", "Adobe RGB lossless", "Adobe RGB lossy",
    ])
    func colourEncoding(kind: String) throws {
        let distance = ["-d", kind.hasSuffix("lossless") ? "0" : "1"]
        if kind.hasPrefix("Adobe") {
            try Self.expectShownAsDJXLThroughLCMS(kind, options: distance, sourceProfile: ColourProfiles.adobeRGB)
        } else {
            try Self.expectShownAsDJXLThroughLCMS(kind, options: ["-x", "color_space=RGB_D65_SRG_Rel_Lin"] + distance)
        }
    }

    /// Decodes the JPEG XL that `cjxl` makes with `options` from `StillFixtures.picture`, and
    /// expects what an sRGB display shows of it within 2 of lcms2's transform of djxl's decode.
    /// With `sourceProfile`, the source PNG carries that ICC profile (assigned by ImageMagick,
    /// the values kept).
    static func expectShownAsDJXLThroughLCMS(
        _ name: String, options: [String], sourceProfile: [UInt8]? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let slug = "jxl-colour-\(name.filter { $0.isLetter })-" + UUID().uuidString.prefix(8)
        var source = try StillFixtures.png(slug + "-source.png", StillFixtures.picture(Self.size))
        if let sourceProfile {
            let icc = StillFixtures.write(sourceProfile, to: slug + "-source.icc"), tagged = StillFixtures.path(slug + "-tagged.png")
            try StillFixtures.run("convert", [source, "-profile", icc, tagged])
            source = tagged
        }
        let file = StillFixtures.path(slug + ".jxl"), reference = StillFixtures.path(slug + "-djxl.png")
        let profile = StillFixtures.path(slug + "-djxl.icc")
        try StillFixtures.run("cjxl", [source, file] + options)
        try StillFixtures.run("djxl", [file, reference, "--icc_out=" + profile, "--bits_per_sample=8"])
        let shown = ColourManagement(displayProfile: nil).toDisplay(try ImageDecoder.decodeFile(atPath: file)).pixels
        let raw = try ImageDecoder.decodeFile(atPath: reference).pixels
        let points = [(2, 2), (20, 10), (48, 32), (70, 50), (93, 61), (10, 60), (90, 5)]
        let values = points.map { Channels(raw[$0.0, $0.1]) }.map { ($0.r, $0.g, $0.b) }
        let expected = try LCMSReference.transform(values, from: Array(FileBytes.read(atPath: profile)), to: nil)
        for ((x, y), e) in zip(points, expected) {
            let a = Channels(shown[x, y])
            #expect(max(abs(a.r - e.0), abs(a.g - e.1), abs(a.b - e.2)) <= 2, "(\(x), \(y)): got \(a), lcms2 gives \(e)", sourceLocation: sourceLocation)
        }
    }
}
