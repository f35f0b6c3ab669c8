/* Colour management over Little CMS 2: see include/rfi_colour.h. */
#include <lcms2.h>
#include <math.h>
#include <stdlib.h>

#include "CRiffleImaging.h"
#include "internal.h"

struct rfi_colour_transform {
    cmsHTRANSFORM transform;
    /* The pixels are premultiplied: each row is divided by alpha before, multiplied after. */
    int premultiplied;
};

/* A grey source read from BGRA: the first byte of each pixel (blue, equal to green and red in
 * a grey picture) is the grey value, the other three are skipped as extra channels. */
#define RFI_GREY_IN_BGRA (COLORSPACE_SH(PT_GRAY) | CHANNELS_SH(1) | BYTES_SH(1) | EXTRA_SH(3))

/* Tone curves and colorants compared within this (1/4096 of full scale): closer than 8-bit
 * output can show. */
static const double rfi_colour_tolerance = 1.0 / 4096;

/* 1 when `a` and `b` are both matrix-shaper RGB profiles with the same colorants and tone
 * curves, so a transform between them is the identity but for rounding. */
static int rfi_colour_profiles_alike(cmsHPROFILE a, cmsHPROFILE b) {
    if (cmsGetColorSpace(a) != cmsSigRgbData || cmsGetColorSpace(b) != cmsSigRgbData) return 0;
    if (!cmsIsMatrixShaper(a) || !cmsIsMatrixShaper(b)) return 0;
    static const cmsTagSignature colorants[3] = {cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag};
    static const cmsTagSignature curves[3] = {cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag};
    for (int c = 0; c < 3; c++) {
        const cmsCIEXYZ *xa = cmsReadTag(a, colorants[c]), *xb = cmsReadTag(b, colorants[c]);
        const cmsToneCurve *ta = cmsReadTag(a, curves[c]), *tb = cmsReadTag(b, curves[c]);
        if (xa == NULL || xb == NULL || ta == NULL || tb == NULL) return 0;
        if (fabs(xa->X - xb->X) > rfi_colour_tolerance || fabs(xa->Y - xb->Y) > rfi_colour_tolerance ||
            fabs(xa->Z - xb->Z) > rfi_colour_tolerance)
            return 0;
        for (int i = 0; i <= 32; i++) {
            cmsFloat32Number v = (cmsFloat32Number)i / 32;
            if (fabs(cmsEvalToneCurveFloat(ta, v) - cmsEvalToneCurveFloat(tb, v)) > rfi_colour_tolerance) return 0;
        }
    }
    return 1;
}

