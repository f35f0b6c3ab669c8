/* Helpers shared by the CRiffleImaging sources; not part of the public header. */
#ifndef CRIFFLE_IMAGING_INTERNAL_H
#define CRIFFLE_IMAGING_INTERNAL_H

#include "CRiffleImaging.h"

/* Copies `text` into `message` (truncating, always NUL-terminated when capacity > 0). */
void rfi_set_message(char *message, size_t message_capacity, const char *text);

/* EXIF orientation 1...8 from an APP1 payload that starts with "Exif\0\0"; 1 when absent. */
int32_t rfi_exif_orientation(const uint8_t *exif, size_t length);

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

#endif
