/* PNG through libpng: header reading, decoding to premultiplied BGRA, encoding RGBA8, and the
 * text chunks (tEXt, zTXt, iTXt) both ways.
 *
 * libpng reports fatal errors through our error callback, which records the text and
 * png_longjmp()s to the setjmp(png_jmpbuf(...)) in the function that started the work. Locals
 * that change after setjmp and are read after the longjmp are volatile.
 */
#include "internal.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where libpng's callbacks report to. */
struct rfi_png_context {
    char *message;
    size_t message_capacity;
    /* Reading: the input and how far libpng has consumed it. */
    const uint8_t *data;
    size_t length;
    size_t offset;
    /* A read asked for bytes past the end of the input. */
    int ran_out_of_data;
    /* An allocation failed (libpng's, zlib's through libpng, or the encoder's output buffer):
     * libpng then stops with a text of its own ("Out of memory", "insufficient memory") that
     * would read as damaged data. */
    int out_of_memory;
};

/* libpng's allocator (png_create_*_struct_2): malloc, noting a failure in the context. */
static png_voidp rfi_png_malloc(png_structp png, png_alloc_size_t size) {
    void *memory = malloc(size);
    if (memory == NULL) ((struct rfi_png_context *)png_get_mem_ptr(png))->out_of_memory = 1;
    return memory;
}

static void rfi_png_free(png_structp png, png_voidp memory) {
    (void)png;
    free(memory);
}

/* The status for work libpng abandoned through rfi_png_error. */
static rfi_status rfi_png_failure_status(const struct rfi_png_context *context) {
    if (context->out_of_memory) return RFI_STATUS_OUT_OF_MEMORY;
    return context->ran_out_of_data ? RFI_STATUS_TRUNCATED : RFI_STATUS_FAILED;
}

static void rfi_png_error(png_structp png, png_const_charp text) {
    struct rfi_png_context *context = png_get_error_ptr(png);
    rfi_set_message(context->message, context->message_capacity, text);
    png_longjmp(png, 1);
}

/* libpng warnings (unknown sRGB profiles, bad ancillary chunks) do not affect the pixels. */
static void rfi_png_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void rfi_png_read(png_structp png, png_bytep target, size_t count) {
    struct rfi_png_context *context = png_get_io_ptr(png);
    if (count > context->length - context->offset) {
        context->ran_out_of_data = 1;
        png_error(png, "the data ends early");
    }
    memcpy(target, context->data + context->offset, count);
    context->offset += count;
}

static void rfi_png_context_init(struct rfi_png_context *context, const uint8_t *data,
                                 size_t length, char *message, size_t message_capacity) {
    memset(context, 0, sizeof *context);
    context->data = data;
    context->length = length;
    context->message = message;
    context->message_capacity = message_capacity;
    rfi_set_message(message, message_capacity, "");
}

/* Creates the read structs or reports why not. */
static rfi_status rfi_png_create_reader(struct rfi_png_context *context, png_structp *png,
                                        png_infop *info) {
    *png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, context, rfi_png_error,
                                    rfi_png_warning, context, rfi_png_malloc, rfi_png_free);
    *info = *png ? png_create_info_struct(*png) : NULL;
    if (*info == NULL) {
        png_destroy_read_struct(png, NULL, NULL);
        rfi_set_message(context->message, context->message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    png_set_read_fn(*png, context, rfi_png_read);
    /* libpng's default limit is 1,000,000 a side; Riffle's own pixel limit decides instead. */
    png_set_user_limits(*png, 0x7FFFFFFF, 0x7FFFFFFF);
    return RFI_STATUS_OK;
}

static int32_t rfi_png_orientation(png_structp png, png_infop info) {
#ifdef PNG_eXIf_SUPPORTED
    png_bytep exif = NULL;
    png_uint_32 exif_length = 0;
    if (png_get_eXIf_1(png, info, &exif_length, &exif) && exif != NULL && exif_length > 0) {
        /* eXIf holds a bare TIFF structure; libexif wants the APP1 "Exif\0\0" prefix. */
        uint8_t *prefixed = malloc((size_t)exif_length + 6);
        if (prefixed == NULL) return 1;
        memcpy(prefixed, "Exif\0\0", 6);
        memcpy(prefixed + 6, exif, exif_length);
        int32_t orientation = rfi_exif_orientation(prefixed, (size_t)exif_length + 6);
        free(prefixed);
        return orientation;
    }
#endif
    return 1;
}

rfi_status rfi_png_read_header(const uint8_t *data, size_t length, rfi_image_header *header,
                               char *message, size_t message_capacity) {
    struct rfi_png_context context;
    png_structp png;
    png_infop info;
    memset(header, 0, sizeof *header);
    rfi_png_context_init(&context, data, length, message, message_capacity);
    rfi_status created = rfi_png_create_reader(&context, &png, &info);
    if (created != RFI_STATUS_OK) return created;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        return rfi_png_failure_status(&context);
    }
    png_read_info(png, info);
    header->width = (int32_t)png_get_image_width(png, info);
    header->height = (int32_t)png_get_image_height(png, info);
    header->orientation = rfi_png_orientation(png, info);
    png_destroy_read_struct(&png, &info, NULL);
    return RFI_STATUS_OK;
}

