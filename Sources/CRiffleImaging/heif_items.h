/* The HEIF item properties Riffle reads itself (heif_items.c), for heif.c: what libheif 1.15
 * gets wrong of a primary image. Internal to CRiffleImaging. */
#ifndef CRIFFLE_IMAGING_HEIF_ITEMS_H
#define CRIFFLE_IMAGING_HEIF_ITEMS_H

#include "stills_internal.h"

/* A box's four-character type as a big-endian number. */
#define RFI_BOX(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

static inline uint32_t rfi_heif_u32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The box at `*offset` within `length` bytes (ISO/IEC 14496-12, 4.2: a 32-bit size, or 1 and a
 * 64-bit one, or 0 for "to the end"): its type and body; moves `*offset` past it. 0 at the end
 * or at a box that does not fit. */
int rfi_heif_next_box(const uint8_t *data, size_t length, size_t *offset, uint32_t *type, const uint8_t **body,
                      size_t *body_length);

/* The meta box's body (after its version and flags) and the boxes in it Riffle reads. */
struct rfi_heif_meta {
    const uint8_t *boxes;
    size_t length;
    uint32_t primary;
    int have_primary;
    const uint8_t *iprp, *ipco, *iloc, *iinf, *iref, *idat;
    size_t iprp_length, ipco_length, iloc_length, iinf_length, iref_length, idat_length;
};

/* The properties associated with `item` (ipma), in order, as 1-based indices into ipco; their
 * count, at most `capacity`, or -1 when ipma is unreadable or does not name the item. */
int rfi_heif_item_associations(const struct rfi_heif_meta *meta, uint32_t item, uint32_t *associations, int capacity);

/* The property at 1-based `index` in ipco: its type and body; 0 when there is none. */
int rfi_heif_property(const struct rfi_heif_meta *meta, uint32_t index, uint32_t *type, const uint8_t **body,
                      size_t *body_length);

/* The first property of type `wanted` associated with `item`; 0 when it has none. */
int rfi_heif_item_property(const struct rfi_heif_meta *meta, uint32_t item, uint32_t wanted, const uint8_t **body,
                           size_t *body_length);

/* An open HEIF container: its meta box and where its item data is read from. */
typedef struct rfi_heif_container {
    uint8_t *meta_bytes;
    size_t meta_length;
    struct rfi_heif_meta meta;
    /* The file (a copy of its path), or the bytes when path is NULL. */
    char *path;
    const uint8_t *data;
    size_t length;
} rfi_heif_container;

/* Reads the meta box of the file at `path`, or of the `length` bytes at `data` (which must
 * outlive the container) when `path` is NULL; 0 without one Riffle reads (no pitm or ipco). */
int rfi_heif_container_open(const char *path, const uint8_t *data, size_t length, rfi_heif_container *out);

void rfi_heif_container_close(rfi_heif_container *container);

/* `item`'s type (iinf's infe, version 2 or 3: 'hvc1', 'grid', 'iden', …); 0 when unknown. */
uint32_t rfi_heif_item_type(const rfi_heif_container *container, uint32_t item);

/* The items `from` refers to by references of `type` (iref: 'dimg', 'auxl', …), in order: their
 * count, at most `capacity`. */
int rfi_heif_item_references(const rfi_heif_container *container, uint32_t type, uint32_t from, uint32_t *to,
                             int capacity);

/* The items that refer to `to` by references of `type`: their count, at most `capacity`. */
int rfi_heif_referring_items(const rfi_heif_container *container, uint32_t type, uint32_t to, uint32_t *from,
                             int capacity);

/* `item`'s data, its extents joined (in the file, or in idat for construction method 1),
 * malloc'ed, at most `limit` bytes; NULL when iloc does not name it, it is larger, or it cannot
 * be read. */
uint8_t *rfi_heif_item_data(const rfi_heif_container *container, uint32_t item, size_t limit, size_t *length);

/* The upright size of `item` (of the primary item): ispe's size put through the
 * transformative properties in their ipma order. 0 without ispe or a readable ipma entry. */
int rfi_heif_item_size(const struct rfi_heif_meta *meta, uint32_t item, int32_t *width, int32_t *height);
int rfi_heif_primary_size(const struct rfi_heif_meta *meta, int32_t *width, int32_t *height);

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

/* MARK: heif_hevc.c, the images libheif refuses */

/* A HEIF whose primary image Riffle decodes itself (HEVC through libde265; see heif_hevc.c). */
typedef struct rfi_heif_own rfi_heif_own;

/* Opens the file at `path` (or the `length` bytes at `data`, which must outlive it) and reads
 * the primary image's header: its upright size, alpha, colour profile; 8 bits a sample.
 * RFI_STATUS_UNSUPPORTED when the primary is not an HEVC image, a grid of them, or an iden of
 * either. */
rfi_status rfi_heif_own_open(const char *path, const uint8_t *data, size_t length, rfi_heif_own **own,
                             rfi_still_header *header, char *message, size_t message_capacity);

/* Decodes the primary image to premultiplied BGRA in a malloc'ed block, refusing with
 * RFI_STATUS_TOO_LARGE any image (a tile, the grid, the picture) of more than `pixel_limit`
 * pixels before its memory is taken. */
rfi_status rfi_heif_own_decode(rfi_heif_own *own, int64_t pixel_limit, rfi_image_pixels *out, char *message,
                               size_t message_capacity);

void rfi_heif_own_close(rfi_heif_own *own);

#endif
