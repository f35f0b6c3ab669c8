import CRiffleImaging
import RiffleGeometry
import RiffleRaster

/// JPEG through libjpeg-turbo: DCT-scaled decodes streamed from the file (`ImageDecoder`'s JPEG
/// half), the EXIF thumbnail, tiles for huge photos (`TileDecoder`), and the colour profile:
/// the APP2 ICC chunks, else Adobe RGB for a camera whose EXIF says so.
struct JPEGCodec: ImageCodec {
    var format: ImageFormat { .jpeg }
    var decodesReduced: Bool { true }
    var cutsTiles: Bool { true }

    func probe(head: [UInt8], path: String?) throws(ImageDecodeError) -> ImageInfo {
        var header = rfi_image_header()
        var message = MessageBuffer()
        let status = head.withUnsafeBufferPointer { data in
            message.withPointer { rfi_jpeg_read_header(data.baseAddress, data.count, &header, $0, $1) }
        }
        try ImageDecoder.check(status, format: .jpeg, message: message.text)
        return ImageInfo(format: .jpeg, header: header).with(iccProfile: colourProfile(head: head))
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
        let profile = colourProfile(head: try FileBytes.read(atPath: path, upTo: ImageCodecs.headBytes))
        let decoded = try ImageDecoder.decodeJPEG(
            JPEGRowReader(path: path), shrunkTo: target, filter: filter, pixelLimit: pixelLimit, until: stop)
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
