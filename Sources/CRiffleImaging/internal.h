/* Helpers shared by the CRiffleImaging sources; not part of the public header. */
#ifndef CRIFFLE_IMAGING_INTERNAL_H
#define CRIFFLE_IMAGING_INTERNAL_H

#include "CRiffleImaging.h"

/* Copies `text` into `message` (truncating, always NUL-terminated when capacity > 0). */
void rfi_set_message(char *message, size_t message_capacity, const char *text);

/* Replaces, after jpeg_start_decompress, the scaled IDCTs libjpeg chose for a 5/8 decode
 * (jpeg_idct_5x5, jpeg_idct_10x10) with AVX2 ones giving the same samples, bit for bit, where
 * the CPU and libjpeg's tables allow (jpeg_scaled_idct.c); elsewhere changes nothing. Returns
 * how many components' IDCTs it replaced. */
struct jpeg_decompress_struct;
int32_t rfi_jpeg_use_vector_idct(struct jpeg_decompress_struct *decompress);

/* EXIF orientation 1...8 from an APP1 payload that starts with "Exif\0\0"; 1 when absent. */
int32_t rfi_exif_orientation(const uint8_t *exif, size_t length);

/* A GPS coordinate's `magnitude` in degrees signed by its reference tag's text (`reference`:
 * "N"/"S" or "E"/"W", any case, after spaces; NULL or empty when the file has none, and then
 * the value's own sign, `negative_value`, as ExifTool reads it); `negative` is 'S' or 'W'.
 * *present = 0 (and 0 returned) when the magnitude is past `limit` (90 or 180) or not a number. */
double rfi_gps_signed(double magnitude, int negative_value, const char *reference, char negative, double limit,
                      int32_t *present);

/* Premultiplies `count` BGRA pixels in place, rounding c·a/255 to nearest; returns 1 when some
 * pixel has alpha below 255. */
int rfi_premultiply(uint32_t *pixels, size_t count);

/* A transform from a CMYK ICC profile (`profile`, `length` bytes) to sRGB, perceptual with black
 * point compensation, for rows
 * of 8-bit C, M, Y, K (stored inverted, 255 = no ink, when `inverted`: Adobe's APP14 files);
 * NULL when the profile is not a CMYK one lcms2 can read. Release with
 * rfi_colour_cmyk_transform_free. */
void *rfi_colour_cmyk_transform_create(const uint8_t *profile, size_t length, int inverted);

/* Converts `width` CMYK pixels to opaque BGRA through `transform`. */
void rfi_colour_cmyk_row(void *transform, const uint8_t *cmyk, uint32_t *bgra, uint32_t width);

void rfi_colour_cmyk_transform_free(void *transform);

/* A transform from CIELab (floats: L* 0...100, a* and b* −128...127) relative to the white
 * point (`white_x`, `white_y`) to sRGB, for a TIFF's CIELab rows: Lab to XYZ at that white
 * (CIE 15), Bradford's adaptation to D50 (lcms2's cmsAdaptToIlluminant), then lcms2's transform
 * from its XYZ PCS to sRGB, relative colorimetric; NULL when lcms2 cannot make it. Release with
 * rfi_colour_lab_transform_free. */
void *rfi_colour_lab_transform_create(double white_x, double white_y);

/* Converts `width` Lab pixels (3 floats each) to opaque BGRA through `transform`. */
void rfi_colour_lab_row(void *transform, const float *lab, uint32_t *bgra, uint32_t width);

void rfi_colour_lab_transform_free(void *transform);

/* An RGB profile for colour given by ITU-T H.273 code points (HEIF's and AVIF's nclx box):
 * `primaries` 1 or 2 (BT.709 = sRGB's; 2, unspecified, taken as 1), 9 (BT.2020 and BT.2100) or
 * 12 (SMPTE EG 432-1, Display P3), all with D65 white; `transfer` 13 or 2 (sRGB), 1, 6, 14, 15
 * (BT.709's curve: its OETF inverted), 4 and 5 (gamma 2.2 and 2.8), 8 (linear), 16 (PQ, SMPTE
 * ST 2084) or 18 (HLG, ARIB STD-B67), the last two tone-mapped to SDR as colour.c says.
 * RFI_STATUS_OK with out->data NULL for sRGB's code points (nothing to convert);
 * RFI_STATUS_UNSUPPORTED for others (the pixels are then read as sRGB). */
rfi_status rfi_colour_profile_from_code_points(int32_t primaries, int32_t transfer, rfi_bytes *out, char *message,
                                               size_t message_capacity);

#endif
