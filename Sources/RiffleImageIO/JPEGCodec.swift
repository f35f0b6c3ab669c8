import CRiffleImaging
import RiffleGeometry
import RiffleRaster

/// JPEG through libjpeg-turbo: DCT-scaled decodes streamed from the file (`ImageDecoder`'s JPEG
/// half), the EXIF thumbnail, tiles for huge photos (`TileDecoder`), and the colour profile:
/// the APP2 ICC chunks, else Adobe RGB for a camera whose EXIF says so. The header and the
/// profile are read from the file's head, or from as much more of it as its marker segments
/// take (`markerSegments(head:path:)`).
struct JPEGCodec: ImageCodec {
    var format: ImageFormat { .jpeg }
    var decodesReduced: Bool { true }
    var cutsTiles: Bool { true }

    func probe(head: [UInt8], path: String?) throws(ImageDecodeError) -> ImageInfo {
        let head = try Self.markerSegments(head: head, path: path)
        var header = rfi_image_header()
        var message = MessageBuffer()
        let status = head.withUnsafeBufferPointer { data in
            message.withPointer { rfi_jpeg_read_header(data.baseAddress, data.count, &header, $0, $1) }
        }
        try ImageDecoder.check(status, format: .jpeg, message: message.text)
        return ImageInfo(format: .jpeg, header: header).with(iccProfile: colourProfile(head: head))
    }

    /// The most bytes read for a JPEG's marker segments: ICC.1:2010 B.4 allows 255 APP2 chunks
    /// of 65,519 profile bytes (16.7 MB), and EXIF, XMP and the tables come with them.
    static let maximumMarkerBytes = 20 << 20

    /// `head`, or, when the marker segments before the first scan (SOS) run past its end — a
    /// press's LUT profile of several hundred KB in APP2 chunks, past `ImageCodecs.headBytes` —
    /// the file at `path` read on to its first scan (at most `maximumMarkerBytes`), so that the
    /// header and every ICC chunk are in it.
    static func markerSegments(head: [UInt8], path: String?) throws(ImageDecodeError) -> [UInt8] {
        var bytes = head
        while let path, bytes.count < maximumMarkerBytes, let needed = bytesBeforeScan(bytes), needed > bytes.count {
            let longer = try FileBytes.read(atPath: path, upTo: min(maximumMarkerBytes, max(needed + 4096, bytes.count * 2)))
            if longer.count <= bytes.count { break }
            bytes = longer
        }
        return bytes
    }

    /// How many bytes the marker segments of the JPEG starting `bytes` need, as far as `bytes`
    /// tells (ITU-T T.81 B.1.1: SOI, then `FF xx` and a 16-bit length that counts itself, fill
    /// `FF`s allowed): the offset of SOS's data when SOS is in `bytes`, else at least one past
    /// its end; nil when the bytes are not a JPEG's marker segments.
    static func bytesBeforeScan(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var offset = 2
        while true {
            while offset < bytes.count, bytes[offset] == 0xFF, offset + 1 < bytes.count, bytes[offset + 1] == 0xFF { offset += 1 }
            guard offset + 4 <= bytes.count else { return bytes.count + 1 }
            guard bytes[offset] == 0xFF else { return nil }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let end = offset + 2 + length
            if bytes[offset + 1] == 0xDA { return end }
            if end >= bytes.count { return end + 4 }
            offset = end
        }
    }

    /// The profile of the pixels decoded from the JPEG whose first bytes are `head`: its APP2
    /// ICC chunks reassembled, else Adobe RGB when its EXIF declares it
    /// (`ExifDetails.declaresAdobeRGB`), else nil (sRGB). A CMYK profile is the decoder's own
    /// business: it converts the CMYK rows through it to sRGB (nil).
    func colourProfile(head: [UInt8]) -> [UInt8]? {
        let read = head.withUnsafeBufferPointer { data in
            ShimBytes.read { rfi_jpeg_read_icc_profile(data.baseAddress, data.count, $0, $1, $2) }
        }
        if read.status == RFI_STATUS_OK, let profile = read.bytes {
            return rfi_colour_profile_is_cmyk(profile, profile.count) != 0 ? nil : profile
        }
        return ExifDetails.read(fromJPEGHead: head)?.declaresAdobeRGB == true ? ColourProfiles.adobeRGB : nil
    }

    func decodeFile(
        atPath path: String, shrunkTo target: (ImageInfo) -> PixelSize, filter: DownscaleFilter, pixelLimit: Int,
        until stop: () -> Bool
    ) throws(ImageDecodeError) -> DecodedImage {
        let profile = colourProfile(head: try Self.markerSegments(head: FileBytes.read(atPath: path, upTo: ImageCodecs.headBytes), path: path))
        let decoded = try ImageDecoder.decodeJPEG(
            JPEGRowReader(path: path), shrunkTo: target, filter: filter, pixelLimit: pixelLimit, until: stop)
        return decoded.with(info: decoded.info.with(iccProfile: profile))
    }

    /// `decodeFile(atPath:shrunkTo:filter:pixelLimit:until:)` with Lanczos-3 on two cores
    /// (`JPEGPipelinedDecode`).
    func decodeFile(
        atPath path: String, shrunkTo target: (ImageInfo) -> PixelSize, pixelLimit: Int, secondCore: ImageDecoder.SecondCore,
        until stop: @escaping @Sendable () -> Bool
    ) throws(ImageDecodeError) -> DecodedImage {
        let profile = colourProfile(head: try Self.markerSegments(head: FileBytes.read(atPath: path, upTo: ImageCodecs.headBytes), path: path))
        let decoded = try JPEGPipelinedDecode.decode(
            JPEGRowReader(path: path), path: path, shrunkTo: target, pixelLimit: pixelLimit, secondCore: secondCore, until: stop)
        return decoded.with(info: decoded.info.with(iccProfile: profile))
    }

    func decode(_ bytes: [UInt8], atLeast target: PixelSize?, pixelLimit: Int) throws(ImageDecodeError) -> DecodedImage {
        try ImageDecoder.decodeJPEG(bytes, info: probe(head: bytes, path: nil), atLeast: target, pixelLimit: pixelLimit)
    }

    func embeddedThumbnail(head: [UInt8], path: String, info: ImageInfo) -> PixelBuffer? {
        ExifThumbnail.decode(fromJPEGHead: head, info: info)
    }

    func exifDetails(head: [UInt8]) -> ExifDetails? { ExifDetails.read(fromJPEGHead: head) }
}