rfi_status rfi_colour_transform_create(const uint8_t *source, size_t source_length, const uint8_t *display,
                                       size_t display_length, rfi_colour_alpha alpha,
                                       rfi_colour_transform **transform, char *message, size_t message_capacity) {
    *transform = NULL;
    cmsHPROFILE from = cmsOpenProfileFromMem(source, (cmsUInt32Number)source_length);
    if (from == NULL) {
        rfi_set_message(message, message_capacity, "the embedded colour profile cannot be read");
        return RFI_STATUS_FAILED;
    }
    cmsHPROFILE to = display != NULL ? cmsOpenProfileFromMem(display, (cmsUInt32Number)display_length)
                                     : cmsCreate_sRGBProfile();
    if (to == NULL) {
        cmsCloseProfile(from);
        rfi_set_message(message, message_capacity, "the display's colour profile cannot be read");
        return RFI_STATUS_FAILED;
    }
    rfi_status status = RFI_STATUS_OK;
    cmsColorSpaceSignature space = cmsGetColorSpace(from);
    if (cmsGetColorSpace(to) != cmsSigRgbData) {
        rfi_set_message(message, message_capacity, "the display's colour profile is not an RGB profile");
        status = RFI_STATUS_UNSUPPORTED;
    } else if (space != cmsSigRgbData && space != cmsSigGrayData) {
        rfi_set_message(message, message_capacity, "the embedded colour profile is neither RGB nor grey");
        status = RFI_STATUS_UNSUPPORTED;
    } else if (space == cmsSigGrayData && alpha == RFI_COLOUR_PREMULTIPLIED) {
        rfi_set_message(message, message_capacity, "a grey colour profile on translucent pixels");
        status = RFI_STATUS_UNSUPPORTED;
    } else if (!rfi_colour_profiles_alike(from, to)) {
        cmsUInt32Number in = space == cmsSigGrayData ? RFI_GREY_IN_BGRA : TYPE_BGRA_8;
        /* The transform runs in place on straight colour: lcms2 leaves the alpha byte (an extra
         * channel it is not asked to copy) as it is. */
        cmsHTRANSFORM made = cmsCreateTransform(from, in, to, TYPE_BGRA_8, INTENT_PERCEPTUAL, cmsFLAGS_NOCACHE);
        if (made == NULL) {
            rfi_set_message(message, message_capacity, "lcms2 cannot make a transform between these colour profiles");
            status = RFI_STATUS_FAILED;
        } else {
            *transform = malloc(sizeof **transform);
            if (*transform == NULL) {
                cmsDeleteTransform(made);
                rfi_set_message(message, message_capacity, "out of memory");
                status = RFI_STATUS_OUT_OF_MEMORY;
            } else {
                (*transform)->transform = made;
                (*transform)->premultiplied = alpha == RFI_COLOUR_PREMULTIPLIED;
            }
        }
    }
    cmsCloseProfile(from);
    cmsCloseProfile(to);
    return status;
}

/* Straight colour from premultiplied, c·255/a rounded to nearest (black stays black at a = 0). */
static void rfi_colour_unpremultiply(uint32_t *row, int32_t width) {
    for (int32_t x = 0; x < width; x++) {
        uint32_t p = row[x], a = p >> 24;
        if (a == 0 || a == 255) continue;
        uint32_t r = (((p >> 16) & 0xFF) * 255 + a / 2) / a, g = (((p >> 8) & 0xFF) * 255 + a / 2) / a,
                 b = ((p & 0xFF) * 255 + a / 2) / a;
        row[x] = a << 24 | (r > 255 ? 255 : r) << 16 | (g > 255 ? 255 : g) << 8 | (b > 255 ? 255 : b);
    }
}

/* Premultiplied colour from straight, c·a/255 rounded to nearest. */
static void rfi_colour_premultiply(uint32_t *row, int32_t width) {
    for (int32_t x = 0; x < width; x++) {
        uint32_t p = row[x], a = p >> 24;
        if (a == 255) continue;
        uint32_t r = (((p >> 16) & 0xFF) * a + 127) / 255, g = (((p >> 8) & 0xFF) * a + 127) / 255,
                 b = ((p & 0xFF) * a + 127) / 255;
        row[x] = a << 24 | r << 16 | g << 8 | b;
    }
}

void rfi_colour_transform_apply(const rfi_colour_transform *transform, uint32_t *pixels, int32_t width, int32_t height,
                                int32_t row_pixels) {
    if (transform == NULL || width <= 0 || height <= 0) return;
    cmsUInt32Number stride = (cmsUInt32Number)row_pixels * 4;
    if (!transform->premultiplied) {
        cmsDoTransformLineStride(transform->transform, pixels, pixels, (cmsUInt32Number)width,
                                 (cmsUInt32Number)height, stride, stride, 0, 0);
        return;
    }
    for (int32_t y = 0; y < height; y++) {
        uint32_t *row = pixels + (size_t)y * (size_t)row_pixels;
        rfi_colour_unpremultiply(row, width);
        cmsDoTransform(transform->transform, row, row, (cmsUInt32Number)width);
        rfi_colour_premultiply(row, width);
    }
}

void rfi_colour_transform_free(rfi_colour_transform *transform) {
    if (transform == NULL) return;
    cmsDeleteTransform(transform->transform);
    free(transform);
}

