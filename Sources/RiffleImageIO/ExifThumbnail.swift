import CRiffleImaging
import RiffleGeometry
import RiffleRaster

/// The small JPEG a camera embeds in a photo's EXIF block (IFD1, typically 160×120): found in
/// the first few KiB of the file, it decodes in well under a millisecond, so it can stand in
/// for the photo before any of the photo itself is decoded.
public enum ExifThumbnail {
    /// The thumbnail's JPEG bytes from the EXIF (APP1) segment of the JPEG whose first bytes
    /// are `head`; nil when there is none, or the segment is cut off or unreadable.
    public static func bytes(inJPEGHead head: [UInt8]) -> [UInt8]? {
        guard let exif = exifSegment(inJPEGHead: head) else { return nil }
        var out = rfi_bytes()
        let status = head.withUnsafeBufferPointer { rfi_exif_thumbnail($0.baseAddress! + exif.lowerBound, exif.count, &out) }
        guard status == RFI_STATUS_OK, let data = out.data else { return nil }
        defer { rfi_bytes_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: out.length))
    }

    /// The thumbnail of the JPEG whose header is `info` and first bytes `head`, upright and
    /// cropped to the photo's aspect ratio (cameras pad a 3:2 photo's 4:3 thumbnail with black
    /// bars); nil when the file has none or it does not decode.
    public static func decode(fromJPEGHead head: [UInt8], info: ImageInfo) -> PixelBuffer? {
        guard info.format == .jpeg, let bytes = bytes(inJPEGHead: head),
              let decoded = try? ImageDecoder.decode(bytes, pixelLimit: maximumPixels)
        else { return nil }
        // The thumbnail is stored the way the photo is; thumbnails carry no EXIF of their own.
        var stored = decoded.pixels
        let aspect = Double(info.storedSize.width) / Double(info.storedSize.height)
        let width = min(stored.width, Int((Double(stored.height) * aspect).rounded()))
        let height = min(stored.height, Int((Double(stored.width) / aspect).rounded()))
        if width < stored.width || height < stored.height, width > 0, height > 0 {
            stored = stored.cropped(to: PixelRect(
                x: (stored.width - width) / 2, y: (stored.height - height) / 2, width: width, height: height))
        }
        return info.orientation.upright(stored)
    }

    /// Most pixels of a thumbnail worth decoding: 1920×1080 (some cameras put a screen-sized
    /// preview in IFD1); anything larger is not a thumbnail.
    static let maximumPixels = 1920 * 1080

    /// The bytes of the EXIF block ("Exif\0\0" and on) of the first APP1 segment holding one,
    /// found by walking the markers before the frame header.
    static func exifSegment(inJPEGHead head: [UInt8]) -> Range<Int>? {
        guard head.count >= 4, head[0] == 0xFF, head[1] == 0xD8 else { return nil }
        var offset = 2
        while offset + 4 <= head.count, head[offset] == 0xFF {
            let marker = head[offset + 1]
            if marker == 0xFF {
                offset += 1  // a fill byte
                continue
            }
            // The frame header or the scan: EXIF comes before either.
            if (0xC0...0xCF).contains(marker) && marker != 0xC4 || marker == 0xDA { return nil }
            let length = Int(head[offset + 2]) << 8 | Int(head[offset + 3])
            let body = offset + 4, end = offset + 2 + length
            guard length >= 2, end <= head.count else { return nil }
            if marker == 0xE1, length >= 8, Array(head[body..<(body + 6)]) == Array("Exif".utf8) + [0, 0] {
                return body..<end
            }
            offset = end
        }
        return nil
    }

    /// `jpeg` with an EXIF (APP1) segment right after SOI declaring `orientation` and holding
    /// `thumbnail` (a JPEG of at most 60000 bytes) as its thumbnail, as a camera writes it.
    /// For making test and benchmark photos; Riffle never writes into a user's file.
    public static func inserting(
        thumbnail: [UInt8], orientation: ImageOrientation = .topLeft, into jpeg: [UInt8]
    ) throws(ImageEncodeError) -> [UInt8] {
        guard jpeg.count >= 2, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else {
            throw ImageEncodeError(reason: "Cannot add EXIF data: not a JPEG")
        }
        var out = rfi_bytes()
        var message = MessageBuffer()
        let status = message.withPointer { text, capacity in
            thumbnail.withUnsafeBufferPointer {
                rfi_exif_make($0.baseAddress, $0.count, Int32(orientation.rawValue), &out, text, capacity)
            }
        }
        guard status == RFI_STATUS_OK, let data = out.data else {
            throw ImageEncodeError(reason: "Cannot make EXIF data: \(message.text)")
        }
        defer { rfi_bytes_free(data) }
        let exif = UnsafeBufferPointer(start: data, count: out.length)
        let length = exif.count + 2
        guard length <= 0xFFFF else { throw ImageEncodeError(reason: "Cannot add EXIF data: \(exif.count) bytes do not fit a segment") }
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + Array(exif) + jpeg[2...]
    }
}
