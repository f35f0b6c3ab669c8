/* PNG through libpng: header reading, decoding row by row to premultiplied BGRA, encoding RGB
 * or RGBA8, and the text chunks (tEXt, zTXt, iTXt) both ways.
 *
 * libpng reports fatal errors through our error callback, which records the text and
 * png_longjmp()s to the setjmp(png_jmpbuf(...)) in the function that started the work. Locals
 * that change after setjmp and are read after the longjmp are volatile.
 */
#include "internal.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Bytes read from a file at a time, as the JPEG reader does. */
#define RFI_PNG_FILE_BUFFER_BYTES 65536

/* Image data libpng asks for at a time (png_set_compression_buffer_size sets it for a reader;
 * its default is 8192). A read past the end of the data fails whole, so this is the most
 * deflated data of a truncated file that is lost: small, so that a file cut anywhere shows
 * every row before the cut but a few. */
#define RFI_PNG_IDAT_READ_BYTES 1024

/* Where libpng's callbacks report to and read from. */
struct rfi_png_context {
    char *message;
    size_t message_capacity;
    /* Reading from memory: the input and how far libpng has consumed it. */
    const uint8_t *data;
    size_t length;
    size_t offset;
    /* Reading from a file (descriptor ≥ 0): the bytes last read and how many are used. */
    int descriptor;
    uint8_t *buffer;
    size_t buffered;
    size_t consumed;
    /* A read asked for bytes past the end of the input. */
    int ran_out_of_data;
    /* An allocation failed (libpng's, zlib's through libpng, or the encoder's output buffer):
     * libpng then stops with a text of its own ("Out of memory", "insufficient memory") that
     * would read as damaged data. */
    int out_of_memory;
    /* An allocation over RFI_PNG_MALLOC_MAX was refused: out of memory too, unless the data
     * then ran out (the file claimed a chunk longer than itself). */
    int refused_allocation;
};

/* The largest block libpng may allocate, bytes: 16 MiB, above any real iCCP profile (a few MiB
 * at most), eXIf block (64 KiB in a JPEG's APP1) or text chunk, and far above the row buffers of
 * the widest PNG Riffle opens (8 bytes a pixel). libpng allocates, and clears, what a chunk's
 * length field says before reading the chunk, and png_set_chunk_malloc_max only warns: a
 * 217-byte file claiming a 1.6 GB iTXt chunk took that much memory and seconds (found by
 * Fuzz/png_fuzzer.c). Refused here, an ancillary chunk is skipped with a warning; a decode
 * that then fails reports it as out of memory (or truncated, when the data ran out first). */
#define RFI_PNG_MALLOC_MAX ((png_alloc_size_t)16 << 20)

/* libpng's allocator (png_create_*_struct_2): malloc up to RFI_PNG_MALLOC_MAX, noting a refusal
 * or a failure in the context. */
static png_voidp rfi_png_malloc(png_structp png, png_alloc_size_t size) {
    if (size > RFI_PNG_MALLOC_MAX) {
        ((struct rfi_png_context *)png_get_mem_ptr(png))->refused_allocation = 1;
        return NULL;
    }
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
    if (context->ran_out_of_data) return RFI_STATUS_TRUNCATED;
    return context->refused_allocation ? RFI_STATUS_OUT_OF_MEMORY : RFI_STATUS_FAILED;
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
    if (context->descriptor < 0) {
        if (count > context->length - context->offset) {
            context->ran_out_of_data = 1;
            png_error(png, "the data ends early");
        }
        memcpy(target, context->data + context->offset, count);
        context->offset += count;
        return;
    }
    while (count > 0) {
        if (context->consumed == context->buffered) {
            ssize_t got;
            do {
                got = read(context->descriptor, context->buffer, RFI_PNG_FILE_BUFFER_BYTES);
            } while (got < 0 && errno == EINTR);
            if (got < 0) png_error(png, "the file cannot be read");
            if (got == 0) {
                context->ran_out_of_data = 1;
                png_error(png, "the data ends early");
            }
            context->buffered = (size_t)got;
            context->consumed = 0;
        }
        size_t available = context->buffered - context->consumed;
        size_t taken = count < available ? count : available;
        memcpy(target, context->buffer + context->consumed, taken);
        context->consumed += taken;
        target += taken;
        count -= taken;
    }
}

