/* HEIF (ISO/IEC 23008-12) item properties read by Riffle itself, from the meta box, where
 * libheif 1.15 reads them wrong or not at all: the primary image's upright size, and the range
 * its AV1-coded grey and alpha are coded in. See heif_items.h; heif.c decodes through libheif.
 *
 * Everything here parses untrusted bytes: every length is checked against what holds it. */
#include "heif_items.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MARK: the primary image's size from its item properties (ISO/IEC 23008-12)
 *
 * libheif 1.15 sizes an image by walking its properties in their ipma order, setting the size at
 * ispe and changing it at clap and irot (HeifContext::interpret_heif_file): a file that lists a
 * transformation before ispe is sized as stored, uncropped and unrotated, while the decode
 * applies the transformation. The size is made here as the standard defines it instead: ispe is
 * the size of the coded image, whatever its place (23008-12, 6.5.3), and the transformative
 * properties apply in their ipma order (6.5.1); clap crops to its clean aperture
 * (ISO/IEC 14496-12, 12.1.4), irot turns by a multiple of 90° (23008-12, 6.5.10), imir keeps
 * the size. */

/* The largest meta box read for the size, bytes: far above a phone's (a few KB; a grid of 48
 * tiles with its iloc is under 2 KB). */
#define RFI_HEIF_MAX_META_BYTES ((size_t)4 << 20)

/* A box's four-character type as a big-endian number. */
#define RFI_BOX(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (uint32_t)(d))

static uint32_t rfi_heif_u32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

/* The box at `*offset` within `length` bytes (ISO/IEC 14496-12, 4.2: a 32-bit size, or 1 and a
 * 64-bit one, or 0 for "to the end"): its type and body; moves `*offset` past it. 0 at the end
 * or at a box that does not fit. */
static int rfi_heif_next_box(const uint8_t *data, size_t length, size_t *offset, uint32_t *type, const uint8_t **body,
                             size_t *body_length) {
    size_t at = *offset;
    if (length - at < 8 || at > length) return 0;
    uint64_t size = rfi_heif_u32(data + at);
    *type = rfi_heif_u32(data + at + 4);
    size_t header = 8;
    if (size == 1) {
        if (length - at < 16) return 0;
        size = (uint64_t)rfi_heif_u32(data + at + 8) << 32 | rfi_heif_u32(data + at + 12);
        header = 16;
    } else if (size == 0) {
        size = length - at;
    }
    if (size < header || size > length - at) return 0;
    *body = data + at + header;
    *body_length = (size_t)size - header;
    *offset = at + (size_t)size;
    return 1;
}

/* The meta box's body (after its version and flags) and the boxes in it this file reads. */
struct rfi_heif_meta {
    const uint8_t *boxes;
    size_t length;
    uint32_t primary;
    int have_primary;
    const uint8_t *iprp, *ipco, *iloc;
    size_t iprp_length, ipco_length, iloc_length;
};

/* Finds pitm, iprp (and its ipco) and iloc in the meta box's body `boxes`; 0 without pitm or
 * ipco. */
static int rfi_heif_meta_read(const uint8_t *boxes, size_t length, struct rfi_heif_meta *meta) {
    memset(meta, 0, sizeof *meta);
    meta->boxes = boxes, meta->length = length;
    size_t offset = 0, body_length;
    const uint8_t *body;
    uint32_t type;
    while (rfi_heif_next_box(boxes, length, &offset, &type, &body, &body_length)) {
        if (type == RFI_BOX('p', 'i', 't', 'm') && body_length >= 6) {
            /* A full box: version 0 has a 16-bit item ID, later ones a 32-bit one. */
            if (body[0] == 0) {
                meta->primary = (uint32_t)body[4] << 8 | body[5], meta->have_primary = 1;
            } else if (body_length >= 8) {
                meta->primary = rfi_heif_u32(body + 4), meta->have_primary = 1;
            }
        } else if (type == RFI_BOX('i', 'p', 'r', 'p')) {
            meta->iprp = body, meta->iprp_length = body_length;
        } else if (type == RFI_BOX('i', 'l', 'o', 'c')) {
            meta->iloc = body, meta->iloc_length = body_length;
        }
    }
    offset = 0;
    while (meta->iprp != NULL && rfi_heif_next_box(meta->iprp, meta->iprp_length, &offset, &type, &body, &body_length)) {
        if (type == RFI_BOX('i', 'p', 'c', 'o')) meta->ipco = body, meta->ipco_length = body_length;
    }
    return meta->have_primary && meta->ipco != NULL;
}

