import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

/// HEIC and AVIF through libheif, made by libheif's `heif-enc` (x265, aom) and compared with
/// `heif-convert`'s decode of the same file: both run libheif's decoder and its YCbCr→RGB
/// conversion, so they agree within 1 (Riffle premultiplies the straight values heif-convert
/// writes, and reduces deeper samples itself).
@Suite("HEIF and AVIF decoding", StillFixtures.needing("heif-enc", "heif-convert"))
struct HEIFDecodeTests {
    static let size = PixelSize(width: 96, height: 64)

    /// The cases: name, `heif-enc` options, a translucent source, 16-bit source PNG, format.
    static let cases: [(name: String, options: [String], alpha: Bool, format: ImageFormat)] = [
        ("HEIC", ["-q", "90"], false, .heif),
        ("HEIC with alpha", ["-q", "90"], true, .heif),
        ("HEIC, 10-bit", ["-q", "90", "-b", "10"], false, .heif),
        ("AVIF", ["-A", "-q", "90"], false, .avif),
        ("AVIF with alpha", ["-A", "-q", "90"], true, .avif),
        ("AVIF, 12-bit", ["-A", "-q", "90", "-b", "12"], false, .avif),
    ]

    static func make(_ name: String, options: [String], alpha: Bool, picture: PixelBuffer? = nil) throws -> (file: String, reference: String) {
        let slug = name.filter { $0.isLetter || $0.isNumber }
        let source = try StillFixtures.png("heif-source-\(slug).png", picture ?? StillFixtures.picture(size, alpha: alpha))
        let file = StillFixtures.path(slug + (options.contains("-A") ? ".avif" : ".heic"))
        let reference = StillFixtures.path(slug + "-reference.png")
        try StillFixtures.run("heif-enc", options + ["-o", file, source])
        try StillFixtures.run("heif-convert", [file, reference])
        return (file, reference)
    }

    @Test("Decodes as heif-convert does", arguments: cases.map { $0.name })
    func decode(name: String) throws {
        let item = try #require(Self.cases.first { $0.name == name })
        let (file, reference) = try Self.make(name, options: item.options, alpha: item.alpha)
        let decoded = try ImageDecoder.decodeFile(atPath: file)
        #expect(decoded.format == item.format)
        #expect(decoded.info.hasAlpha == item.alpha)
        #expect(decoded.info.orientation == .topLeft)
        let expected = try StillFixtures.reference(reference)
        #expect(StillFixtures.maxDifference(decoded.pixels, expected) <= 1, "\(StillFixtures.worstPixel(decoded.pixels, expected))")
        // And within what the lossy codec keeps of the source (quality 90): 12 levels.
        #expect(StillFixtures.maxDifference(decoded.pixels, StillFixtures.picture(Self.size, alpha: item.alpha)) <= 12)
    }

    @Test("The fit decode is the whole decode shrunk, and sharp")
    func fit() throws {
        let (file, _) = try Self.make("HEIC", options: ["-q", "90"], alpha: false)
        let target = PixelSize(width: 24, height: 16)
        let fitted = try ImageDecoder.decodeFile(atPath: file, shrunkTo: { _ in target })
        #expect(fitted.pixels.size == target)
        let whole = try ImageDecoder.decodeFile(atPath: file).pixels
        // From 96×64 to 24×16 the decode is box-halved once (48×32, still twice the target),
        // then Lanczos-3: within 2 levels of Lanczos-3 from the whole picture on this smooth ramp.
        #expect(StillFixtures.maxDifference(fitted.pixels, DownscaleFilter.lanczos3.shrink(whole, to: target)) <= 2)
    }

    @Test("The embedded thumbnail is the preview")
    func thumbnail() throws {
        let (file, _) = try Self.make("HEIC with thumbnail", options: ["-q", "90", "-t", "32"], alpha: false)
        let head = try FileBytes.read(atPath: file, upTo: ImageCodecs.headBytes)
        let codec = try ImageCodecs.codec(forHead: head)
        let info = try codec.probe(head: head, path: file)
        let thumbnail = try #require(codec.embeddedThumbnail(head: head, path: file, info: info))
        // heif-enc -t 32: at most 32 a side, the aspect kept (libheif rounds 21.3 down).
        #expect(thumbnail.width == 32 && (20...22).contains(thumbnail.height))
    }