static void rfi_png_context_init(struct rfi_png_context *context, const uint8_t *data,
                                 size_t length, char *message, size_t message_capacity) {
    memset(context, 0, sizeof *context);
    context->data = data;
    context->length = length;
    context->descriptor = -1;
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
    png_set_compression_buffer_size(*png, RFI_PNG_IDAT_READ_BYTES);
    /* libpng's default limit is 1,000,000 a side; Riffle's own pixel limits decide instead. */
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

struct rfi_png_reader {
    png_structp png;
    png_infop info;
    struct rfi_png_context context;
    png_uint_32 width;
    png_uint_32 height;
    int interlaced;
    /* 0 before start, 1 once started, 2 after a failure, 3 once the text is read (after 2 and
     * 3 only close is allowed). */
    int state;
    /* The next row to deliver: the pass (0-based, libpng's numbering; 0 when not interlaced,
     * 7 or 1 past the last) and the row within it. */
    int pass;
    png_uint_32 row;
    /* Set once the data ran out: every row from there on is grey fill. */
    int truncated;
    /* A 16-bit picture's row as libpng delivers it (R, G, B, A little-endian words), before
     * rfi_reduce_rgba16 dithers it to 8 bits; NULL for 8 bits and less. */
    uint8_t *deep_row;
    /* libpng's text for the failure or the truncation; copied out by every call. */
    char text[RFI_MESSAGE_CAPACITY];
};

/* Opaque mid-grey: what libjpeg shows for data that ends early, so both formats look alike. */
static const uint32_t rfi_png_fill = 0xFF808080u;

static int rfi_png_pass_count(const struct rfi_png_reader *reader) {
    return reader->interlaced ? 7 : 1;
}

static png_uint_32 rfi_png_pass_rows(const struct rfi_png_reader *reader, int pass) {
    return reader->interlaced ? PNG_PASS_ROWS(reader->height, pass) : reader->height;
}

static png_uint_32 rfi_png_pass_columns(const struct rfi_png_reader *reader, int pass) {
    return reader->interlaced ? PNG_PASS_COLS(reader->width, pass) : reader->width;
}

/* Moves past the current row; after a pass's last row, to the next pass with pixels (libpng
 * skips the empty passes of a small image the same way, in png_read_finish_row). */
static void rfi_png_advance(struct rfi_png_reader *reader) {
    reader->row++;
    if (reader->row < rfi_png_pass_rows(reader, reader->pass)) return;
    reader->row = 0;
    do {
        reader->pass++;
    } while (reader->pass < rfi_png_pass_count(reader) &&
             (rfi_png_pass_rows(reader, reader->pass) == 0 ||
              rfi_png_pass_columns(reader, reader->pass) == 0));
}

static rfi_status rfi_png_reader_open(int descriptor, const uint8_t *data, size_t length,
                                      rfi_png_reader **out, rfi_image_header *header,
                                      char *message, size_t message_capacity) {
    *out = NULL;
    memset(header, 0, sizeof *header);
    struct rfi_png_reader *reader = calloc(1, sizeof *reader);
    uint8_t *buffer = descriptor >= 0 ? malloc(RFI_PNG_FILE_BUFFER_BYTES) : NULL;
    if (reader == NULL || (descriptor >= 0 && buffer == NULL)) {
        free(reader);
        free(buffer);
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    rfi_png_context_init(&reader->context, data, length, reader->text, sizeof reader->text);
    reader->context.descriptor = descriptor;
    reader->context.buffer = buffer;
    rfi_status created = rfi_png_create_reader(&reader->context, &reader->png, &reader->info);
    if (created != RFI_STATUS_OK) {
        rfi_set_message(message, message_capacity, reader->text);
        free(buffer);
        free(reader);
        return created;
    }
    if (setjmp(png_jmpbuf(reader->png))) {
        rfi_status status = rfi_png_failure_status(&reader->context);
        rfi_set_message(message, message_capacity, reader->text);
        rfi_png_reader_close(reader, NULL, 0);
        return status;
    }
    png_read_info(reader->png, reader->info);
    reader->width = png_get_image_width(reader->png, reader->info);
    reader->height = png_get_image_height(reader->png, reader->info);
    reader->interlaced = png_get_interlace_type(reader->png, reader->info) == PNG_INTERLACE_ADAM7;
    header->width = (int32_t)reader->width;
    header->height = (int32_t)reader->height;
    header->orientation = rfi_png_orientation(reader->png, reader->info);
    header->multiple_scans = reader->interlaced;
    header->has_alpha = (png_get_color_type(reader->png, reader->info) & PNG_COLOR_MASK_ALPHA) != 0 ||
                        png_get_valid(reader->png, reader->info, PNG_INFO_tRNS) != 0;
    *out = reader;
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

rfi_status rfi_png_reader_open_file(int32_t descriptor, rfi_png_reader **reader,
                                    rfi_image_header *header, char *message,
                                    size_t message_capacity) {
    if (descriptor < 0) {
        *reader = NULL;
        rfi_set_message(message, message_capacity, "no file descriptor");
        return RFI_STATUS_INVALID_REQUEST;
    }
    return rfi_png_reader_open(descriptor, NULL, 0, reader, header, message, message_capacity);
}

rfi_status rfi_png_reader_open_memory(const uint8_t *data, size_t length,
                                      rfi_png_reader **reader, rfi_image_header *header,
                                      char *message, size_t message_capacity) {
    return rfi_png_reader_open(-1, data, length, reader, header, message, message_capacity);
}

rfi_status rfi_png_read_header(const uint8_t *data, size_t length, rfi_image_header *header,
                               char *message, size_t message_capacity) {
    rfi_png_reader *reader;
    rfi_status status =
        rfi_png_reader_open(-1, data, length, &reader, header, message, message_capacity);
    rfi_png_reader_close(reader, NULL, 0);
    return status;
}

/* sRGB's white point and primaries as a cHRM chunk gives them (x, y: white, red, green, blue). */
static const double rfi_png_srgb_chromaticities[8] = {0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06};

rfi_status rfi_png_read_colour_profile(const uint8_t *data, size_t length, rfi_bytes *out, char *message,
                                       size_t message_capacity) {
    out->data = NULL;
    out->length = 0;
    rfi_png_reader *reader;
    rfi_image_header header;
    rfi_status status = rfi_png_reader_open(-1, data, length, &reader, &header, message, message_capacity);
    if (status != RFI_STATUS_OK) {
        rfi_png_reader_close(reader, NULL, 0);
        return status;
    }
    png_structp png = reader->png;
    png_infop info = reader->info;
    png_charp name;
    int compression;
    png_bytep profile;
    png_uint_32 profile_length;
    int intent;
    double gamma;
    double xy[8];
    if (png_get_iCCP(png, info, &name, &compression, &profile, &profile_length) && profile_length > 0) {
        out->data = malloc(profile_length);
        if (out->data == NULL) {
            rfi_set_message(message, message_capacity, "out of memory");
            status = RFI_STATUS_OUT_OF_MEMORY;
        } else {
            memcpy(out->data, profile, profile_length);
            out->length = profile_length;
        }
    } else if (!png_get_sRGB(png, info, &intent) && png_get_gAMA(png, info, &gamma)) {
        int has_chromaticities = png_get_cHRM(png, info, &xy[0], &xy[1], &xy[2], &xy[3], &xy[4], &xy[5], &xy[6],
                                              &xy[7]) != 0;
        int srgb_chromaticities = 1;
        for (int i = 0; i < 8 && has_chromaticities; i++)
            if (fabs(xy[i] - rfi_png_srgb_chromaticities[i]) > 0.001) srgb_chromaticities = 0;
        /* A gAMA of 45455 is what the PNG specification (11.3.3.5, sRGB) tells writers to put
         * beside an sRGB chunk, and what writers mean by sRGB without one. */
        int srgb_gamma = fabs(gamma * 100000 - 45455) <= 1;
        if (!(srgb_gamma && srgb_chromaticities))
            status = rfi_colour_profile_from_png_chunks(gamma, has_chromaticities ? xy : NULL, out, message,
                                                        message_capacity);
    }
    rfi_png_reader_close(reader, NULL, 0);
    return status;
}

rfi_status rfi_png_reader_start(rfi_png_reader *reader, char *message, size_t message_capacity) {
    if (reader->state != 0) {
        rfi_set_message(message, message_capacity, "the reader has already started or failed");
        return RFI_STATUS_INVALID_REQUEST;
    }
    png_structp png = reader->png;
    png_infop info = reader->info;
    if (setjmp(png_jmpbuf(png))) {
        reader->state = 2;
        rfi_set_message(message, message_capacity, reader->text);
        return rfi_png_failure_status(&reader->context);
    }
    /* Everything becomes 8-bit B, G, R, A in memory; 16-bit samples become R, G, B, A
     * little-endian words in deep_row first, which rfi_reduce_rgba16 dithers to 8 bits. */
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    int deep = bit_depth == 16;
    int has_transparency_chunk = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_transparency_chunk) png_set_tRNS_to_alpha(png);
    if (!(color_type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(png);
    if (deep) {
        png_set_swap(png);
    } else {
        png_set_bgr(png);
    }
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !has_transparency_chunk) {
        png_set_filler(png, deep ? 0xFFFF : 0xFF, PNG_FILLER_AFTER);
    }
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)reader->width * (deep ? 8 : 4)) {
        reader->state = 2;
        rfi_set_message(message, message_capacity, "unexpected row layout after conversion");
        return RFI_STATUS_FAILED;
    }
    if (deep && (reader->deep_row = malloc((size_t)reader->width * 8)) == NULL) {
        reader->state = 2;
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    reader->state = 1;
    return RFI_STATUS_OK;
}

rfi_status rfi_png_reader_read(rfi_png_reader *reader, uint32_t *rows, int32_t row_pixels,
                               int32_t max_rows, rfi_png_rows *out, char *message,
                               size_t message_capacity) {
    memset(out, 0, sizeof *out);
    if (reader->state != 1 || row_pixels < 0 || (png_uint_32)row_pixels < reader->width ||
        max_rows < 0) {
        rfi_set_message(message, message_capacity, "the reader is not started, or the rows are too short");
        return RFI_STATUS_INVALID_REQUEST;
    }
    if (reader->pass >= rfi_png_pass_count(reader)) return RFI_STATUS_OK;
    int pass = reader->pass;
    png_uint_32 first = reader->row, pass_rows = rfi_png_pass_rows(reader, pass);
    png_uint_32 left = pass_rows - first;
    int32_t wanted = (png_uint_32)max_rows < left ? max_rows : (int32_t)left;
    png_uint_32 width = rfi_png_pass_columns(reader, pass);
    out->first_row = (int32_t)first;
    out->width = (int32_t)width;
    out->x0 = reader->interlaced ? PNG_PASS_START_COL(pass) : 0;
    out->y0 = reader->interlaced ? PNG_PASS_START_ROW(pass) : 0;
    out->dx = reader->interlaced ? PNG_PASS_COL_OFFSET(pass) : 1;
    out->dy = reader->interlaced ? PNG_PASS_ROW_OFFSET(pass) : 1;

    /* Written after setjmp and read after the longjmp. */
    volatile int32_t decoded = 0;
    if (!reader->truncated) {
        if (setjmp(png_jmpbuf(reader->png))) {
            /* Only data that ends early is recovered from; a failed allocation (zlib's inflate
             * state is allocated with the first IDAT) is out of memory, not a cut file. */
            if (!reader->context.ran_out_of_data || reader->context.out_of_memory) {
                reader->state = 2;
                rfi_set_message(message, message_capacity, reader->text);
                return rfi_png_failure_status(&reader->context);
            }
            reader->truncated = 1;
        } else {
            while (decoded < wanted) {
                uint32_t *row = rows + (size_t)decoded * (size_t)row_pixels;
                if (reader->deep_row != NULL) {
                    png_read_row(reader->png, reader->deep_row, NULL);
                    /* Dithered at the stored pixel, so an interlaced picture's passes and a
                     * plain one's rows give the same pixels. */
                    rfi_reduce_rgba16(reader->deep_row, row, width, 16, (uint32_t)out->x0, (uint32_t)out->dx,
                                      (uint32_t)out->y0 + (first + (png_uint_32)decoded) * (uint32_t)out->dy, 1);
                } else {
                    png_read_row(reader->png, (png_bytep)row, NULL);
                }
                decoded++;
            }
        }
    }
    for (int32_t i = 0; i < wanted; i++) {
        uint32_t *row = rows + (size_t)i * (size_t)row_pixels;
        if (i < decoded) {
            out->translucent |= rfi_premultiply(row, width);
        } else {
            for (png_uint_32 x = 0; x < width; x++) row[x] = rfi_png_fill;
        }
        rfi_png_advance(reader);
    }
    out->count = wanted;
    out->decoded = decoded;
    rfi_set_message(message, message_capacity, reader->text);
    return RFI_STATUS_OK;
}

rfi_status rfi_png_reader_read_text(rfi_png_reader *reader, rfi_png_text_list *text,
                                    char *message, size_t message_capacity) {
    memset(text, 0, sizeof *text);
    if (reader->state != 1 || reader->pass < rfi_png_pass_count(reader)) {
        rfi_set_message(message, message_capacity, "the text is read once, after every row");
        return RFI_STATUS_INVALID_REQUEST;
    }
    if (reader->truncated) {
        rfi_set_message(message, message_capacity, reader->text);
        return RFI_STATUS_TRUNCATED;
    }
    if (setjmp(png_jmpbuf(reader->png))) {
        reader->state = 2;
        rfi_set_message(message, message_capacity, reader->text);
        return rfi_png_failure_status(&reader->context);
    }
    /* The chunks after the image data, up to IEND; png_get_text then holds those before it
     * too, in file order. */
    png_read_end(reader->png, reader->info);
    reader->state = 3;
    if (!rfi_png_copy_text(reader->png, reader->info, text)) {
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    return RFI_STATUS_OK;
}

rfi_warning rfi_png_reader_close(rfi_png_reader *reader, char *message, size_t message_capacity) {
    if (reader == NULL) return RFI_WARNING_NONE;
    rfi_warning warning = reader->truncated ? RFI_WARNING_TRUNCATED : RFI_WARNING_NONE;
    rfi_set_message(message, message_capacity, reader->text);
    png_destroy_read_struct(&reader->png, &reader->info, NULL);
    free(reader->context.buffer);
    free(reader->deep_row);
    free(reader);
    return warning;
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

/* `width` premultiplied BGRA pixels as straight R, G, B, A bytes, or R, G, B for opaque ones
 * (`channels` 3). */
static void rfi_png_straight_row(const uint32_t *source, uint8_t *row, int32_t width,
                                 int channels) {
    for (int32_t x = 0; x < width; x++) {
        uint32_t p = source[x], a = p >> 24;
        uint8_t *out = row + (size_t)channels * (size_t)x;
        if (channels == 3) {
            out[0] = (uint8_t)(p >> 16);
            out[1] = (uint8_t)(p >> 8);
            out[2] = (uint8_t)p;
        } else if (a == 0) {
            out[0] = out[1] = out[2] = out[3] = 0;
        } else {
            out[0] = rfi_unpremultiply((p >> 16) & 0xFF, a);
            out[1] = rfi_unpremultiply((p >> 8) & 0xFF, a);
            out[2] = rfi_unpremultiply(p & 0xFF, a);
            out[3] = (uint8_t)a;
        }
    }
}

/* 1 when every pixel of the `width` × `height` rows has alpha 255. */
static int rfi_png_all_opaque(const uint32_t *pixels, int32_t width, int32_t height,
                              int32_t row_pixels) {
    for (int32_t y = 0; y < height; y++) {
        const uint32_t *row = pixels + (size_t)y * (size_t)row_pixels;
        for (int32_t x = 0; x < width; x++) {
            if (row[x] < 0xFF000000u) return 0;
        }
    }
    return 1;
}

/* The zlib level of a fast encoding: level 1 (deflate's fastest with Huffman coding and
 * matches); with the Sub filter alone instead of libpng's per-row choice of five, a 256x171
 * photo thumbnail encodes several times faster (riffle-bench grid prints both) for a file about
 * a quarter larger. */
#define RFI_PNG_FAST_LEVEL 1

rfi_status rfi_png_encode(const uint32_t *pixels, int32_t width, int32_t height,
                          int32_t row_pixels, int32_t interlaced, int32_t fast, const rfi_png_text *text,
                          int32_t text_count, rfi_bytes *out, char *message,
                          size_t message_capacity) {
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
    if (fast) {
        png_set_compression_level(png, RFI_PNG_FAST_LEVEL);
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
    }
    int channels = rfi_png_all_opaque(pixels, width, height, row_pixels) ? 3 : 4;
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                 interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
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
    /* Interlaced, libpng takes every whole row once per pass and keeps that pass's pixels. */
    int passes = png_set_interlace_handling(png);
    for (int pass = 0; pass < passes; pass++) {
        for (int32_t y = 0; y < height; y++) {
            rfi_png_straight_row(pixels + (size_t)y * (size_t)row_pixels, row, width, channels);
            png_write_row(png, row);
        }
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