/* Writes `profile` as ICC bytes into `out` and closes it. */
static rfi_status rfi_colour_profile_save(cmsHPROFILE profile, rfi_bytes *out, char *message,
                                          size_t message_capacity) {
    out->data = NULL;
    out->length = 0;
    if (profile == NULL) {
        rfi_set_message(message, message_capacity, "lcms2 cannot build the colour profile");
        return RFI_STATUS_FAILED;
    }
    cmsUInt32Number length = 0;
    rfi_status status = RFI_STATUS_OK;
    if (!cmsSaveProfileToMem(profile, NULL, &length) || length == 0) {
        rfi_set_message(message, message_capacity, "lcms2 cannot write the colour profile");
        status = RFI_STATUS_FAILED;
    } else if ((out->data = malloc(length)) == NULL) {
        rfi_set_message(message, message_capacity, "out of memory");
        status = RFI_STATUS_OUT_OF_MEMORY;
    } else if (!cmsSaveProfileToMem(profile, out->data, &length)) {
        free(out->data);
        out->data = NULL;
        rfi_set_message(message, message_capacity, "lcms2 cannot write the colour profile");
        status = RFI_STATUS_FAILED;
    } else {
        out->length = length;
    }
    cmsCloseProfile(profile);
    return status;
}

/* An RGB profile with white point and primaries (x, y: white, red, green, blue) and one tone
 * curve for all three channels. */
static cmsHPROFILE rfi_colour_rgb_profile(const double *xy, cmsToneCurve *curve) {
    if (curve == NULL) return NULL;
    cmsCIExyY white = {xy[0], xy[1], 1.0};
    cmsCIExyYTRIPLE primaries = {{xy[2], xy[3], 1.0}, {xy[4], xy[5], 1.0}, {xy[6], xy[7], 1.0}};
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE profile = cmsCreateRGBProfile(&white, &primaries, curves);
    cmsFreeToneCurve(curve);
    return profile;
}

/* sRGB's (ITU-R BT.709) primaries and D65 white, as x, y: white, red, green, blue. */
static const double rfi_srgb_chromaticities[8] = {0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06};

rfi_status rfi_colour_profile_from_png_chunks(double gamma, const double *chromaticities, rfi_bytes *out, char *message,
                                              size_t message_capacity) {
    if (!(gamma > 0) || !isfinite(gamma)) {
        rfi_set_message(message, message_capacity, "the PNG's gamma is not a positive number");
        return RFI_STATUS_FAILED;
    }
    /* gAMA stores the encoding exponent: the decoding curve is its inverse. */
    cmsToneCurve *curve = cmsBuildGamma(NULL, 1.0 / gamma);
    return rfi_colour_profile_save(
        rfi_colour_rgb_profile(chromaticities != NULL ? chromaticities : rfi_srgb_chromaticities, curve), out, message,
        message_capacity);
}

rfi_status rfi_colour_profile_adobe_rgb(rfi_bytes *out, char *message, size_t message_capacity) {
    /* Adobe RGB (1998) Color Image Encoding, version 2005-05, sections 4.3.1.1 (primaries and
     * D65 white) and 4.3.1.2 (the 563/256 = 2.19921875 gamma). */
    static const double xy[8] = {0.3127, 0.3290, 0.64, 0.33, 0.21, 0.71, 0.15, 0.06};
    return rfi_colour_profile_save(rfi_colour_rgb_profile(xy, cmsBuildGamma(NULL, 563.0 / 256.0)), out, message,
                                   message_capacity);
}

/* The sRGB tone curve (IEC 61966-2-1) as lcms2's parametric type 4: Y = ((aX + b)^g) for
 * X >= d, else cX. */