/* The properties associated with `item` (ipma, ISO/IEC 23008-12 9.3.2), in order, as 1-based
 * indices into ipco (0: none); their count, at most `capacity`, or -1 when ipma is unreadable
 * or does not name the item. */
static int rfi_heif_item_associations(const struct rfi_heif_meta *meta, uint32_t item, uint32_t *associations,
                                      int capacity) {
    size_t offset = 0, body_length;
    const uint8_t *body;
    uint32_t type;
    while (rfi_heif_next_box(meta->iprp, meta->iprp_length, &offset, &type, &body, &body_length)) {
        if (type != RFI_BOX('i', 'p', 'm', 'a') || body_length < 8) continue;
        int version = body[0], wide_index = body[3] & 1;
        uint32_t entries = rfi_heif_u32(body + 4);
        size_t at = 8, id_bytes = version < 1 ? 2 : 4, index_bytes = wide_index ? 2 : 1;
        for (uint32_t e = 0; e < entries; e++) {
            if (body_length - at < id_bytes + 1) return -1;
            uint32_t id = version < 1 ? (uint32_t)body[at] << 8 | body[at + 1] : rfi_heif_u32(body + at);
            int n = body[at + id_bytes];
            at += id_bytes + 1;
            if (body_length - at < (size_t)n * index_bytes) return -1;
            if (id == item) {
                int count = 0;
                for (int i = 0; i < n && count < capacity; i++) {
                    const uint8_t *p = body + at + (size_t)i * index_bytes;
                    /* The top bit is "essential". */
                    associations[count++] = wide_index ? ((uint32_t)p[0] << 8 | p[1]) & 0x7FFF : p[0] & 0x7Fu;
                }
                return count;
            }
            at += (size_t)n * index_bytes;
        }
    }
    return -1;
}

/* The property at 1-based `index` in ipco: its type and body; 0 when there is none. */
static int rfi_heif_property(const struct rfi_heif_meta *meta, uint32_t index, uint32_t *type, const uint8_t **body,
                             size_t *body_length) {
    size_t offset = 0;
    for (uint32_t i = 1; rfi_heif_next_box(meta->ipco, meta->ipco_length, &offset, type, body, body_length); i++) {
        if (i == index) return 1;
    }
    return 0;
}

/* The first property of type `wanted` associated with `item`; 0 when it has none. */
static int rfi_heif_item_property(const struct rfi_heif_meta *meta, uint32_t item, uint32_t wanted,
                                  const uint8_t **body, size_t *body_length) {
    uint32_t associations[256], type;
    int count = rfi_heif_item_associations(meta, item, associations, 256);
    for (int i = 0; i < count; i++) {
        if (rfi_heif_property(meta, associations[i], &type, body, body_length) && type == wanted) return 1;
    }
    return 0;
}

/* An unsigned big-endian field of `size` bytes (0, 4 or 8) at `*at`, moving past it; 0 when it
 * does not fit. */
static int rfi_heif_field(const uint8_t *body, size_t length, size_t *at, int size, uint64_t *value) {
    if (size != 0 && size != 4 && size != 8) return 0;
    if (length - *at < (size_t)size || *at > length) return 0;
    *value = 0;
    for (int i = 0; i < size; i++) *value = *value << 8 | body[*at + (size_t)i];
    *at += (size_t)size;
    return 1;
}

/* Where `item`'s data begins in the file and how long its first extent is (iloc,
 * ISO/IEC 14496-12 8.11.3); 0 when iloc does not name it or keeps it elsewhere than in the file
 * (construction method 1 or 2, or another data reference). */
