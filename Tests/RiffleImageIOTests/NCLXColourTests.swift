import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing

/// HEIF colour given by nclx code points alone (ITU-T H.273), made by `heif-enc` (lossless RGB,
/// so the file holds the test's values; Debian's libheif 1.15 `heif-enc` writes no nclx box for
/// `--colour_primaries`, so the test has it embed an ICC profile and writes the nclx box over
/// that 'colr' box, the same size, padded) and brought to an sRGB display, against the colour
/// spaces' own formulas evaluated in doubles on the values the decoder delivers: BT.2020
/// primaries converted through XYZ, BT.709's transfer inverted, and PQ (SMPTE ST 2084) and HLG
/// (ITU-R BT.2100) tone-mapped as `rfi_colour_profile_from_code_points` documents. Tolerance:
/// `ColourManagementTests.tolerance` (lcms2's 8-bit transforms round through 16-bit tables),
/// 3 for the tone-mapped curves, which lcms2 interpolates from a 4096-entry table.
@Suite("nclx colour", StillFixtures.needing("heif-enc"))
struct NCLXColourTests {
    /// Greys and colours inside the BT.709 gamut once converted, and a saturated red outside it.
    static let patches: [(Int, Int, Int)] = [
        (0, 0, 0), (64, 64, 64), (128, 128, 128), (192, 192, 192), (255, 255, 255), (200, 120, 60), (90, 150, 200),
        (255, 0, 0),
    ]
    static let side = 16

    /// A lossless HEIC of the patches whose nclx box says `primaries` and `transfer`; its
    /// decode without colour management (what lcms2 is given) and brought to sRGB.
    static func decode(primaries: Int, transfer: Int) throws -> (info: ImageInfo, raw: [(Int, Int, Int)], shown: [(Int, Int, Int)]) {
        let slug = "nclx-\(primaries)-\(transfer)-" + UUID().uuidString.prefix(8)
        let png = HandMadePNG.patches(
            patches.map { (UInt8($0.0), UInt8($0.1), UInt8($0.2)) }, side: side, chunks: [HandMadePNG.iccpChunk(ColourProfiles.sRGB)])
        let source = StillFixtures.write(png, to: slug + ".png")
        let made = StillFixtures.path(slug + "-icc.heic")
        try StillFixtures.run("heif-enc", ["-L", "-p", "chroma=444", "--matrix_coefficients=0", "-o", made, source])
        let file = StillFixtures.write(
            try withNCLX(FileBytes.read(atPath: made), primaries: primaries, transfer: transfer), to: slug + ".heic")
        let decoded = try ImageDecoder.decodeFile(atPath: file, shrunkTo: { $0.uprightSize })
        let raw = centres(decoded.pixels)
        let shown = centres(ColourManagement(displayProfile: nil).toDisplay(decoded).pixels)
        return (decoded.info, raw, shown)
    }

    /// `heic` with its 'colr' box of type 'prof' (ISO/IEC 14496-12, 12.1.5) rewritten in place
    /// as type 'nclx': `primaries`, `transfer`, matrix 0 (RGB coded as is, as `heif-enc -L
    /// --matrix_coefficients=0` codes it), full range, then zeros to the box's old end.
    static func withNCLX(_ heic: [UInt8], primaries: Int, transfer: Int) throws -> [UInt8] {
        var bytes = heic
        let start = try #require(bytes.firstRange(of: Array("colrprof".utf8))).lowerBound - 4
        let size = Int(bytes[start]) << 24 | Int(bytes[start + 1]) << 16 | Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
        let body = Array("nclx".utf8) + [UInt8(primaries >> 8), UInt8(primaries & 0xFF), UInt8(transfer >> 8), UInt8(transfer & 0xFF), 0, 0, 0x80]
        bytes.replaceSubrange((start + 8)..<(start + size), with: body + [UInt8](repeating: 0, count: size - 8 - body.count))
        return bytes
    }