static cmsToneCurve *rfi_srgb_curve(void) {
    const cmsFloat64Number parameters[5] = {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
    return cmsBuildParametricToneCurve(NULL, 4, parameters);
}

rfi_status rfi_colour_profile_display_p3(rfi_bytes *out, char *message, size_t message_capacity) {
    /* SMPTE EG 432-1's P3 primaries with D65 white, the sRGB curve (Apple's "Display P3"). */
    static const double xy[8] = {0.3127, 0.3290, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060};
    return rfi_colour_profile_save(rfi_colour_rgb_profile(xy, rfi_srgb_curve()), out, message, message_capacity);
}

rfi_status rfi_colour_profile_srgb(rfi_bytes *out, char *message, size_t message_capacity) {
    return rfi_colour_profile_save(cmsCreate_sRGBProfile(), out, message, message_capacity);
}

/* MARK: code points (ITU-T H.273), for HEIF's and AVIF's nclx colour */

/* BT.709's transfer (ITU-R BT.709-6, item 1.2) inverted, E' to linear, as lcms2's parametric
 * type 4: ((E' + 0.099)/1.099)^(1/0.45) from E' = 0.081 (4.5 · 0.018) on, E'/4.5 below. */
static cmsToneCurve *rfi_bt709_curve(void) {
    const cmsFloat64Number parameters[5] = {1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081};
    return cmsBuildParametricToneCurve(NULL, 4, parameters);
}

/* The luminance of HDR reference white, cd/m²: what SDR white shows (ITU-R BT.2408-7, 2.2,
 * "HDR Reference White" = 203 cd/m² for PQ and HLG alike). */
#define RFI_HDR_REFERENCE_WHITE 203.0

/* Where the tone map leaves linear light and starts to compress it (a fraction of SDR white). */
#define RFI_TONE_MAP_KNEE 0.75

/* HDR linear light to SDR linear light, per channel: x = L / 203 (reference white at 1) is kept
 * below the knee k = 0.75 and rolled off above it as k + (1 − k)·t/(1 + t), t = (x − k)/(1 − k):
 * continuous with slope 1 at the knee, rising towards SDR white (1) as x grows, never past it
 * (reference white lands at 0.875, 10000 cd/m² at 0.999). A simple curve in the manner of
 * ITU-R BT.2390's EETF (linear to a knee, a roll-off above it), not that EETF itself; per
 * channel, so saturated highlights lose a little saturation as they roll off. The curve is
 * evaluated by the 8-bit transform on the decoder's 8-bit (dithered) signal: PQ and HLG spend
 * fewer of those 256 codes on SDR's range than sRGB does, so dark tones are coarser than the
 * file's 10 or 12 bits would give. */
static double rfi_tone_map(double nits) {
    double x = nits / RFI_HDR_REFERENCE_WHITE, k = RFI_TONE_MAP_KNEE;
    if (x <= k) return x;
    double t = (x - k) / (1 - k);
    return k + (1 - k) * t / (1 + t);
}

/* SMPTE ST 2084's EOTF: a PQ signal E' in [0, 1] to cd/m² (0 ... 10000). */
static double rfi_pq_nits(double e) {
    const double m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128, c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32,
                 c3 = 2392.0 / 4096 * 32;
    double p = pow(e, 1 / m2);
    double numerator = p - c1 > 0 ? p - c1 : 0;
    return 10000 * pow(numerator / (c2 - c3 * p), 1 / m1);
}

/* HLG (ITU-R BT.2100-2, table 5): the inverse OETF, E' to scene light in [0, 1], then the OOTF
 * for a 1000 cd/m² display (system gamma 1.2), 1000 · E^1.2 cd/m², applied per channel (exact
 * for greys; BT.2100 applies it to luminance). HLG's reference white, E' = 0.75, gives 203. */
static double rfi_hlg_nits(double e) {
    const double a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a);
    double scene = e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12;
    return 1000 * pow(scene, 1.2);
}

/* Entries of a tabulated HDR tone curve: 4096, finer than the 10 and 12 bits HDR is coded in. */
#define RFI_HDR_CURVE_ENTRIES 4096