void rfi_png_text_free(rfi_png_text *entries) { free(entries); }

/* compression > 0 marks an iTXt chunk (PNG_ITXT_COMPRESSION_NONE or _zTXt), whose text is UTF-8
 * and whose length libpng keeps in itxt_length. */
static int rfi_png_text_is_utf8(const png_text *chunk) { return chunk->compression > 0; }

static size_t rfi_png_text_length(const png_text *chunk) {
    return rfi_png_text_is_utf8(chunk) ? chunk->itxt_length : chunk->text_length;
}

/* Copies the text chunks libpng holds in `info` into one malloc'ed block: the entries, then
 * each key and text with its NUL. Returns 0 when malloc fails. */
static int rfi_png_copy_text(png_structp png, png_infop info, rfi_png_text_list *list) {
    png_textp chunks = NULL;
    int count = png_get_text(png, info, &chunks, NULL);
    if (count <= 0) return 1;
    size_t size = sizeof(rfi_png_text) * (size_t)count;
    for (int i = 0; i < count; i++) {
        size += strlen(chunks[i].key) + 1 + rfi_png_text_length(&chunks[i]) + 1;
    }
    rfi_png_text *entries = malloc(size);
    if (entries == NULL) return 0;
    char *strings = (char *)(entries + count);
    for (int i = 0; i < count; i++) {
        size_t key_length = strlen(chunks[i].key);
        size_t text_length = rfi_png_text_length(&chunks[i]);
        memcpy(strings, chunks[i].key, key_length + 1);
        entries[i].key = strings;
        strings += key_length + 1;
        if (text_length > 0) memcpy(strings, chunks[i].text, text_length);
        strings[text_length] = '\0';
        entries[i].text = strings;
        entries[i].length = text_length;
        entries[i].is_utf8 = rfi_png_text_is_utf8(&chunks[i]);
        strings += text_length + 1;
    }
    list->entries = entries;
    list->count = count;
    return 1;
}

rfi_status rfi_png_decode(const uint8_t *data, size_t length, int64_t pixel_limit,
                          rfi_pixels *out, rfi_png_text_list *text, char *message,
                          size_t message_capacity) {
    struct rfi_png_context context;
    png_structp png;
    png_infop info;
    uint32_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    memset(out, 0, sizeof *out);
    if (text != NULL) memset(text, 0, sizeof *text);
    rfi_png_context_init(&context, data, length, message, message_capacity);
    rfi_status created = rfi_png_create_reader(&context, &png, &info);
    if (created != RFI_STATUS_OK) return created;
    if (setjmp(png_jmpbuf(png))) {
        free(pixels);
        free(rows);
        png_destroy_read_struct(&png, &info, NULL);
        return rfi_png_failure_status(&context);
    }
    png_read_info(png, info);
    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    if ((int64_t)width * (int64_t)height > pixel_limit) {
        char text[RFI_MESSAGE_CAPACITY];
        snprintf(text, sizeof text, "%ux%u pixels exceeds the limit of %lld", width, height,
                 (long long)pixel_limit);
        rfi_set_message(message, message_capacity, text);
        png_destroy_read_struct(&png, &info, NULL);
        return RFI_STATUS_TOO_LARGE;
    }

    /* Everything becomes 8-bit B, G, R, A in memory. */
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    int has_transparency_chunk = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_transparency_chunk) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_scale_16(png);
    if (!(color_type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(png);
    png_set_bgr(png);
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !has_transparency_chunk) {
        png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) {
        rfi_set_message(message, message_capacity, "unexpected row layout after conversion");
        png_destroy_read_struct(&png, &info, NULL);
        return RFI_STATUS_FAILED;
    }

    pixels = malloc((size_t)width * height * 4);
    rows = malloc(sizeof(png_bytep) * (height ? height : 1));
    if (pixels == NULL || rows == NULL) {
        free(pixels);
        free(rows);
        rfi_set_message(message, message_capacity, "out of memory");
        png_destroy_read_struct(&png, &info, NULL);
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    for (png_uint_32 y = 0; y < height; y++) rows[y] = (png_bytep)(pixels + (size_t)y * width);
    png_read_image(png, rows);
    /* The trailing chunks (and IEND) add nothing to the pixels, so they are read only for
     * their text, which may follow the image data. */
    if (text != NULL) {
        png_read_end(png, info);
        if (!rfi_png_copy_text(png, info, text)) {
            free(pixels);
            free(rows);
            png_destroy_read_struct(&png, &info, NULL);
            rfi_set_message(message, message_capacity, "out of memory");
            return RFI_STATUS_OUT_OF_MEMORY;
        }
    }
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);

    rfi_premultiply(pixels, (size_t)width * height);
    out->pixels = pixels;
    out->width = (int32_t)width;
    out->height = (int32_t)height;
    return RFI_STATUS_OK;
}

