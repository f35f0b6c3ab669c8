/* HEIF (HEIC) and AVIF through libheif: the primary image and its first thumbnail, decoded with
 * the file's transformations and converted to premultiplied BGRA in libheif's own image memory;
 * the colour profile and the EXIF block.
 *
 * libheif returns a struct heif_error from every call; nothing longjmps.
 */
#include "stills_internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libheif/heif.h>

/* Threads libheif decodes a grid's tiles on (its default is 4). Riffle runs two decode workers
 * (RiffleSession.defaultDecodeWorkers) on the two cores it is made for; when one photo decodes
 * alone, the usual wait (the photo just paged to), two threads take both cores, and when both
 * workers are busy the extra thread only takes turns. */
#define RFI_HEIF_DECODING_THREADS 2

struct rfi_heif {
    struct heif_context *context;
    struct heif_image_handle *primary;
};

static pthread_once_t rfi_heif_once = PTHREAD_ONCE_INIT;

/* heif_init once for the process (reference counted by libheif; never undone: the decoders stay
 * registered while Riffle runs). */
static void rfi_heif_initialise(void) { heif_init(NULL); }

/* The status and message of a failed libheif call. */
static rfi_status rfi_heif_failure(struct heif_error error, char *message, size_t message_capacity) {
    rfi_set_message(message, message_capacity, error.message != NULL ? error.message : "libheif failed");
    if (error.code == heif_error_Memory_allocation_error) return RFI_STATUS_OUT_OF_MEMORY;
    if (error.subcode == heif_suberror_End_of_data) return RFI_STATUS_TRUNCATED;
    if (error.code == heif_error_Unsupported_feature || error.code == heif_error_Unsupported_filetype)
        return RFI_STATUS_UNSUPPORTED;
    return RFI_STATUS_FAILED;
}

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

/* The upright size of the primary item described by the meta box's body `meta` (after its
 * version and flags): ispe's size put through the transformative properties in their order.
 * 0 when the box lacks pitm, ispe or a readable ipma entry for it. */
static int rfi_heif_primary_size(const uint8_t *meta, size_t length, int32_t *width, int32_t *height) {
    uint32_t primary = 0;
    int have_primary = 0;
    const uint8_t *ipco = NULL, *iprp = NULL;
    size_t ipco_length = 0, iprp_length = 0, offset = 0, body_length;
    const uint8_t *body;
    uint32_t type;
    while (rfi_heif_next_box(meta, length, &offset, &type, &body, &body_length)) {
        if (type == RFI_BOX('p', 'i', 't', 'm') && body_length >= 6) {
            /* A full box: version 0 has a 16-bit item ID, later ones a 32-bit one. */
            primary = body[0] == 0 ? (uint32_t)body[4] << 8 | body[5] : (body_length >= 8 ? rfi_heif_u32(body + 4) : 0);
            have_primary = body[0] == 0 || body_length >= 8;
        } else if (type == RFI_BOX('i', 'p', 'r', 'p')) {
            iprp = body, iprp_length = body_length;
        }
    }
    if (!have_primary || iprp == NULL) return 0;
    offset = 0;
    while (rfi_heif_next_box(iprp, iprp_length, &offset, &type, &body, &body_length)) {
        if (type == RFI_BOX('i', 'p', 'c', 'o')) ipco = body, ipco_length = body_length;
    }
    if (ipco == NULL) return 0;
    /* The primary item's associations, in order, as 1-based indices into ipco. */
    uint32_t associations[256];
    int count = 0, found = 0;
    offset = 0;
    while (!found && rfi_heif_next_box(iprp, iprp_length, &offset, &type, &body, &body_length)) {
        if (type != RFI_BOX('i', 'p', 'm', 'a') || body_length < 8) continue;
        int version = body[0], wide_index = body[3] & 1;
        uint32_t entries = rfi_heif_u32(body + 4);
        size_t at = 8;
        for (uint32_t e = 0; e < entries && !found; e++) {
            size_t id_bytes = version < 1 ? 2 : 4, index_bytes = wide_index ? 2 : 1;
            if (body_length - at < id_bytes + 1) return 0;
            uint32_t item = version < 1 ? (uint32_t)body[at] << 8 | body[at + 1] : rfi_heif_u32(body + at);
            int n = body[at + id_bytes];
            at += id_bytes + 1;
            if (body_length - at < (size_t)n * index_bytes) return 0;
            if (item == primary) {
                found = 1;
                for (int i = 0; i < n && count < (int)(sizeof associations / sizeof *associations); i++) {
                    const uint8_t *p = body + at + (size_t)i * index_bytes;
                    /* The top bit is "essential". */
                    associations[count++] = wide_index ? ((uint32_t)p[0] << 8 | p[1]) & 0x7FFF : p[0] & 0x7Fu;
                }
            }
            at += (size_t)n * index_bytes;
        }
    }
    if (!found) return 0;
    /* ipco's boxes by index: look each association up. */
    int64_t w = 0, h = 0;
    int have_size = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < count; i++) {
            if (associations[i] == 0) continue;
            size_t at = 0;
            uint32_t index = 0;
            while (rfi_heif_next_box(ipco, ipco_length, &at, &type, &body, &body_length) && ++index < associations[i]) {
            }
            if (index != associations[i]) continue;
            if (pass == 0) {
                /* ispe: a full box, then 32-bit width and height. */
                if (type == RFI_BOX('i', 's', 'p', 'e') && body_length >= 12) {
                    w = rfi_heif_u32(body + 4), h = rfi_heif_u32(body + 8);
                    have_size = 1;
                }
            } else if (type == RFI_BOX('c', 'l', 'a', 'p') && body_length >= 32) {
                /* Clean aperture width and height as fractions N/D, rounded to the nearest
                 * pixel as libheif crops (Box_clap::get_width_rounded), never past the picture. */
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
        if (pass == 0 && !have_size) return 0;
    }
    if (w <= 0 || h <= 0 || w > INT32_MAX || h > INT32_MAX) return 0;
    *width = (int32_t)w;
    *height = (int32_t)h;
    return 1;
}

