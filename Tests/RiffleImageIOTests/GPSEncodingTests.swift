import Foundation
import RiffleImageIO
import Testing

/// The GPS position in every encoding cameras write, read by Riffle as ExifTool reads it: each
/// case is a JPEG whose GPS IFD is built here entry by entry, in both byte orders, and the
/// expected position is ExifTool's own (`exiftool -n -GPSPosition`, signed decimal degrees).
/// Every case but the reference-only ones is 60°8′48″ N, 24°54′24″ E, the position a phone photo
/// showed as "Location —".
@Suite("GPS encodings")
struct GPSEncodingTests {
    typealias TIFF = ExifDetailsTests.TIFF
    typealias Entry = ExifDetailsTests.Entry

    /// One way of writing a position: the GPS IFD's entries in a byte order, and (when ExifTool
    /// reads no position from them) the entries of the same position it does read, to compare with.
    struct Encoding: CustomTestStringConvertible, Sendable {
        let name: String
        let entries: @Sendable (TIFF) -> [Entry]
        var reference: (@Sendable (TIFF) -> [Entry])? = nil
        /// The TIFF type of IFD0's GPSInfo pointer: 4 (LONG) as EXIF says, 13 (IFD) from some writers.
        var pointerType: UInt16 = 4
        var testDescription: String { name }
    }

    static func srationals(_ t: TIFF, _ tag: UInt16, _ values: [(Int32, Int32)]) -> Entry {
        Entry(tag: tag, type: 10, count: UInt32(values.count), value: values.flatMap { t.u32(UInt32(bitPattern: $0.0)) + t.u32(UInt32(bitPattern: $0.1)) })
    }
    static func version(_ t: TIFF) -> Entry { Entry(tag: 0x0000, type: 1, count: 4, value: [2, 2, 0, 0]) }
    static func position(_ t: TIFF, latitude: [(UInt32, UInt32)], longitude: [(UInt32, UInt32)], refs: (String, String)? = ("N", "E")) -> [Entry] {
        var entries = [t.rationals(0x0002, latitude), t.rationals(0x0004, longitude)]
        if let refs { entries += [t.ascii(0x0001, refs.0), t.ascii(0x0003, refs.1)] }
        return entries
    }

    static let encodings: [Encoding] = [
        Encoding(name: "whole degrees, minutes and seconds, with GPSVersionID") { t in
            [version(t)] + position(t, latitude: [(60, 1), (8, 1), (48, 1)], longitude: [(24, 1), (54, 1), (24, 1)])
        },
        Encoding(name: "no GPSVersionID") { t in
            position(t, latitude: [(60, 1), (8, 1), (48, 1)], longitude: [(24, 1), (54, 1), (24, 1)])
        },
        Encoding(name: "seconds in hundredths and ten-thousandths") { t in
            position(t, latitude: [(60, 1), (8, 1), (4800, 100)], longitude: [(24, 1), (54, 1), (240_000, 10000)])
        },
        Encoding(name: "decimal minutes, seconds 0/1") { t in
            position(t, latitude: [(60, 1), (880, 100), (0, 1)], longitude: [(24, 1), (5440, 100), (0, 1)])
        },
        // ExifTool 12.57 reads no coordinate when a part is 0/0 (it calls it undef); its reading
        // of the same position with the seconds 0/1 is the reference.
        Encoding(
            name: "decimal minutes, seconds 0/0",
            entries: { t in position(t, latitude: [(60, 1), (880, 100), (0, 0)], longitude: [(24, 1), (5440, 100), (0, 0)]) },
            reference: { t in position(t, latitude: [(60, 1), (880, 100), (0, 1)], longitude: [(24, 1), (5440, 100), (0, 1)]) }),
        Encoding(name: "decimal degrees, minutes and seconds 0/1") { t in
            position(t, latitude: [(60_146_667, 1_000_000), (0, 1), (0, 1)], longitude: [(24_906_667, 1_000_000), (0, 1), (0, 1)])
        },
        Encoding(name: "decimal degrees alone (one component)") { t in
            position(t, latitude: [(60_146_667, 1_000_000)], longitude: [(24_906_667, 1_000_000)])
        },
        Encoding(name: "degrees and decimal minutes (two components)") { t in
            position(t, latitude: [(60, 1), (880, 100)], longitude: [(24, 1), (5440, 100)])
        },
        Encoding(name: "SRATIONAL instead of RATIONAL") { t in
            [srationals(t, 0x0002, [(60, 1), (8, 1), (48, 1)]), srationals(t, 0x0004, [(24, 1), (54, 1), (24, 1)]),
             t.ascii(0x0001, "N"), t.ascii(0x0003, "E")]
        },
        Encoding(name: "no N/E references") { t in
            position(t, latitude: [(60, 1), (8, 1), (48, 1)], longitude: [(24, 1), (54, 1), (24, 1)], refs: nil)
        },
        Encoding(name: "south and west") { t in
            position(t, latitude: [(33, 1), (51, 1), (3150, 100)], longitude: [(151, 1), (12, 1), (4080, 100)], refs: ("S", "W"))
        },
        Encoding(name: "references in lower case") { t in
            position(t, latitude: [(33, 1), (51, 1), (3150, 100)], longitude: [(151, 1), (12, 1), (4080, 100)], refs: ("s", "w"))
        },
        Encoding(
            name: "GPSInfo pointer typed IFD (13)",
            entries: { t in position(t, latitude: [(60, 1), (8, 1), (48, 1)], longitude: [(24, 1), (54, 1), (24, 1)]) },
            pointerType: 13),
    ]