/* A growing output buffer for libpng's write callback; heap-allocated so that it stays valid
 * across the longjmp. */
struct rfi_png_sink {
    uint8_t *data;
    size_t length;
    size_t capacity;
};

static void rfi_png_write(png_structp png, png_bytep bytes, size_t count) {
    struct rfi_png_sink *sink = png_get_io_ptr(png);
    if (count > sink->capacity - sink->length) {
        size_t capacity = sink->capacity ? sink->capacity : 4096;
        while (count > capacity - sink->length) capacity *= 2;
        uint8_t *grown = realloc(sink->data, capacity);
        if (grown == NULL) {
            ((struct rfi_png_context *)png_get_mem_ptr(png))->out_of_memory = 1;
            png_error(png, "out of memory");
        }
        sink->data = grown;
        sink->capacity = capacity;
    }
    memcpy(sink->data + sink->length, bytes, count);
    sink->length += count;
}

static void rfi_png_flush(png_structp png) { (void)png; }

/* Straight 8-bit channel from a premultiplied one, rounded to nearest, clamped to 255. */
static inline uint8_t rfi_unpremultiply(uint32_t channel, uint32_t alpha) {
    uint32_t value = (channel * 255 + alpha / 2) / alpha;
    return (uint8_t)(value > 255 ? 255 : value);
}

rfi_status rfi_png_encode(const uint32_t *pixels, int32_t width, int32_t height,
                          int32_t row_pixels, const rfi_png_text *text, int32_t text_count,
                          rfi_bytes *out, char *message, size_t message_capacity) {
    struct rfi_png_context context;
    png_structp png;
    png_infop info;
    uint8_t *volatile row = NULL;
    png_textp volatile chunks = NULL;
    memset(out, 0, sizeof *out);
    if (width <= 0 || height <= 0 || row_pixels < width) {
        rfi_set_message(message, message_capacity, "a PNG needs a width and height of at least 1");
        return RFI_STATUS_FAILED;
    }
    if (text_count < 0) text_count = 0;
    rfi_png_context_init(&context, NULL, 0, message, message_capacity);
    struct rfi_png_sink *sink = calloc(1, sizeof *sink);
    row = malloc((size_t)width * 4);
    chunks = calloc(text_count > 0 ? (size_t)text_count : 1, sizeof(png_text));
    png = png_create_write_struct_2(PNG_LIBPNG_VER_STRING, &context, rfi_png_error,
                                    rfi_png_warning, &context, rfi_png_malloc, rfi_png_free);
    info = png ? png_create_info_struct(png) : NULL;
    if (sink == NULL || row == NULL || chunks == NULL || info == NULL) {
        png_destroy_write_struct(&png, NULL);
        free(sink);
        free(row);
        free(chunks);
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(sink->data);
        free(sink);
        free(row);
        free(chunks);
        return rfi_png_failure_status(&context);
    }
    png_set_write_fn(png, sink, rfi_png_write, rfi_png_flush);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    /* Set before png_write_info, so the chunks precede IDAT and a reader that stops at the
     * image data still finds them. libpng copies the strings. */
    for (int32_t i = 0; i < text_count; i++) {
        chunks[i].compression = text[i].is_utf8 ? PNG_ITXT_COMPRESSION_NONE
                                                : PNG_TEXT_COMPRESSION_NONE;
        chunks[i].key = (png_charp)text[i].key;
        chunks[i].text = (png_charp)text[i].text;
        chunks[i].text_length = text[i].length;
    }
    if (text_count > 0) png_set_text(png, info, chunks, text_count);
    png_write_info(png, info);
    for (int32_t y = 0; y < height; y++) {
        const uint32_t *source = pixels + (size_t)y * (size_t)row_pixels;
        for (int32_t x = 0; x < width; x++) {
            uint32_t p = source[x], a = p >> 24;
            uint8_t *rgba = row + 4 * (size_t)x;
            if (a == 0) {
                rgba[0] = rgba[1] = rgba[2] = rgba[3] = 0;
                continue;
            }
            rgba[0] = rfi_unpremultiply((p >> 16) & 0xFF, a);
            rgba[1] = rfi_unpremultiply((p >> 8) & 0xFF, a);
            rgba[2] = rfi_unpremultiply(p & 0xFF, a);
            rgba[3] = (uint8_t)a;
        }
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(row);
    free(chunks);
    out->data = sink->data;
    out->length = sink->length;
    free(sink);
    return RFI_STATUS_OK;
}
