import RiffleRaster
import Synchronization

/// Brings decoded pictures into the display's colours: a picture with an ICC profile
/// (`ImageInfo.iccProfile`: embedded, or built from a PNG's gAMA/cHRM chunks or a camera's
/// EXIF colour space) is transformed from it to the display's profile (the X root window's
/// `_ICC_PROFILE`, else sRGB); a picture without one is taken to be sRGB, and is converted only
/// for a display that is not.
///
/// The transform runs once per decode, on the picture at the size it is shown (after the
/// decoder's resampling, which averages the file's values as they are encoded, before any
/// conversion), never per frame. A profile that cannot be used (unreadable, CMYK, grey on
/// translucent pixels) leaves the pixels as they are: the photo still shows, in the file's raw
/// values. Transforms are made once for each profile and kept (at most `keptTransforms`).
package final class ColourManagement: Sendable {
    /// The display's ICC profile; nil for sRGB.
    package let displayProfile: [UInt8]?
    private let transforms = Mutex<[Key: ColourTransform?]>([:])

    /// How many transforms are kept: a folder of photos carries a handful of profiles (sRGB,
    /// Display P3, Adobe RGB, a camera's own).
    static let keptTransforms = 16

    private struct Key: Hashable {
        let profile: [UInt8]
        let isOpaque: Bool
    }

    /// Colour management for a display whose profile is `displayProfile` (nil: sRGB).
    package init(displayProfile: [UInt8]?) {
        self.displayProfile = displayProfile
    }

    /// `image` with its pixels converted, in place, from its profile (or sRGB) to the display's.
    package func toDisplay(_ image: DecodedImage) -> DecodedImage {
        convert(image.pixels, from: image.info.iccProfile, isOpaque: image.isOpaque)
        return image
    }

    /// Converts `pixels` in place from `profile` (nil: sRGB) to the display's profile, for
    /// pixels all opaque or premultiplied translucent ones.
    package func convert(_ pixels: PixelBuffer, from profile: [UInt8]?, isOpaque: Bool) {
        guard profile != nil || displayProfile != nil else { return }
        transform(from: profile ?? ColourProfiles.sRGB, isOpaque: isOpaque)?.apply(to: pixels)
    }

    /// The transform from `profile` to the display's, made on first use and kept; nil when
    /// there is nothing to do or it cannot be made.
    private func transform(from profile: [UInt8], isOpaque: Bool) -> ColourTransform? {
        let key = Key(profile: profile, isOpaque: isOpaque)
        if let kept = transforms.withLock({ $0[key] }) { return kept }
        let made = try? ColourTransform.make(from: profile, to: displayProfile, isOpaque: isOpaque)
        transforms.withLock { kept in
            if kept.count >= Self.keptTransforms { kept.removeAll() }
            kept[key] = made
        }
        return made
    }
}
