import CRiffleImaging
import RiffleGeometry
import RiffleRaster

/// Part of a JPEG, decoded without decoding the rest: pixels in the stored orientation.
public struct DecodedRegion: Sendable {
    /// Premultiplied BGRA, exactly the requested rectangle, as stored (EXIF orientation not applied).
    public let pixels: PixelBuffer
    /// A problem the decoder recovered from (see `DecodedImage.warning`); nil for a clean decode.
    public let warning: String?
}

/// Decodes a rectangle of a JPEG at a DCT scale with libjpeg-turbo's crop and skip, in time and
/// memory proportional to the rectangle (plus entropy decoding of the rows above it, which no
/// JPEG decoder can avoid: Huffman codes have no row index).
public enum JPEGRegionDecoder {
    /// The pixels `region` of `bytes` decoded at 1/`scaleDenominator` (1, 2, 4 or 8), `region`
    /// given in the scaled picture's stored-orientation pixels (⌈W/d⌉ × ⌈H/d⌉).
    ///
    /// Equal to the same rectangle of `ImageDecoder`'s decode at that scale before orientation.
    /// Throws for a region not inside the scaled picture, one of more than `pixelLimit` pixels,
    /// and a progressive JPEG whose stored size exceeds `pixelLimit` (libjpeg would have to hold
    /// all its coefficients; decode it whole at a reduced scale instead).
    public static func decode(
        _ bytes: [UInt8], region: PixelRect, scaleDenominator: Int, pixelLimit: Int = ImageDecoder.defaultPixelLimit
    ) throws(ImageDecodeError) -> DecodedRegion {
        var decoded = rfi_pixels()
        var message = MessageBuffer()
        let status = bytes.withUnsafeBufferPointer { data in
            message.withPointer { text, capacity in
                rfi_jpeg_decode_region(
                    data.baseAddress, data.count, Int32(scaleDenominator), Int32(clamping: region.x),
                    Int32(clamping: region.y), Int32(clamping: region.width), Int32(clamping: region.height),
                    Int64(pixelLimit), &decoded, text, capacity)
            }
        }
        if status == RFI_STATUS_TOO_LARGE {
            throw ImageDecodeError(reason: "Cannot decode that part of the JPEG image: \(message.text)")
        }
        try ImageDecoder.check(status, format: .jpeg, message: message.text, size: region.size, pixelLimit: pixelLimit)
        guard let pixels = decoded.pixels else {
            throw ImageDecodeError(reason: "The JPEG decoder returned no pixels")
        }
        let buffer = PixelBuffer(
            wrapping: pixels, width: Int(decoded.width), height: Int(decoded.height),
            rowPixels: Int(decoded.width), release: { rfi_pixels_free($0) })
        return DecodedRegion(pixels: buffer, warning: ImageDecoder.warningText(decoded.warning, message: message.text))
    }
}
