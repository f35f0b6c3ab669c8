/* Helpers shared by the still formats' sources (tiff.c, heif.c, jxl.c, raw.c). */
#ifndef CRIFFLE_IMAGING_STILLS_INTERNAL_H
#define CRIFFLE_IMAGING_STILLS_INTERNAL_H

#include "internal.h"

/* A sample of `bits` bits (9 to 16) as 8 bits: round(v · 255 / max), max = 2^bits − 1, exact in
 * integers as (v · 255 + max / 2) / max; for 16 bits (v · 255 + 32767) / 65535. */
static inline uint32_t rfi_reduce_to_8(uint32_t value, int bits) {
    uint32_t max = (1u << bits) - 1;
    if (value > max) value = max;
    return (value * 255 + max / 2) / max;
}

/* round(c · a / 255) for 8-bit c and a (Jim Blinn's exact form, as rfi_premultiply). */
static inline uint32_t rfi_times_alpha(uint32_t channel, uint32_t alpha) {
    uint32_t t = channel * alpha + 128;
    return (t + (t >> 8)) >> 8;
}

/* Opaque mid-grey, the fill of missing data elsewhere in the shim. */
#define RFI_GREY 0xFF808080u

/* Releases a malloc'ed block of pixels (an rfi_image_pixels owner). */
void rfi_free_owner(void *owner);

/* Where the picture data of the TIFF-structured file in `descriptor` (or, when it is −1, the
 * `length` bytes at `data`) ends: the strips or tiles of its directory of the most pixels (IFD0,
 * a later one or a SubIFD: a camera's raw data), as their offsets and byte counts say, and the
 * file's size. 0 when libtiff cannot read the directories or they hold no strip or tile. */
int rfi_tiff_picture_data_end(int32_t descriptor, const uint8_t *data, size_t length, uint64_t *end,
                              uint64_t *file_size);

/* Copies `length` bytes into a new rfi_bytes; 0 when malloc fails. */
int rfi_bytes_copy(rfi_bytes *out, const void *data, size_t length);

#endif
