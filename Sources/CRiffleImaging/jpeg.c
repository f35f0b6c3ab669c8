/* JPEG through libjpeg-turbo: header reading, scaled and region decoding, encoding.
 *
 * libjpeg reports fatal errors by calling error_exit, which must not return; ours formats the
 * message and longjmps back to the setjmp in the function that started the work. Locals that
 * change after setjmp and are read after the longjmp are volatile.
 */
#include "internal.h"

#include <setjmp.h>
#include <stdio.h> /* before jpeglib.h, which uses FILE */
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

/* libjpeg's working memory (chiefly the whole-image coefficient buffers of progressive files,
 * which are as big as the stored image whatever the output scale) may not exceed this many
 * bytes per pixel of the limit, plus a fixed allowance for tables and row buffers: 4 components
 * (CMYK) × 2 bytes a coefficient = 8 per stored pixel, so any file whose stored size is within
 * the pixel limit fits. Past it libjpeg fails with JERR_NO_BACKING_STORE instead of allocating. */
static const long rfi_jpeg_work_bytes_per_limit_pixel = 8;
static const long rfi_jpeg_work_bytes_allowance = 16L << 20;

/* Columns decoded beyond each side of a region before cropping. libjpeg's fancy h2v1/h2v2
 * upsampling blends every chroma sample with its horizontal neighbours, and at a crop's edge it
 * replicates the last sample instead: measured up to 22 levels off in the edge columns of a 4:2:0
 * region at 1/1. An output pixel's chroma neighbours lie within 2 output pixels, so 2 more columns
 * on each side (where the image has them) keep every requested pixel exact. */
static const JDIMENSION rfi_jpeg_crop_context_columns = 2;

struct rfi_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char *message;
    size_t message_capacity;
    /* JWRN_JPEG_EOF was emitted: the source ran dry and libjpeg inserted a fake EOI. */
    int saw_end_of_data;
    /* Code of the first warning, or -1. */
    int first_warning;
    /* libjpeg stopped because its working memory would pass max_memory_to_use. */
    int exceeded_working_memory;
    /* libjpeg stopped because malloc failed. */
    int out_of_memory;
};

static void rfi_jpeg_error_exit(j_common_ptr common) {
    struct rfi_jpeg_error *error = (struct rfi_jpeg_error *)common->err;
    char text[JMSG_LENGTH_MAX];
    (*common->err->format_message)(common, text);
    int code = common->err->msg_code;
    error->exceeded_working_memory = code == JERR_NO_BACKING_STORE;
    error->out_of_memory = code == JERR_OUT_OF_MEMORY;
    rfi_set_message(error->message, error->message_capacity, text);
    longjmp(error->jump, 1);
}

static void rfi_jpeg_emit_message(j_common_ptr common, int level) {
    struct rfi_jpeg_error *error = (struct rfi_jpeg_error *)common->err;
    if (level >= 0) return; /* trace output */
    common->err->num_warnings++;
    if (common->err->msg_code == JWRN_JPEG_EOF) error->saw_end_of_data = 1;
    if (error->first_warning < 0) {
        error->first_warning = common->err->msg_code;
        char text[JMSG_LENGTH_MAX];
        (*common->err->format_message)(common, text);
        rfi_set_message(error->message, error->message_capacity, text);
    }
}

static struct jpeg_error_mgr *rfi_jpeg_error_init(struct rfi_jpeg_error *error, char *message,
                                                  size_t message_capacity) {
    jpeg_std_error(&error->manager);
    error->manager.error_exit = rfi_jpeg_error_exit;
    error->manager.emit_message = rfi_jpeg_emit_message;
    error->message = message;
    error->message_capacity = message_capacity;
    error->saw_end_of_data = 0;
    error->first_warning = -1;
    error->exceeded_working_memory = 0;
    error->out_of_memory = 0;
    rfi_set_message(message, message_capacity, "");
    return &error->manager;
}

static int32_t rfi_jpeg_orientation(j_decompress_ptr decompress) {
    for (jpeg_saved_marker_ptr marker = decompress->marker_list; marker; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1 && marker->data_length >= 6 &&
            memcmp(marker->data, "Exif\0\0", 6) == 0) {
            return rfi_exif_orientation(marker->data, marker->data_length);
        }
    }
    return 1;
}