static int rfi_heif_item_extent(const struct rfi_heif_meta *meta, uint32_t item, uint64_t *offset, uint64_t *length) {
    const uint8_t *b = meta->iloc;
    size_t n = meta->iloc_length, at;
    if (b == NULL || n < 8) return 0;
    int version = b[0];
    int offset_size = b[4] >> 4, length_size = b[4] & 15, base_size = b[5] >> 4;
    int index_size = version == 1 || version == 2 ? b[5] & 15 : 0;
    at = 6;
    uint64_t items;
    if (version < 2) {
        if (n - at < 2) return 0;
        items = (uint64_t)b[at] << 8 | b[at + 1], at += 2;
    } else if (!rfi_heif_field(b, n, &at, 4, &items)) {
        return 0;
    }
    for (uint64_t i = 0; i < items; i++) {
        uint64_t id, method = 0, base, extents;
        if (version < 2) {
            if (n - at < 2) return 0;
            id = (uint64_t)b[at] << 8 | b[at + 1], at += 2;
        } else if (!rfi_heif_field(b, n, &at, 4, &id)) {
            return 0;
        }
        if (version == 1 || version == 2) {
            if (n - at < 2) return 0;
            method = b[at + 1] & 15, at += 2;
        }
        if (n - at < 2) return 0;
        uint32_t reference = (uint32_t)b[at] << 8 | b[at + 1];
        at += 2;
        if (!rfi_heif_field(b, n, &at, base_size, &base) || n - at < 2) return 0;
        extents = (uint64_t)b[at] << 8 | b[at + 1], at += 2;
        for (uint64_t e = 0; e < extents; e++) {
            uint64_t index, extent_offset, extent_length;
            if ((index_size > 0 && !rfi_heif_field(b, n, &at, index_size, &index)) ||
                !rfi_heif_field(b, n, &at, offset_size, &extent_offset) ||
                !rfi_heif_field(b, n, &at, length_size, &extent_length))
                return 0;
            if (id == item && e == 0) {
                if (method != 0 || reference != 0) return 0;
                *offset = base + extent_offset, *length = extent_length;
                return 1;
            }
        }
    }
    return 0;
}

/* The upright size of the primary item: ispe's size put through the transformative properties
 * in their order. 0 without ispe or a readable ipma entry. */
static int rfi_heif_primary_size(const struct rfi_heif_meta *meta, int32_t *width, int32_t *height) {
    uint32_t associations[256], type;
    const uint8_t *body;
    size_t body_length;
    int count = rfi_heif_item_associations(meta, meta->primary, associations, 256);
    if (count < 0) return 0;
    /* ispe: a full box, then 32-bit width and height. */
    if (!rfi_heif_item_property(meta, meta->primary, RFI_BOX('i', 's', 'p', 'e'), &body, &body_length) ||
        body_length < 12)
        return 0;
    int64_t w = rfi_heif_u32(body + 4), h = rfi_heif_u32(body + 8);
    for (int i = 0; i < count; i++) {
        if (!rfi_heif_property(meta, associations[i], &type, &body, &body_length)) continue;
        if (type == RFI_BOX('c', 'l', 'a', 'p') && body_length >= 32) {
            /* Clean aperture width and height as fractions N/D, rounded to the nearest pixel as
             * libheif crops (Box_clap::get_width_rounded), never past the picture. */
            uint32_t wn = rfi_heif_u32(body), wd = rfi_heif_u32(body + 4);
            uint32_t hn = rfi_heif_u32(body + 8), hd = rfi_heif_u32(body + 12);
            if (wd == 0 || hd == 0) return 0;
            int64_t cw = ((int64_t)wn * 2 + wd) / (2 * (int64_t)wd), ch = ((int64_t)hn * 2 + hd) / (2 * (int64_t)hd);
            if (cw < w) w = cw;
            if (ch < h) h = ch;
        } else if (type == RFI_BOX('i', 'r', 'o', 't') && body_length >= 1 && (body[0] & 1)) {
            /* The angle, anticlockwise, is (bits 0-1) × 90°: 90° and 270° swap the sides. */
            int64_t t = w;
            w = h, h = t;
        }
    }
    if (w <= 0 || h <= 0 || w > INT32_MAX || h > INT32_MAX) return 0;
    *width = (int32_t)w;
    *height = (int32_t)h;
    return 1;
}

