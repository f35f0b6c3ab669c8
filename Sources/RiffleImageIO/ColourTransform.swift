import CRiffleImaging
import RiffleRaster

/// An lcms2 transform from a picture's ICC profile to the display's, applied to premultiplied
/// BGRA pixels in place (perceptual intent). Made with lcms2's cmsFLAGS_NOCACHE, so one
/// transform converts on several threads at once.
package final class ColourTransform: @unchecked Sendable {
    private let transform: OpaquePointer

    /// The transform from `source` to `display` (nil: sRGB) for pixels that are all opaque, or
    /// premultiplied translucent ones; nil when the two profiles map colours alike (an sRGB
    /// photo on an sRGB display), so that converting would change nothing but rounding. Throws
    /// for a profile lcms2 cannot read, or one that does not describe these pixels (a CMYK
    /// profile: a CMYK JPEG is converted to RGB by its decoder; a grey one on translucent pixels).
    package static func make(
        from source: [UInt8], to display: [UInt8]?, isOpaque: Bool
    ) throws(ImageDecodeError) -> ColourTransform? {
        var made: OpaquePointer?
        var message = MessageBuffer()
        let alpha = isOpaque ? RFI_COLOUR_OPAQUE : RFI_COLOUR_PREMULTIPLIED
        let status = source.withUnsafeBufferPointer { from in
            message.withPointer { text, capacity in
                if let display {
                    display.withUnsafeBufferPointer { to in
                        rfi_colour_transform_create(
                            from.baseAddress, from.count, to.baseAddress, to.count, alpha, &made, text, capacity)
                    }
                } else {
                    rfi_colour_transform_create(from.baseAddress, from.count, nil, 0, alpha, &made, text, capacity)
                }
            }
        }
        guard status == RFI_STATUS_OK else { throw ImageDecodeError(reason: "Cannot convert the colours: \(message.text)") }
        return made.map(ColourTransform.init)
    }

    private init(_ transform: OpaquePointer) {
        self.transform = transform
    }

    deinit { rfi_colour_transform_free(transform) }

    /// Converts every pixel of `buffer` in place.
    package func apply(to buffer: PixelBuffer) {
        rfi_colour_transform_apply(transform, buffer.pixels, Int32(buffer.width), Int32(buffer.height), Int32(buffer.rowPixels))
    }
}