    @Test("An EXIF orientation is not applied over libheif's transformations")
    func exifOrientation() throws {
        // A JPEG that says "turn me" (orientation 6): heif-enc keeps its EXIF block, and libheif
        // alone decides what is upright, as heif-convert shows.
        let jpeg = try ExifThumbnail.inserting(
            thumbnail: [], orientation: .rightTop, into: JPEGEncoder.encode(StillFixtures.picture(Self.size), quality: 95))
        let source = StillFixtures.write(jpeg, to: "heif-exif-source.jpg")
        let file = StillFixtures.path("exif-oriented.heic"), reference = StillFixtures.path("exif-oriented.png")
        try StillFixtures.run("heif-enc", ["-q", "90", "-o", file, source])
        try StillFixtures.run("heif-convert", [file, reference])
        let decoded = try ImageDecoder.decodeFile(atPath: file)
        // The file has no irot: the picture is as stored, whatever its EXIF says.
        #expect(decoded.pixels.size == Self.size)
        #expect(StillFixtures.maxDifference(decoded.pixels, StillFixtures.picture(Self.size)) <= 12)
        // heif-convert copies the EXIF block into its PNG, whose eXIf Riffle's PNG decoder turns:
        // the same pixels, turned, say the two decodes agree on what is stored.
        let expected = try ImageDecoder.decodeFile(atPath: reference)
        #expect(expected.info.orientation == .rightTop)
        #expect(StillFixtures.maxDifference(ImageOrientation.rightTop.upright(decoded.pixels), expected.pixels) <= 1)
    }

    @Test("A HEIC named .jpg opens as a HEIF")
    func misnamed() throws {
        let (file, _) = try Self.make("HEIC", options: ["-q", "90"], alpha: false)
        let named = StillFixtures.write(try FileBytes.read(atPath: file), to: "phone-photo.jpg")
        #expect(try ImageDecoder.decodeFile(atPath: named).format == .heif)
    }

    @Test("Broken files give a reason", arguments: ["HEIC truncated", "HEIC garbage", "AVIF truncated", "AVIF garbage"])
    func broken(name: String) throws {
        let avif = name.hasPrefix("AVIF")
        let (file, _) = try Self.make(avif ? "AVIF" : "HEIC", options: avif ? ["-A", "-q", "90"] : ["-q", "90"], alpha: false)
        let bytes = try FileBytes.read(atPath: file)
        // The ftyp box (its brands name the format) kept, then no valid box.
        let broken = name.hasSuffix("truncated") ? StillFixtures.truncated(bytes, to: 0.6) : StillFixtures.garbage(after: 32, of: bytes)
        let path = StillFixtures.write(broken, to: "broken-\(name.filter { $0.isLetter }).heic")
        let reason = try #require(StillFixtures.decodeError(path))
        #expect(reason.contains(avif ? "AVIF" : "HEIF"))
    }

    /// A 613-byte AVIF found by the `swift-decode` fuzzer: its alpha item's data is empty, which
    /// dav1d refuses (and libheif 1.15 then never frees, Fuzz/lsan-suppressions.txt). Its header
    /// reads; its decode is refused with a reason.
    @Test func anAVIFWhoseAlphaDataIsEmptyIsRefusedWithAReason() throws {
        let path = ImageIOFixtures.path("fuzz-avif-empty-alpha.avif")
        let info = try ImageDecoder.probeFile(atPath: path)
        #expect(info.format == .avif && info.hasAlpha)
        let reason = try #require(StillFixtures.decodeError(path))
        #expect(reason == "The AVIF data is damaged: Decoder plugin generated an error: Unspecified")
    }

    /// The fuzz seed `alpha.avif` with an nclx transfer characteristic no standard defines (184),
    /// as the `swift-exif` fuzzer found it: libheif refuses the code points and once leaked the
    /// profile it had made for them (seen under `make test-sanitize`). The photo decodes and is
    /// read as sRGB: no profile.
    @Test func anAVIFWithAnUnknownTransferIsReadAsSRGB() throws {
        let decoded = try ImageIOFixtures.decode("fuzz-avif-unknown-transfer.avif")
        #expect(decoded.info.format == .avif)
        #expect(decoded.info.iccProfile == nil)
        #expect(decoded.pixels.width == 96 && decoded.pixels.height == 64)
    }