/* MARK: limited range (ITU-T H.273, 8.3: video_full_range_flag)
 *
 * libheif 1.15 converts a colour image's YCbCr by its nclx range, but copies a monochrome
 * image's Y and every alpha plane as they are coded: a limited-range grey or alpha (black at
 * 16·2^(n−8), white at 235·2^(n−8)) is shown unexpanded. The range of an AV1-coded item is its
 * sequence header's color_range (AV1 specification 5.5.2, color_config); an AVIF's colr nclx
 * box repeats the primary's. */

/* A reader of the AV1 bit stream's f(n) fields, most significant bit first. */
struct rfi_av1_bits {
    const uint8_t *data;
    size_t length, position;
};

/* The next `n` bits (at most 32); sets `*ok` to 0 past the end. */
static uint32_t rfi_av1_f(struct rfi_av1_bits *bits, int n, int *ok) {
    uint32_t value = 0;
    for (int i = 0; i < n; i++) {
        if (bits->position >= bits->length * 8) {
            *ok = 0;
            return 0;
        }
        value = value << 1 | ((bits->data[bits->position >> 3] >> (7 - (bits->position & 7))) & 1);
        bits->position++;
    }
    return value;
}

/* color_range of the first sequence header OBU in the AV1 data `data` (AV1 specification 5.3
 * and 5.5): 1 full, 0 limited, -1 when it cannot be read (no sequence header in the bytes, or
 * timing information, whose decoder model this reader does not walk). */