/* The upright size of the primary image of the HEIF in `length` bytes at `data`, or in the file
 * at `path` when it is not NULL (its meta box read alone); 0 when it cannot be made. */
static int rfi_heif_upright_size(const char *path, const uint8_t *data, size_t length, int32_t *width,
                                 int32_t *height) {
    if (path == NULL) {
        size_t offset = 0, body_length;
        const uint8_t *body;
        uint32_t type;
        while (rfi_heif_next_box(data, length, &offset, &type, &body, &body_length)) {
            if (type == RFI_BOX('m', 'e', 't', 'a')) {
                return body_length >= 4 && rfi_heif_primary_size(body + 4, body_length - 4, width, height);
            }
        }
        return 0;
    }
    FILE *file = fopen(path, "rb");
    if (file == NULL) return 0;
    int made = 0;
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
            uint8_t *meta = malloc(body_length);
            if (meta != NULL && fread(meta, 1, body_length, file) == body_length) {
                made = rfi_heif_primary_size(meta + 4, body_length - 4, width, height);
            }
            free(meta);
            break;
        }
        if (size - header_length > (uint64_t)INT64_MAX || fseeko(file, (off_t)(size - header_length), SEEK_CUR) != 0) break;
    }
    fclose(file);
    return made;
}

void rfi_heif_close(rfi_heif *heif) {
    if (heif == NULL) return;
    if (heif->primary != NULL) heif_image_handle_release(heif->primary);
    if (heif->context != NULL) heif_context_free(heif->context);
    free(heif);
}