    /// Each patch's centre pixel as R, G, B.
    static func centres(_ pixels: PixelBuffer) -> [(Int, Int, Int)] {
        (0..<patches.count).map { i in
            let c = Channels(pixels[i * side + side / 2, side / 2])
            return (c.r, c.g, c.b)
        }
    }

    static func expect(_ shown: [(Int, Int, Int)], near expected: [(Int, Int, Int)], tolerance: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        for (a, e) in zip(shown, expected) {
            let worst = max(abs(a.0 - e.0), abs(a.1 - e.1), abs(a.2 - e.2))
            #expect(worst <= tolerance, "got \(a), the formulas give \(e)", sourceLocation: sourceLocation)
        }
    }

    @Test("sRGB's code points (BT.709 primaries, sRGB transfer) need no profile: the pixels are left as they are")
    func sRGBCodePoints() throws {
        let (info, raw, shown) = try Self.decode(primaries: 1, transfer: 13)
        #expect(info.iccProfile == nil)
        #expect(raw.map { [$0.0, $0.1, $0.2] } == shown.map { [$0.0, $0.1, $0.2] })
    }

    @Test("BT.2020 (9) and Display P3 (12) primaries with the sRGB transfer are converted to BT.709's through XYZ, clipped to the gamut",
          arguments: [9, 12])
    func wideGamut(primaries: Int) throws {
        let (info, raw, shown) = try Self.decode(primaries: primaries, transfer: 13)
        #expect(info.iccProfile != nil)
        let matrix = Colorimetry.conversion(from: primaries == 9 ? Colorimetry.bt2020 : Colorimetry.displayP3, to: Colorimetry.bt709)
        Self.expect(shown, near: raw.map { rgb in
            Colorimetry.encodeSRGB(matrix.applied(to: [rgb.0, rgb.1, rgb.2].map { Colorimetry.decodeSRGB(Double($0) / 255) }))
        }, tolerance: ColourManagementTests.tolerance)
    }

    @Test("BT.709's transfer is its OETF inverted, then encoded with sRGB's curve")
    func bt709Transfer() throws {
        let (info, raw, shown) = try Self.decode(primaries: 1, transfer: 1)
        #expect(info.iccProfile != nil)
        Self.expect(shown, near: raw.map { rgb in
            Colorimetry.encodeSRGB([rgb.0, rgb.1, rgb.2].map { Colorimetry.decodeBT709(Double($0) / 255) })
        }, tolerance: ColourManagementTests.tolerance)
    }

    @Test("PQ and HLG are tone-mapped to SDR: reference white near SDR white, black black, highlights rolled off",
          arguments: [16, 18])
    func hdr(transfer: Int) throws {
        let (info, raw, shown) = try Self.decode(primaries: 9, transfer: transfer)
        #expect(info.iccProfile != nil)
        let matrix = Colorimetry.conversion(from: Colorimetry.bt2020, to: Colorimetry.bt709)
        Self.expect(shown, near: raw.map { rgb in
            let nits = [rgb.0, rgb.1, rgb.2].map { Double($0) / 255 }.map { transfer == 16 ? Colorimetry.pqNits($0) : Colorimetry.hlgNits($0) }
            return Colorimetry.encodeSRGB(matrix.applied(to: nits.map(Colorimetry.toneMapped)))
        }, tolerance: 3)
        // Black stays black; the brightest grey is near SDR white but not clipped flat with the
        // reference white below it.
        #expect(max(shown[0].0, shown[0].1, shown[0].2) <= 1)
        #expect(shown[4].0 >= 250)
        // The signal at reference white (PQ 0.58, HLG 0.75) lands at 0.875 of SDR white, in sRGB 240.
        let white = transfer == 16 ? Colorimetry.pqNits(0.5807) : Colorimetry.hlgNits(0.75)
        #expect(abs(white - 203) < 2, "reference white is \(white) cd/m²")
        let mapped = Colorimetry.toneMapped(white)
        #expect(abs(Colorimetry.encodeSRGB([mapped, mapped, mapped]).0 - 240) <= 1)
    }
}

