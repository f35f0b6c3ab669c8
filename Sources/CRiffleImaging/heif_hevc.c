/* HEIF images libheif 1.15 refuses to open, decoded by Riffle from the container itself
 * (heif_items.c): an auxiliary image whose auxl reference names two images (recent iPhones'
 * gain maps: "Too many auxiliary image references"), a primary item derived by `iden` ("has no
 * compressed data"). The primary's HEVC items go straight to libde265; a grid's tiles are
 * assembled (ISO/IEC 23008-12, 6.6.2.3), an iden's source decoded (6.6.2.2), each item's
 * transformative properties applied in their ipma order (clap, irot, imir: 6.5.1), and the
 * alpha image (an auxl reference of type urn:mpeg:hevc:2015:auxid:1 or
 * urn:mpeg:mpegB:cicp:systems:auxiliary:alpha, 6.6.2.1) taken as alpha.
 *
 * YCbCr becomes RGB as libheif 1.15 converts it: by the colr nclx's matrix and range, else by
 * the HEVC stream's VUI (matrix unspecified: BT.601), each chroma sample taken for the pixels it
 * covers (no interpolation). Deeper samples are rounded to 8 bits.
 *
 * libde265 returns a de265_error from every call; nothing longjmps. Every length read from the
 * file is checked against what holds it. */
#include "heif_items.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <libde265/de265.h>

#include "lazy_codecs.h"

/* The largest item read, bytes: a 48-megapixel HEVC picture at high quality is under 30 MB. */
#define RFI_HEIF_MAX_ITEM_BYTES ((size_t)256 << 20)

/* The most tiles a grid may have: 256 × 256 (the grid's 8-bit row and column counts). */
#define RFI_HEIF_MAX_TILES 65536

/* How deep derivations (iden of iden of a grid …) are followed. */
#define RFI_HEIF_MAX_DEPTH 4

struct rfi_heif_own {
    rfi_heif_container container;
};

/* A picture being built: straight alpha in the top byte, then R, G, B. */
struct rfi_heif_picture {
    uint32_t *pixels;
    int32_t width;
    int32_t height;
};

/* How YCbCr becomes RGB: ITU-T H.273's KR and KB, identity (GBR) when `identity`, and range. */
struct rfi_heif_ycbcr {
    int have;
    int identity;
    double kr, kb;
    int full_range;
};

/* H.273 table 4's matrix coefficients as KR, KB; unspecified and unknown ones as BT.601, as
 * libheif takes them. */
static void rfi_heif_matrix(int code, struct rfi_heif_ycbcr *colour) {
    colour->identity = code == 0;
    switch (code) {
    case 1: colour->kr = 0.2126, colour->kb = 0.0722; break;
    case 4: colour->kr = 0.30, colour->kb = 0.11; break;
    case 7: colour->kr = 0.212, colour->kb = 0.087; break;
    case 9:
    case 10: colour->kr = 0.2627, colour->kb = 0.0593; break;
    default: colour->kr = 0.299, colour->kb = 0.114; break;
    }
}

/* The colr nclx of `item`, when it has one: `colour` set and 1. */
static int rfi_heif_item_nclx(const rfi_heif_container *container, uint32_t item, struct rfi_heif_ycbcr *colour) {
    const uint8_t *body;
    size_t length;
    uint32_t associations[256], type;
    int count = rfi_heif_item_associations(&container->meta, item, associations, 256);
    for (int i = 0; i < count; i++) {
        /* colr: 'nclx', primaries, transfer, matrix (16 bits each), full_range_flag (1 bit). */
        if (rfi_heif_property(&container->meta, associations[i], &type, &body, &length) &&
            type == RFI_BOX('c', 'o', 'l', 'r') && length >= 11 && rfi_heif_u32(body) == RFI_BOX('n', 'c', 'l', 'x')) {
            rfi_heif_matrix((int)body[8] << 8 | body[9], colour);
            colour->full_range = (body[10] & 0x80) != 0;
            colour->have = 1;
            return 1;
        }
    }
    return 0;
}

static uint32_t rfi_heif_be(const uint8_t *p, int bytes) {
    uint32_t value = 0;
    for (int i = 0; i < bytes; i++) value = value << 8 | p[i];
    return value;
}