static int rfi_av1_color_range(const uint8_t *data, size_t length) {
    size_t at = 0;
    while (at < length) {
        /* obu_header: forbidden bit, obu_type (4), extension flag, has_size_field, reserved. */
        int type = (data[at] >> 3) & 15, extension = (data[at] >> 2) & 1, has_size = (data[at] >> 1) & 1;
        at += 1 + (size_t)extension;
        uint64_t size = 0;
        if (!has_size) {
            size = at <= length ? length - at : 0;
        } else {
            /* leb128(). */
            for (int i = 0; i < 8; i++) {
                if (at >= length) return -1;
                uint8_t byte = data[at++];
                size |= (uint64_t)(byte & 0x7F) << (7 * i);
                if (!(byte & 0x80)) break;
            }
        }
        if (at > length) return -1;
        if (type != 1) {
            if (size > length - at) return -1;
            at += (size_t)size;
            continue;
        }
        struct rfi_av1_bits b = {data + at, (size_t)(size < length - at ? size : length - at), 0};
        int ok = 1;
        uint32_t profile = rfi_av1_f(&b, 3, &ok);
        rfi_av1_f(&b, 1, &ok); /* still_picture */
        uint32_t reduced = rfi_av1_f(&b, 1, &ok);
        if (reduced) {
            rfi_av1_f(&b, 5, &ok); /* seq_level_idx[0] */
        } else {
            if (rfi_av1_f(&b, 1, &ok)) return -1; /* timing_info_present_flag */
            uint32_t display_delay = rfi_av1_f(&b, 1, &ok);
            uint32_t points = rfi_av1_f(&b, 5, &ok) + 1;
            for (uint32_t i = 0; i < points && ok; i++) {
                rfi_av1_f(&b, 12, &ok); /* operating_point_idc */
                if (rfi_av1_f(&b, 5, &ok) > 7) rfi_av1_f(&b, 1, &ok); /* seq_level_idx, seq_tier */
                if (display_delay && rfi_av1_f(&b, 1, &ok)) rfi_av1_f(&b, 4, &ok);
            }
        }
        int width_bits = (int)rfi_av1_f(&b, 4, &ok) + 1, height_bits = (int)rfi_av1_f(&b, 4, &ok) + 1;
        rfi_av1_f(&b, width_bits, &ok);
        rfi_av1_f(&b, height_bits, &ok);
        if (!reduced && rfi_av1_f(&b, 1, &ok)) { /* frame_id_numbers_present_flag */
            rfi_av1_f(&b, 4, &ok);
            rfi_av1_f(&b, 3, &ok);
        }
        rfi_av1_f(&b, 3, &ok); /* use_128x128_superblock, enable_filter_intra, enable_intra_edge_filter */
        if (!reduced) {
            rfi_av1_f(&b, 4, &ok); /* interintra, masked compound, warped motion, dual filter */
            uint32_t order_hint = rfi_av1_f(&b, 1, &ok);
            if (order_hint) rfi_av1_f(&b, 2, &ok); /* enable_jnt_comp, enable_ref_frame_mvs */
            uint32_t force_screen_content = rfi_av1_f(&b, 1, &ok) ? 2 : rfi_av1_f(&b, 1, &ok);
            if (force_screen_content > 0 && !rfi_av1_f(&b, 1, &ok)) rfi_av1_f(&b, 1, &ok);
            if (order_hint) rfi_av1_f(&b, 3, &ok);
        }
        rfi_av1_f(&b, 3, &ok); /* enable_superres, enable_cdef, enable_restoration */
        /* color_config */
        uint32_t high_bitdepth = rfi_av1_f(&b, 1, &ok);
        if (profile == 2 && high_bitdepth) rfi_av1_f(&b, 1, &ok);
        uint32_t mono = profile == 1 ? 0 : rfi_av1_f(&b, 1, &ok);
        uint32_t primaries = 2, transfer = 2, matrix = 2;
        if (rfi_av1_f(&b, 1, &ok)) {
            primaries = rfi_av1_f(&b, 8, &ok), transfer = rfi_av1_f(&b, 8, &ok), matrix = rfi_av1_f(&b, 8, &ok);
        }
        /* sRGB's identity matrix is full range without a flag. */
        int range = !mono && primaries == 1 && transfer == 13 && matrix == 0 ? 1 : (int)rfi_av1_f(&b, 1, &ok);
        return ok ? range : -1;
    }
    return -1;
}

/* The largest part of an item read for its sequence header, bytes: the header comes first and
 * is a few dozen bytes. */
#define RFI_AV1_HEADER_BYTES 512

/* 1 when `item`, coded in AV1, is coded in limited range by its sequence header; 0 otherwise
 * (full range, another codec, or data that cannot be read). */
static int rfi_heif_item_is_limited_av1(const struct rfi_heif_meta *meta, uint32_t item, const char *path,
                                        const uint8_t *data, size_t length) {
    const uint8_t *av1c;
    size_t av1c_length;
    uint64_t offset, extent;
    if (!rfi_heif_item_property(meta, item, RFI_BOX('a', 'v', '1', 'C'), &av1c, &av1c_length) ||
        !rfi_heif_item_extent(meta, item, &offset, &extent))
        return 0;
    uint8_t head[RFI_AV1_HEADER_BYTES];
    size_t wanted = extent < sizeof head ? (size_t)extent : sizeof head, got = 0;
    if (path == NULL) {
        if (offset > length) return 0;
        got = length - (size_t)offset < wanted ? length - (size_t)offset : wanted;
        memcpy(head, data + offset, got);
    } else {
        FILE *file = fopen(path, "rb");
        if (file == NULL) return 0;
        if (offset <= (uint64_t)INT64_MAX && fseeko(file, (off_t)offset, SEEK_SET) == 0) got = fread(head, 1, wanted, file);
        fclose(file);
    }
    return rfi_av1_color_range(head, got) == 0;
}

/* 1 when the primary image is a monochrome AV1 one (av1C's mono_chrome, AV1-ISOBMFF 2.3.3) in
 * limited range: its colr nclx's full_range_flag, else its sequence header's color_range. */
