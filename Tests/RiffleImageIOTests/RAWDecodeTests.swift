import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

/// Camera RAW through LibRaw, on a DNG built here (no Debian package encodes camera RAW): IFD0
/// a 96×72 baseline JPEG preview (NewSubFileType 1, Compression 7) with the camera's tags and
/// Orientation 6, its SubIFD a 128×96 16-bit RGGB sensor image.
@Suite("Camera RAW decoding")
struct RAWDecodeTests {
    static let previewSize = PixelSize(width: 96, height: 72)
    static let sensorSize = PixelSize(width: 128, height: 96)

    /// The preview's picture.
    static let preview = StillFixtures.picture(previewSize)

    /// A minimal DNG 1.4 of `sensorSize` with `preview` embedded, as a camera (or Adobe's
    /// converter) writes one, oriented `orientation`.
    /// `sensorCompression` is the raw strip's Compression tag (1, uncompressed, unless a test
    /// says otherwise).
    static func dng(orientation: Int = 6, sensorCompression: Int = 1) throws -> [UInt8] {
        let jpeg = try JPEGEncoder.encode(preview, quality: 95)
        // A level ramp across the sensor, four samples a 2×2 CFA block alike.
        var sensor: [UInt8] = []
        for y in 0..<sensorSize.height {
            for x in 0..<sensorSize.width {
                let level = 4000 + (x / 2) * 400 + (y / 2) * 100
                sensor += [UInt8(level & 0xFF), UInt8(level >> 8)]
            }
        }
        typealias E = TIFFBuilder.Entry
        // sRGB's XYZ→RGB matrix (IEC 61966-2-1) × 10000: a camera that sees as sRGB does.
        let matrix: [Int32] = [32406, -15372, -4986, -9689, 18758, 415, 557, -2040, 10570]
        let ifd0: [E] = [
            E(tag: 254, value: .longs([1])), E(tag: 256, value: .longs([UInt32(previewSize.width)])),
            E(tag: 257, value: .longs([UInt32(previewSize.height)])), E(tag: 258, value: .shorts([8, 8, 8])),
            E(tag: 259, value: .shorts([7])), E(tag: 262, value: .shorts([6])), E(tag: 271, value: .ascii("Riffle")),
            E(tag: 272, value: .ascii("Test DNG")), E(tag: 273, value: .blocks([0])), E(tag: 274, value: .shorts([UInt16(orientation)])),
            E(tag: 277, value: .shorts([3])), E(tag: 278, value: .longs([UInt32(previewSize.height)])),
            E(tag: 279, value: .longs([UInt32(jpeg.count)])), E(tag: 330, value: .directories([1])),
            E(tag: 50706, value: .bytes([1, 4, 0, 0])), E(tag: 50708, value: .ascii("Riffle Test DNG")),
            E(tag: 50721, value: .signedRationals(matrix.map { ($0, 10000) })), E(tag: 50728, value: .rationals([(1, 1), (1, 1), (1, 1)])),
            E(tag: 50778, value: .shorts([21])),
        ]
        let raw: [E] = [
            E(tag: 254, value: .longs([0])), E(tag: 256, value: .longs([UInt32(sensorSize.width)])),
            E(tag: 257, value: .longs([UInt32(sensorSize.height)])), E(tag: 258, value: .shorts([16])),
            E(tag: 259, value: .shorts([UInt16(sensorCompression)])), E(tag: 262, value: .shorts([32803])), E(tag: 273, value: .blocks([1])),
            E(tag: 277, value: .shorts([1])), E(tag: 278, value: .longs([UInt32(sensorSize.height)])),
            E(tag: 279, value: .longs([UInt32(sensor.count)])), E(tag: 33421, value: .shorts([2, 2])),
            E(tag: 33422, value: .bytes([0, 1, 1, 2])), E(tag: 50717, value: .longs([65535])),
        ]
        return TIFFBuilder.file([ifd0, raw], blocks: [jpeg, sensor])
    }

    @Test("A DNG is told from a TIFF and probed: the sensor's size, the camera's orientation")
    func probe() throws {
        let path = StillFixtures.write(try Self.dng(), to: "camera.dng")
        let info = try ImageDecoder.probeFile(atPath: path)
        #expect(info.format == .raw)
        #expect(info.storedSize == Self.sensorSize)
        #expect(info.orientation == .rightTop)
        #expect(info.uprightSize == PixelSize(width: 96, height: 128))
    }