    /// AVIFs made by libavif's `avifenc` with a transformative property, then edited so that the
    /// primary item's ipma entry lists ispe last (the same bytes, reordered: ISO/IEC 23008-12
    /// lets the entry list ispe anywhere, and ispe is always the coded size). libheif 1.15 sizes
    /// such a file as stored; `heif-convert` shows what libheif decodes, rotated or cropped.
    @Test(
        "A transformation listed before ispe is in the size", StillFixtures.needing("avifenc"),
        arguments: [("irot", ["--irot", "1"]), ("clap", ["--crop", "8,4,64,40"])])
    func transformationBeforeISPE(name: String, options: [String]) throws {
        let slug = "ispe-last-\(name)"
        let source = try StillFixtures.png(slug + "-source.png", StillFixtures.picture(Self.size))
        let made = StillFixtures.path(slug + "-made.avif")
        try StillFixtures.run("avifenc", options + ["-s", "8", source, made])
        let file = StillFixtures.write(try Self.listingISPELast(FileBytes.read(atPath: made)), to: slug + ".avif")
        let reference = StillFixtures.path(slug + ".png")
        try StillFixtures.run("heif-convert", [file, reference])
        let expected = try StillFixtures.reference(reference)
        // 90° anticlockwise: 64 × 96; the crop: 64 × 40.
        #expect(expected.size == (name == "irot" ? PixelSize(width: 64, height: 96) : PixelSize(width: 64, height: 40)))
        #expect(try ImageDecoder.probeFile(atPath: file).uprightSize == expected.size)
        let decoded = try ImageDecoder.decodeFile(atPath: file)
        #expect(decoded.info.uprightSize == expected.size)
        #expect(StillFixtures.maxDifference(decoded.pixels, expected) <= 1, "\(StillFixtures.worstPixel(decoded.pixels, expected))")
    }

    /// `avif` with each ipma entry's association with ispe moved to the end of the entry, the
    /// others kept in order (ISO/IEC 23008-12, 9.3.2: ItemPropertyAssociationBox). Sizes do not
    /// change, so every offset in the file stays right.
    static func listingISPELast(_ avif: [UInt8]) throws -> [UInt8] {
        func u32(_ at: Int) -> Int { Int(avif[at]) << 24 | Int(avif[at + 1]) << 16 | Int(avif[at + 2]) << 8 | Int(avif[at + 3]) }
        func find(_ type: String) throws -> Int {
            let bytes = Array(type.utf8)
            guard let at = avif.firstRange(of: bytes)?.lowerBound else { throw ImageDecodeError(reason: "no \(type) box") }
            return at - 4  // the box's start, its size before its type
        }
        // ipco's children, 1-based: the index of ispe.
        let ipco = try find("ipco")
        var index = 0, ispe = 0, at = ipco + 8
        while at < ipco + u32(ipco) {
            index += 1
            if String(decoding: avif[(at + 4)..<(at + 8)], as: UTF8.self) == "ispe" { ispe = index }
            at += u32(at)
        }
        var edited = avif
        let ipma = try find("ipma")
        let version = Int(avif[ipma + 8]), wide = avif[ipma + 11] & 1 == 1
        var entry = ipma + 16
        for _ in 0..<u32(ipma + 12) {
            entry += version < 1 ? 2 : 4
            let count = Int(avif[entry]), width = wide ? 2 : 1
            let associations = (0..<count).map { Array(avif[(entry + 1 + $0 * width)..<(entry + 1 + ($0 + 1) * width)]) }
            let isISPE = { (a: [UInt8]) in (wide ? Int(a[0] & 0x7F) << 8 | Int(a[1]) : Int(a[0] & 0x7F)) == ispe }
            let reordered = associations.filter { !isISPE($0) } + associations.filter(isISPE)
            edited.replaceSubrange((entry + 1)..<(entry + 1 + count * width), with: reordered.joined())
            entry += 1 + count * width
        }
        return edited
    }