/* A tone curve from an HDR signal (`pq`: PQ, else HLG) to SDR linear light (rfi_tone_map). */
static cmsToneCurve *rfi_hdr_curve(int pq) {
    cmsFloat32Number values[RFI_HDR_CURVE_ENTRIES];
    for (int i = 0; i < RFI_HDR_CURVE_ENTRIES; i++) {
        double e = (double)i / (RFI_HDR_CURVE_ENTRIES - 1);
        values[i] = (cmsFloat32Number)rfi_tone_map(pq ? rfi_pq_nits(e) : rfi_hlg_nits(e));
    }
    return cmsBuildTabulatedToneCurveFloat(NULL, RFI_HDR_CURVE_ENTRIES, values);
}

rfi_status rfi_colour_profile_from_code_points(int32_t primaries, int32_t transfer, rfi_bytes *out, char *message,
                                               size_t message_capacity) {
    out->data = NULL;
    out->length = 0;
    /* H.273 table 2: white, red, green, blue as x, y. */
    static const double bt2020[8] = {0.3127, 0.3290, 0.708, 0.292, 0.170, 0.797, 0.131, 0.046};
    static const double p3[8] = {0.3127, 0.3290, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060};
    const double *xy;
    switch (primaries) {
    case 1:
    case 2:
        xy = rfi_srgb_chromaticities;
        break;
    case 9:
        xy = bt2020;
        break;
    case 12:
        xy = p3;
        break;
    default:
        rfi_set_message(message, message_capacity, "colour primaries Riffle does not know");
        return RFI_STATUS_UNSUPPORTED;
    }
    cmsToneCurve *curve;
    switch (transfer) {
    case 2:
    case 13:
        if (xy == rfi_srgb_chromaticities) return RFI_STATUS_OK;
        curve = rfi_srgb_curve();
        break;
    case 1:
    case 6:
    case 14:
    case 15:
        curve = rfi_bt709_curve();
        break;
    case 4:
        curve = cmsBuildGamma(NULL, 2.2);
        break;
    case 5:
        curve = cmsBuildGamma(NULL, 2.8);
        break;
    case 8:
        curve = cmsBuildGamma(NULL, 1.0);
        break;
    case 16:
    case 18:
        curve = rfi_hdr_curve(transfer == 16);
        break;
    default:
        rfi_set_message(message, message_capacity, "a transfer function Riffle does not know");
        return RFI_STATUS_UNSUPPORTED;
    }
    return rfi_colour_profile_save(rfi_colour_rgb_profile(xy, curve), out, message, message_capacity);
}

/* MARK: CMYK, for the JPEG decoder */

void *rfi_colour_cmyk_transform_create(const uint8_t *profile, size_t length, int inverted) {
    cmsHPROFILE from = cmsOpenProfileFromMem(profile, (cmsUInt32Number)length);
    if (from == NULL) return NULL;
    cmsHTRANSFORM transform = NULL;
    if (cmsGetColorSpace(from) == cmsSigCmykData) {
        cmsHPROFILE to = cmsCreate_sRGBProfile();
        if (to != NULL) {
            /* With black point compensation, as print software shows CMYK on screen (Adobe's
             * "Black-Point Compensation Implementation", 2006): the ink's black maps to the
             * display's, not to a grey. */
            transform = cmsCreateTransform(from, inverted ? TYPE_CMYK_8_REV : TYPE_CMYK_8, to, TYPE_BGRA_8,
                                           INTENT_PERCEPTUAL, cmsFLAGS_NOCACHE | cmsFLAGS_BLACKPOINTCOMPENSATION);
            cmsCloseProfile(to);
        }
    }
    cmsCloseProfile(from);
    return transform;
}

void rfi_colour_cmyk_row(void *transform, const uint8_t *cmyk, uint32_t *bgra, uint32_t width) {
    /* lcms2 writes the colour channels only: alpha is set first. */
    for (uint32_t x = 0; x < width; x++) bgra[x] = 0xFF000000u;
    cmsDoTransform((cmsHTRANSFORM)transform, cmyk, bgra, width);
}