    @Test("At fit the embedded preview is shown, turned upright by the RAW's orientation")
    func fitFromPreview() throws {
        let path = StillFixtures.write(try Self.dng(), to: "camera-fit.dng")
        let target = PixelSize(width: 36, height: 48)
        let decoded = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in target })
        #expect(decoded.pixels.size == target)
        #expect(decoded.fullSize == PixelSize(width: 96, height: 128))
        // The preview's own picture, turned (orientation 6) and shrunk the same way; JPEG at
        // quality 95 and a resampler from another size keep within 12 levels.
        let expected = DownscaleFilter.lanczos3.shrink(ImageOrientation.rightTop.upright(Self.preview), to: target)
        #expect(StillFixtures.maxDifference(decoded.pixels, expected) <= 12, "\(StillFixtures.worstPixel(decoded.pixels, expected))")
    }

    @Test("Zoomed past the preview's resolution, the sensor's data is developed")
    func developed() throws {
        let path = StillFixtures.write(try Self.dng(), to: "camera-full.dng")
        let full = PixelSize(width: 96, height: 128)
        let decoded = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in full })
        #expect(decoded.pixels.size == full)
        // The ramp runs along the stored rows, which orientation 6 turns into columns: upright,
        // the picture brightens downwards, not across.
        let top = Channels(decoded.pixels[48, 8]), bottom = Channels(decoded.pixels[48, 120])
        #expect(bottom.g > top.g)
    }

    /// LibRaw's own command-line development of the same file (`dcraw_emu -w`: camera white
    /// balance, AHD, sRGB, 8 bits, turned upright, as `rfi_raw_develop` asks of the library) is
    /// what Riffle shows, pixel for pixel: one library, one development. Tolerance 0.
    @Test("The development is dcraw_emu's", StillFixtures.needing("dcraw_emu"))
    func developedIsDcrawEmus() throws {
        let path = StillFixtures.write(try Self.dng(), to: "camera-dcraw.dng")
        let full = PixelSize(width: 96, height: 128)
        let decoded = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in full }).pixels
        let reference = path + ".ppm"
        try StillFixtures.run("dcraw_emu", ["-w", "-Z", reference, path])
        let expected = try Self.readPPM(reference)
        #expect(decoded.size == expected.size)
        #expect(StillFixtures.maxDifference(decoded, expected) == 0, "\(StillFixtures.worstPixel(decoded, expected))")
    }

    /// An 8-bit binary PPM (P6, as dcraw_emu writes it) as opaque pixels.
    static func readPPM(_ path: String) throws -> PixelBuffer {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // The header: "P6", width, height, maxval, each after whitespace, then one whitespace byte.
        var fields: [String] = [], index = 0
        while fields.count < 4, index < bytes.count {
            while index < bytes.count, bytes[index] == 0x20 || (0x09...0x0D).contains(bytes[index]) { index += 1 }
            var field = ""
            while index < bytes.count, !(bytes[index] == 0x20 || (0x09...0x0D).contains(bytes[index])) {
                field.append(Character(UnicodeScalar(bytes[index])))
                index += 1
            }
            fields.append(field)
        }
        index += 1
        guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]), fields[3] == "255",
              bytes.count - index == width * height * 3
        else { throw ImageDecodeError(reason: "not an 8-bit P6 PPM: \(fields), \(bytes.count) bytes") }
        let buffer = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let at = index + (y * width + x) * 3
                buffer[x, y] = 0xFF00_0000 | UInt32(bytes[at]) << 16 | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2])
            }
        }
        return buffer
    }

    @Test("The preview stands in as the embedded thumbnail, upright, and the camera's details are read")
    func thumbnailAndDetails() throws {
        let path = StillFixtures.write(try Self.dng(), to: "camera-thumbnail.dng")
        let head = try FileBytes.read(atPath: path, upTo: ImageCodecs.headBytes)
        let codec = try ImageCodecs.codec(forHead: head)
        let info = try codec.probe(head: head, path: path)
        let thumbnail = try #require(ImageCodecs.codec(for: info.format).embeddedThumbnail(head: head, path: path, info: info))
        #expect(thumbnail.height > thumbnail.width)
        let details = StillFixtures.details(path)
        #expect(details?.make == "Riffle")
        #expect(details?.model == "Test DNG")
    }

    @Test("Which TIFF-signature files are a camera's", arguments: [
        ([TIFFBuilder.Entry(tag: 50706, value: .bytes([1, 4, 0, 0]))], true),
        ([TIFFBuilder.Entry(tag: 271, value: .ascii("Nikon")), TIFFBuilder.Entry(tag: 330, value: .longs([8]))], true),
        ([TIFFBuilder.Entry(tag: 271, value: .ascii("Pentax"))], false),
        ([TIFFBuilder.Entry(tag: 305, value: .ascii("GIMP"))], false),
    ] as [([TIFFBuilder.Entry], Bool)])
    func cameraRule(extra: [TIFFBuilder.Entry], camera: Bool) throws {
        let path = StillFixtures.write(TIFFBuilder.rgb(width: 4, height: 4, extra: extra), to: "rule-\(extra.map(\.tag)).tif")
        let format = try? ImageDecoder.probeFile(atPath: path).format
        #expect(camera ? format != .tiff : format == .tiff)
    }

    /// The DNG without its sensor data: the file ends where the raw strip would begin, as a
    /// metadata-only copy of a camera file does, its strip said to be uncompressed or lossless
    /// JPEG (Compression 7, which LibRaw 0.20 and its own `dcraw_emu` develop, without a word,
    /// into a blank frame). Zoomed in past the preview, the picture cannot be developed: the
    /// preview stands in, with a warning naming the missing data.
    @Test(arguments: [1, 7])
    func aRAWWithoutItsPictureDataSaysSo(compression: Int) throws {
        let dng = try Self.dng(sensorCompression: compression)
        let sensorBytes = Self.sensorSize.width * Self.sensorSize.height * 2
        let path = StillFixtures.write(Array(dng.prefix(dng.count - sensorBytes)), to: "camera-no-data-\(compression).dng")
        let full = PixelSize(width: 96, height: 128)
        let decoded = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in full })
        let warning = try #require(decoded.warning, "the sensor's missing data was developed")
        #expect(warning.contains("no picture data"), "\(warning)")
        // The preview, turned upright and enlarged, not a blank frame.
        let centre = Channels(decoded.pixels[48, 64])
        #expect(max(centre.r, centre.g, centre.b) - min(centre.r, centre.g, centre.b) > 20, "\(centre)")
    }

    @Test("Broken camera files give a reason", arguments: ["truncated", "garbage"])
    func broken(kind: String) throws {
        let dng = try Self.dng()
        let bytes = kind == "truncated" ? Array(dng.prefix(200)) : StillFixtures.garbage(after: 12, of: dng)
        let path = StillFixtures.write(bytes, to: "broken-\(kind).dng")
        #expect(StillFixtures.decodeError(path) != nil)
    }
}