    /// A monochrome AVIF coded in limited range by `avifenc -y 400 -r limited` (lossless, so the
    /// coded grey is exactly 16 + 208·219/255 → 195): H.273 (8.3) expands it back to 208. libheif
    /// 1.15 copies monochrome Y to R, G and B unexpanded.
    @Test(StillFixtures.needing("avifenc"))
    func aLimitedRangeMonochromeAVIFIsExpanded() throws {
        let slug = "grey-limited"
        let grey = PixelBuffer(width: 32, height: 32)
        for y in 0..<32 { for x in 0..<32 { grey[x, y] = 0xFFD0_D0D0 } }  // 208
        let source = try StillFixtures.png(slug + ".png", grey)
        let file = StillFixtures.path(slug + ".avif")
        try StillFixtures.run("avifenc", ["-y", "400", "-r", "limited", "--min", "0", "--max", "0", "-s", "8", source, file])
        let decoded = try ImageDecoder.decodeFile(atPath: file)
        #expect(StillFixtures.maxDifference(decoded.pixels, grey) <= 1, "\(StillFixtures.worstPixel(decoded.pixels, grey))")
    }

    /// An AVIF whose alpha plane is coded in limited range: `avifenc` codes alpha 233 losslessly in
    /// full range, then the alpha item's AV1 sequence header is edited to say limited range
    /// (color_range, one bit, AV1 specification 5.5.2), so 233 means (233 − 16)·255/219 → 253
    /// (H.273, 8.3). libavif's `avifdec` expands it so; the colour is compared with its decode
    /// within 2 (the two YCbCr conversions round differently).
    @Test(StillFixtures.needing("avifenc", "avifdec"))
    func aLimitedRangeAlphaIsExpanded() throws {
        let slug = "alpha-limited"
        let source = PixelBuffer(width: 32, height: 32)
        // Straight (100, 150, 200) at alpha 233, premultiplied.
        let a = 233, colour = [100, 150, 200].map { UInt32(($0 * a + 127) / 255) }
        for y in 0..<32 { for x in 0..<32 { source[x, y] = UInt32(a) << 24 | colour[0] << 16 | colour[1] << 8 | colour[2] } }
        let png = try StillFixtures.png(slug + ".png", source)
        let made = StillFixtures.path(slug + "-full.avif")
        try StillFixtures.run("avifenc", ["--min", "0", "--max", "0", "--minalpha", "0", "--maxalpha", "0", "-s", "8", png, made])
        let file = StillFixtures.write(try Self.alphaInLimitedRange(FileBytes.read(atPath: made)), to: slug + ".avif")
        let reference = StillFixtures.path(slug + "-avifdec.png")
        try StillFixtures.run("avifdec", [file, reference])
        let expected = try StillFixtures.reference(reference)
        #expect(expected[0, 0] >> 24 == 253)
        let decoded = try ImageDecoder.decodeFile(atPath: file)
        #expect(decoded.pixels[0, 0] >> 24 == 253)
        #expect(StillFixtures.maxDifference(decoded.pixels, expected) <= 2, "\(StillFixtures.worstPixel(decoded.pixels, expected))")
    }

