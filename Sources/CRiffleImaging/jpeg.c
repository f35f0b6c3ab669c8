/* JPEG through libjpeg-turbo: header reading, scaled decoding, encoding.
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

rfi_status rfi_jpeg_decode(const uint8_t *data, size_t length, int32_t scale_denominator,
                           int64_t pixel_limit, rfi_pixels *out, char *message,
                           size_t message_capacity) {
    struct jpeg_decompress_struct decompress;
    struct rfi_jpeg_error error;
    uint32_t *volatile pixels = NULL;
    JSAMPLE *volatile cmyk_row = NULL;
    memset(out, 0, sizeof *out);
    if (scale_denominator != 1 && scale_denominator != 2 && scale_denominator != 4 &&
        scale_denominator != 8) {
        rfi_set_message(message, message_capacity, "scale denominator must be 1, 2, 4 or 8");
        return RFI_STATUS_FAILED;
    }
    decompress.err = rfi_jpeg_error_init(&error, message, message_capacity);
    if (setjmp(error.jump)) {
        free(pixels);
        free(cmyk_row);
        jpeg_destroy_decompress(&decompress);
        if (error.exceeded_working_memory) return RFI_STATUS_TOO_LARGE;
        if (error.out_of_memory) return RFI_STATUS_OUT_OF_MEMORY;
        return error.saw_end_of_data ? RFI_STATUS_TRUNCATED : RFI_STATUS_FAILED;
    }
    jpeg_create_decompress(&decompress);
    decompress.mem->max_memory_to_use = (long)(pixel_limit > 0 ? pixel_limit : 0) *
                                            rfi_jpeg_work_bytes_per_limit_pixel +
                                        rfi_jpeg_work_bytes_allowance;
    jpeg_mem_src(&decompress, data, (unsigned long)length);
    jpeg_read_header(&decompress, TRUE);

    boolean is_cmyk = decompress.jpeg_color_space == JCS_CMYK ||
                      decompress.jpeg_color_space == JCS_YCCK;
    decompress.out_color_space = is_cmyk ? JCS_CMYK : JCS_EXT_BGRA;
    decompress.scale_num = 1;
    decompress.scale_denom = (unsigned int)scale_denominator;
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
    if (error.saw_end_of_data) {
        out->warning = RFI_WARNING_TRUNCATED;
    } else if (error.first_warning >= 0) {
        out->warning = RFI_WARNING_CORRUPT_DATA;
    }
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