rfi_status rfi_heif_open(const char *path, const uint8_t *data, size_t length, rfi_heif **out,
                         rfi_still_header *header, char *message, size_t message_capacity) {
    *out = NULL;
    memset(header, 0, sizeof *header);
    rfi_set_message(message, message_capacity, "");
    pthread_once(&rfi_heif_once, rfi_heif_initialise);
    struct rfi_heif *heif = calloc(1, sizeof *heif);
    if (heif != NULL) heif->context = heif_context_alloc();
    if (heif == NULL || heif->context == NULL) {
        rfi_heif_close(heif);
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    heif_context_set_max_decoding_threads(heif->context, RFI_HEIF_DECODING_THREADS);
    struct heif_error error = path != NULL ? heif_context_read_from_file(heif->context, path, NULL)
                                           : heif_context_read_from_memory_without_copy(heif->context, data, length, NULL);
    if (error.code == heif_error_Ok) error = heif_context_get_primary_image_handle(heif->context, &heif->primary);
    if (error.code != heif_error_Ok) {
        rfi_status status = rfi_heif_failure(error, message, message_capacity);
        rfi_heif_close(heif);
        return status;
    }
    struct heif_image_handle *primary = heif->primary;
    /* Width and height after the transformations: the picture as libheif decodes it, sized
     * from the item properties (rfi_heif_upright_size), libheif's own size when they cannot be
     * read. */
    if (!rfi_heif_upright_size(path, data, length, &header->image.width, &header->image.height)) {
        header->image.width = heif_image_handle_get_width(primary);
        header->image.height = heif_image_handle_get_height(primary);
    }
    header->image.orientation = 1;
    header->image.has_alpha = heif_image_handle_has_alpha_channel(primary) != 0;
    header->bits_per_sample = heif_image_handle_get_luma_bits_per_pixel(primary);
    enum heif_color_profile_type profile = heif_image_handle_get_color_profile_type(primary);
    if (profile == heif_color_profile_type_rICC || profile == heif_color_profile_type_prof) {
        size_t size = heif_image_handle_get_raw_color_profile_size(primary);
        if (size > 0) {
            header->icc.data = malloc(size);
            if (header->icc.data != NULL &&
                heif_image_handle_get_raw_color_profile(primary, header->icc.data).code == heif_error_Ok) {
                header->icc.length = size;
            } else {
                free(header->icc.data);
                header->icc.data = NULL;
            }
        }
    } else {
        /* nclx code points, from the colr box or the AV1 sequence header: a profile built from
         * them, none for sRGB's or for ones Riffle does not know (read as sRGB). */
        struct heif_color_profile_nclx *nclx = NULL;
        if (heif_image_handle_get_nclx_color_profile(primary, &nclx).code == heif_error_Ok && nclx != NULL) {
            header->has_code_point_colour = 1;
            char ignored[RFI_MESSAGE_CAPACITY];
            if (rfi_colour_profile_from_code_points((int32_t)nclx->color_primaries,
                                                    (int32_t)nclx->transfer_characteristics, &header->icc, ignored,
                                                    sizeof ignored) != RFI_STATUS_OK) {
                header->icc.data = NULL;
                header->icc.length = 0;
            }
        }
        /* Freed whatever the call returned: libheif 1.15 hands the profile out before it checks
         * the code points, and returns an error for one it does not know with the profile still
         * in `nclx` (color_profile_nclx::get_nclx_color_profile). The photo is then read as sRGB. */
        heif_nclx_color_profile_free(nclx);
    }
    if (header->image.width <= 0 || header->image.height <= 0) {
        rfi_still_header_free(header);
        rfi_heif_close(heif);
        rfi_set_message(message, message_capacity, "the image has no valid size");
        return RFI_STATUS_FAILED;
    }
    *out = heif;
    return RFI_STATUS_OK;
}

static void rfi_heif_release_image(void *image) { heif_image_release(image); }

/* Converts libheif's interleaved R, G, B, A (8 bits, or `bits` in 16-bit little-endian words,
 * reduced to 8 by rfi_reduce_rgba16: colour dithered, alpha rounded) to premultiplied BGRA in
 * place, row by row: pixel x's 4 bytes go where its 4 or 8 bytes began, so nothing is
 * overwritten before it is read. Returns 1 when some pixel is translucent. */
static int rfi_heif_to_bgra(uint8_t *plane, int stride, int width, int height, int bits, int premultiplied) {
    int translucent = 0;
    for (int y = 0; y < height; y++) {
        uint8_t *row = plane + (size_t)y * (size_t)stride;
        uint32_t *out = (uint32_t *)(void *)row;
        if (bits > 8) rfi_reduce_rgba16(row, out, (size_t)width, bits, 0, 1, (uint32_t)y, 1);
        for (int x = 0; x < width; x++) {
            uint32_t r, g, b, a;
            if (bits <= 8) {
                const uint8_t *p = row + 4 * (size_t)x;
                r = p[0], g = p[1], b = p[2], a = p[3];
            } else {
                uint32_t p = out[x];
                a = p >> 24, r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF;
            }
            if (a < 255) {
                translucent = 1;
                if (premultiplied) {
                    r = r > a ? a : r, g = g > a ? a : g, b = b > a ? a : b;
                } else {
                    r = rfi_times_alpha(r, a), g = rfi_times_alpha(g, a), b = rfi_times_alpha(b, a);
                }
            }
            out[x] = a << 24 | r << 16 | g << 8 | b;
        }
    }
    return translucent;
}

rfi_status rfi_heif_decode(rfi_heif *heif, int32_t thumbnail, int64_t pixel_limit,
                           rfi_image_pixels *out, char *message, size_t message_capacity) {
    memset(out, 0, sizeof *out);
    rfi_set_message(message, message_capacity, "");
    struct heif_image_handle *handle = heif->primary;
    struct heif_image_handle *thumbnail_handle = NULL;
    if (thumbnail) {
        heif_item_id id;
        if (heif_image_handle_get_list_of_thumbnail_IDs(heif->primary, &id, 1) < 1) {
            rfi_set_message(message, message_capacity, "the image has no thumbnail");
            return RFI_STATUS_UNSUPPORTED;
        }
        struct heif_error error = heif_image_handle_get_thumbnail(heif->primary, id, &thumbnail_handle);
        if (error.code != heif_error_Ok) return rfi_heif_failure(error, message, message_capacity);
        handle = thumbnail_handle;
    }
    int width = heif_image_handle_get_width(handle), height = heif_image_handle_get_height(handle);
    if ((int64_t)width * (int64_t)height > pixel_limit) {
        if (thumbnail_handle != NULL) heif_image_handle_release(thumbnail_handle);
        rfi_set_message(message, message_capacity, "the image has more pixels than the limit");
        return RFI_STATUS_TOO_LARGE;
    }
    int deep = heif_image_handle_get_luma_bits_per_pixel(handle) > 8;
    int premultiplied = heif_image_handle_is_premultiplied_alpha(handle);
    /* Always four samples a pixel, alpha filled with the maximum when the image has none: the
     * conversion to BGRA then fits in place. */
    enum heif_chroma chroma = deep ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RGBA;
    struct heif_image *image = NULL;
    struct heif_error error = heif_decode_image(handle, &image, heif_colorspace_RGB, chroma, NULL);
    if (thumbnail_handle != NULL) heif_image_handle_release(thumbnail_handle);
    if (error.code != heif_error_Ok) return rfi_heif_failure(error, message, message_capacity);
    int stride = 0;
    uint8_t *plane = heif_image_get_plane(image, heif_channel_interleaved, &stride);
    int bits = heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved);
    width = heif_image_get_width(image, heif_channel_interleaved);
    height = heif_image_get_height(image, heif_channel_interleaved);
    if (plane == NULL || stride % 4 != 0 || width <= 0 || height <= 0 || (deep && (bits <= 8 || bits > 16))) {
        heif_image_release(image);
        rfi_set_message(message, message_capacity, "libheif returned no interleaved pixels");
        return RFI_STATUS_FAILED;
    }
    out->translucent = rfi_heif_to_bgra(plane, stride, width, height, deep ? bits : 8, premultiplied);
    out->pixels = (uint32_t *)(void *)plane;
    out->width = width;
    out->height = height;
    out->row_pixels = stride / 4;
    out->owner = image;
    out->release = rfi_heif_release_image;
    return RFI_STATUS_OK;
}