    /// `avif` (as `avifenc` writes it: iloc version 0, the colour item 1 and its alpha item 2)
    /// with the alpha item's sequence header's color_range set to 0, limited.
    static func alphaInLimitedRange(_ avif: [UInt8]) throws -> [UInt8] {
        func u(_ at: Int, _ size: Int) -> Int { (0..<size).reduce(0) { $0 << 8 | Int(avif[at + $1]) } }
        guard let iloc = avif.firstRange(of: Array("iloc".utf8))?.lowerBound, avif[iloc + 4] == 0 else {
            throw ImageDecodeError(reason: "no iloc box of version 0")
        }
        // ISO/IEC 14496-12 8.11.3: offset and length sizes, base offset size, item count.
        let offsetSize = Int(avif[iloc + 8] >> 4), lengthSize = Int(avif[iloc + 8] & 15), baseSize = Int(avif[iloc + 9] >> 4)
        var at = iloc + 12, data: Int?
        for _ in 0..<u(iloc + 10, 2) {
            let item = u(at, 2), base = u(at + 4, baseSize)
            at += 4 + baseSize
            let extents = u(at, 2)
            at += 2
            if item == 2 { data = base + u(at, offsetSize) }
            at += extents * (offsetSize + lengthSize)
        }
        guard var obu = data else { throw ImageDecodeError(reason: "no alpha item") }
        // AV1 5.3: OBU headers; the sequence header is type 1.
        while (avif[obu] >> 3) & 15 != 1 {
            var size = 0, shift = 0, p = obu + 1 + Int((avif[obu] >> 2) & 1)
            while true {
                size |= Int(avif[p] & 0x7F) << shift
                shift += 7
                p += 1
                if avif[p - 1] & 0x80 == 0 { break }
            }
            obu = p + size
        }
        var p = obu + 1 + Int((avif[obu] >> 2) & 1)
        while avif[p] & 0x80 != 0 { p += 1 }
        var bit = (p + 1) * 8
        func f(_ n: Int) -> Int {
            var value = 0
            for _ in 0..<n {
                value = value << 1 | Int((avif[bit >> 3] >> (7 - UInt8(bit & 7))) & 1)
                bit += 1
            }
            return value
        }
        // AV1 5.5.1, as libavif writes a still's alpha: reduced_still_picture_header, monochrome.
        let profile = f(3)
        _ = f(1)
        guard f(1) == 1, profile == 0 else { throw ImageDecodeError(reason: "not a reduced header of profile 0") }
        _ = f(5)
        let widthBits = f(4) + 1, heightBits = f(4) + 1
        _ = f(widthBits + heightBits)
        _ = f(3 + 3)  // superblock, filter intra, intra edge; superres, cdef, restoration
        _ = f(1)  // high_bitdepth
        guard f(1) == 1 else { throw ImageDecodeError(reason: "the alpha is not monochrome") }
        if f(1) == 1 { _ = f(24) }  // colour description
        guard f(1) == 1 else { throw ImageDecodeError(reason: "the alpha is already in limited range") }
        var edited = avif
        edited[(bit - 1) >> 3] &= ~(0x80 >> UInt8((bit - 1) & 7))
        return edited
    }

    // MARK: files libheif 1.15 refuses