/// The colour spaces' formulas, in doubles, for the tests' expected values.
enum Colorimetry {
    /// x, y of white (D65), red, green, blue (ITU-T H.273 table 2).
    static let bt709 = [0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06]
    static let bt2020 = [0.3127, 0.3290, 0.708, 0.292, 0.170, 0.797, 0.131, 0.046]
    static let displayP3 = [0.3127, 0.3290, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060]

    struct Matrix {
        var m: [[Double]]

        func applied(to v: [Double]) -> [Double] { m.map { row in zip(row, v).map { $0 * $1 }.reduce(0, +) } }
        static func * (a: Matrix, b: Matrix) -> Matrix {
            Matrix(m: (0..<3).map { i in (0..<3).map { j in (0..<3).map { a.m[i][$0] * b.m[$0][j] }.reduce(0, +) } })
        }
        var inverse: Matrix {
            let a = m
            let det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
            func c(_ i: Int, _ j: Int) -> Double {
                let r = [0, 1, 2].filter { $0 != j }, s = [0, 1, 2].filter { $0 != i }
                let minor = a[r[0]][s[0]] * a[r[1]][s[1]] - a[r[0]][s[1]] * a[r[1]][s[0]]
                return ((i + j) % 2 == 0 ? minor : -minor) / det
            }
            return Matrix(m: (0..<3).map { i in (0..<3).map { j in c(i, j) } })
        }
    }

    /// RGB to XYZ for primaries `xy` (SMPTE RP 177's derivation: columns the primaries' XYZ,
    /// scaled so that RGB 1, 1, 1 is the white).
    static func toXYZ(_ xy: [Double]) -> Matrix {
        func xyz(_ x: Double, _ y: Double) -> [Double] { [x / y, 1, (1 - x - y) / y] }
        let columns = [xyz(xy[2], xy[3]), xyz(xy[4], xy[5]), xyz(xy[6], xy[7])]
        let p = Matrix(m: (0..<3).map { i in columns.map { $0[i] } })
        let s = p.inverse.applied(to: xyz(xy[0], xy[1]))
        return Matrix(m: (0..<3).map { i in (0..<3).map { j in p.m[i][j] * s[j] } })
    }

    /// Linear RGB in `from`'s primaries to linear RGB in `to`'s (same white).
    static func conversion(from: [Double], to: [Double]) -> Matrix { toXYZ(to).inverse * toXYZ(from) }

    static func decodeSRGB(_ e: Double) -> Double { e <= 0.04045 ? e / 12.92 : pow((e + 0.055) / 1.055, 2.4) }

    static func decodeBT709(_ e: Double) -> Double { e < 0.081 ? e / 4.5 : pow((e + 0.099) / 1.099, 1 / 0.45) }

    /// Linear R, G, B clipped to [0, 1], sRGB-encoded (IEC 61966-2-1) and rounded to 8 bits.
    static func encodeSRGB(_ v: [Double]) -> (Int, Int, Int) {
        let e = v.map { l -> Int in
            let c = min(1, max(0, l))
            return Int(((c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055) * 255).rounded())
        }
        return (e[0], e[1], e[2])
    }

    /// SMPTE ST 2084's EOTF, cd/m².
    static func pqNits(_ e: Double) -> Double {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let p = pow(e, 1 / m2)
        return 10000 * pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
    }

    /// HLG's inverse OETF and a 1000 cd/m² display's OOTF (system gamma 1.2) per channel, cd/m².
    static func hlgNits(_ e: Double) -> Double {
        let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)
        let scene = e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
        return 1000 * pow(scene, 1.2)
    }

    /// The tone map `rfi_colour_profile_from_code_points` documents: x = nits / 203, linear
    /// below 0.75, then 0.75 + 0.25·t/(1 + t) with t = (x − 0.75)/0.25.
    static func toneMapped(_ nits: Double) -> Double {
        let x = nits / 203, k = 0.75
        guard x > k else { return x }
        let t = (x - k) / (1 - k)
        return k + (1 - k) * t / (1 + t)
    }
}