/* Sample (x, y) of a plane of `bits` bits, `stride` bytes a row. */
static inline uint32_t rfi_heif_sample(const uint8_t *plane, int stride, int bits, int x, int y) {
    const uint8_t *row = plane + (size_t)y * (size_t)stride;
    if (bits <= 8) return row[x];
    uint16_t value;
    memcpy(&value, row + 2 * (size_t)x, 2);
    return value;
}

static inline uint32_t rfi_heif_to_8(double value) {
    if (!(value > 0)) return 0;
    if (value >= 1) return 255;
    return (uint32_t)lround(value * 255);
}

/* Decodes the HEVC item `item` (its hvcC's parameter sets, then its length-prefixed NAL units)
 * into `out`: colour by `colour` (else the stream's VUI), or with `alpha_only` its luma as the
 * alpha of otherwise black pixels. */
static rfi_status rfi_heif_decode_hevc(const rfi_heif_container *container, uint32_t item,
                                       const struct rfi_heif_ycbcr *given, int alpha_only, int64_t pixel_limit,
                                       struct rfi_heif_picture *out, char *message, size_t message_capacity) {
    const uint8_t *hvcc;
    size_t hvcc_length;
    if (!rfi_heif_item_property(&container->meta, item, RFI_BOX('h', 'v', 'c', 'C'), &hvcc, &hvcc_length) ||
        hvcc_length < 23) {
        rfi_set_message(message, message_capacity, "an HEVC image has no decoder configuration (hvcC)");
        return RFI_STATUS_FAILED;
    }
    size_t length = 0;
    uint8_t *data = rfi_heif_item_data(container, item, RFI_HEIF_MAX_ITEM_BYTES, &length);
    if (data == NULL) {
        rfi_set_message(message, message_capacity, "an image's data cannot be read");
        return RFI_STATUS_TRUNCATED;
    }
    de265_decoder_context *decoder = de265_new_decoder();
    if (decoder == NULL) {
        free(data);
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    /* ISO/IEC 14496-15 8.3.3.1: 22 bytes of configuration, lengthSizeMinusOne in the low bits of
     * the last, then numOfArrays arrays of NAL units, each a 16-bit length and the unit. */
    int ok = 1;
    int length_size = (hvcc[21] & 3) + 1;
    size_t at = 23;
    for (int array = 0; array < hvcc[22] && ok; array++) {
        if (hvcc_length - at < 3) {
            ok = 0;
            break;
        }
        uint32_t units = rfi_heif_be(hvcc + at + 1, 2);
        at += 3;
        for (uint32_t u = 0; u < units && ok; u++) {
            if (hvcc_length - at < 2) {
                ok = 0;
                break;
            }
            size_t unit = rfi_heif_be(hvcc + at, 2);
            at += 2;
            if (unit > hvcc_length - at) {
                ok = 0;
                break;
            }
            ok = de265_isOK(de265_push_NAL(decoder, hvcc + at, (int)unit, 0, NULL));
            at += unit;
        }
    }
    for (at = 0; ok && at < length;) {
        if (length - at < (size_t)length_size) {
            ok = 0;
            break;
        }
        size_t unit = rfi_heif_be(data + at, length_size);
        at += (size_t)length_size;
        if (unit > length - at || unit > INT32_MAX) {
            ok = 0;
            break;
        }
        ok = de265_isOK(de265_push_NAL(decoder, data + at, (int)unit, 0, NULL));
        at += unit;
    }
    const struct de265_image *image = NULL;
    if (ok) {
        de265_flush_data(decoder);
        int more = 1;
        while (more && image == NULL) {
            de265_error error = de265_decode(decoder, &more);
            if (!de265_isOK(error) && error != DE265_ERROR_WAITING_FOR_INPUT_DATA) break;
            image = de265_get_next_picture(decoder);
        }
    }
    free(data);
    rfi_status status = RFI_STATUS_OK;
    int width = image != NULL ? de265_get_image_width(image, 0) : 0;
    int height = image != NULL ? de265_get_image_height(image, 0) : 0;
    /* The coded picture may be padded past the item's size (ispe): it is cropped to it. */
    const uint8_t *ispe;
    size_t ispe_length;
    if (image != NULL && rfi_heif_item_property(&container->meta, item, RFI_BOX('i', 's', 'p', 'e'), &ispe, &ispe_length) &&
        ispe_length >= 12) {
        uint32_t w = rfi_heif_u32(ispe + 4), h = rfi_heif_u32(ispe + 8);
        if (w > 0 && (int64_t)w < width) width = (int)w;
        if (h > 0 && (int64_t)h < height) height = (int)h;
    }
    if (image == NULL || width <= 0 || height <= 0) {
        rfi_set_message(message, message_capacity, ok ? "libde265 decoded no picture" : "an image's HEVC data is damaged");
        status = RFI_STATUS_FAILED;
    } else if ((int64_t)width * height > pixel_limit) {
        rfi_set_message(message, message_capacity, "the image has more pixels than the limit");
        status = RFI_STATUS_TOO_LARGE;
    } else if ((out->pixels = malloc((size_t)width * (size_t)height * sizeof(uint32_t))) == NULL) {
        rfi_set_message(message, message_capacity, "out of memory");
        status = RFI_STATUS_OUT_OF_MEMORY;
    }
    if (status != RFI_STATUS_OK) {
        de265_free_decoder(decoder);
        return status;
    }
    out->width = width, out->height = height;
    enum de265_chroma chroma = de265_get_chroma_format(image);
    int bits = de265_get_bits_per_pixel(image, 0), chroma_bits = chroma != de265_chroma_mono ? de265_get_bits_per_pixel(image, 1) : bits;
    int y_stride = 0, cb_stride = 0, cr_stride = 0;
    const uint8_t *y_plane = de265_get_image_plane(image, 0, &y_stride);
    const uint8_t *cb_plane = chroma != de265_chroma_mono ? de265_get_image_plane(image, 1, &cb_stride) : NULL;
    const uint8_t *cr_plane = chroma != de265_chroma_mono ? de265_get_image_plane(image, 2, &cr_stride) : NULL;
    struct rfi_heif_ycbcr colour = *given;
    if (!colour.have) {
        rfi_heif_matrix(de265_get_image_matrix_coefficients(image), &colour);
        colour.full_range = de265_get_image_full_range_flag(image) != 0;
    }
    /* H.273 8.3: full range is v / (2^n − 1), chroma centred on 2^(n−1); limited range puts
     * black at 16·2^(n−8), luma's span at 219·2^(n−8), chroma's at 224·2^(n−8). */
    double max = (double)((1u << bits) - 1), chroma_max = (double)((1u << chroma_bits) - 1);
    double y_black = colour.full_range ? 0 : 16.0 * (1u << (bits - 8)),
           y_span = colour.full_range ? max : 219.0 * (1u << (bits - 8));
    double c_centre = (double)(1u << (chroma_bits - 1)),
           c_span = colour.full_range ? chroma_max : 224.0 * (1u << (chroma_bits - 8));
    int shift_x = chroma == de265_chroma_420 || chroma == de265_chroma_422, shift_y = chroma == de265_chroma_420;
    double kg = 1 - colour.kr - colour.kb;
    for (int y = 0; y < height; y++) {
        uint32_t *row = out->pixels + (size_t)y * (size_t)width;
        for (int x = 0; x < width; x++) {
            double luma = ((double)rfi_heif_sample(y_plane, y_stride, bits, x, y) - y_black) / y_span;
            if (alpha_only) {
                row[x] = rfi_heif_to_8(luma) << 24;
                continue;
            }
            double r = luma, g = luma, b = luma;
            if (cb_plane != NULL && cr_plane != NULL) {
                double cb = (double)rfi_heif_sample(cb_plane, cb_stride, chroma_bits, x >> shift_x, y >> shift_y);
                double cr = (double)rfi_heif_sample(cr_plane, cr_stride, chroma_bits, x >> shift_x, y >> shift_y);
                if (colour.identity) {
                    /* GBR: Y is G, Cb is B, Cr is R. */
                    g = luma, b = (cb - y_black) / y_span, r = (cr - y_black) / y_span;
                } else {
                    cb = (cb - c_centre) / c_span, cr = (cr - c_centre) / c_span;
                    r = luma + 2 * (1 - colour.kr) * cr;
                    b = luma + 2 * (1 - colour.kb) * cb;
                    g = (luma - colour.kr * r - colour.kb * b) / kg;
                }
            }
            row[x] = 0xFF000000u | rfi_heif_to_8(r) << 16 | rfi_heif_to_8(g) << 8 | rfi_heif_to_8(b);
        }
    }
    de265_free_decoder(decoder);
    return RFI_STATUS_OK;
}

static rfi_status rfi_heif_decode_item(const rfi_heif_container *container, uint32_t item,
                                       const struct rfi_heif_ycbcr *inherited, int alpha_only, int depth,
                                       int64_t pixel_limit, struct rfi_heif_picture *out, char *message,
                                       size_t message_capacity);

/* Decodes the grid item `item` (ImageGrid, ISO/IEC 23008-12 6.6.2.3.2: version, flags, rows − 1,
 * columns − 1, output width and height of 16 or 32 bits) from its tiles (its dimg references,
 * row by row), each placed at its column × the first tile's width and its row × its height. */
static rfi_status rfi_heif_decode_grid(const rfi_heif_container *container, uint32_t item,
                                       const struct rfi_heif_ycbcr *colour, int alpha_only, int depth,
                                       int64_t pixel_limit, struct rfi_heif_picture *out, char *message,
                                       size_t message_capacity) {
    size_t length = 0;
    uint8_t *grid = rfi_heif_item_data(container, item, 64, &length);
    int wide = grid != NULL && length >= 2 ? grid[1] & 1 : 0;
    if (grid == NULL || length < (size_t)(4 + (wide ? 8 : 4)) || grid[0] != 0) {
        free(grid);
        rfi_set_message(message, message_capacity, "a grid image's description cannot be read");
        return RFI_STATUS_FAILED;
    }
    int rows = grid[2] + 1, columns = grid[3] + 1;
    uint32_t width = rfi_heif_be(grid + 4, wide ? 4 : 2), height = rfi_heif_be(grid + (wide ? 8 : 6), wide ? 4 : 2);
    free(grid);
    uint32_t *tiles = malloc(RFI_HEIF_MAX_TILES * sizeof *tiles);
    if (tiles == NULL) {
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    int count = rfi_heif_item_references(container, RFI_BOX('d', 'i', 'm', 'g'), item, tiles, RFI_HEIF_MAX_TILES);
    rfi_status status = RFI_STATUS_OK;
    if (count != rows * columns || width == 0 || height == 0 || width > INT32_MAX || height > INT32_MAX) {
        rfi_set_message(message, message_capacity, "a grid image's tiles do not match its rows and columns");
        status = RFI_STATUS_FAILED;
    } else if ((int64_t)width * height > pixel_limit) {
        rfi_set_message(message, message_capacity, "the image has more pixels than the limit");
        status = RFI_STATUS_TOO_LARGE;
    } else if ((out->pixels = calloc((size_t)width * height, sizeof(uint32_t))) == NULL) {
        rfi_set_message(message, message_capacity, "out of memory");
        status = RFI_STATUS_OUT_OF_MEMORY;
    }
    out->width = (int32_t)width, out->height = (int32_t)height;
    int32_t tile_width = 0, tile_height = 0;
    for (int i = 0; i < count && status == RFI_STATUS_OK; i++) {
        struct rfi_heif_picture tile = {0};
        status = rfi_heif_decode_item(container, tiles[i], colour, alpha_only, depth + 1, pixel_limit, &tile, message,
                                      message_capacity);
        if (status != RFI_STATUS_OK) break;
        if (i == 0) tile_width = tile.width, tile_height = tile.height;
        int64_t x0 = (int64_t)(i % columns) * tile_width, y0 = (int64_t)(i / columns) * tile_height;
        for (int32_t y = 0; y < tile.height && y0 + y < (int64_t)height; y++) {
            if (x0 >= (int64_t)width) break;
            int64_t n = tile.width < (int64_t)width - x0 ? tile.width : (int64_t)width - x0;
            memcpy(out->pixels + (size_t)(y0 + y) * width + (size_t)x0, tile.pixels + (size_t)y * (size_t)tile.width,
                   (size_t)n * sizeof(uint32_t));
        }
        free(tile.pixels);
    }
    free(tiles);
    if (status != RFI_STATUS_OK) {
        free(out->pixels);
        out->pixels = NULL;
    }
    return status;
}

/* The alpha image of `item`: an item that refers to it by auxl and whose auxC names alpha; 0
 * when it has none. */
static uint32_t rfi_heif_alpha_of(const rfi_heif_container *container, uint32_t item) {
    uint32_t auxiliaries[16];
    int count = rfi_heif_referring_items(container, RFI_BOX('a', 'u', 'x', 'l'), item, auxiliaries, 16);
    for (int i = 0; i < count; i++) {
        const uint8_t *body;
        size_t length;
        if (!rfi_heif_item_property(&container->meta, auxiliaries[i], RFI_BOX('a', 'u', 'x', 'C'), &body, &length) ||
            length < 5)
            continue;
        /* auxC: a full box, then the type as a NUL-terminated URN. */
        const char *type = (const char *)body + 4;
        size_t type_length = strnlen(type, length - 4);
        static const char *const alpha[2] = {"urn:mpeg:hevc:2015:auxid:1", "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha"};
        for (int a = 0; a < 2; a++) {
            if (type_length == strlen(alpha[a]) && memcmp(type, alpha[a], type_length) == 0) return auxiliaries[i];
        }
    }
    return 0;
}

/* Applies `item`'s transformative properties to `picture`, in their ipma order. */
static rfi_status rfi_heif_transform(const rfi_heif_container *container, uint32_t item,
                                     struct rfi_heif_picture *picture, char *message, size_t message_capacity) {
    uint32_t associations[256], type;
    int count = rfi_heif_item_associations(&container->meta, item, associations, 256);
    for (int i = 0; i < count; i++) {
        const uint8_t *body;
        size_t length;
        if (!rfi_heif_property(&container->meta, associations[i], &type, &body, &length)) continue;
        int32_t w = picture->width, h = picture->height;
        uint32_t *turned = NULL;
        if (type == RFI_BOX('c', 'l', 'a', 'p') && length >= 32) {
            /* ISO/IEC 14496-12 12.1.4: the clean aperture, centred at (w − 1)/2 + its horizontal
             * offset, as libheif crops it (its left edge rounded down). */
            uint32_t wd = rfi_heif_u32(body + 4), hd = rfi_heif_u32(body + 12), hod = rfi_heif_u32(body + 20),
                     vod = rfi_heif_u32(body + 28);
            if (wd == 0 || hd == 0 || hod == 0 || vod == 0) continue;
            double cw = floor((double)rfi_heif_u32(body) / wd + 0.5), ch = floor((double)rfi_heif_u32(body + 8) / hd + 0.5);
            double hoff = (double)(int32_t)rfi_heif_u32(body + 16) / hod, voff = (double)(int32_t)rfi_heif_u32(body + 24) / vod;
            if (!(cw >= 1 && ch >= 1) || cw > w || ch > h) continue;
            double left = floor((w - 1) / 2.0 + hoff - (cw - 1) / 2), top = floor((h - 1) / 2.0 + voff - (ch - 1) / 2);
            if (left < 0) left = 0;
            if (top < 0) top = 0;
            if (left + cw > w) left = w - cw;
            if (top + ch > h) top = h - ch;
            int32_t nw = (int32_t)cw, nh = (int32_t)ch, x0 = (int32_t)left, y0 = (int32_t)top;
            for (int32_t y = 0; y < nh; y++)
                memmove(picture->pixels + (size_t)y * (size_t)nw, picture->pixels + (size_t)(y0 + y) * (size_t)w + (size_t)x0,
                        (size_t)nw * sizeof(uint32_t));
            picture->width = nw, picture->height = nh;
        } else if (type == RFI_BOX('i', 'r', 'o', 't') && length >= 1 && (body[0] & 3) != 0) {
            /* 6.5.10: anticlockwise by (angle & 3) × 90°. */
            int turns = body[0] & 3;
            turned = malloc((size_t)w * (size_t)h * sizeof(uint32_t));
            if (turned == NULL) {
                rfi_set_message(message, message_capacity, "out of memory");
                return RFI_STATUS_OUT_OF_MEMORY;
            }
            int32_t nw = turns == 2 ? w : h, nh = turns == 2 ? h : w;
            for (int32_t y = 0; y < h; y++) {
                for (int32_t x = 0; x < w; x++) {
                    int32_t nx, ny;
                    if (turns == 1) nx = y, ny = w - 1 - x;
                    else if (turns == 2) nx = w - 1 - x, ny = h - 1 - y;
                    else nx = h - 1 - y, ny = x;
                    turned[(size_t)ny * (size_t)nw + (size_t)nx] = picture->pixels[(size_t)y * (size_t)w + (size_t)x];
                }
            }
            free(picture->pixels);
            picture->pixels = turned, picture->width = nw, picture->height = nh;
        } else if (type == RFI_BOX('i', 'm', 'i', 'r') && length >= 1) {
            /* 6.5.12, as libheif and libavif read it: 0 exchanges top and bottom, 1 left and right. */
            if (body[0] & 1) {
                for (int32_t y = 0; y < h; y++) {
                    uint32_t *row = picture->pixels + (size_t)y * (size_t)w;
                    for (int32_t x = 0; x < w / 2; x++) {
                        uint32_t t = row[x];
                        row[x] = row[w - 1 - x], row[w - 1 - x] = t;
                    }
                }
            } else {
                for (int32_t y = 0; y < h / 2; y++) {
                    uint32_t *top = picture->pixels + (size_t)y * (size_t)w, *bottom = picture->pixels + (size_t)(h - 1 - y) * (size_t)w;
                    for (int32_t x = 0; x < w; x++) {
                        uint32_t t = top[x];
                        top[x] = bottom[x], bottom[x] = t;
                    }
                }
            }
        }
    }
    return RFI_STATUS_OK;
}

/* Decodes `item` (hvc1, grid or iden) with its transformations and, unless `alpha_only`, its
 * alpha image. `inherited` is the colour of the image it is part of (a grid's, for its tiles). */
static rfi_status rfi_heif_decode_item(const rfi_heif_container *container, uint32_t item,
                                       const struct rfi_heif_ycbcr *inherited, int alpha_only, int depth,
                                       int64_t pixel_limit, struct rfi_heif_picture *out, char *message,
                                       size_t message_capacity) {
    memset(out, 0, sizeof *out);
    if (depth > RFI_HEIF_MAX_DEPTH) {
        rfi_set_message(message, message_capacity, "the images are derived too deeply");
        return RFI_STATUS_FAILED;
    }
    struct rfi_heif_ycbcr colour = *inherited;
    rfi_heif_item_nclx(container, item, &colour);
    uint32_t type = rfi_heif_item_type(container, item);
    rfi_status status;
    if (type == RFI_BOX('h', 'v', 'c', '1')) {
        status = rfi_heif_decode_hevc(container, item, &colour, alpha_only, pixel_limit, out, message, message_capacity);
    } else if (type == RFI_BOX('g', 'r', 'i', 'd')) {
        status = rfi_heif_decode_grid(container, item, &colour, alpha_only, depth, pixel_limit, out, message,
                                      message_capacity);
    } else if (type == RFI_BOX('i', 'd', 'e', 'n')) {
        uint32_t source;
        if (rfi_heif_item_references(container, RFI_BOX('d', 'i', 'm', 'g'), item, &source, 1) != 1) {
            rfi_set_message(message, message_capacity, "an identity image names no source");
            return RFI_STATUS_FAILED;
        }
        status = rfi_heif_decode_item(container, source, &colour, alpha_only, depth + 1, pixel_limit, out, message,
                                      message_capacity);
    } else {
        rfi_set_message(message, message_capacity, "an image of a type Riffle does not decode");
        return RFI_STATUS_UNSUPPORTED;
    }
    if (status != RFI_STATUS_OK) return status;
    uint32_t alpha = alpha_only || type == RFI_BOX('i', 'd', 'e', 'n') ? 0 : rfi_heif_alpha_of(container, item);
    if (alpha != 0) {
        struct rfi_heif_picture mask = {0};
        struct rfi_heif_ycbcr none = {0};
        if (rfi_heif_decode_item(container, alpha, &none, 1, depth + 1, pixel_limit, &mask, message, message_capacity) ==
                RFI_STATUS_OK &&
            mask.width == out->width && mask.height == out->height) {
            size_t n = (size_t)out->width * (size_t)out->height;
            for (size_t i = 0; i < n; i++) out->pixels[i] = (mask.pixels[i] & 0xFF000000u) | (out->pixels[i] & 0xFFFFFFu);
        }
        free(mask.pixels);
    }
    status = rfi_heif_transform(container, item, out, message, message_capacity);
    if (status != RFI_STATUS_OK) {
        free(out->pixels);
        out->pixels = NULL;
    }
    return status;
}

/* The coded image an iden chain ends at (the item itself for any other). */
static uint32_t rfi_heif_coded_item(const rfi_heif_container *container, uint32_t item) {
    for (int depth = 0; depth <= RFI_HEIF_MAX_DEPTH && rfi_heif_item_type(container, item) == RFI_BOX('i', 'd', 'e', 'n');
         depth++) {
        if (rfi_heif_item_references(container, RFI_BOX('d', 'i', 'm', 'g'), item, &item, 1) != 1) break;
    }
    return item;
}

rfi_status rfi_heif_own_open(const char *path, const uint8_t *data, size_t length, rfi_heif_own **out,
                             rfi_still_header *header, char *message, size_t message_capacity) {
    *out = NULL;
    memset(header, 0, sizeof *header);
    if (!rfi_lazy_load(RFI_LAZY_DE265, message, message_capacity)) return RFI_STATUS_LIBRARY_MISSING;
    struct rfi_heif_own *own = calloc(1, sizeof *own);
    if (own == NULL) {
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    if (!rfi_heif_container_open(path, data, length, &own->container)) {
        free(own);
        rfi_set_message(message, message_capacity, "the file has no meta box Riffle reads");
        return RFI_STATUS_FAILED;
    }
    const rfi_heif_container *container = &own->container;
    uint32_t primary = container->meta.primary, type = rfi_heif_item_type(container, primary);
    if ((type != RFI_BOX('h', 'v', 'c', '1') && type != RFI_BOX('g', 'r', 'i', 'd') && type != RFI_BOX('i', 'd', 'e', 'n')) ||
        !rfi_heif_item_size(&container->meta, primary, &header->image.width, &header->image.height)) {
        rfi_heif_own_close(own);
        rfi_set_message(message, message_capacity, "the primary image is of a kind Riffle does not decode");
        return RFI_STATUS_UNSUPPORTED;
    }
    header->image.orientation = 1;
    header->bits_per_sample = 8;
    uint32_t coded = rfi_heif_coded_item(container, primary);
    header->image.has_alpha = rfi_heif_alpha_of(container, coded) != 0;
    /* The colour profile: the first colr along the derivation, an ICC one as stored, nclx code
     * points as the libheif path makes them (rfi_colour_profile_from_code_points). */
    for (uint32_t item = primary;;) {
        const uint8_t *body;
        size_t body_length;
        if (rfi_heif_item_property(&container->meta, item, RFI_BOX('c', 'o', 'l', 'r'), &body, &body_length) &&
            body_length >= 4) {
            uint32_t kind = rfi_heif_u32(body);
            if ((kind == RFI_BOX('p', 'r', 'o', 'f') || kind == RFI_BOX('r', 'I', 'C', 'C')) && body_length > 4) {
                rfi_bytes_copy(&header->icc, body + 4, body_length - 4);
            } else if (kind == RFI_BOX('n', 'c', 'l', 'x') && body_length >= 11) {
                char ignored[RFI_MESSAGE_CAPACITY];
                header->has_code_point_colour = 1;
                if (rfi_colour_profile_from_code_points((int32_t)rfi_heif_be(body + 4, 2), (int32_t)rfi_heif_be(body + 6, 2),
                                                        &header->icc, ignored, sizeof ignored) != RFI_STATUS_OK) {
                    header->icc.data = NULL, header->icc.length = 0;
                }
            }
            break;
        }
        if (item == coded || rfi_heif_item_references(container, RFI_BOX('d', 'i', 'm', 'g'), item, &item, 1) != 1) break;
    }
    *out = own;
    return RFI_STATUS_OK;
}

rfi_status rfi_heif_own_decode(rfi_heif_own *own, int64_t pixel_limit, rfi_image_pixels *out, char *message,
                               size_t message_capacity) {
    memset(out, 0, sizeof *out);
    struct rfi_heif_picture picture = {0};
    struct rfi_heif_ycbcr none = {0};
    rfi_status status = rfi_heif_decode_item(&own->container, own->container.meta.primary, &none, 0, 0, pixel_limit,
                                             &picture, message, message_capacity);
    if (status != RFI_STATUS_OK) return status;
    /* Straight alpha to premultiplied. */
    size_t n = (size_t)picture.width * (size_t)picture.height;
    int translucent = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t p = picture.pixels[i], a = p >> 24;
        if (a == 255) continue;
        translucent = 1;
        picture.pixels[i] = a << 24 | rfi_times_alpha((p >> 16) & 0xFF, a) << 16 | rfi_times_alpha((p >> 8) & 0xFF, a) << 8 |
                            rfi_times_alpha(p & 0xFF, a);
    }
    out->pixels = picture.pixels;
    out->width = picture.width;
    out->height = picture.height;
    out->row_pixels = picture.width;
    out->translucent = translucent;
    out->owner = picture.pixels;
    out->release = rfi_free_owner;
    return RFI_STATUS_OK;
}

void rfi_heif_own_close(rfi_heif_own *own) {
    if (own == NULL) return;
    rfi_heif_container_close(&own->container);
    free(own);
}
