import CRiffleImaging

/// The reduction of samples deeper than 8 bits to 8 that the decoders run in the imaging shim
/// (`rfi_reduce_rgba16`; its header, `rfi_dither.h`, states the formula and its references):
/// colour ordered-dithered, ⌊v·255/max + (2·B(x mod 8, y mod 8) + 1)/128⌋ with B Bayer's 8×8
/// matrix, alpha rounded. Exposed for the tests to check it against the formula and for the
/// bench to time it beside plain rounding.
///
/// Where it runs: in the decoders (16-bit PNG and TIFF, 10- and 12-bit HEIF and AVIF, 16-bit
/// and float JPEG XL), at the file's full resolution, before the shrink to the size shown and
/// before the colour transform, both of which work on 8-bit BGRA. A decode at or near full
/// size (zoomed to 1:1, the clipboard's) shows the dither as it is. The shrink averages it in
/// floats, so the tones it carries are the deep samples' rather than the rounded ones', but
/// it rounds its own result, as `ColourManagement`'s 8-bit lcms2 transform then does again: a
/// picture shrunk a lot, or converted to another profile, can step again at its own size.
/// Carrying 16 bits through the shrink and the transform, and dithering last, would not.
package enum DeepSamples {
    /// Reduces `count` pixels of interleaved R, G, B, A samples of `bits` bits (9 to 16), each a
    /// little-endian 16-bit word in `samples` (8 bytes a pixel), to straight 0xAARRGGBB in `out`:
    /// pixel i is stored pixel (`x0` + i, `y`), where its colour is dithered; with `dithered`
    /// false the colour is rounded, (v·255 + max/2)/max, as alpha always is.
    package static func reduce(
        _ samples: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt32>, count: Int, bits: Int, x0: Int = 0, y: Int,
        dithered: Bool = true
    ) {
        rfi_reduce_rgba16(samples, out, count, Int32(bits), UInt32(x0), 1, UInt32(y), dithered ? 1 : 0)
    }
}