rfi_status rfi_jpeg_read_header(const uint8_t *data, size_t length, rfi_image_header *header,
                                char *message, size_t message_capacity) {
    struct jpeg_decompress_struct decompress;
    struct rfi_jpeg_error error;
    memset(header, 0, sizeof *header);
    decompress.err = rfi_jpeg_error_init(&error, message, message_capacity);
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&decompress);
        return error.saw_end_of_data ? RFI_STATUS_TRUNCATED : RFI_STATUS_FAILED;
    }
    jpeg_create_decompress(&decompress);
    jpeg_mem_src(&decompress, data, (unsigned long)length);
    jpeg_save_markers(&decompress, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&decompress, TRUE);
    header->width = (int32_t)decompress.image_width;
    header->height = (int32_t)decompress.image_height;
    header->orientation = rfi_jpeg_orientation(&decompress);
    header->multiple_scans = jpeg_has_multiple_scans(&decompress) ? 1 : 0;
    jpeg_destroy_decompress(&decompress);
    return RFI_STATUS_OK;
}

static inline uint32_t rfi_scale_255(uint32_t a, uint32_t b) { return (a * b + 127) / 255; }

/* One CMYK scanline to opaque BGRA. Adobe (APP14) files store inverted ink, so the stored
 * values already are 255 − ink and R = C'·K'/255; files without the marker store plain ink. */
static void rfi_cmyk_row_to_bgra(const JSAMPLE *cmyk, uint32_t *bgra, JDIMENSION width,
                                 boolean inverted) {
    for (JDIMENSION x = 0; x < width; x++) {
        uint32_t c = cmyk[4 * x], m = cmyk[4 * x + 1], y = cmyk[4 * x + 2], k = cmyk[4 * x + 3];
        if (!inverted) {
            c = 255 - c;
            m = 255 - m;
            y = 255 - y;
            k = 255 - k;
        }
        uint32_t r = rfi_scale_255(c, k), g = rfi_scale_255(m, k), b = rfi_scale_255(y, k);
        bgra[x] = 0xFF000000u | (r << 16) | (g << 8) | b;
    }
}

/* The status for a decode that libjpeg abandoned through error_exit. */
static rfi_status rfi_jpeg_failure_status(const struct rfi_jpeg_error *error) {
    if (error->exceeded_working_memory) return RFI_STATUS_TOO_LARGE;
    if (error->out_of_memory) return RFI_STATUS_OUT_OF_MEMORY;
    return error->saw_end_of_data ? RFI_STATUS_TRUNCATED : RFI_STATUS_FAILED;
}

static rfi_warning rfi_jpeg_warning(const struct rfi_jpeg_error *error) {
    if (error->saw_end_of_data) return RFI_WARNING_TRUNCATED;
    return error->first_warning >= 0 ? RFI_WARNING_CORRUPT_DATA : RFI_WARNING_NONE;
}

/* libjpeg's DCT scaling offers 1/1, 1/2, 1/4 and 1/8. */
static int rfi_jpeg_valid_scale(int32_t scale_denominator) {
    return scale_denominator == 1 || scale_denominator == 2 || scale_denominator == 4 ||
           scale_denominator == 8;
}

/* Creates the decompressor over `data` with its working memory capped for `pixel_limit`, and
 * reads the header. Called after the caller's setjmp: a failure longjmps there. */
static void rfi_jpeg_begin(j_decompress_ptr decompress, const uint8_t *data, size_t length,
                           int64_t pixel_limit) {
    jpeg_create_decompress(decompress);
    decompress->mem->max_memory_to_use = (long)(pixel_limit > 0 ? pixel_limit : 0) *
                                             rfi_jpeg_work_bytes_per_limit_pixel +
                                         rfi_jpeg_work_bytes_allowance;
    jpeg_mem_src(decompress, data, (unsigned long)length);
    jpeg_read_header(decompress, TRUE);
}

