/// A file format Riffle decodes, recognised from the first bytes of the data, never from a name.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    /// JPEG/JFIF/EXIF: starts with an SOI marker followed by another marker (FF D8 FF).
    case jpeg
    /// PNG (and APNG): starts with the eight-byte signature 89 'P' 'N' 'G' 0D 0A 1A 0A.
    case png
    /// GIF: starts with "GIF87a" or "GIF89a".
    case gif
    /// WebP: a RIFF file ("RIFF", a 4-byte size, then "WEBP").
    case webp
    /// TIFF: "II*\0" (little-endian) or "MM\0*" (big-endian), or BigTIFF's "II+\0" / "MM\0+".
    /// Camera RAW files built on TIFF share the signature; the codecs tell them apart.
    case tiff
    /// HEIF (HEIC from phones): an ISO-BMFF "ftyp" box whose brands name HEIF or HEVC images.
    case heif
    /// AVIF: an ISO-BMFF "ftyp" box whose brands name AV1 images ("avif", "avis").
    case avif
    /// JPEG XL: the bare codestream (FF 0A) or the container's "JXL " signature box.
    case jxl
    /// A camera RAW file with a signature of its own (Fujifilm RAF, Canon CRW and CR3, Olympus
    /// ORF, Panasonic RW2); TIFF-based RAW files (CR2, NEF, ARW, DNG, PEF) begin as TIFFs do.
    case raw

    /// The format whose signature `bytes` starts with, or nil for anything else (including
    /// empty or too-short data). `bytes` should hold `signatureLength` bytes when the data has
    /// them: an ISO-BMFF file's brands lie within its "ftyp" box, which can run past 16 bytes.
    public static func detect(_ bytes: some Collection<UInt8>) -> ImageFormat? {
        let head = Array(bytes.prefix(signatureLength))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return .gif }
        if head.starts(with: Array("RIFF".utf8)) && head.count >= 12 && Array(head[8..<12]) == Array("WEBP".utf8) { return .webp }
        if head.starts(with: [0xFF, 0x0A]) || head.starts(with: jxlContainerSignature) { return .jxl }
        if rawSignatures.contains(where: { head.count >= $0.offset + $0.bytes.count && Array(head[$0.offset..<$0.offset + $0.bytes.count]) == $0.bytes }) {
            return .raw
        }
        if tiffSignatures.contains(where: { head.starts(with: $0) }) { return .tiff }
        return isoMediaFormat(head)
    }

    /// Bytes enough to tell the formats apart: an ISO-BMFF "ftyp" box with a dozen compatible
    /// brands (a phone's HEIC lists 4 to 8).
    public static let signatureLength = 64

    private static let jxlContainerSignature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

    private static let tiffSignatures: [[UInt8]] = [
        [0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A], [0x49, 0x49, 0x2B, 0x00], [0x4D, 0x4D, 0x00, 0x2B],
    ]

    /// RAW signatures at their offsets (LibRaw's `identify` checks the same): Fujifilm RAF,
    /// Canon CRW's "HEAPCCDR" heap, Olympus ORF's "IIRO"/"IIRS"/"MMOR", Panasonic RW2's "IIU\0",
    /// and CR2's "CR" after a TIFF header (byte 8), which makes a CR2 a RAW, not a TIFF.
    private static let rawSignatures: [(offset: Int, bytes: [UInt8])] = [
        (0, Array("FUJIFILMCCD-RAW".utf8)), (6, Array("HEAPCCDR".utf8)), (0, Array("IIRO".utf8)),
        (0, Array("IIRS".utf8)), (0, Array("MMOR".utf8)), (0, [0x49, 0x49, 0x55, 0x00]),
        (8, [0x43, 0x52, 0x02]),
    ]

    /// HEIF, AVIF or CR3 from an ISO-BMFF "ftyp" box at the start of `head`: the first of its
    /// brands (major, then compatible) naming one of them, else HEIF for the generic HEIF brands.
    private static func isoMediaFormat(_ head: [UInt8]) -> ImageFormat? {
        guard head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8) else { return nil }
        let boxSize = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        let end = min(head.count, max(boxSize, 12))
        // The major brand (bytes 8..<12), then the compatible brands after the minor version.
        var brands = [Array(head[8..<12])]
        var offset = 16
        while offset + 4 <= end {
            brands.append(Array(head[offset..<offset + 4]))
            offset += 4
        }
        let names = brands.map { String(decoding: $0, as: UTF8.self) }
        // A specific brand decides; "mif1"/"msf1" (any HEIF image) only when none is listed.
        for name in names {
            switch name {
            case "crx ": return .raw
            case "avif", "avis": return .avif
            case "heic", "heix", "hevc", "hevx", "heim", "heis": return .heif
            default: continue
            }
        }
        if names.contains("mif1") || names.contains("msf1") { return .heif }
        return nil
    }
}

extension ImageFormat {
    /// The MIME types files of this format go by in shared-mime-info (what a file manager asks
    /// `xdg-mime` about), the first the format's main one: what the desktop entry offers.
    package var mimeTypes: [String] {
        switch self {
        case .jpeg: ["image/jpeg"]
        case .png: ["image/png", "image/apng"]
        case .gif: ["image/gif"]
        case .webp: ["image/webp"]
        case .tiff: ["image/tiff"]
        case .heif: ["image/heif", "image/heic"]
        case .avif: ["image/avif"]
        case .jxl: ["image/jxl"]
        case .raw:
            [
                "image/x-adobe-dng", "image/x-canon-cr2", "image/x-canon-cr3", "image/x-canon-crw", "image/x-nikon-nef",
                "image/x-sony-arw", "image/x-olympus-orf", "image/x-panasonic-rw2", "image/x-fuji-raf", "image/x-pentax-pef",
                "image/x-samsung-srw",
            ]
        }
    }

    /// The file name extensions (lower case, without the dot) files of this format go by, as
    /// shared-mime-info's globs for `mimeTypes` name them: a folder's photo is taken by one of
    /// these without a look inside (any other name is sniffed, `detect`).
    package var fileExtensions: [String] {
        switch self {
        case .jpeg: ["jpg", "jpeg", "jpe", "jfif"]
        case .png: ["png", "apng"]
        case .gif: ["gif"]
        case .webp: ["webp"]
        case .tiff: ["tif", "tiff"]
        case .heif: ["heic", "heif", "hif"]
        case .avif: ["avif"]
        case .jxl: ["jxl"]
        case .raw:
            [
                "dng", "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "orf", "rw2", "raf", "pef", "srw", "raw", "rwl",
                "3fr", "erf", "kdc", "mrw", "x3f",
            ]
        }
    }

    /// "JPEG", "HEIF", …, for messages and the info panel.
    public var displayName: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .gif: "GIF"
        case .webp: "WebP"
        case .tiff: "TIFF"
        case .heif: "HEIF"
        case .avif: "AVIF"
        case .jxl: "JPEG XL"
        case .raw: "RAW"
        }
    }
}