rfi_status rfi_heif_exif(rfi_heif *heif, rfi_bytes *out) {
    memset(out, 0, sizeof *out);
    heif_item_id id;
    if (heif_image_handle_get_list_of_metadata_block_IDs(heif->primary, "Exif", &id, 1) < 1) return RFI_STATUS_OK;
    size_t size = heif_image_handle_get_metadata_size(heif->primary, id);
    if (size < 4) return RFI_STATUS_OK;
    uint8_t *block = malloc(size);
    if (block == NULL) return RFI_STATUS_OUT_OF_MEMORY;
    rfi_status status = RFI_STATUS_OK;
    if (heif_image_handle_get_metadata(heif->primary, id, block).code == heif_error_Ok) {
        /* ISO/IEC 23008-12 A.2.1: a 32-bit big-endian offset from after itself to the TIFF
         * header, which usually follows an "Exif\0\0" of its own. */
        size_t offset = (size_t)block[0] << 24 | (size_t)block[1] << 16 | (size_t)block[2] << 8 | block[3];
        if (offset <= size - 4 && size - 4 - offset >= 8) {
            const uint8_t *tiff = block + 4 + offset;
            size_t length = size - 4 - offset;
            out->data = malloc(length + 6);
            if (out->data == NULL) {
                status = RFI_STATUS_OUT_OF_MEMORY;
            } else {
                memcpy(out->data, "Exif\0\0", 6);
                memcpy(out->data + 6, tiff, length);
                out->length = length + 6;
            }
        }
    }
    free(block);
    return status;
}