rfi_status rfi_jpeg_decode(const uint8_t *data, size_t length, int32_t scale_eighths,
                           int64_t pixel_limit, rfi_pixels *out, char *message,
                           size_t message_capacity) {
    struct jpeg_decompress_struct decompress;
    struct rfi_jpeg_error error;
    uint32_t *volatile pixels = NULL;
    JSAMPLE *volatile cmyk_row = NULL;
    memset(out, 0, sizeof *out);
    if (scale_eighths < 1 || scale_eighths > 8) {
        rfi_set_message(message, message_capacity, "scale must be 1/8 to 8/8");
        return RFI_STATUS_FAILED;
    }
    decompress.err = rfi_jpeg_error_init(&error, message, message_capacity);
    if (setjmp(error.jump)) {
        free(pixels);
        free(cmyk_row);
        jpeg_destroy_decompress(&decompress);
        return rfi_jpeg_failure_status(&error);
    }
    rfi_jpeg_begin(&decompress, data, length, pixel_limit);

    boolean is_cmyk = decompress.jpeg_color_space == JCS_CMYK ||
                      decompress.jpeg_color_space == JCS_YCCK;
    decompress.out_color_space = is_cmyk ? JCS_CMYK : JCS_EXT_BGRA;
    decompress.scale_num = (unsigned int)scale_eighths;
    decompress.scale_denom = 8;
    jpeg_calc_output_dimensions(&decompress);
    JDIMENSION width = decompress.output_width, height = decompress.output_height;
    if ((int64_t)width * (int64_t)height > pixel_limit) {
        char text[RFI_MESSAGE_CAPACITY];
        snprintf(text, sizeof text, "output of %ux%u pixels exceeds the limit of %lld", width,
                 height, (long long)pixel_limit);
        rfi_set_message(message, message_capacity, text);
        jpeg_destroy_decompress(&decompress);
        return RFI_STATUS_TOO_LARGE;
    }
    pixels = malloc((size_t)width * height * 4);
    if (is_cmyk) cmyk_row = malloc((size_t)width * 4);
    if (pixels == NULL || (is_cmyk && cmyk_row == NULL)) {
        free(pixels);
        free(cmyk_row);
        rfi_set_message(message, message_capacity, "out of memory");
        jpeg_destroy_decompress(&decompress);
        return RFI_STATUS_OUT_OF_MEMORY;
    }

    jpeg_start_decompress(&decompress);
    while (decompress.output_scanline < height) {
        uint32_t *row = pixels + (size_t)decompress.output_scanline * width;
        JSAMPROW target = is_cmyk ? cmyk_row : (JSAMPROW)row;
        if (jpeg_read_scanlines(&decompress, &target, 1) != 1) break;
        if (is_cmyk) rfi_cmyk_row_to_bgra(cmyk_row, row, width, decompress.saw_Adobe_marker);
    }
    jpeg_finish_decompress(&decompress);
    jpeg_destroy_decompress(&decompress);
    free(cmyk_row);

    out->pixels = pixels;
    out->width = (int32_t)width;
    out->height = (int32_t)height;
    out->warning = rfi_jpeg_warning(&error);
    return RFI_STATUS_OK;
}