    /// HEICs that libheif 1.15 will not open, made from `heif-enc`'s by rewriting the meta box
    /// (`rewritingMeta`): an auxiliary image (the alpha) whose auxl reference names two images,
    /// as recent iPhones' gain maps do ("Too many auxiliary image references"), and a primary
    /// item that is a derived `iden` image (ISO/IEC 23008-12, 6.6.2.2) of the coded one, turned
    /// 90° by its own irot ("Item with ID 2 has no compressed data"). Riffle reads them itself
    /// (heif_hevc.c: HEVC through libde265): the coded picture as heif-convert decodes the
    /// unedited file, within `ownDecodeTolerance`; for `iden`, turned 90° anticlockwise (EXIF's
    /// orientation 8).
    /// And an iden of a grid whose two tiles are the coded image: the picture twice, side by side,
    /// turned.
    /// And a 10-bit one, whose samples Riffle's own path rounds to 8 bits where the reference's
    /// 16-bit PNG is dithered (`DeepSamples`): within `ownDeepDecodeTolerance`. And ones whose
    /// coded image carries a transformation of its own (imir of either mode, clap), applied by
    /// the test to heif-convert's decode of the untransformed file as the specifications say:
    /// libheif 1.15 itself mirrors left to right across its padded row (a 96-pixel picture about
    /// x = 63.5) and drops the alpha of a cropped picture, so its decode of these is no reference.
    /// imir mode 0 exchanges top and bottom, 1 left and right (23008-12 6.5.12, as libheif and
    /// libavif read it); clap keeps the clean aperture (14496-12 12.1.4): 60 × 40 centred 4 pixels
    /// right of and 2 above the picture's centre, (22, 10) to (81, 49).
    @Test(arguments: [
        "two auxl references", "iden primary", "iden of a grid", "two auxl references, 10-bit", "two auxl references, imir 0",
        "two auxl references, imir 1", "two auxl references, clap",
    ])
    func aHEICLibheifRefusesIsReadByRiffle(name: String) throws {
        let alpha = name.hasPrefix("two"), grid = name.hasSuffix("grid"), deep = name.hasSuffix("10-bit")
        var (file, reference) = try Self.make(name, options: ["-q", "90"] + (deep ? ["-b", "10"] : []), alpha: alpha)
        var transformed: ((PixelBuffer) -> PixelBuffer)?
        if let transformation = [
            "imir 0": Self.box("imir", [0]), "imir 1": Self.box("imir", [1]),
            // 14496-12 12.1.4: a 60 × 40 clean aperture, 4 pixels right of centre and 2 above.
            "clap": Self.box("clap", [60, 1, 40, 1, 4, 1, -2, 1].flatMap { (v: Int) -> [UInt8] in
                [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }),
        ].first(where: { name.hasSuffix($0.key) })?.value {
            file = StillFixtures.write(
                try Self.adding(transformation, toItem: 1, of: FileBytes.read(atPath: file)),
                to: name.filter { $0.isLetter || $0.isNumber } + "-transformed.heic")
            transformed = { picture in
                let clap = name.hasSuffix("clap")
                let out = PixelBuffer(width: clap ? 60 : picture.width, height: clap ? 40 : picture.height)
                for y in 0..<out.height {
                    for x in 0..<out.width {
                        out[x, y] = clap ? picture[x + 22, y + 10]
                            : name.hasSuffix("imir 0") ? picture[x, picture.height - 1 - y] : picture[picture.width - 1 - x, y]
                    }
                }
                return out
            }
        }
        let original = try FileBytes.read(atPath: file)
        let edited = alpha ? try Self.twoAuxiliaryReferences(original) : try Self.idenPrimary(original, grid: grid)
        // Files of each case's own (the cases run at once).
        let slug = name.filter { $0.isLetter || $0.isNumber }
        let path = StillFixtures.write(edited, to: slug + ".heic")
        // libheif itself refuses the edited file.
        #expect(throws: (any Error).self) { try StillFixtures.run("heif-convert", [path, StillFixtures.path(slug + ".png")]) }
        var coded = try StillFixtures.reference(reference)
        if grid {
            let twice = PixelBuffer(width: coded.width * 2, height: coded.height)
            for y in 0..<coded.height { for x in 0..<twice.width { twice[x, y] = coded[x % coded.width, y] } }
            coded = twice
        }
        if let transformed { coded = transformed(coded) }
        let expected = alpha ? coded : ImageOrientation.leftBottom.upright(coded)
        let info = try ImageDecoder.probeFile(atPath: path)
        #expect(info.uprightSize == expected.size)
        #expect(info.hasAlpha == alpha)
        let decoded = try ImageDecoder.decodeFile(atPath: path)
        #expect(decoded.isOpaque == !alpha)
        #expect(
            StillFixtures.maxDifference(decoded.pixels, expected) <= (deep ? Self.ownDeepDecodeTolerance : Self.ownDecodeTolerance),
            "\(StillFixtures.worstPixel(decoded.pixels, expected))")
    }

    /// Levels Riffle's own HEVC path may differ from libheif's decode of the same picture by.
    static let ownDecodeTolerance = 1
    /// The same for 10-bit samples: rounding against dithering, one level either way of the
    /// exact value, so two apart at most.
    static let ownDeepDecodeTolerance = 2

