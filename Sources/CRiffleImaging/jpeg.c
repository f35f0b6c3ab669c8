/* JPEG through libjpeg-turbo: header reading, scaled and region decoding, encoding.
 *
 * libjpeg reports fatal errors by calling error_exit, which must not return; ours formats the
 * message and longjmps back to the setjmp in the function that started the work. Locals that
 * change after setjmp and are read after the longjmp are volatile.
 */
#define JPEG_INTERNALS
#include "internal.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdio.h> /* before jpeglib.h, which uses FILE */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <limits.h>
#include <unistd.h>

#include <jerror.h>
#include <jpeglib.h>

/* libjpeg's working memory (chiefly the whole-image coefficient buffers of progressive files,
 * which are as big as the stored image whatever the output scale) may not exceed this many
 * bytes per pixel of the limit, plus a fixed allowance for tables and row buffers: 4 components
 * (CMYK) × 2 bytes a coefficient = 8 per stored pixel, so any file whose stored size is within
 * the pixel limit fits. Past it libjpeg fails with JERR_NO_BACKING_STORE instead of allocating. */
static const long rfi_jpeg_work_bytes_per_limit_pixel = 8;
static const long rfi_jpeg_work_bytes_allowance = 16L << 20;

/* libjpeg's max_memory_to_use for `pixel_limit`: 8 bytes a limit pixel + the allowance, saturated
 * at LONG_MAX, so that a limit meaning "no limit" (INT64_MAX) does not wrap to a small cap. */
static long rfi_jpeg_working_memory_limit(int64_t pixel_limit) {
    if (pixel_limit <= 0) return rfi_jpeg_work_bytes_allowance;
    if (pixel_limit > (LONG_MAX - rfi_jpeg_work_bytes_allowance) / rfi_jpeg_work_bytes_per_limit_pixel) {
        return LONG_MAX;
    }
    return (long)pixel_limit * rfi_jpeg_work_bytes_per_limit_pixel + rfi_jpeg_work_bytes_allowance;
}

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
    /* Output rows already read when the source ran dry (-1: it never did); the rows from there
     * on hold no data of the file. */
    int64_t rows_before_end_of_data;
    /* Output rows already read when the entropy-coded data stopped, at the end of the data or
     * at a marker (-1: it never did). */
    int64_t rows_before_end_of_scan_data;
    /* Code of the first warning, or -1. */
    int first_warning;
    /* libjpeg stopped because its working memory would pass max_memory_to_use. */
    int exceeded_working_memory;
    /* libjpeg stopped because malloc failed. */
    int out_of_memory;
    /* While a reader feeds a coefficient feed (rfi_jpeg_reader_feed): the feed, told of each
     * warning at the MCU being decoded, `feeding_mcu`. */
    struct rfi_jpeg_coefficient_feed *feeding;
    long feeding_mcu;
};

static void rfi_jpeg_feed_note_warning(struct rfi_jpeg_coefficient_feed *feed, long mcu, int code, const char *text);

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
    int code = common->err->msg_code;
    if (error->feeding != NULL) {
        char text[JMSG_LENGTH_MAX];
        (*common->err->format_message)(common, text);
        rfi_jpeg_feed_note_warning(error->feeding, error->feeding_mcu, code, text);
    }
    if ((code == JWRN_JPEG_EOF || code == JWRN_HIT_MARKER) && error->rows_before_end_of_scan_data < 0 &&
        common->is_decompressor)
        error->rows_before_end_of_scan_data = ((j_decompress_ptr)common)->output_scanline;
    if (common->err->msg_code == JWRN_JPEG_EOF && !error->saw_end_of_data) {
        error->saw_end_of_data = 1;
        if (common->is_decompressor)
            error->rows_before_end_of_data = ((j_decompress_ptr)common)->output_scanline;
    }
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
    error->rows_before_end_of_data = -1;
    error->rows_before_end_of_scan_data = -1;
    error->first_warning = -1;
    error->exceeded_working_memory = 0;
    error->out_of_memory = 0;
    error->feeding = NULL;
    error->feeding_mcu = 0;
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

rfi_status rfi_jpeg_read_icc_profile(const uint8_t *data, size_t length, rfi_bytes *out, char *message,
                                     size_t message_capacity) {
    struct jpeg_decompress_struct decompress;
    struct rfi_jpeg_error error;
    out->data = NULL;
    out->length = 0;
    decompress.err = rfi_jpeg_error_init(&error, message, message_capacity);
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&decompress);
        return error.saw_end_of_data ? RFI_STATUS_TRUNCATED : RFI_STATUS_FAILED;
    }
    jpeg_create_decompress(&decompress);
    jpeg_mem_src(&decompress, data, (unsigned long)length);
    jpeg_save_markers(&decompress, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&decompress, TRUE);
    JOCTET *profile = NULL;
    unsigned int profile_length = 0;
    /* Allocated with malloc by libjpeg-turbo (jdicc.c), so rfi_bytes_free releases it. */
    if (jpeg_read_icc_profile(&decompress, &profile, &profile_length) && profile != NULL) {
        out->data = profile;
        out->length = profile_length;
    }
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
/* The lcms2 transform of a CMYK or YCCK file's embedded CMYK profile (its APP2 markers must have
 * been saved), or NULL for a file without one: its rows are then converted by the naive formula
 * of rfi_cmyk_row_to_bgra. */