    /// A TIFF whose IFD0 holds only the GPSInfo pointer, then the GPS IFD of `gps`.
    static func tiff(_ t: TIFF, gps: [Entry], pointerType: UInt16) -> [UInt8] {
        let gpsAt = 8 + 2 + 12 + 4
        let pointer = Entry(tag: 0x8825, type: pointerType, count: 1, value: t.u32(UInt32(gpsAt)))
        let header: [UInt8] = (t.bigEndian ? Array("MM".utf8) : Array("II".utf8)) + t.u16(42) + t.u32(8)
        return header + t.ifd([pointer], at: 8) + t.ifd(gps, at: gpsAt)
    }

    /// ExifTool's position for the JPEG `head` (written to a file for it), signed degrees.
    static func exiftoolPosition(_ head: [UInt8]) throws -> (Double, Double)? {
        let path = NSTemporaryDirectory() + "riffle-gps-\(UUID().uuidString).jpg"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(head).write(to: URL(fileURLWithPath: path))
        let output = String(decoding: try FormatTools.run("exiftool", ["-n", "-s3", "-GPSPosition", path]), as: UTF8.self)
        let numbers = output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }

    @Test(arguments: encodings, [false, true])
    func positionIsReadAsExifToolReadsIt(encoding: Encoding, bigEndian: Bool) throws {
        let t = TIFF(bigEndian: bigEndian)
        let head = try ExifDetailsTests.jpegHead(tiff: Self.tiff(t, gps: encoding.entries(t), pointerType: encoding.pointerType))
        let referenceHead = try encoding.reference.map {
            try ExifDetailsTests.jpegHead(tiff: Self.tiff(t, gps: $0(t), pointerType: encoding.pointerType))
        }
        let expected = try #require(try Self.exiftoolPosition(referenceHead ?? head), "ExifTool reads no position")
        let position = try #require(ExifDetails.read(fromJPEGHead: head)?.position, "Riffle reads no position")
        // ExifTool prints 15 significant digits; the rest is the two sums' rounding.
        #expect(abs(position.latitude - expected.0) < 1e-9, "latitude \(position.latitude), ExifTool \(expected.0)")
        #expect(abs(position.longitude - expected.1) < 1e-9, "longitude \(position.longitude), ExifTool \(expected.1)")
    }

    /// Degrees written 0/0, or a latitude past the pole: no position, rather than a wrong one.
    @Test func unreadableDegreesGiveNoPosition() throws {
        let t = TIFF(bigEndian: false)
        for latitude in [[(UInt32(0), UInt32(0)), (8, 1), (48, 1)], [(91, 1), (0, 1), (0, 1)]] {
            let head = try ExifDetailsTests.jpegHead(tiff: Self.tiff(t, gps: Self.position(t, latitude: latitude, longitude: [(24, 1), (54, 1), (24, 1)]), pointerType: 4))
            #expect(ExifDetails.read(fromJPEGHead: head)?.position == nil)
        }
    }

    /// A TIFF's GPS IFD, read through libtiff, by the same rules: written by ExifTool into a
    /// TIFF ImageMagick made, with its references, with none (ExifTool then reads the values'
    /// own signs), and south and west.
    @Test(arguments: [
        ["-EXIF:GPSLatitude=60 8 48", "-EXIF:GPSLatitudeRef=N", "-EXIF:GPSLongitude=24 54 24", "-EXIF:GPSLongitudeRef=E"],
        ["-EXIF:GPSLatitude=60 8 48", "-EXIF:GPSLongitude=24 54 24"],
        ["-EXIF:GPSLatitude=33 51 31.5", "-EXIF:GPSLatitudeRef=S", "-EXIF:GPSLongitude=151 12 40.8", "-EXIF:GPSLongitudeRef=W"],
    ])
    func aTIFFsPositionIsReadAsExifToolReadsIt(tags: [String]) throws {
        let path = NSTemporaryDirectory() + "riffle-gps-\(UUID().uuidString).tif"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FormatTools.run("convert", ["-size", "64x48", "xc:gray", path])
        try FormatTools.run("exiftool", ["-q", "-overwrite_original"] + tags + [path])
        let output = String(decoding: try FormatTools.run("exiftool", ["-n", "-s3", "-GPSPosition", path]), as: UTF8.self)
        let expected = output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        try #require(expected.count == 2, "ExifTool reads no position: \(output)")
        let head = try FileBytes.read(atPath: path, upTo: ImageCodecs.headBytes)
        let details = try ImageCodecs.codec(forHead: head).exifDetails(head: head, path: path)
        let position = try #require(details?.position, "Riffle reads no position")
        // libtiff gives the rationals as floats: a float's 24 bits of 48 seconds and 54 minutes.
        #expect(abs(position.latitude - expected[0]) < 1e-6, "latitude \(position.latitude), ExifTool \(expected[0])")
        #expect(abs(position.longitude - expected[1]) < 1e-6, "longitude \(position.longitude), ExifTool \(expected[1])")
    }
}