static int rfi_heif_primary_grey_is_limited(const struct rfi_heif_meta *meta, const char *path, const uint8_t *data,
                                            size_t length) {
    const uint8_t *body;
    size_t body_length;
    if (!rfi_heif_item_property(meta, meta->primary, RFI_BOX('a', 'v', '1', 'C'), &body, &body_length) ||
        body_length < 4 || !(body[2] & 0x10))
        return 0;
    uint32_t associations[256], type;
    int count = rfi_heif_item_associations(meta, meta->primary, associations, 256);
    for (int i = 0; i < count; i++) {
        /* colr: 'nclx', primaries, transfer, matrix (16 bits each), full_range_flag (1 bit). */
        if (rfi_heif_property(meta, associations[i], &type, &body, &body_length) && type == RFI_BOX('c', 'o', 'l', 'r') &&
            body_length >= 11 && rfi_heif_u32(body) == RFI_BOX('n', 'c', 'l', 'x'))
            return !(body[10] & 0x80);
    }
    return rfi_heif_item_is_limited_av1(meta, meta->primary, path, data, length);
}

/* The meta box's body of the HEIF in `length` bytes at `data`, or in the file at `path` when it
 * is not NULL (read alone), malloc'ed; NULL when there is none or it is too large. */
static uint8_t *rfi_heif_meta_bytes(const char *path, const uint8_t *data, size_t length, size_t *meta_length) {
    if (path == NULL) {
        size_t offset = 0, body_length;
        const uint8_t *body;
        uint32_t type;
        while (rfi_heif_next_box(data, length, &offset, &type, &body, &body_length)) {
            if (type != RFI_BOX('m', 'e', 't', 'a')) continue;
            if (body_length < 4 || body_length > RFI_HEIF_MAX_META_BYTES) return NULL;
            uint8_t *copy = malloc(body_length);
            if (copy != NULL) memcpy(copy, body, body_length), *meta_length = body_length;
            return copy;
        }
        return NULL;
    }
    FILE *file = fopen(path, "rb");
    if (file == NULL) return NULL;
    uint8_t *meta = NULL;
    uint8_t header[16];
    for (;;) {
        if (fread(header, 1, 8, file) != 8) break;
        uint64_t size = rfi_heif_u32(header), header_length = 8;
        if (size == 1) {
            if (fread(header + 8, 1, 8, file) != 8) break;
            size = (uint64_t)rfi_heif_u32(header + 8) << 32 | rfi_heif_u32(header + 12);
            header_length = 16;
        }
        if (size < header_length) break;
        if (rfi_heif_u32(header + 4) == RFI_BOX('m', 'e', 't', 'a')) {
            size_t body_length = (size_t)(size - header_length);
            if (body_length < 4 || body_length > RFI_HEIF_MAX_META_BYTES) break;
            meta = malloc(body_length);
            if (meta != NULL && fread(meta, 1, body_length, file) != body_length) {
                free(meta);
                meta = NULL;
            }
            *meta_length = body_length;
            break;
        }
        if (size - header_length > (uint64_t)INT64_MAX || fseeko(file, (off_t)(size - header_length), SEEK_CUR) != 0) break;
    }
    fclose(file);
    return meta;
}

void rfi_heif_items_read(const char *path, const uint8_t *data, size_t length, uint32_t alpha_item,
                         rfi_heif_items *out) {
    memset(out, 0, sizeof *out);
    size_t meta_length = 0;
    uint8_t *bytes = rfi_heif_meta_bytes(path, data, length, &meta_length);
    struct rfi_heif_meta meta;
    if (bytes == NULL || !rfi_heif_meta_read(bytes + 4, meta_length - 4, &meta)) {
        free(bytes);
        return;
    }
    out->have_size = rfi_heif_primary_size(&meta, &out->width, &out->height);
    out->grey_limited = rfi_heif_primary_grey_is_limited(&meta, path, data, length);
    if (alpha_item != 0) out->alpha_limited = rfi_heif_item_is_limited_av1(&meta, alpha_item, path, data, length);
    free(bytes);
}