    /// The boxes in `bytes`, each as its type and its whole bytes (ISO/IEC 14496-12, 4.2; 32-bit
    /// sizes, as heif-enc writes).
    static func boxes(_ bytes: ArraySlice<UInt8>) -> [(type: String, box: [UInt8])] {
        var out: [(String, [UInt8])] = [], at = bytes.startIndex
        while at + 8 <= bytes.endIndex {
            let size = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            guard size >= 8, at + size <= bytes.endIndex else { break }
            out.append((String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self), Array(bytes[at..<(at + size)])))
            at += size
        }
        return out
    }

    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let size = body.count + 8
        return [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + body
    }

    /// A full box of version `version`, flags 0.
    static func fullBox(_ type: String, version: UInt8 = 0, _ body: [UInt8]) -> [UInt8] { box(type, [version, 0, 0, 0] + body) }

    static func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// `heic` (as heif-enc writes it: ftyp, meta, mdat; iloc version 0 with 4-byte offsets,
    /// lengths and base offsets) with the meta box's children rewritten by `edit`, and every
    /// item's base offset moved by the change in the meta box's size.
    static func rewritingMeta(_ heic: [UInt8], _ edit: ([(type: String, box: [UInt8])]) throws -> [[UInt8]]) throws -> [UInt8] {
        let top = boxes(heic[...])
        guard let metaIndex = top.firstIndex(where: { $0.type == "meta" }) else { throw ImageDecodeError(reason: "no meta box") }
        let oldMeta = top[metaIndex].box
        var children = try edit(boxes(oldMeta[12...]))
        let delta = children.reduce(12) { $0 + $1.count } - oldMeta.count
        children = children.map { child in
            guard String(decoding: child[4..<8], as: UTF8.self) == "iloc" else { return child }
            var iloc = child
            guard iloc[8] == 0, iloc[12] == 0x44, iloc[13] >> 4 == 4 else { return child }
            var at = 16
            for _ in 0..<(Int(iloc[14]) << 8 | Int(iloc[15])) {
                let base = iloc[(at + 4)..<(at + 8)].reduce(0) { $0 << 8 | Int($1) } + delta
                iloc.replaceSubrange((at + 4)..<(at + 8), with: [UInt8(base >> 24 & 0xFF), UInt8(base >> 16 & 0xFF), UInt8(base >> 8 & 0xFF), UInt8(base & 0xFF)])
                let extents = Int(iloc[at + 8]) << 8 | Int(iloc[at + 9])
                at += 10 + extents * 8
            }
            return iloc
        }
        var out: [UInt8] = []
        for (i, entry) in top.enumerated() { out += i == metaIndex ? fullBox("meta", children.joined().map { $0 }) : entry.box }
        return out
    }

    /// `heic` with its auxl reference (the alpha image's, to the primary) naming the primary twice.
    static func twoAuxiliaryReferences(_ heic: [UInt8]) throws -> [UInt8] {
        try rewritingMeta(heic) { children in
            children.map { child in
                guard child.type == "iref" else { return child.box }
                // iref version 0: SingleItemTypeReferenceBoxes of 16-bit IDs (9.3.3 of 14496-12).
                let references = boxes(child.box[12...]).map { reference -> [UInt8] in
                    guard reference.type == "auxl" else { return reference.box }
                    let from = Array(reference.box[8..<10]), to = Array(reference.box[12..<14])
                    return box("auxl", from + u16(2) + to + to)
                }
                return fullBox("iref", references.joined().map { $0 })
            }
        }
    }

    /// `heic` (one coded image, item 1, of `size`) with a new primary item 2 of type `iden`
    /// derived from it (its dimg reference), with item 1's ispe and an irot of 90° of its own;
    /// with `grid`, derived instead from a new grid item 3 (ISO/IEC 23008-12 6.6.2.3) of one row
    /// of two tiles, item 1 twice, whose ImageGrid data is appended to the file in an mdat box
    /// of its own.
    static func idenPrimary(_ heic: [UInt8], grid: Bool = false) throws -> [UInt8] {
        let u32 = { (v: Int) -> [UInt8] in [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        var edited = try rewritingMeta(heic) { children in
            var out: [[UInt8]] = []
            for child in children {
                switch child.type {
                case "pitm":
                    out.append(fullBox("pitm", u16(2)))
                case "iinf":
                    let count = Int(child.box[12]) << 8 | Int(child.box[13])
                    var added = fullBox("infe", version: 2, u16(2) + u16(0) + Array("iden".utf8) + [0])
                    if grid { added += fullBox("infe", version: 2, u16(3) + u16(0) + Array("grid".utf8) + [0]) }
                    out.append(fullBox("iinf", u16(count + (grid ? 2 : 1)) + child.box[14...] + added))
                case "iloc" where grid:
                    // Version 0, 4-byte fields: item 3's one extent, its base offset set below.
                    let count = Int(child.box[14]) << 8 | Int(child.box[15])
                    let entry = u16(3) + u16(0) + u32(0) + u16(1) + u32(0) + u32(8)
                    out.append(fullBox("iloc", Array(child.box[12..<14]) + u16(count + 1) + child.box[16...] + entry))
                case "iprp":
                    let properties = boxes(child.box[8...])
                    guard let ipco = properties.first(where: { $0.type == "ipco" }), let ipma = properties.first(where: { $0.type == "ipma" })
                    else { throw ImageDecodeError(reason: "no ipco or ipma") }
                    let items = boxes(ipco.box[8...])
                    guard let ispe = items.firstIndex(where: { $0.type == "ispe" }) else { throw ImageDecodeError(reason: "no ispe") }
                    // New properties: irot (index n + 1) and, for the grid, its ispe (n + 2).
                    let tileSize = Array(items[ispe].box[12..<20])
                    let wide = u32((Int(tileSize[0]) << 24 | Int(tileSize[1]) << 16 | Int(tileSize[2]) << 8 | Int(tileSize[3])) * 2)
                    var added = box("irot", [1])
                    if grid { added += fullBox("ispe", wide + tileSize[4...]) }
                    let newIPCO = box("ipco", Array(ipco.box[8...]) + added)
                    // ipma version 0, 8-bit indices: item 2 (the iden): its ispe, irot (essential);
                    // item 3 (the grid): its ispe.
                    let count = ipma.box[12..<16].reduce(0) { $0 << 8 | Int($1) } + (grid ? 2 : 1)
                    let idenISPE = UInt8(grid ? items.count + 2 : ispe + 1)
                    var entries = u16(2) + [2, idenISPE, 0x80 | UInt8(items.count + 1)]
                    if grid { entries += u16(3) + [1, UInt8(items.count + 2)] }
                    out.append(box("iprp", newIPCO + fullBox("ipma", u32(count) + ipma.box[16...] + entries)))
                default:
                    out.append(child.box)
                }
            }
            out.append(fullBox("iref", grid ? box("dimg", u16(2) + u16(1) + u16(3)) + box("dimg", u16(3) + u16(2) + u16(1) + u16(1))
                                            : box("dimg", u16(2) + u16(1) + u16(1))))
            return out
        }
        if grid {
            // Item 3's data: ImageGrid version 0, flags 0 (16-bit sizes), 1 row, 2 columns, the
            // output size; at the end of the file, after an mdat header.
            guard let iloc = edited.firstRange(of: Array("iloc".utf8))?.lowerBound else { throw ImageDecodeError(reason: "no iloc") }
            let size = edited.count
            let ilocSize = edited[(iloc - 4)..<iloc].reduce(0) { $0 << 8 | Int($1) }
            // The last entry, item 3's, is 18 bytes: its base offset begins 4 bytes in.
            let base = iloc - 4 + ilocSize - 18 + 4
            edited.replaceSubrange(base..<(base + 4), with: u32(size + 8))
            let tile = heic.firstRange(of: Array("ispe".utf8)).map { Array(heic[($0.lowerBound + 8)..<($0.lowerBound + 16)]) } ?? []
            let width = (Int(tile[0]) << 24 | Int(tile[1]) << 16 | Int(tile[2]) << 8 | Int(tile[3])) * 2
            let height = Int(tile[4]) << 24 | Int(tile[5]) << 16 | Int(tile[6]) << 8 | Int(tile[7])
            edited += box("mdat", [0, 0, 0, 1] + u16(width) + u16(height))
        }
        return edited
    }

    /// `heic` with `property` added to ipco and associated, last, with `item` (ipma version 0,
    /// 8-bit indices), as essential.
    static func adding(_ property: [UInt8], toItem item: Int, of heic: [UInt8]) throws -> [UInt8] {
        try rewritingMeta(heic) { children in
            try children.map { child in
                guard child.type == "iprp" else { return child.box }
                let properties = boxes(child.box[8...])
                guard let ipco = properties.first(where: { $0.type == "ipco" }), let ipma = properties.first(where: { $0.type == "ipma" }),
                      ipma.box[8] == 0, ipma.box[11] & 1 == 0
                else { throw ImageDecodeError(reason: "no ipco, or no ipma of version 0 with 8-bit indices") }
                let index = UInt8(boxes(ipco.box[8...]).count + 1)
                var entries: [UInt8] = [], at = 16
                for _ in 0..<ipma.box[12..<16].reduce(0, { $0 << 8 | Int($1) }) {
                    let id = Int(ipma.box[at]) << 8 | Int(ipma.box[at + 1]), count = Int(ipma.box[at + 2])
                    let associations = Array(ipma.box[(at + 3)..<(at + 3 + count)])
                    entries += id == item ? u16(id) + [UInt8(count + 1)] + associations + [0x80 | index] : Array(ipma.box[at..<(at + 3 + count)])
                    at += 3 + count
                }
                return box("iprp", box("ipco", Array(ipco.box[8...]) + property) + fullBox("ipma", Array(ipma.box[12..<16]) + entries))
            }
        }
    }
}
