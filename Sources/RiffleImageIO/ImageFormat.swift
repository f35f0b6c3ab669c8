/// A file format Riffle decodes, recognised from the first bytes of the data, never from a name.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    /// JPEG/JFIF/EXIF: starts with an SOI marker followed by another marker (FF D8 FF).
    case jpeg
    /// PNG: starts with the eight-byte signature 89 'P' 'N' 'G' 0D 0A 1A 0A.
    case png

    /// The format whose signature `bytes` starts with, or nil for anything else (including
    /// empty or too-short data).
    public static func detect(_ bytes: some Collection<UInt8>) -> ImageFormat? {
        if bytes.starts(with: jpegSignature) { return .jpeg }
        if bytes.starts(with: pngSignature) { return .png }
        return nil
    }

    /// Bytes enough to tell the formats apart: the longest signature.
    public static let signatureLength = 8

    private static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]
    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}
