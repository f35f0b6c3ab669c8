/* The HEIF item properties Riffle reads itself (heif_items.c), for heif.c: what libheif 1.15
 * gets wrong of a primary image. Internal to CRiffleImaging. */
#ifndef CRIFFLE_IMAGING_HEIF_ITEMS_H
#define CRIFFLE_IMAGING_HEIF_ITEMS_H

#include "stills_internal.h"

/* What the meta box says of the primary image. */
typedef struct rfi_heif_items {
    /* 1 when the upright size was made: ispe's size put through the transformative properties
     * (clap, irot) in their ipma order, whatever ispe's place among them (ISO/IEC 23008-12,
     * 6.5.1 and 6.5.3). */
    int have_size;
    int32_t width;
    int32_t height;
    /* 1 when the primary is a monochrome AV1 image coded in limited range (its colr nclx, else
     * its AV1 sequence header), or its alpha item is (its sequence header's color_range). */
    int grey_limited;
    int alpha_limited;
} rfi_heif_items;

/* Reads them from the file at `path` (its meta box alone, and the first bytes of an AV1 item's
 * data), or from the `length` bytes at `data` when `path` is NULL. `alpha_item` is the item ID
 * of the primary's alpha image, 0 when it has none. Whatever cannot be read is left 0. */
void rfi_heif_items_read(const char *path, const uint8_t *data, size_t length, uint32_t alpha_item,
                         rfi_heif_items *out);

#endif
