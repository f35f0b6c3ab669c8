import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing

/// JPEG XL through libjxl, made by `cjxl` and compared with `djxl`'s decode (libjxl both, so
/// they agree within 1: Riffle premultiplies djxl's straight values and reduces 16-bit samples
/// itself).
@Suite("JPEG XL decoding", StillFixtures.needing("cjxl", "djxl"))
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
        let slug = name.filter { $0.isLetter || $0.isNumber }
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
    @Test("A bare codestream has no EXIF details, and says so at once")
    func bareCodestreamHasNoDetails() throws {
        let source = try StillFixtures.png("jxl-bare.png", StillFixtures.picture(Self.size))
        let file = StillFixtures.path("bare.jxl")
        try StillFixtures.run("cjxl", [source, file, "-d", "1"])
        let bytes = try FileBytes.read(atPath: file)
        #expect(ImageFormat.detect(bytes) == .jxl && bytes.starts(with: [0xFF, 0x0A]), "cjxl wrote a container")
        let details = ending(within: 20) { ImageCodecs.codec(for: .jxl).exifDetails(head: bytes, path: file) == nil }
        #expect(details == true, "the EXIF search ended, finding nothing")
        // Cut anywhere, the header read and the decode end too, and a codestream cut short
        // never decodes.
        for cut in [2, 16, bytes.count / 2] {
            let decoded = ending(within: 20) {
                _ = try? ImageDecoder.probe(Array(bytes.prefix(cut)))
                return (try? ImageDecoder.decode(Array(bytes.prefix(cut)))) != nil
            }
            #expect(decoded == false, "a codestream cut at \(cut) bytes decoded, or its decode did not end")
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
        let slug = "jxl-colour-\(name.filter { $0.isLetter })"
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

    /// A CMYK JPEG XL as a print workflow writes one: C, M and Y as the colour channels, K as a
    /// black extra channel, and a CMYK ICC profile (Ghostscript's SWOP, Debian's libgs-common).
    /// cjxl 0.7 reads no CMYK input, so libjxl's own encoder makes it, driven from Python
    /// (`cmykEncoder`), from the inks ImageMagick separates the test picture into. Shown within
    /// `CMYKColourTests.tolerance` of ImageMagick's conversion of the same inks to sRGB through
    /// the profile (perceptual, black point compensation), as a CMYK JPEG is: within
    /// `TIFFDecodeTests.labDeltaE` (ImageMagick converts at 16 bits, lcms2's 8-bit transform
    /// interpolates the profile's table: near black one channel of a gamut-edge green is up to
    /// 17 levels apart). C, M and Y taken as R, G and B are far off.
    @Test(StillFixtures.needing("python3", "convert", files: [CMYKColourTests.cmykProfile]))
    func cmyk() throws {
        let slug = "jxl-cmyk"
        let source = try StillFixtures.png(slug + "-source.png", StillFixtures.picture(Self.size))
        let inks = StillFixtures.path(slug + ".cmyk"), file = StillFixtures.path(slug + ".jxl")
        let reference = StillFixtures.path(slug + "-reference.png")
        try StillFixtures.run("convert", [source, "-profile", CMYKColourTests.sRGBProfile, "-profile", CMYKColourTests.cmykProfile, "-depth", "8", "cmyk:" + inks])
        try StillFixtures.run("python3", ["-c", Self.cmykEncoder, "\(Self.size.width)", "\(Self.size.height)", inks, CMYKColourTests.cmykProfile, file])
        try StillFixtures.run("convert", [
            "-size", "\(Self.size.width)x\(Self.size.height)", "-depth", "8", "cmyk:" + inks, "-profile", CMYKColourTests.cmykProfile,
            "-intent", "Perceptual", "-black-point-compensation", "-profile", CMYKColourTests.sRGBProfile, "-depth", "8", "PNG24:" + reference,
        ])
        let decoded = ColourManagement(displayProfile: nil).toDisplay(try ImageDecoder.decodeFile(atPath: file))
        #expect(decoded.info.iccProfile == nil, "the decoder converts through the CMYK profile: its pixels are sRGB")
        let expected = try StillFixtures.reference(reference)
        try #require(decoded.pixels.size == expected.size)
        let worst = TIFFDecodeTests.worstDeltaE(decoded.pixels, expected)
        #expect(
            worst.difference <= TIFFDecodeTests.labDeltaE,
            "ΔE \(worst.difference) at (\(worst.x), \(worst.y)): \(Channels(decoded.pixels[worst.x, worst.y])) against \(Channels(expected[worst.x, worst.y]))")
    }

    /// A Python program that writes a lossless CMYK JPEG XL through libjxl 0.7's encoder (ctypes):
    /// arguments width, height, the inks (C, M, Y, K bytes a pixel, 0 = no ink as in ICC's
    /// CMYK), the CMYK ICC profile, the output path. JPEG XL stores each as 1 − ink.
    /// JxlBasicInfo's fields are set at their offsets in libjxl 0.7's codestream_header.h.
    static let cmykEncoder = #"""
import ctypes, sys
jxl = ctypes.CDLL("libjxl.so.0.7")
W, H = int(sys.argv[1]), int(sys.argv[2])
inks = open(sys.argv[3], "rb").read()          # C, M, Y, K a pixel, 0 = no ink (ICC's way)
icc = open(sys.argv[4], "rb").read()
out_path = sys.argv[5]
jxl.JxlEncoderCreate.restype = ctypes.c_void_p
enc = ctypes.c_void_p(jxl.JxlEncoderCreate(None))
info = ctypes.create_string_buffer(512)
jxl.JxlEncoderInitBasicInfo(info)
def put(buf, offset, value): ctypes.memmove(ctypes.addressof(buf) + offset, ctypes.byref(ctypes.c_uint32(value)), 4)
put(info, 4, W); put(info, 8, H); put(info, 12, 8); put(info, 16, 0)
put(info, 36, 1)   # uses_original_profile: lossless, no XYB
put(info, 52, 3); put(info, 56, 1)  # three colour channels, one extra (black)
assert jxl.JxlEncoderSetBasicInfo(enc, info) == 0, "basic info"
assert jxl.JxlEncoderSetICCProfile(enc, icc, len(icc)) == 0, "icc"
ec = ctypes.create_string_buffer(128)
jxl.JxlEncoderInitExtraChannelInfo(4, ec)   # JXL_CHANNEL_BLACK
put(ec, 4, 8)
assert jxl.JxlEncoderSetExtraChannelInfo(enc, 0, ec) == 0, "extra channel info"
jxl.JxlEncoderFrameSettingsCreate.restype = ctypes.c_void_p
settings = ctypes.c_void_p(jxl.JxlEncoderFrameSettingsCreate(enc, None))
assert jxl.JxlEncoderSetFrameLossless(settings, 1) == 0, "lossless"
class Format(ctypes.Structure):
    _fields_ = [("channels", ctypes.c_uint32), ("type", ctypes.c_int), ("endianness", ctypes.c_int), ("align", ctypes.c_size_t)]
# JPEG XL keeps CMYK as 1 − ink (0 = full ink), the opposite of ICC's CMYK.
cmy = bytes(255 - inks[4 * i + c] for i in range(W * H) for c in range(3))
k = bytes(255 - inks[4 * i + 3] for i in range(W * H))
f3 = Format(3, 2, 0, 0); f1 = Format(1, 2, 0, 0)   # JXL_TYPE_UINT8 = 2
assert jxl.JxlEncoderAddImageFrame(settings, ctypes.byref(f3), cmy, len(cmy)) == 0, "frame"
assert jxl.JxlEncoderSetExtraChannelBuffer(settings, ctypes.byref(f1), k, len(k), 0) == 0, "black"
jxl.JxlEncoderCloseInput(enc)
out = bytearray(); chunk = ctypes.create_string_buffer(1 << 16)
while True:
    p = ctypes.c_void_p(ctypes.addressof(chunk)); avail = ctypes.c_size_t(len(chunk))
    status = jxl.JxlEncoderProcessOutput(enc, ctypes.byref(p), ctypes.byref(avail))
    out += chunk.raw[:len(chunk) - avail.value]
    if status == 0: break
    assert status == 2, "process output %d" % status
open(out_path, "wb").write(out)
"""#
}
