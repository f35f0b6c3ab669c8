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


/* The box at `*offset` within `length` bytes (ISO/IEC 14496-12, 4.2: a 32-bit size, or 1 and a
 * 64-bit one, or 0 for "to the end"): its type and body; moves `*offset` past it. 0 at the end
 * or at a box that does not fit. */
int rfi_heif_next_box(const uint8_t *data, size_t length, size_t *offset, uint32_t *type, const uint8_t **body,
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

/* Finds pitm, iprp (and its ipco) and iloc in the meta box's body `boxes`; 0 without pitm or
 * ipco. */
int rfi_heif_meta_read(const uint8_t *boxes, size_t length, struct rfi_heif_meta *meta) {
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
        } else if (type == RFI_BOX('i', 'i', 'n', 'f')) {
            meta->iinf = body, meta->iinf_length = body_length;
        } else if (type == RFI_BOX('i', 'r', 'e', 'f')) {
            meta->iref = body, meta->iref_length = body_length;
        } else if (type == RFI_BOX('i', 'd', 'a', 't')) {
            meta->idat = body, meta->idat_length = body_length;
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
int rfi_heif_item_associations(const struct rfi_heif_meta *meta, uint32_t item, uint32_t *associations,
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
int rfi_heif_property(const struct rfi_heif_meta *meta, uint32_t index, uint32_t *type, const uint8_t **body,
                             size_t *body_length) {
    size_t offset = 0;
    for (uint32_t i = 1; rfi_heif_next_box(meta->ipco, meta->ipco_length, &offset, type, body, body_length); i++) {
        if (i == index) return 1;
    }
    return 0;
}

/* The first property of type `wanted` associated with `item`; 0 when it has none. */
int rfi_heif_item_property(const struct rfi_heif_meta *meta, uint32_t item, uint32_t wanted,
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

/* `item`'s extents (iloc, ISO/IEC 14496-12 8.11.3): up to `capacity` offsets (base offset
 * added) and lengths, and its construction method (0: in the file, 1: in idat); their count, or
 * -1 when iloc does not name it, is unreadable, or keeps the data by another data reference. */
static int rfi_heif_item_extents(const struct rfi_heif_meta *meta, uint32_t item, uint64_t *offsets, uint64_t *lengths,
                                 int capacity, int *construction) {
    const uint8_t *b = meta->iloc;
    size_t n = meta->iloc_length, at;
    if (b == NULL || n < 8) return -1;
    int version = b[0];
    int offset_size = b[4] >> 4, length_size = b[4] & 15, base_size = b[5] >> 4;
    int index_size = version == 1 || version == 2 ? b[5] & 15 : 0;
    at = 6;
    uint64_t items;
    if (version < 2) {
        if (n - at < 2) return -1;
        items = (uint64_t)b[at] << 8 | b[at + 1], at += 2;
    } else if (!rfi_heif_field(b, n, &at, 4, &items)) {
        return -1;
    }
    for (uint64_t i = 0; i < items; i++) {
        uint64_t id, method = 0, base, extents;
        if (version < 2) {
            if (n - at < 2) return -1;
            id = (uint64_t)b[at] << 8 | b[at + 1], at += 2;
        } else if (!rfi_heif_field(b, n, &at, 4, &id)) {
            return -1;
        }
        if (version == 1 || version == 2) {
            if (n - at < 2) return -1;
            method = b[at + 1] & 15, at += 2;
        }
        if (n - at < 2) return -1;
        uint32_t reference = (uint32_t)b[at] << 8 | b[at + 1];
        at += 2;
        if (!rfi_heif_field(b, n, &at, base_size, &base) || n - at < 2) return -1;
        extents = (uint64_t)b[at] << 8 | b[at + 1], at += 2;
        int count = 0;
        for (uint64_t e = 0; e < extents; e++) {
            uint64_t index, extent_offset, extent_length;
            if ((index_size > 0 && !rfi_heif_field(b, n, &at, index_size, &index)) ||
                !rfi_heif_field(b, n, &at, offset_size, &extent_offset) ||
                !rfi_heif_field(b, n, &at, length_size, &extent_length))
                return -1;
            if (id == item && count < capacity) {
                offsets[count] = base + extent_offset, lengths[count] = extent_length;
                count++;
            }
        }
        if (id == item) {
            if (reference != 0 || method > 1) return -1;
            *construction = (int)method;
            return count;
        }
    }
    return -1;
}

/* Where `item`'s data begins in the file and how long its first extent is; 0 when iloc does
 * not name it or keeps it elsewhere than in the file. */
static int rfi_heif_item_extent(const struct rfi_heif_meta *meta, uint32_t item, uint64_t *offset, uint64_t *length) {
    int construction = 0;
    return rfi_heif_item_extents(meta, item, offset, length, 1, &construction) == 1 && construction == 0;
}

int rfi_heif_primary_size(const struct rfi_heif_meta *meta, int32_t *width, int32_t *height) {
    return rfi_heif_item_size(meta, meta->primary, width, height);
}

int rfi_heif_item_size(const struct rfi_heif_meta *meta, uint32_t item, int32_t *width, int32_t *height) {
    uint32_t associations[256], type;
    const uint8_t *body;
    size_t body_length;
    int count = rfi_heif_item_associations(meta, item, associations, 256);
    if (count < 0) return 0;
    /* ispe: a full box, then 32-bit width and height. */
    if (!rfi_heif_item_property(meta, item, RFI_BOX('i', 's', 'p', 'e'), &body, &body_length) ||
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
uint8_t *rfi_heif_meta_bytes(const char *path, const uint8_t *data, size_t length, size_t *meta_length) {
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

/* MARK: the container, for heif_hevc.c */

int rfi_heif_container_open(const char *path, const uint8_t *data, size_t length, rfi_heif_container *out) {
    memset(out, 0, sizeof *out);
    out->meta_bytes = rfi_heif_meta_bytes(path, data, length, &out->meta_length);
    if (out->meta_bytes == NULL || !rfi_heif_meta_read(out->meta_bytes + 4, out->meta_length - 4, &out->meta)) {
        rfi_heif_container_close(out);
        return 0;
    }
    if (path != NULL && (out->path = strdup(path)) == NULL) {
        rfi_heif_container_close(out);
        return 0;
    }
    out->data = data, out->length = length;
    return 1;
}

void rfi_heif_container_close(rfi_heif_container *container) {
    free(container->meta_bytes);
    free(container->path);
    memset(container, 0, sizeof *container);
}

uint32_t rfi_heif_item_type(const rfi_heif_container *container, uint32_t item) {
    const struct rfi_heif_meta *meta = &container->meta;
    if (meta->iinf == NULL || meta->iinf_length < 6) return 0;
    /* iinf: a full box, an entry count (16 bits in version 0, else 32), then infe boxes. */
    size_t offset = meta->iinf[0] == 0 ? 6 : 8, body_length;
    const uint8_t *body;
    uint32_t type;
    while (rfi_heif_next_box(meta->iinf, meta->iinf_length, &offset, &type, &body, &body_length)) {
        /* infe version 2: item_ID (16 bits), protection index, item_type; version 3: a 32-bit ID. */
        if (type != RFI_BOX('i', 'n', 'f', 'e') || body_length < 4 || body[0] < 2) continue;
        size_t id_bytes = body[0] == 2 ? 2 : 4;
        if (body_length < 4 + id_bytes + 2 + 4) continue;
        uint32_t id = id_bytes == 2 ? (uint32_t)body[4] << 8 | body[5] : rfi_heif_u32(body + 4);
        if (id == item) return rfi_heif_u32(body + 4 + id_bytes + 2);
    }
    return 0;
}

/* Walks iref's references of `wanted` type (ISO/IEC 14496-12 8.11.12): for each, its from-item
 * and its to-items; `visit` returns nonzero to stop. */
static void rfi_heif_walk_references(const rfi_heif_container *container, uint32_t wanted,
                                     int (*visit)(void *context, uint32_t from, const uint8_t *to, int count, int wide),
                                     void *context) {
    const struct rfi_heif_meta *meta = &container->meta;
    if (meta->iref == NULL || meta->iref_length < 4) return;
    int wide = meta->iref[0] != 0;
    size_t offset = 4, body_length, id_bytes = wide ? 4 : 2;
    const uint8_t *body;
    uint32_t type;
    while (rfi_heif_next_box(meta->iref, meta->iref_length, &offset, &type, &body, &body_length)) {
        if (type != wanted || body_length < id_bytes + 2) continue;
        uint32_t from = wide ? rfi_heif_u32(body) : (uint32_t)body[0] << 8 | body[1];
        int count = (int)body[id_bytes] << 8 | body[id_bytes + 1];
        if (body_length - id_bytes - 2 < (size_t)count * id_bytes) continue;
        if (visit(context, from, body + id_bytes + 2, count, wide)) return;
    }
}

struct rfi_heif_reference_search {
    uint32_t item;
    uint32_t *out;
    int capacity, count, found;
};

static uint32_t rfi_heif_reference_id(const uint8_t *to, int index, int wide) {
    return wide ? rfi_heif_u32(to + 4 * (size_t)index) : (uint32_t)to[2 * (size_t)index] << 8 | to[2 * (size_t)index + 1];
}

static int rfi_heif_collect_to(void *context, uint32_t from, const uint8_t *to, int count, int wide) {
    struct rfi_heif_reference_search *search = context;
    if (from != search->item) return 0;
    for (int i = 0; i < count && search->count < search->capacity; i++) search->out[search->count++] = rfi_heif_reference_id(to, i, wide);
    search->found = 1;
    return 1;
}

static int rfi_heif_collect_from(void *context, uint32_t from, const uint8_t *to, int count, int wide) {
    struct rfi_heif_reference_search *search = context;
    for (int i = 0; i < count; i++) {
        if (rfi_heif_reference_id(to, i, wide) == search->item && search->count < search->capacity) {
            search->out[search->count++] = from;
            break;
        }
    }
    return 0;
}

int rfi_heif_item_references(const rfi_heif_container *container, uint32_t type, uint32_t from, uint32_t *to,
                             int capacity) {
    struct rfi_heif_reference_search search = {from, to, capacity, 0, 0};
    rfi_heif_walk_references(container, type, rfi_heif_collect_to, &search);
    return search.count;
}

int rfi_heif_referring_items(const rfi_heif_container *container, uint32_t type, uint32_t to, uint32_t *from,
                             int capacity) {
    struct rfi_heif_reference_search search = {to, from, capacity, 0, 0};
    rfi_heif_walk_references(container, type, rfi_heif_collect_from, &search);
    return search.count;
}

/* Extents an item's data is read from at most: far above a camera's (one). */
#define RFI_HEIF_MAX_EXTENTS 64

uint8_t *rfi_heif_item_data(const rfi_heif_container *container, uint32_t item, size_t limit, size_t *length) {
    uint64_t offsets[RFI_HEIF_MAX_EXTENTS], lengths[RFI_HEIF_MAX_EXTENTS], total = 0;
    int construction = 0;
    int count = rfi_heif_item_extents(&container->meta, item, offsets, lengths, RFI_HEIF_MAX_EXTENTS, &construction);
    if (count <= 0) return NULL;
    for (int i = 0; i < count; i++) {
        if (lengths[i] == 0 || lengths[i] > limit || total > limit - lengths[i]) return NULL;
        total += lengths[i];
    }
    uint8_t *out = malloc((size_t)total);
    if (out == NULL) return NULL;
    FILE *file = construction == 0 && container->path != NULL ? fopen(container->path, "rb") : NULL;
    size_t filled = 0;
    int ok = construction != 0 || container->path == NULL || file != NULL;
    for (int i = 0; i < count && ok; i++) {
        size_t n = (size_t)lengths[i];
        if (construction == 1) {
            ok = container->meta.idat != NULL && offsets[i] <= container->meta.idat_length &&
                 n <= container->meta.idat_length - (size_t)offsets[i];
            if (ok) memcpy(out + filled, container->meta.idat + offsets[i], n);
        } else if (file == NULL) {
            ok = offsets[i] <= container->length && n <= container->length - (size_t)offsets[i];
            if (ok) memcpy(out + filled, container->data + offsets[i], n);
        } else {
            ok = offsets[i] <= (uint64_t)INT64_MAX && fseeko(file, (off_t)offsets[i], SEEK_SET) == 0 &&
                 fread(out + filled, 1, n, file) == n;
        }
        filled += n;
    }
    if (file != NULL) fclose(file);
    if (!ok) {
        free(out);
        return NULL;
    }
    *length = (size_t)total;
    return out;
}
