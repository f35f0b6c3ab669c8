import CRiffleImaging

/// ICC profiles Riffle builds itself with lcms2, for pictures that name a colour space without
/// embedding its profile, and for tests.
package enum ColourProfiles {
    /// Adobe RGB (1998): what a camera means by EXIF ColorSpace "uncalibrated" with
    /// InteroperabilityIndex "R03" (`ExifDetails.declaresAdobeRGB`).
    package static let adobeRGB = built { rfi_colour_profile_adobe_rgb($0, $1, $2) }
    /// Display P3: the gamut of phone cameras' HEIC and JPEG photos, and of wide-gamut displays.
    package static let displayP3 = built { rfi_colour_profile_display_p3($0, $1, $2) }
    /// sRGB, as lcms2 builds it: what a picture without a profile, and a display without one,
    /// are taken to be.
    package static let sRGB = built { rfi_colour_profile_srgb($0, $1, $2) }

    /// A profile for a PNG's gAMA (`gamma`, the encoding exponent) and cHRM chunks
    /// (`chromaticities`: white, red, green, blue x and y; nil for sRGB's), as the PNG
    /// specification reads them.
    package static func pngChunks(gamma: Double, chromaticities: [Double]?) -> [UInt8] {
        built { out, message, capacity in
            if let chromaticities {
                chromaticities.withUnsafeBufferPointer {
                    rfi_colour_profile_from_png_chunks(gamma, $0.baseAddress, out, message, capacity)
                }
            } else {
                rfi_colour_profile_from_png_chunks(gamma, nil, out, message, capacity)
            }
        }
    }

    /// The bytes `make` writes; lcms2 building a profile from constants fails only without memory.
    private static func built(
        _ make: (UnsafeMutablePointer<rfi_bytes>, UnsafeMutablePointer<CChar>, Int) -> rfi_status
    ) -> [UInt8] {
        let read = ShimBytes.read(make)
        guard read.status == RFI_STATUS_OK, let profile = read.bytes else {
            preconditionFailure("lcms2 could not build a colour profile: \(read.message)")
        }
        return profile
    }
}
