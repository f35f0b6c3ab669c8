/* CRiffleImaging's colour management over Little CMS 2 (lcms2): transforms from a picture's
 * embedded ICC profile to the display's, and the profiles Riffle builds itself (a PNG's gAMA and
 * cHRM chunks, Adobe RGB for cameras that say so in EXIF). Included from CRiffleImaging.h; no
 * lcms2 type appears here. */
#ifndef RFI_COLOUR_H
#define RFI_COLOUR_H

#include <stddef.h>
#include <stdint.h>

/* A transform of BGRA pixels (one uint32_t 0xAARRGGBB each) from one profile to another. Made
 * with lcms2's cmsFLAGS_NOCACHE, so one transform may run on several threads at once. */
typedef struct rfi_colour_transform rfi_colour_transform;

/* How a transform's pixels store alpha. */
typedef enum rfi_colour_alpha {
    /* Every alpha is 255: the colour channels are taken as they are. */
    RFI_COLOUR_OPAQUE = 0,
    /* Premultiplied: each row is divided by alpha before the transform and multiplied after. */
    RFI_COLOUR_PREMULTIPLIED = 1,
} rfi_colour_alpha;

/* Makes the transform from the ICC profile `source` to the profile `display` (NULL: sRGB, as
 * lcms2 builds it) with the perceptual intent, for pixels stored as `alpha` says.
 * RFI_STATUS_OK with *transform NULL when the two profiles map colours alike (same colorants
 * and tone curves within 1/4096: an sRGB file on an sRGB display), so there is nothing to do.
 * RFI_STATUS_FAILED when lcms2 cannot read a profile; RFI_STATUS_UNSUPPORTED for a source that
 * is not RGB or grey (a CMYK profile describes inks, not these pixels), or a grey one with
 * translucent pixels. */
rfi_status rfi_colour_transform_create(const uint8_t *source, size_t source_length, const uint8_t *display,
                                       size_t display_length, rfi_colour_alpha alpha,
                                       rfi_colour_transform **transform, char *message, size_t message_capacity);

/* Converts `height` rows of `width` pixels, `row_pixels` apart, in place. */
void rfi_colour_transform_apply(const rfi_colour_transform *transform, uint32_t *pixels, int32_t width, int32_t height,
                                int32_t row_pixels);

void rfi_colour_transform_free(rfi_colour_transform *transform);

/* 1 when `profile` is a CMYK ICC profile: the JPEG decoder converts a CMYK file's rows to sRGB
 * through it, so it no longer describes the pixels delivered. */
int rfi_colour_profile_is_cmyk(const uint8_t *profile, size_t length);

/* An RGB profile for a PNG's gAMA chunk (`gamma`: the file gamma, e.g. 0.45455, encoded value
 * = linear^gamma) and cHRM chunk (`chromaticities`: white x, y, then red, green and blue x, y;
 * NULL for sRGB's primaries and D65): what the PNG specification says those chunks mean, as ICC
 * bytes in `out` (release with rfi_bytes_free). */
rfi_status rfi_colour_profile_from_png_chunks(double gamma, const double *chromaticities, rfi_bytes *out, char *message,
                                              size_t message_capacity);

/* Adobe RGB (1998) as ICC bytes in `out` (release with rfi_bytes_free): the primaries, D65 white
 * point and 563/256 gamma of Adobe's specification, for cameras that mark their files Adobe RGB
 * in EXIF (ColorSpace uncalibrated, InteroperabilityIndex "R03") without embedding a profile. */
rfi_status rfi_colour_profile_adobe_rgb(rfi_bytes *out, char *message, size_t message_capacity);

/* Display P3 as ICC bytes (release with rfi_bytes_free): DCI-P3 primaries, D65 white and the
 * sRGB tone curve, as Apple's phones tag their photos. */
rfi_status rfi_colour_profile_display_p3(rfi_bytes *out, char *message, size_t message_capacity);

/* sRGB as lcms2 builds it, as ICC bytes (release with rfi_bytes_free). */
rfi_status rfi_colour_profile_srgb(rfi_bytes *out, char *message, size_t message_capacity);

#endif