rfi_status rfi_jpeg_decode_region(const uint8_t *data, size_t length, int32_t scale_denominator,
                                  int32_t x, int32_t y, int32_t width, int32_t height,
                                  int64_t pixel_limit, rfi_pixels *out, char *message,
                                  size_t message_capacity) {
    struct jpeg_decompress_struct decompress;
    struct rfi_jpeg_error error;
    uint32_t *volatile pixels = NULL;
    JSAMPLE *volatile row = NULL;
    char text[RFI_MESSAGE_CAPACITY];
    memset(out, 0, sizeof *out);
    if (!rfi_jpeg_valid_scale(scale_denominator)) {
        rfi_set_message(message, message_capacity, "scale denominator must be 1, 2, 4 or 8");
        return RFI_STATUS_INVALID_REQUEST;
    }
    decompress.err = rfi_jpeg_error_init(&error, message, message_capacity);
    if (setjmp(error.jump)) {
        free(pixels);
        free(row);
        jpeg_destroy_decompress(&decompress);
        return rfi_jpeg_failure_status(&error);
    }
    rfi_jpeg_begin(&decompress, data, length, pixel_limit);

    int64_t stored_pixels = (int64_t)decompress.image_width * decompress.image_height;
    if (jpeg_has_multiple_scans(&decompress) && stored_pixels > pixel_limit) {
        snprintf(text, sizeof text,
                 "a progressive JPEG of %ux%u pixels cannot be decoded a region at a time within "
                 "the limit of %lld pixels (libjpeg must hold all its coefficients); decode it "
                 "whole at a reduced scale",
                 decompress.image_width, decompress.image_height, (long long)pixel_limit);
        rfi_set_message(message, message_capacity, text);
        jpeg_destroy_decompress(&decompress);
        return RFI_STATUS_UNSUPPORTED;
    }
    boolean is_cmyk = decompress.jpeg_color_space == JCS_CMYK ||
                      decompress.jpeg_color_space == JCS_YCCK;
    decompress.out_color_space = is_cmyk ? JCS_CMYK : JCS_EXT_BGRA;
    decompress.scale_num = 1;
    decompress.scale_denom = (unsigned int)scale_denominator;
    jpeg_calc_output_dimensions(&decompress);
    JDIMENSION scaled_width = decompress.output_width, scaled_height = decompress.output_height;
    if (x < 0 || y < 0 || width <= 0 || height <= 0 || (int64_t)x + width > scaled_width ||
        (int64_t)y + height > scaled_height) {
        snprintf(text, sizeof text,
                 "the region at (%d, %d) of %dx%d pixels is not inside the %ux%u image at 1/%d "
                 "scale",
                 x, y, width, height, scaled_width, scaled_height, scale_denominator);
        rfi_set_message(message, message_capacity, text);
        jpeg_destroy_decompress(&decompress);
        return RFI_STATUS_INVALID_REQUEST;
    }
    if ((int64_t)width * height > pixel_limit) {
        snprintf(text, sizeof text, "region of %dx%d pixels exceeds the limit of %lld", width,
                 height, (long long)pixel_limit);
        rfi_set_message(message, message_capacity, text);
        jpeg_destroy_decompress(&decompress);
        return RFI_STATUS_TOO_LARGE;
    }

    jpeg_start_decompress(&decompress);
    /* jpeg_crop_scanline moves crop_x left and widens crop_width to whole iMCU columns; the
     * requested columns start (x − crop_x) pixels into each decoded row. */
    JDIMENSION context_left = (JDIMENSION)x < rfi_jpeg_crop_context_columns
                                  ? (JDIMENSION)x
                                  : rfi_jpeg_crop_context_columns;
    JDIMENSION right = (JDIMENSION)x + (JDIMENSION)width + rfi_jpeg_crop_context_columns;
    if (right > scaled_width) right = scaled_width;
    JDIMENSION crop_x = (JDIMENSION)x - context_left, crop_width = right - crop_x;
    jpeg_crop_scanline(&decompress, &crop_x, &crop_width);
    size_t first_column = (size_t)x - crop_x;
    pixels = malloc((size_t)width * (size_t)height * 4);
    row = malloc((size_t)crop_width * 4);
    if (pixels == NULL || row == NULL) {
        free(pixels);
        free(row);
        rfi_set_message(message, message_capacity, "out of memory");
        jpeg_destroy_decompress(&decompress);
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    if (y > 0) jpeg_skip_scanlines(&decompress, (JDIMENSION)y);
    for (int32_t line = 0; line < height; line++) {
        JSAMPROW target = row;
        if (jpeg_read_scanlines(&decompress, &target, 1) != 1) break;
        uint32_t *destination = pixels + (size_t)line * (size_t)width;
        if (is_cmyk) {
            rfi_cmyk_row_to_bgra(row + 4 * first_column, destination, (JDIMENSION)width,
                                 decompress.saw_Adobe_marker);
        } else {
            memcpy(destination, (uint32_t *)row + first_column, (size_t)width * 4);
        }
    }
    /* Rows below the region are never needed: finishing would entropy-decode them for nothing. */
    if (decompress.output_scanline < decompress.output_height) {
        jpeg_abort_decompress(&decompress);
    } else {
        jpeg_finish_decompress(&decompress);
    }
    jpeg_destroy_decompress(&decompress);
    free(row);

    out->pixels = pixels;
    out->width = width;
    out->height = height;
    out->warning = rfi_jpeg_warning(&error);
    return RFI_STATUS_OK;
}

rfi_status rfi_jpeg_encode(const uint32_t *pixels, int32_t width, int32_t height,
                           int32_t row_pixels, int32_t quality, rfi_bytes *out, char *message,
                           size_t message_capacity) {
    struct jpeg_compress_struct compress;
    struct rfi_jpeg_error error;
    memset(out, 0, sizeof *out);
    if (width <= 0 || height <= 0 || row_pixels < width) {
        rfi_set_message(message, message_capacity, "a JPEG needs a width and height of at least 1");
        return RFI_STATUS_FAILED;
    }
    /* jpeg_mem_dest stores its malloc'ed buffer through these pointers; they live in the
     * caller's struct, not in this frame, so they stay valid across the longjmp. */
    unsigned long *length = (unsigned long *)&out->length;
    compress.err = rfi_jpeg_error_init(&error, message, message_capacity);
    if (setjmp(error.jump)) {
        jpeg_destroy_compress(&compress);
        free(out->data);
        out->data = NULL;
        out->length = 0;
        return RFI_STATUS_FAILED;
    }
    jpeg_create_compress(&compress);
    jpeg_mem_dest(&compress, &out->data, length);
    compress.image_width = (JDIMENSION)width;
    compress.image_height = (JDIMENSION)height;
    compress.input_components = 4;
    compress.in_color_space = JCS_EXT_BGRX;
    jpeg_set_defaults(&compress);
    jpeg_set_quality(&compress, quality < 1 ? 1 : quality > 100 ? 100 : quality, TRUE);
    jpeg_start_compress(&compress, TRUE);
    while (compress.next_scanline < compress.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)compress.next_scanline * (size_t)row_pixels);
        jpeg_write_scanlines(&compress, &row, 1);
    }
    jpeg_finish_compress(&compress);
    jpeg_destroy_compress(&compress);
    return RFI_STATUS_OK;
}
