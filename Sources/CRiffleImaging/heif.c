/* HEIF (HEIC) and AVIF through libheif: the primary image and its first thumbnail, decoded with
 * the file's transformations and converted to premultiplied BGRA in libheif's own image memory;
 * the colour profile and the EXIF block. The primary's size and the range of an AV1 grey or
 * alpha come from heif_items.c, which reads the meta box itself; a file libheif refuses to open
 * is read by heif_hevc.c.
 *
 * libheif returns a struct heif_error from every call; nothing longjmps.
 */
#include "heif_items.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <libheif/heif.h>

#include "lazy_codecs.h"

/* Threads libheif decodes a grid's tiles on (its default is 4). Riffle runs two decode workers
 * (RiffleSession.defaultDecodeWorkers) on the two cores it is made for; when one photo decodes
 * alone, the usual wait (the photo just paged to), two threads take both cores, and when both
 * workers are busy the extra thread only takes turns. */
#define RFI_HEIF_DECODING_THREADS 2

struct rfi_heif {
    struct heif_context *context;
    struct heif_image_handle *primary;
    /* A file libheif refused, read by heif_hevc.c instead; NULL when libheif reads it. */
    rfi_heif_own *own;
    /* The primary image's grey, and its alpha, are coded in limited range (heif_items.c):
     * the decode expands them. */
    int grey_limited;
    int alpha_limited;
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

/* The item ID of the primary image's alpha image (the auxiliary image libheif takes the alpha
 * from), 0 when it has none. */
static uint32_t rfi_heif_alpha_item(struct heif_image_handle *primary) {
    if (!heif_image_handle_has_alpha_channel(primary)) return 0;
    heif_item_id ids[8];
    int count = heif_image_handle_get_list_of_auxiliary_image_IDs(primary, 0, ids, 8);
    for (int i = 0; i < count; i++) {
        struct heif_image_handle *auxiliary = NULL;
        if (heif_image_handle_get_auxiliary_image_handle(primary, ids[i], &auxiliary).code != heif_error_Ok) continue;
        const char *type = NULL;
        int alpha = heif_image_handle_get_auxiliary_type(auxiliary, &type).code == heif_error_Ok && type != NULL &&
                    (strcmp(type, "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha") == 0 ||
                     strcmp(type, "urn:mpeg:hevc:2015:auxid:1") == 0);
        if (type != NULL) heif_image_handle_free_auxiliary_types(auxiliary, &type);
        heif_image_handle_release(auxiliary);
        if (alpha) return ids[i];
    }
    return 0;
}

void rfi_heif_close(rfi_heif *heif) {
    if (heif == NULL) return;
    if (heif->primary != NULL) heif_image_handle_release(heif->primary);
    if (heif->context != NULL) heif_context_free(heif->context);
    rfi_heif_own_close(heif->own);
    free(heif);
}

rfi_status rfi_heif_open(const char *path, const uint8_t *data, size_t length, rfi_heif **out,
                         rfi_still_header *header, char *message, size_t message_capacity) {
    *out = NULL;
    memset(header, 0, sizeof *header);
    rfi_set_message(message, message_capacity, "");
    if (!rfi_lazy_load(RFI_LAZY_HEIF, message, message_capacity)) return RFI_STATUS_LIBRARY_MISSING;
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
    if (error.code == heif_error_Invalid_input || error.code == heif_error_Unsupported_feature) {
        /* libheif 1.15 refuses some valid files (an auxiliary image referring to two images, as
         * iPhones' gain maps do; an iden primary): Riffle reads their primary image itself. */
        rfi_heif_own *own = NULL;
        char own_message[RFI_MESSAGE_CAPACITY];
        if (rfi_heif_own_open(path, data, length, &own, header, own_message, sizeof own_message) == RFI_STATUS_OK) {
            heif->own = own;
            *out = heif;
            return RFI_STATUS_OK;
        }
    }
    if (error.code != heif_error_Ok) {
        rfi_status status = rfi_heif_failure(error, message, message_capacity);
        rfi_heif_close(heif);
        return status;
    }
    struct heif_image_handle *primary = heif->primary;
    /* Width and height after the transformations: the picture as libheif decodes it, sized
     * from the item properties (heif_items.c: libheif 1.15 misses a transformation listed before
     * ispe), libheif's own size when they cannot be read. */
    rfi_heif_items items;
    rfi_heif_items_read(path, data, length, rfi_heif_alpha_item(primary), &items);
    header->image.width = items.have_size ? items.width : heif_image_handle_get_width(primary);
    header->image.height = items.have_size ? items.height : heif_image_handle_get_height(primary);
    heif->grey_limited = items.grey_limited;
    heif->alpha_limited = items.alpha_limited;
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

/* A limited-range sample of `bits` bits expanded to full range (ITU-T H.273, 8.3, equations for
 * Y: (v − 16·2^(n−8)) / (219·2^(n−8)) of full scale 2^n − 1), rounded to nearest and clamped. */
static inline uint32_t rfi_heif_full_range(uint32_t value, int bits) {
    int64_t black = (int64_t)16 << (bits - 8), span = (int64_t)219 << (bits - 8), max = ((int64_t)1 << bits) - 1;
    int64_t scaled = ((int64_t)value - black) * max;
    if (scaled <= 0) return 0;
    scaled = (scaled + span / 2) / span;
    return (uint32_t)(scaled > max ? max : scaled);
}

/* Expands, in place, the limited-range samples of one row of libheif's R, G, B, A (8 bits, or
 * `bits` in 16-bit little-endian words): R, G and B (one grey) when `grey`, A when `alpha`. */
static void rfi_heif_expand_row(uint8_t *row, int width, int bits, int grey, int alpha) {
    for (int x = 0; x < width; x++) {
        for (int c = grey ? 0 : 3; c < (alpha ? 4 : 3); c++) {
            if (bits <= 8) {
                row[4 * x + c] = (uint8_t)rfi_heif_full_range(row[4 * x + c], 8);
            } else {
                uint8_t *p = row + 8 * (size_t)x + 2 * (size_t)c;
                uint32_t v = rfi_heif_full_range((uint32_t)p[0] | (uint32_t)p[1] << 8, bits);
                p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8);
            }
        }
    }
}

/* Converts libheif's interleaved R, G, B, A (8 bits, or `bits` in 16-bit little-endian words,
 * reduced to 8 by rfi_reduce_rgba16: colour dithered, alpha rounded) to premultiplied BGRA in
 * place, row by row: pixel x's 4 bytes go where its 4 or 8 bytes began, so nothing is
 * overwritten before it is read. A grey (`grey_limited`) or alpha (`alpha_limited`) coded in
 * limited range is expanded first. Returns 1 when some pixel is translucent. */
static int rfi_heif_to_bgra(uint8_t *plane, int stride, int width, int height, int bits, int premultiplied,
                            int grey_limited, int alpha_limited) {
    int translucent = 0;
    for (int y = 0; y < height; y++) {
        uint8_t *row = plane + (size_t)y * (size_t)stride;
        uint32_t *out = (uint32_t *)(void *)row;
        if (grey_limited || alpha_limited) rfi_heif_expand_row(row, width, bits, grey_limited, alpha_limited);
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
    if (heif->own != NULL) {
        if (!thumbnail) return rfi_heif_own_decode(heif->own, pixel_limit, out, message, message_capacity);
        rfi_set_message(message, message_capacity, "the image has no thumbnail Riffle reads");
        return RFI_STATUS_UNSUPPORTED;
    }
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
    /* The limited ranges are the primary's: a thumbnail is an item of its own. */
    out->translucent = rfi_heif_to_bgra(plane, stride, width, height, deep ? bits : 8, premultiplied,
                                        !thumbnail && heif->grey_limited, !thumbnail && heif->alpha_limited);
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
    if (heif->own != NULL) return RFI_STATUS_OK;
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