static void *rfi_jpeg_cmyk_transform(j_decompress_ptr decompress) {
    JOCTET *profile = NULL;
    unsigned int length = 0;
    if (!jpeg_read_icc_profile(decompress, &profile, &length) || profile == NULL) return NULL;
    void *transform = rfi_colour_cmyk_transform_create(profile, length, decompress->saw_Adobe_marker);
    free(profile);
    return transform;
}

/* One CMYK row to opaque BGRA: through the file's profile when it has one, else the formula. */
static void rfi_jpeg_cmyk_row(void *transform, const JSAMPLE *cmyk, uint32_t *bgra, JDIMENSION width,
                              boolean inverted) {
    if (transform != NULL)
        rfi_colour_cmyk_row(transform, cmyk, bgra, width);
    else
        rfi_cmyk_row_to_bgra(cmyk, bgra, width, inverted);
}

static void rfi_jpeg_begin(j_decompress_ptr decompress, const uint8_t *data, size_t length,
                           int64_t pixel_limit) {
    jpeg_create_decompress(decompress);
    decompress->mem->max_memory_to_use = rfi_jpeg_working_memory_limit(pixel_limit);
    jpeg_mem_src(decompress, data, (unsigned long)length);
    jpeg_save_markers(decompress, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(decompress, TRUE);
}

/* MARK: row reader */

/* Bytes read from a file descriptor at a time: a few dozen reads for a camera JPEG, and all the
 * file memory a decode holds (libjpeg's own stdio source uses 4 KiB). */
#define RFI_JPEG_FILE_BUFFER_BYTES (64 * 1024)

/* A libjpeg source manager reading a file descriptor it does not own, modelled on jdatasrc.c's
 * stdio source: at the end of the file it warns (JWRN_JPEG_EOF) and supplies a fake EOI, so a
 * truncated file decodes with grey where the data is missing instead of failing. */
struct rfi_jpeg_file_source {
    struct jpeg_source_mgr manager;
    int descriptor;
    int at_start;
    JOCTET buffer[RFI_JPEG_FILE_BUFFER_BYTES];
};

static void rfi_jpeg_file_init(j_decompress_ptr decompress) {
    ((struct rfi_jpeg_file_source *)decompress->src)->at_start = 1;
}

static boolean rfi_jpeg_file_fill(j_decompress_ptr decompress) {
    struct rfi_jpeg_file_source *source = (struct rfi_jpeg_file_source *)decompress->src;
    ssize_t count;
    do {
        count = read(source->descriptor, source->buffer, sizeof source->buffer);
    } while (count < 0 && errno == EINTR);
    if (count < 0) ERREXIT(decompress, JERR_FILE_READ);
    if (count == 0) {
        if (source->at_start) ERREXIT(decompress, JERR_INPUT_EMPTY);
        WARNMS(decompress, JWRN_JPEG_EOF);
        source->buffer[0] = (JOCTET)0xFF;
        source->buffer[1] = (JOCTET)JPEG_EOI;
        count = 2;
    }
    source->manager.next_input_byte = source->buffer;
    source->manager.bytes_in_buffer = (size_t)count;
    source->at_start = 0;
    return TRUE;
}

static void rfi_jpeg_file_skip(j_decompress_ptr decompress, long count) {
    struct jpeg_source_mgr *manager = decompress->src;
    if (count <= 0) return;
    while (count > (long)manager->bytes_in_buffer) {
        count -= (long)manager->bytes_in_buffer;
        (void)(*manager->fill_input_buffer)(decompress);
    }
    manager->next_input_byte += (size_t)count;
    manager->bytes_in_buffer -= (size_t)count;
}

static void rfi_jpeg_file_term(j_decompress_ptr decompress) { (void)decompress; }

struct rfi_jpeg_reader {
    struct jpeg_decompress_struct decompress;
    struct rfi_jpeg_error error;
    /* Set when reading from a file descriptor; NULL for memory. */
    struct rfi_jpeg_file_source *file;
    /* One CMYK scanline, for CMYK/YCCK files; NULL otherwise. */
    JSAMPLE *cmyk_row;
    boolean is_cmyk;
    /* The embedded CMYK profile's transform (rfi_jpeg_cmyk_transform); NULL without one. */
    void *cmyk_transform;
    /* 1 once jpeg_start_decompress has run; 2 after a failure (only close is allowed). */
    int state;
    /* 1 (the default) to decode through Riffle's vector IDCTs where they apply; how many
     * components do once started (rfi_jpeg_use_vector_idct). */
    int vector_idct_wanted;
    int32_t vector_idct_components;
    /* Set before start: the coefficient blocks come from this feed, not the reader's own
     * entropy decoding (rfi_jpeg_reader_consume_feed); the next MCU to take from it. */
    struct rfi_jpeg_coefficient_feed *feed;
    long feed_mcu;
    /* libjpeg's text for the failure or the first warning; copied out by every call. */
    char text[RFI_MESSAGE_CAPACITY];
};

static boolean rfi_jpeg_decode_mcu_from_feed(j_decompress_ptr decompress, JBLOCKROW *blocks);
static void rfi_jpeg_feed_adopt_later_warnings(struct rfi_jpeg_reader *reader);

/* Creates the reader's decompressor over its file source (or over `data` when it has none) and
 * reads the header; `reader->error` must be set up by the caller. */
static rfi_status rfi_jpeg_reader_begin(struct rfi_jpeg_reader *reader, const uint8_t *data,
                                        size_t length, rfi_image_header *header) {
    j_decompress_ptr decompress = &reader->decompress;
    if (setjmp(reader->error.jump)) {
        reader->state = 2;
        return rfi_jpeg_failure_status(&reader->error);
    }
    jpeg_create_decompress(decompress);
    if (reader->file != NULL) {
        decompress->src = &reader->file->manager;
    } else {
        jpeg_mem_src(decompress, data, (unsigned long)length);
    }
    jpeg_save_markers(decompress, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(decompress, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(decompress, TRUE);
    header->width = (int32_t)decompress->image_width;
    header->height = (int32_t)decompress->image_height;
    header->orientation = rfi_jpeg_orientation(decompress);
    header->multiple_scans = jpeg_has_multiple_scans(decompress) ? 1 : 0;
    return RFI_STATUS_OK;
}

static rfi_status rfi_jpeg_reader_open(int descriptor, const uint8_t *data, size_t length,
                                       rfi_jpeg_reader **out, rfi_image_header *header,
                                       char *message, size_t message_capacity) {
    *out = NULL;
    memset(header, 0, sizeof *header);
    struct rfi_jpeg_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) {
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    reader->vector_idct_wanted = 1;
    if (descriptor >= 0) {
        reader->file = calloc(1, sizeof *reader->file);
        if (reader->file == NULL) {
            free(reader);
            rfi_set_message(message, message_capacity, "out of memory");
            return RFI_STATUS_OUT_OF_MEMORY;
        }
        reader->file->descriptor = descriptor;
        reader->file->manager.init_source = rfi_jpeg_file_init;
        reader->file->manager.fill_input_buffer = rfi_jpeg_file_fill;
        reader->file->manager.skip_input_data = rfi_jpeg_file_skip;
        reader->file->manager.resync_to_restart = jpeg_resync_to_restart;
        reader->file->manager.term_source = rfi_jpeg_file_term;
    }
    reader->decompress.err = rfi_jpeg_error_init(&reader->error, reader->text, sizeof reader->text);
    rfi_status status = rfi_jpeg_reader_begin(reader, data, length, header);
    if (status != RFI_STATUS_OK) {
        rfi_set_message(message, message_capacity, reader->text);
        rfi_jpeg_reader_close(reader, NULL, 0);
        return status;
    }
    *out = reader;
    return RFI_STATUS_OK;
}

rfi_status rfi_jpeg_reader_open_file(int32_t descriptor, rfi_jpeg_reader **reader,
                                     rfi_image_header *header, char *message,
                                     size_t message_capacity) {
    if (descriptor < 0) {
        rfi_set_message(message, message_capacity, "no file descriptor");
        return RFI_STATUS_INVALID_REQUEST;
    }
    return rfi_jpeg_reader_open(descriptor, NULL, 0, reader, header, message, message_capacity);
}

rfi_status rfi_jpeg_reader_open_memory(const uint8_t *data, size_t length,
                                       rfi_jpeg_reader **reader, rfi_image_header *header,
                                       char *message, size_t message_capacity) {
    return rfi_jpeg_reader_open(-1, data, length, reader, header, message, message_capacity);
}

rfi_status rfi_jpeg_reader_start(rfi_jpeg_reader *reader, int32_t scale_eighths,
                                 int64_t pixel_limit, int32_t *width, int32_t *height,
                                 char *message, size_t message_capacity) {
    j_decompress_ptr decompress = &reader->decompress;
    *width = 0;
    *height = 0;
    if (reader->state != 0) {
        rfi_set_message(message, message_capacity, "the reader has already started or failed");
        return RFI_STATUS_INVALID_REQUEST;
    }
    if (scale_eighths < 1 || scale_eighths > 8) {
        rfi_set_message(message, message_capacity, "scale must be 1/8 to 8/8");
        return RFI_STATUS_INVALID_REQUEST;
    }
    if (setjmp(reader->error.jump)) {
        reader->state = 2;
        rfi_set_message(message, message_capacity, reader->text);
        return rfi_jpeg_failure_status(&reader->error);
    }
    decompress->mem->max_memory_to_use = rfi_jpeg_working_memory_limit(pixel_limit);
    reader->is_cmyk = decompress->jpeg_color_space == JCS_CMYK ||
                      decompress->jpeg_color_space == JCS_YCCK;
    decompress->out_color_space = reader->is_cmyk ? JCS_CMYK : JCS_EXT_BGRA;
    decompress->scale_num = (unsigned int)scale_eighths;
    decompress->scale_denom = 8;
    jpeg_calc_output_dimensions(decompress);
    JDIMENSION w = decompress->output_width, h = decompress->output_height;
    if ((int64_t)w * (int64_t)h > pixel_limit) {
        char text[RFI_MESSAGE_CAPACITY];
        snprintf(text, sizeof text, "output of %ux%u pixels exceeds the limit of %lld", w, h,
                 (long long)pixel_limit);
        rfi_set_message(message, message_capacity, text);
        reader->state = 2;
        return RFI_STATUS_TOO_LARGE;
    }
    if (reader->is_cmyk) {
        reader->cmyk_transform = rfi_jpeg_cmyk_transform(decompress);
        reader->cmyk_row = malloc((size_t)w * 4);
        if (reader->cmyk_row == NULL) {
            rfi_set_message(message, message_capacity, "out of memory");
            reader->state = 2;
            return RFI_STATUS_OUT_OF_MEMORY;
        }
    }
    jpeg_start_decompress(decompress);
    reader->vector_idct_components = reader->vector_idct_wanted ? rfi_jpeg_use_vector_idct(decompress) : 0;
    if (reader->feed != NULL) decompress->entropy->decode_mcu = rfi_jpeg_decode_mcu_from_feed;
    reader->state = 1;
    *width = (int32_t)w;
    *height = (int32_t)h;
    rfi_set_message(message, message_capacity, reader->text);
    return RFI_STATUS_OK;
}

rfi_status rfi_jpeg_reader_read(rfi_jpeg_reader *reader, uint32_t *rows, int32_t row_pixels,
                                int32_t max_rows, int32_t *rows_read, char *message,
                                size_t message_capacity) {
    j_decompress_ptr decompress = &reader->decompress;
    /* Written after setjmp and read after the longjmp. */
    volatile int32_t count = 0;
    *rows_read = 0;
    if (reader->state != 1 || row_pixels < (int32_t)decompress->output_width || max_rows < 0) {
        rfi_set_message(message, message_capacity, "the reader is not started, or the rows are too short");
        return RFI_STATUS_INVALID_REQUEST;
    }
    if (setjmp(reader->error.jump)) {
        reader->state = 2;
        *rows_read = count;
        rfi_set_message(message, message_capacity, reader->text);
        return rfi_jpeg_failure_status(&reader->error);
    }
    while (count < max_rows && decompress->output_scanline < decompress->output_height) {
        uint32_t *row = rows + (size_t)count * (size_t)row_pixels;
        JSAMPROW target = reader->is_cmyk ? reader->cmyk_row : (JSAMPROW)row;
        if (jpeg_read_scanlines(decompress, &target, 1) != 1) break;
        if (reader->is_cmyk) {
            rfi_jpeg_cmyk_row(reader->cmyk_transform, reader->cmyk_row, row, decompress->output_width,
                              decompress->saw_Adobe_marker);
        }
        count++;
    }
    *rows_read = count;
    rfi_set_message(message, message_capacity, reader->text);
    return RFI_STATUS_OK;
}

void rfi_jpeg_reader_set_vector_idct(rfi_jpeg_reader *reader, int32_t enabled) {
    reader->vector_idct_wanted = enabled != 0;
}

int32_t rfi_jpeg_reader_vector_idct_components(const rfi_jpeg_reader *reader) {
    return reader->vector_idct_components;
}

int64_t rfi_jpeg_reader_rows_before_end_of_data(const rfi_jpeg_reader *reader) {
    return reader->error.rows_before_end_of_data;
}

rfi_warning rfi_jpeg_reader_close(rfi_jpeg_reader *reader, char *message,
                                  size_t message_capacity) {
    if (reader == NULL) return RFI_WARNING_NONE;
    j_decompress_ptr decompress = &reader->decompress;
    /* After the last row, finishing reads the trailing markers (a missing EOI is a truncation
     * warning, as in a whole decode). Before it, the rows left are never needed: destroying
     * aborts without entropy-decoding them. A failure while finishing only loses the tail. */
    if (reader->state == 1 && decompress->output_scanline >= decompress->output_height) {
        /* A feed's consumer never read the data after its header: the feeding reader read the
         * trailing markers, and what it met there is this decode's too. */
        if (reader->feed != NULL) {
            rfi_jpeg_feed_adopt_later_warnings(reader);
        } else if (setjmp(reader->error.jump) == 0) {
            jpeg_finish_decompress(decompress);
        }
    }
    rfi_warning warning = rfi_jpeg_warning(&reader->error);
    rfi_set_message(message, message_capacity, reader->text);
    jpeg_destroy_decompress(decompress);
    free(reader->cmyk_row);
    rfi_colour_cmyk_transform_free(reader->cmyk_transform);
    free(reader->file);
    free(reader);
    return warning;
}

/* MARK: the coefficient feed */

/* MCU rows a feed holds between its two readers: enough for either side to run ahead of the
 * other for a while (each is an MCU row of the whole width: 288 KiB for a 6000-pixel-wide 4:2:0
 * photo). */
#define RFI_JPEG_FEED_ROWS 8

/* A warning the feeding reader met, and the MCU it was decoding (the MCU count of the scan
 * after it, for one met after the scan). */
struct rfi_jpeg_feed_warning {
    long mcu;
    int code;
    char text[RFI_MESSAGE_CAPACITY];
};

struct rfi_jpeg_coefficient_feed {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    /* The scan's shape, set by the feeding reader before its first row. */
    long mcus_per_row, mcu_rows, blocks_in_mcu;
    /* RFI_JPEG_FEED_ROWS rows of blocks; MCU row r in slot r % RFI_JPEG_FEED_ROWS. */
    JBLOCK *rows;
    /* MCU rows filled and rows taken so far. */
    long rows_fed, rows_taken;
    /* The feeding reader is done: its scan and the markers after it are read. */
    int done;
    /* Either side gave up; the other stops at its next row. */
    int abandoned;
    /* The feeding reader failed while decoding MCU `failed_mcu` (-1: it did not): its status
     * and text, and its error's memory flags. */
    long failed_mcu;
    rfi_status failure;
    int failure_saw_end_of_data, failure_exceeded_memory, failure_out_of_memory;
    char failure_text[RFI_MESSAGE_CAPACITY];
    /* The first warning met, the first end of data (JWRN_JPEG_EOF) and the first end of the
     * scan's data (JWRN_JPEG_EOF or JWRN_HIT_MARKER); mcu -1 while none. */
    struct rfi_jpeg_feed_warning first_warning, end_of_data, end_of_scan_data;
};

rfi_jpeg_coefficient_feed *rfi_jpeg_feed_create(void) {
    struct rfi_jpeg_coefficient_feed *feed = calloc(1, sizeof *feed);
    if (feed == NULL) return NULL;
    pthread_mutex_init(&feed->lock, NULL);
    pthread_cond_init(&feed->changed, NULL);
    feed->failed_mcu = -1;
    feed->first_warning.mcu = feed->end_of_data.mcu = feed->end_of_scan_data.mcu = -1;
    return feed;
}

void rfi_jpeg_feed_free(rfi_jpeg_coefficient_feed *feed) {
    if (feed == NULL) return;
    pthread_mutex_destroy(&feed->lock);
    pthread_cond_destroy(&feed->changed);
    free(feed->rows);
    free(feed);
}

void rfi_jpeg_feed_abandon(rfi_jpeg_coefficient_feed *feed) {
    pthread_mutex_lock(&feed->lock);
    feed->abandoned = 1;
    pthread_cond_broadcast(&feed->changed);
    pthread_mutex_unlock(&feed->lock);
}

/* Called by the feeding reader's emit_message, on its thread, before the row holding `mcu` is
 * handed over (or before `done`), so the taker reads it after the lock that hands it over. */
static void rfi_jpeg_feed_note_warning(struct rfi_jpeg_coefficient_feed *feed, long mcu, int code, const char *text) {
    struct rfi_jpeg_feed_warning *notes[3] = {
        feed->first_warning.mcu < 0 ? &feed->first_warning : NULL,
        code == JWRN_JPEG_EOF && feed->end_of_data.mcu < 0 ? &feed->end_of_data : NULL,
        (code == JWRN_JPEG_EOF || code == JWRN_HIT_MARKER) && feed->end_of_scan_data.mcu < 0 ? &feed->end_of_scan_data : NULL,
    };
    for (int i = 0; i < 3; i++) {
        if (notes[i] == NULL) continue;
        notes[i]->code = code;
        rfi_set_message(notes[i]->text, sizeof notes[i]->text, text);
        /* Last, for a taker comparing it with an MCU of its own (which is before it: the
         * handing over of that MCU's row orders the rest). */
        __atomic_store_n(&notes[i]->mcu, mcu, __ATOMIC_RELEASE);
    }
}

/* The taking reader meets the feeding reader's warnings where its own decoding would have: a
 * warning at MCU `mcu` as it takes that MCU, with the rows it has output by then. */
static void rfi_jpeg_feed_take_warnings(struct rfi_jpeg_reader *reader, long mcu) {
    struct rfi_jpeg_coefficient_feed *feed = reader->feed;
    struct rfi_jpeg_error *error = &reader->error;
    int64_t rows = reader->decompress.output_scanline;
    if (__atomic_load_n(&feed->end_of_scan_data.mcu, __ATOMIC_ACQUIRE) == mcu && error->rows_before_end_of_scan_data < 0)
        error->rows_before_end_of_scan_data = rows;
    if (__atomic_load_n(&feed->end_of_data.mcu, __ATOMIC_ACQUIRE) == mcu && !error->saw_end_of_data) {
        error->saw_end_of_data = 1;
        error->rows_before_end_of_data = rows;
    }
    if (__atomic_load_n(&feed->first_warning.mcu, __ATOMIC_ACQUIRE) == mcu && error->first_warning < 0) {
        error->first_warning = feed->first_warning.code;
        rfi_set_message(error->message, error->message_capacity, feed->first_warning.text);
    }
}

static void rfi_jpeg_feed_adopt_later_warnings(struct rfi_jpeg_reader *reader) {
    struct rfi_jpeg_coefficient_feed *feed = reader->feed;
    pthread_mutex_lock(&feed->lock);
    while (!feed->done && !feed->abandoned) pthread_cond_wait(&feed->changed, &feed->lock);
    int done = feed->done;
    pthread_mutex_unlock(&feed->lock);
    if (done) rfi_jpeg_feed_take_warnings(reader, feed->mcus_per_row * feed->mcu_rows);
}

/* The taking reader's entropy decoder: MCU after MCU from the feed, waiting for each row. A
 * failure of the feeding reader at this MCU, or a feed given up, fails this reader here. */
static boolean rfi_jpeg_decode_mcu_from_feed(j_decompress_ptr decompress, JBLOCKROW *blocks) {
    struct rfi_jpeg_reader *reader = (struct rfi_jpeg_reader *)decompress;
    struct rfi_jpeg_coefficient_feed *feed = reader->feed;
    /* The same file's scan: the feeding reader's shape too. */
    long mcus_per_row = (long)decompress->MCUs_per_row, blocks_in_mcu = decompress->blocks_in_MCU;
    long mcu = reader->feed_mcu;
    long row = mcu / mcus_per_row, column = mcu % mcus_per_row;
    if (column == 0) {
        pthread_mutex_lock(&feed->lock);
        feed->rows_taken = row;
        pthread_cond_broadcast(&feed->changed);
        while (feed->rows_fed <= row && !feed->abandoned && feed->failed_mcu < 0) pthread_cond_wait(&feed->changed, &feed->lock);
        int available = feed->rows_fed > row, failed = feed->failed_mcu >= 0;
        pthread_mutex_unlock(&feed->lock);
        if (!available && !failed) {
            rfi_set_message(reader->text, sizeof reader->text, "the coefficient feed stopped");
            longjmp(reader->error.jump, 1);
        }
    }
    rfi_jpeg_feed_take_warnings(reader, mcu);
    long failed_mcu = __atomic_load_n(&feed->failed_mcu, __ATOMIC_ACQUIRE);
    if (failed_mcu >= 0 && mcu >= failed_mcu) {
        reader->error.saw_end_of_data = feed->failure_saw_end_of_data;
        reader->error.exceeded_working_memory = feed->failure_exceeded_memory;
        reader->error.out_of_memory = feed->failure_out_of_memory;
        rfi_set_message(reader->text, sizeof reader->text, feed->failure_text);
        longjmp(reader->error.jump, 1);
    }
    const JBLOCK *source = feed->rows + ((size_t)(row % RFI_JPEG_FEED_ROWS) * (size_t)mcus_per_row + (size_t)column) * (size_t)blocks_in_mcu;
    for (long b = 0; b < blocks_in_mcu; b++) memcpy(blocks[b], source[b], sizeof(JBLOCK));
    reader->feed_mcu = mcu + 1;
    return TRUE;
}

void rfi_jpeg_reader_consume_feed(rfi_jpeg_reader *reader, rfi_jpeg_coefficient_feed *feed) {
    reader->feed = feed;
    reader->feed_mcu = 0;
}

rfi_status rfi_jpeg_reader_feed(rfi_jpeg_reader *reader, rfi_jpeg_coefficient_feed *feed, char *message,
                                size_t message_capacity) {
    j_decompress_ptr decompress = &reader->decompress;
    if (reader->state != 1 || reader->feed != NULL || decompress->inputctl->has_multiple_scans) {
        rfi_set_message(message, message_capacity, "the reader is not started, takes a feed itself, or has several scans");
        rfi_jpeg_feed_abandon(feed);
        return RFI_STATUS_INVALID_REQUEST;
    }
    /* Written after setjmp and read after the longjmp. */
    volatile long row = 0;
    if (setjmp(reader->error.jump)) {
        reader->state = 2;
        reader->error.feeding = NULL;
        pthread_mutex_lock(&feed->lock);
        feed->failure = rfi_jpeg_failure_status(&reader->error);
        feed->failure_saw_end_of_data = reader->error.saw_end_of_data;
        feed->failure_exceeded_memory = reader->error.exceeded_working_memory;
        feed->failure_out_of_memory = reader->error.out_of_memory;
        rfi_set_message(feed->failure_text, sizeof feed->failure_text, reader->text);
        if (reader->error.feeding_mcu >= feed->mcus_per_row * feed->mcu_rows && feed->rows != NULL) {
            /* After the scan, reading the markers that follow it: as a whole decode's finishing,
             * that loses only what they held. */
            feed->done = 1;
        } else {
            /* The MCUs of its row before the failing one are in the row: hand it over. */
            if (feed->rows != NULL) feed->rows_fed = row + 1;
            __atomic_store_n(&feed->failed_mcu, reader->error.feeding_mcu, __ATOMIC_RELEASE);
        }
        pthread_cond_broadcast(&feed->changed);
        pthread_mutex_unlock(&feed->lock);
        rfi_set_message(message, message_capacity, reader->text);
        return rfi_jpeg_failure_status(&reader->error);
    }
    long mcus_per_row = (long)decompress->MCUs_per_row, mcu_rows = (long)decompress->MCU_rows_in_scan;
    long blocks_in_mcu = decompress->blocks_in_MCU;
    size_t row_blocks = (size_t)mcus_per_row * (size_t)blocks_in_mcu;
    JBLOCK *rows = calloc(RFI_JPEG_FEED_ROWS * row_blocks, sizeof(JBLOCK));
    if (rows == NULL) ERREXIT1(decompress, JERR_OUT_OF_MEMORY, 0);
    pthread_mutex_lock(&feed->lock);
    feed->mcus_per_row = mcus_per_row;
    feed->mcu_rows = mcu_rows;
    feed->blocks_in_mcu = blocks_in_mcu;
    feed->rows = rows;
    pthread_mutex_unlock(&feed->lock);
    reader->error.feeding = feed;
    reader->error.feeding_mcu = 0;
    JBLOCKROW blocks[D_MAX_BLOCKS_IN_MCU];
    for (row = 0; row < mcu_rows; row++) {
        pthread_mutex_lock(&feed->lock);
        while (row - feed->rows_taken >= RFI_JPEG_FEED_ROWS && !feed->abandoned) pthread_cond_wait(&feed->changed, &feed->lock);
        int abandoned = feed->abandoned;
        pthread_mutex_unlock(&feed->lock);
        if (abandoned) {
            reader->error.feeding = NULL;
            rfi_set_message(message, message_capacity, reader->text);
            return RFI_STATUS_OK;
        }
        /* The entropy decoder writes only the nonzero coefficients of each block. */
        JBLOCK *slot = rows + (size_t)(row % RFI_JPEG_FEED_ROWS) * row_blocks;
        memset(slot, 0, row_blocks * sizeof(JBLOCK));
        for (long column = 0; column < mcus_per_row; column++) {
            for (long b = 0; b < blocks_in_mcu; b++) blocks[b] = slot + column * blocks_in_mcu + b;
            reader->error.feeding_mcu = row * mcus_per_row + column;
            if (!(*decompress->entropy->decode_mcu)(decompress, blocks)) ERREXIT(decompress, JERR_CANT_SUSPEND);
        }
        pthread_mutex_lock(&feed->lock);
        feed->rows_fed = row + 1;
        pthread_cond_broadcast(&feed->changed);
        pthread_mutex_unlock(&feed->lock);
    }
    /* The markers after the scan, as jpeg_finish_decompress reads them. */
    reader->error.feeding_mcu = mcus_per_row * mcu_rows;
    (*decompress->inputctl->finish_input_pass)(decompress);
    while (!decompress->inputctl->eoi_reached) {
        if (jpeg_consume_input(decompress) == JPEG_SUSPENDED) break;
    }
    reader->error.feeding = NULL;
    pthread_mutex_lock(&feed->lock);
    feed->done = 1;
    pthread_cond_broadcast(&feed->changed);
    pthread_mutex_unlock(&feed->lock);
    rfi_set_message(message, message_capacity, reader->text);
    return RFI_STATUS_OK;
}

rfi_status rfi_jpeg_decode(const uint8_t *data, size_t length, int32_t scale_eighths,
                           int64_t pixel_limit, rfi_pixels *out, char *message,
                           size_t message_capacity) {
    rfi_jpeg_reader *reader;
    rfi_image_header header;
    int32_t width, height, rows_read;
    memset(out, 0, sizeof *out);
    rfi_status status =
        rfi_jpeg_reader_open_memory(data, length, &reader, &header, message, message_capacity);
    if (status != RFI_STATUS_OK) return status;
    status = rfi_jpeg_reader_start(reader, scale_eighths, pixel_limit, &width, &height, message,
                                   message_capacity);
    uint32_t *pixels = NULL;
    if (status == RFI_STATUS_OK) {
        pixels = malloc((size_t)width * (size_t)height * 4);
        if (pixels == NULL) {
            rfi_set_message(message, message_capacity, "out of memory");
            status = RFI_STATUS_OUT_OF_MEMORY;
        }
    }
    if (status == RFI_STATUS_OK) {
        status = rfi_jpeg_reader_read(reader, pixels, width, height, &rows_read, message,
                                      message_capacity);
    }
    /* On failure `message` already holds the reason; closing must not overwrite it. */
    rfi_warning warning =
        rfi_jpeg_reader_close(reader, status == RFI_STATUS_OK ? message : NULL, message_capacity);
    if (status != RFI_STATUS_OK) {
        free(pixels);
        return status;
    }
    out->pixels = pixels;
    out->width = width;
    out->height = height;
    out->warning = warning;
    return RFI_STATUS_OK;
}

/* The colour every output row past the end of a sequential JPEG's data has: libjpeg decodes the
 * missing blocks as zero coefficients, mid grey (128) in YCbCr, RGB and grey alike. */
static const uint32_t rfi_jpeg_blank_pixel = 0xFF808080u;

/* True when the rows from the current output row on hold nothing of the file: the entropy-coded
 * data of a sequential (not progressive) JPEG stopped at its end or at a marker, the marker is
 * EOI (a real or the source's fake one; after a restart marker decoding would resume), and the
 * row being output lies two iMCU rows past the one being output when the data stopped (the iMCU
 * row libjpeg was decoding, and the context row its fancy upsampling reads). Not for CMYK,
 * whose zero coefficients go through a colour transform. Decoding such rows would spend a cut
 * file's time on grey: a 1.7 KB file claiming 60000 x 60000 pixels took most of a second to
 * skip to a region in its middle. */
static int rfi_jpeg_rest_is_blank(j_decompress_ptr decompress, const struct rfi_jpeg_error *error,
                                  boolean is_cmyk) {
    if (error->rows_before_end_of_scan_data < 0 || decompress->unread_marker != JPEG_EOI || is_cmyk ||
        decompress->progressive_mode)
        return 0;
    int64_t imcu_rows = (int64_t)decompress->max_v_samp_factor * decompress->min_DCT_scaled_size;
    return (int64_t)decompress->output_scanline >= error->rows_before_end_of_scan_data + 2 * imcu_rows;
}

rfi_status rfi_jpeg_decode_region(const uint8_t *data, size_t length, int32_t scale_denominator,
                                  int32_t x, int32_t y, int32_t width, int32_t height,
                                  int64_t pixel_limit, rfi_pixels *out, char *message,
                                  size_t message_capacity) {
    struct jpeg_decompress_struct decompress;
    struct rfi_jpeg_error error;
    uint32_t *volatile pixels = NULL;
    JSAMPLE *volatile row = NULL;
    void *volatile cmyk_transform = NULL;
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
        rfi_colour_cmyk_transform_free(cmyk_transform);
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
    if (is_cmyk) cmyk_transform = rfi_jpeg_cmyk_transform(&decompress);
    if (pixels == NULL || row == NULL) {
        free(pixels);
        free(row);
        rfi_colour_cmyk_transform_free(cmyk_transform);
        rfi_set_message(message, message_capacity, "out of memory");
        jpeg_destroy_decompress(&decompress);
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    /* Skipped a few iMCU rows at a time, to stop once the rest holds nothing of the file. */
    JDIMENSION skip_step = (JDIMENSION)(8 * decompress.max_v_samp_factor * decompress.min_DCT_scaled_size);
    for (JDIMENSION skipped = 0; skipped < (JDIMENSION)y && !rfi_jpeg_rest_is_blank(&decompress, &error, is_cmyk);) {
        JDIMENSION step = (JDIMENSION)y - skipped < skip_step ? (JDIMENSION)y - skipped : skip_step;
        JDIMENSION done = jpeg_skip_scanlines(&decompress, step);
        if (done == 0) break;
        skipped += done;
    }
    for (int32_t line = 0; line < height; line++) {
        uint32_t *destination = pixels + (size_t)line * (size_t)width;
        if (rfi_jpeg_rest_is_blank(&decompress, &error, is_cmyk)) {
            for (size_t k = 0; k < (size_t)(height - line) * (size_t)width; k++) destination[k] = rfi_jpeg_blank_pixel;
            break;
        }
        JSAMPROW target = row;
        if (jpeg_read_scanlines(&decompress, &target, 1) != 1) break;
        if (is_cmyk) {
            rfi_jpeg_cmyk_row(cmyk_transform, row + 4 * first_column, destination, (JDIMENSION)width,
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
    rfi_colour_cmyk_transform_free(cmyk_transform);

    out->pixels = pixels;
    out->width = width;
    out->height = height;
    out->warning = rfi_jpeg_warning(&error);
    return RFI_STATUS_OK;
}

rfi_status rfi_jpeg_encode(const uint32_t *pixels, int32_t width, int32_t height,
                           int32_t row_pixels, rfi_jpeg_encode_options options, rfi_bytes *out,
                           char *message, size_t message_capacity) {
    struct jpeg_compress_struct compress;
    struct rfi_jpeg_error error;
    memset(out, 0, sizeof *out);
    if (width <= 0 || height <= 0 || row_pixels < width) {
        rfi_set_message(message, message_capacity, "a JPEG needs a width and height of at least 1");
        return RFI_STATUS_FAILED;
    }
    if (options.luma_h < 1 || options.luma_h > 2 || options.luma_v < 1 || options.luma_v > 2 ||
        options.restart_rows < 0 || options.restart_mcus < 0 || options.restart_mcus > 65535) {
        rfi_set_message(message, message_capacity,
                        "luma sampling factors must be 1 or 2, restart rows not negative and "
                        "restart MCUs 0...65535");
        return RFI_STATUS_INVALID_REQUEST;
    }
    int32_t quality = options.quality < 1 ? 1 : options.quality > 100 ? 100 : options.quality;
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
    jpeg_set_quality(&compress, quality, TRUE);
    if (options.grayscale) {
        jpeg_set_colorspace(&compress, JCS_GRAYSCALE);
    } else {
        compress.comp_info[0].h_samp_factor = options.luma_h;
        compress.comp_info[0].v_samp_factor = options.luma_v;
    }
    if (options.restart_mcus > 0) {
        compress.restart_interval = (unsigned int)options.restart_mcus;
    } else {
        compress.restart_in_rows = options.restart_rows;
    }
    jpeg_start_compress(&compress, TRUE);
    while (compress.next_scanline < compress.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)compress.next_scanline * (size_t)row_pixels);
        jpeg_write_scanlines(&compress, &row, 1);
    }
    jpeg_finish_compress(&compress);
    jpeg_destroy_compress(&compress);
    return RFI_STATUS_OK;
}
