import RiffleImageIO
import RiffleRaster
import Testing

/// The info panel's EXIF details, read by libexif from an APP1 segment built here field by field
/// (TIFF 6.0 layout, the EXIF 2.32 and GPS tags), in both byte orders.
@Suite("EXIF details")
struct ExifDetailsTests {
    /// One IFD entry: tag, TIFF type (2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL), count and the value's
    /// bytes (written in place when 4 bytes or fewer, else after the IFD).
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var value: [UInt8]
    }

    /// A TIFF writer in one byte order.
    struct TIFF {
        let bigEndian: Bool

        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: UInt32) -> [UInt8] {
            let le = [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
            return bigEndian ? le.reversed() : le
        }
        func ascii(_ tag: UInt16, _ text: String) -> Entry {
            let bytes = Array(text.utf8) + [0]
            return Entry(tag: tag, type: 2, count: UInt32(bytes.count), value: bytes)
        }
        func short(_ tag: UInt16, _ v: UInt16) -> Entry { Entry(tag: tag, type: 3, count: 1, value: u16(v) + [0, 0]) }
        func long(_ tag: UInt16, _ v: UInt32) -> Entry { Entry(tag: tag, type: 4, count: 1, value: u32(v)) }
        func rationals(_ tag: UInt16, _ values: [(UInt32, UInt32)]) -> Entry {
            Entry(tag: tag, type: 5, count: UInt32(values.count), value: values.flatMap { u32($0.0) + u32($0.1) })
        }

        /// An IFD placed at `offset` in the TIFF: its entries sorted by tag, no next IFD, values
        /// over 4 bytes right after it.
        func ifd(_ entries: [Entry], at offset: Int) -> [UInt8] {
            let entries = entries.sorted { $0.tag < $1.tag }
            var out = u16(UInt16(entries.count)), data: [UInt8] = []
            let dataStart = offset + 2 + 12 * entries.count + 4
            for e in entries {
                out += u16(e.tag) + u16(e.type) + u32(e.count)
                if e.value.count <= 4 {
                    out += e.value + [UInt8](repeating: 0, count: 4 - e.value.count)
                } else {
                    out += u32(UInt32(dataStart + data.count))
                    data += e.value + (e.value.count % 2 == 1 ? [0] : [])
                }
            }
            return out + u32(0) + data
        }

        /// IFD0 (make, model, pointers), the Exif IFD and the GPS IFD of a camera photo.
        func photo() -> [UInt8] {
            // Sizes are fixed by the entries, so each IFD's offset is known before it is written.
            let exif = [
                rationals(0x829A, [(1, 250)]),            // ExposureTime 1/250 s
                rationals(0x829D, [(28, 10)]),            // FNumber f/2.8
                short(0x8827, 200),                       // ISOSpeedRatings
                ascii(0x9003, "2023:07:14 18:42:05"),     // DateTimeOriginal
                rationals(0x920A, [(50, 1)]),             // FocalLength 50 mm
                ascii(0xA434, "EF50mm f/1.8 STM"),        // LensModel
            ]
            let gps = [
                ascii(0x0001, "N"), rationals(0x0002, [(48, 1), (51, 1), (2400, 100)]),  // 48°51'24" N
                ascii(0x0003, "W"), rationals(0x0004, [(2, 1), (21, 1), (300, 100)]),    // 2°21'3" W
            ]
            func ifd0(exifAt: Int, gpsAt: Int) -> [UInt8] {
                ifd([ascii(0x010F, "Canon"), ascii(0x0110, "Canon EOS R6"), long(0x8769, UInt32(exifAt)), long(0x8825, UInt32(gpsAt))], at: 8)
            }
            let first = ifd0(exifAt: 0, gpsAt: 0)
            let exifAt = 8 + first.count
            let exifBytes = ifd(exif, at: exifAt)
            let gpsAt = exifAt + exifBytes.count
            let header: [UInt8] = (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + u16(42) + u32(8)
            return header + ifd0(exifAt: exifAt, gpsAt: gpsAt) + exifBytes + ifd(gps, at: gpsAt)
        }
    }

    /// A JPEG head: SOI, then an APP1 "Exif" segment holding `tiff`, then the rest of a real JPEG.
    static func jpegHead(tiff: [UInt8]) throws -> [UInt8] {
        let jpeg = try JPEGEncoder.encode(PixelBuffer(width: 8, height: 8), quality: 90)
        let body = Array("Exif".utf8) + [0, 0] + tiff
        let length = body.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body + jpeg.dropFirst(2)
    }

    @Test(arguments: [false, true])
    func aCameraPhotosDetailsAreRead(bigEndian: Bool) throws {
        let head = try Self.jpegHead(tiff: TIFF(bigEndian: bigEndian).photo())
        let details = try #require(ExifDetails.read(fromJPEGHead: head))
        #expect(details.make == "Canon")
        #expect(details.model == "Canon EOS R6")
        #expect(details.lens == "EF50mm f/1.8 STM")
        #expect(details.dateTaken == "2023:07:14 18:42:05")
        #expect(details.exposureSeconds == 1.0 / 250)
        #expect(details.fNumber == 2.8)
        #expect(details.iso == 200)
        #expect(details.focalLengthMillimetres == 50)
        let position = try #require(details.position)
        // 48 + 51/60 + 24/3600 north; 2 + 21/60 + 3/3600 west is negative.
        #expect(abs(position.latitude - (48 + 51.0 / 60 + 24.0 / 3600)) < 1e-9)
        #expect(abs(position.longitude + (2 + 21.0 / 60 + 3.0 / 3600)) < 1e-9)
    }

    @Test func aJPEGWithoutEXIFHasNoDetails() throws {
        #expect(ExifDetails.read(fromJPEGHead: try JPEGEncoder.encode(PixelBuffer(width: 8, height: 8), quality: 90)) == nil)
    }

    @Test func aCutOffSegmentIsNotRead() throws {
        let head = try Self.jpegHead(tiff: TIFF(bigEndian: false).photo())
        #expect(ExifDetails.read(fromJPEGHead: Array(head.prefix(60))) == nil)
    }

    /// A PNG's eXIf chunk holds the same TIFF structure, without the "Exif\0\0" prefix.
    @Test(arguments: [false, true])
    func aPNGsExifChunkIsRead(bigEndian: Bool) throws {
        let png = try PNGEncoder.encode(PixelBuffer(width: 8, height: 8))
        let head = TileFixtures.withChunk("eXIf", TIFF(bigEndian: bigEndian).photo(), in: png)
        let details = try #require(ExifDetails.read(fromPNGHead: head))
        #expect(details.make == "Canon")
        #expect(details.model == "Canon EOS R6")
        #expect(details.dateTaken == "2023:07:14 18:42:05")
        #expect(details.iso == 200)
        #expect(details.position != nil)
        // The decoder reads past it: the picture is whole.
        #expect(try ImageDecoder.decode(head).pixels.width == 8)
    }

    /// No eXIf, an eXIf after the image data, or one cut off by the end of the head: no details.
    @Test func aPNGWithoutAReadableExifChunkHasNoDetails() throws {
        let png = try PNGEncoder.encode(PixelBuffer(width: 8, height: 8))
        #expect(ExifDetails.read(fromPNGHead: png) == nil)
        let withExif = TileFixtures.withChunk("eXIf", TIFF(bigEndian: false).photo(), in: png)
        #expect(ExifDetails.read(fromPNGHead: Array(withExif.prefix(80))) == nil)
        // The same chunk moved after the image data, just before IEND (the last 12 bytes).
        let chunk = withExif[33..<(33 + withExif.count - png.count)]
        let afterImage = Array(png.dropLast(12)) + chunk + png.suffix(12)
        #expect(try ImageDecoder.decode(afterImage).pixels.width == 8)
        #expect(ExifDetails.read(fromPNGHead: afterImage) == nil)
    }
}