void rfi_colour_cmyk_transform_free(void *transform) {
    if (transform != NULL) cmsDeleteTransform((cmsHTRANSFORM)transform);
}

/* MARK: CIELab, for the TIFF decoder */

/* Lab relative to a white point, made XYZ relative to D50 (the ICC PCS), then sRGB. */
struct rfi_colour_lab {
    cmsHTRANSFORM transform;
    /* The white point as XYZ (Y = 1), and Bradford's adaptation from it to D50 by columns. */
    cmsCIEXYZ white;
    double adapt[3][3];
};

void *rfi_colour_lab_transform_create(double white_x, double white_y) {
    struct rfi_colour_lab *lab = calloc(1, sizeof *lab);
    if (lab == NULL) return NULL;
    cmsCIExyY white = {white_x, white_y, 1.0};
    cmsxyY2XYZ(&lab->white, &white);
    /* The adaptation is linear: its matrix is its image of the three unit vectors. */
    for (int c = 0; c < 3; c++) {
        cmsCIEXYZ unit = {c == 0, c == 1, c == 2}, adapted;
        if (!cmsAdaptToIlluminant(&adapted, &lab->white, cmsD50_XYZ(), &unit)) {
            free(lab);
            return NULL;
        }
        lab->adapt[0][c] = adapted.X, lab->adapt[1][c] = adapted.Y, lab->adapt[2][c] = adapted.Z;
    }
    cmsHPROFILE xyz = cmsCreateXYZProfile(), srgb = cmsCreate_sRGBProfile();
    /* Relative colorimetric: the PCS's white (the file's, adapted) is the display's white. */
    if (xyz != NULL && srgb != NULL)
        lab->transform = cmsCreateTransform(xyz, TYPE_XYZ_DBL, srgb, TYPE_BGRA_8, INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_NOCACHE);
    if (xyz != NULL) cmsCloseProfile(xyz);
    if (srgb != NULL) cmsCloseProfile(srgb);
    if (lab->transform == NULL) {
        free(lab);
        return NULL;
    }
    return lab;
}

/* Pixels converted at a time: a stack buffer of XYZ doubles. */
#define RFI_LAB_CHUNK 256

void rfi_colour_lab_row(void *transform, const float *values, uint32_t *bgra, uint32_t width) {
    const struct rfi_colour_lab *lab = transform;
    /* lcms2 writes the colour channels only: alpha is set first. */
    for (uint32_t x = 0; x < width; x++) bgra[x] = 0xFF000000u;
    double xyz[3 * RFI_LAB_CHUNK];
    for (uint32_t start = 0; start < width; start += RFI_LAB_CHUNK) {
        uint32_t count = width - start < RFI_LAB_CHUNK ? width - start : RFI_LAB_CHUNK;
        for (uint32_t i = 0; i < count; i++) {
            const float *v = values + 3 * (size_t)(start + i);
            cmsCIELab value = {v[0], v[1], v[2]};
            cmsCIEXYZ relative;
            cmsLab2XYZ(&lab->white, &relative, &value);
            double in[3] = {relative.X, relative.Y, relative.Z};
            for (int r = 0; r < 3; r++)
                xyz[3 * i + (uint32_t)r] = lab->adapt[r][0] * in[0] + lab->adapt[r][1] * in[1] + lab->adapt[r][2] * in[2];
        }
        cmsDoTransform(lab->transform, xyz, bgra + start, count);
    }
}

void rfi_colour_lab_transform_free(void *transform) {
    struct rfi_colour_lab *lab = transform;
    if (lab == NULL) return;
    cmsDeleteTransform(lab->transform);
    free(lab);
}

int rfi_colour_profile_is_cmyk(const uint8_t *profile, size_t length) {
    cmsHPROFILE opened = cmsOpenProfileFromMem(profile, (cmsUInt32Number)length);
    if (opened == NULL) return 0;
    int is_cmyk = cmsGetColorSpace(opened) == cmsSigCmykData;
    cmsCloseProfile(opened);
    return is_cmyk;
}
