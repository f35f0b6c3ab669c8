/* Camera RAW through LibRaw's C API (libraw_r, the reentrant build: decodes run on several
 * threads): identify, the embedded preview, and the full development.
 *
 * LibRaw returns an int code from every call and catches its own C++ exceptions; nothing
 * longjmps.
 */
#include "stills_internal.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libraw/libraw.h>

#include "lazy_codecs.h"

struct rfi_raw {
    libraw_data_t *data;
    /* Asked at each progress step of a development. */
    int32_t (*stop)(void *context);
    void *stop_context;
    /* Why the picture data is missing ("no picture data: …"); empty when it is all there. */
    char missing[RFI_MESSAGE_CAPACITY];
};

/* Notes in raw->missing when a TIFF-structured camera file (NEF, DNG, ARW, PEF, …: "II*\0" or
 * "MM\0*") ends before the picture data its directories point to, as a copy of its metadata
 * alone does. LibRaw 0.20 reads no such check: it fails the unpack for some layouts (an
 * uncompressed strip) and develops a blank frame for others (lossless JPEG, Nikon's
 * compression), whose decoders stop at the end of the file without an error. */
static void rfi_raw_check_data(struct rfi_raw *raw, const char *path, const uint8_t *data, size_t length) {
    uint8_t head[4] = {0};
    int descriptor = -1;
    if (path != NULL) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC);
        if (descriptor < 0 || pread(descriptor, head, 4, 0) != 4) {
            if (descriptor >= 0) close(descriptor);
            return;
        }
    } else if (length >= 4) {
        memcpy(head, data, 4);
    }
    uint64_t end = 0, size = 0;
    if ((memcmp(head, "II*\0", 4) == 0 || memcmp(head, "MM\0*", 4) == 0) &&
        rfi_tiff_picture_data_end(descriptor, data, length, &end, &size) && end > size) {
        snprintf(raw->missing, sizeof raw->missing,
                 "no picture data: the file ends at byte %" PRIu64 ", its picture data at byte %" PRIu64, size, end);
    }
    if (descriptor >= 0) close(descriptor);
}

/* The status and message of a LibRaw call that returned `code`. */
static rfi_status rfi_raw_failure(int code, char *message, size_t message_capacity) {
    rfi_set_message(message, message_capacity, libraw_strerror(code));
    switch (code) {
    case LIBRAW_UNSUFFICIENT_MEMORY: return RFI_STATUS_OUT_OF_MEMORY;
    case LIBRAW_IO_ERROR: return RFI_STATUS_TRUNCATED;
    case LIBRAW_TOO_BIG: return RFI_STATUS_TOO_LARGE;
    case LIBRAW_CANCELLED_BY_CALLBACK:
        rfi_set_message(message, message_capacity, "stopped");
        return RFI_STATUS_INVALID_REQUEST;
    default: return RFI_STATUS_FAILED;
    }
}

/* dcraw's flip (0, 3, 5, 6, or a mirror's 1, 2, 4, 7) as EXIF's orientation: the inverse of
 * dcraw's "50132467"[orientation & 7] (parse_tiff_ifd, tag 274). */
static int32_t rfi_raw_orientation(int flip) {
    static const int32_t orientation[8] = {1, 2, 4, 3, 5, 8, 6, 7};
    return flip >= 0 && flip < 8 ? orientation[flip] : 1;
}

void rfi_raw_close(rfi_raw *raw) {
    if (raw == NULL) return;
    if (raw->data != NULL) libraw_close(raw->data);
    free(raw);
}

rfi_status rfi_raw_open(const char *path, const uint8_t *data, size_t length, rfi_raw **out,
                        rfi_raw_header *header, char *message, size_t message_capacity) {
    *out = NULL;
    memset(header, 0, sizeof *header);
    rfi_set_message(message, message_capacity, "");
    if (!rfi_lazy_load(RFI_LAZY_RAW, message, message_capacity)) return RFI_STATUS_LIBRARY_MISSING;
    struct rfi_raw *raw = calloc(1, sizeof *raw);
    if (raw != NULL) raw->data = libraw_init(0);
    if (raw == NULL || raw->data == NULL) {
        rfi_raw_close(raw);
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    /* LibRaw reads the buffer in place and never writes it. */
    int code = path != NULL ? libraw_open_file(raw->data, path) : libraw_open_buffer(raw->data, (void *)data, length);
    if (code != LIBRAW_SUCCESS) {
        rfi_status status = rfi_raw_failure(code, message, message_capacity);
        rfi_raw_close(raw);
        return status;
    }
    libraw_image_sizes_t *sizes = &raw->data->sizes;
    if (sizes->width == 0 || sizes->height == 0) {
        rfi_raw_close(raw);
        rfi_set_message(message, message_capacity, "the camera file has no picture size");
        return RFI_STATUS_FAILED;
    }
    rfi_raw_check_data(raw, path, data, length);
    header->image.width = sizes->width;
    header->image.height = sizes->height;
    header->image.orientation = rfi_raw_orientation(sizes->flip);
    header->preview_width = raw->data->thumbnail.twidth;
    header->preview_height = raw->data->thumbnail.theight;
    *out = raw;
    return RFI_STATUS_OK;
}

/* A processed bitmap (`colors` 1 or 3, `bits` 8 or 16 a sample) as opaque BGRA in a new block. */
static rfi_status rfi_raw_bitmap(const libraw_processed_image_t *image, int64_t pixel_limit,
                                 rfi_image_pixels *out, char *message, size_t message_capacity) {
    size_t width = image->width, height = image->height, colours = image->colors, bytes = image->bits / 8;
    if ((colours != 1 && colours != 3) || (bytes != 1 && bytes != 2) || width == 0 || height == 0 ||
        (size_t)image->data_size < width * height * colours * bytes) {
        rfi_set_message(message, message_capacity, "the camera file's bitmap has a layout Riffle does not read");
        return RFI_STATUS_UNSUPPORTED;
    }
    if ((int64_t)(width * height) > pixel_limit) {
        rfi_set_message(message, message_capacity, "the bitmap has more pixels than the limit");
        return RFI_STATUS_TOO_LARGE;
    }
    uint32_t *pixels = malloc(width * height * sizeof(uint32_t));
    if (pixels == NULL) {
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < width * height; i++) {
        uint32_t sample[3];
        for (size_t c = 0; c < colours; c++) {
            const uint8_t *p = image->data + (i * colours + c) * bytes;
            /* LibRaw writes 16-bit samples in the machine's order. */
            uint16_t value = 0;
            if (bytes == 2) memcpy(&value, p, 2);
            sample[c] = bytes == 1 ? p[0] : rfi_reduce_to_8(value, 16);
        }
        if (colours == 1) sample[1] = sample[2] = sample[0];
        pixels[i] = 0xFF000000u | sample[0] << 16 | sample[1] << 8 | sample[2];
    }
    out->pixels = pixels;
    out->width = (int32_t)width;
    out->height = (int32_t)height;
    out->row_pixels = (int32_t)width;
    out->owner = pixels;
    out->release = rfi_free_owner;
    return RFI_STATUS_OK;
}

rfi_status rfi_raw_preview(rfi_raw *raw, int64_t pixel_limit, rfi_bytes *jpeg,
                           rfi_image_pixels *bitmap, char *message, size_t message_capacity) {
    memset(jpeg, 0, sizeof *jpeg);
    memset(bitmap, 0, sizeof *bitmap);
    rfi_set_message(message, message_capacity, "");
    int code = libraw_unpack_thumb(raw->data);
    if (code == LIBRAW_NO_THUMBNAIL || code == LIBRAW_UNSUPPORTED_THUMBNAIL) {
        rfi_set_message(message, message_capacity, libraw_strerror(code));
        return RFI_STATUS_UNSUPPORTED;
    }
    if (code != LIBRAW_SUCCESS) return rfi_raw_failure(code, message, message_capacity);
    libraw_processed_image_t *image = libraw_dcraw_make_mem_thumb(raw->data, &code);
    if (image == NULL) return rfi_raw_failure(code != LIBRAW_SUCCESS ? code : LIBRAW_UNSUFFICIENT_MEMORY, message, message_capacity);
    rfi_status status = RFI_STATUS_OK;
    if (image->type == LIBRAW_IMAGE_JPEG) {
        if (!rfi_bytes_copy(jpeg, image->data, image->data_size)) {
            rfi_set_message(message, message_capacity, "out of memory");
            status = RFI_STATUS_OUT_OF_MEMORY;
        }
    } else {
        status = rfi_raw_bitmap(image, pixel_limit, bitmap, message, message_capacity);
    }
    libraw_dcraw_clear_mem(image);
    return status;
}

/* LibRaw's progress callback: nonzero cancels. */
static int rfi_raw_progress(void *context, enum LibRaw_progress stage, int iteration, int expected) {
    (void)stage;
    (void)iteration;
    (void)expected;
    struct rfi_raw *raw = context;
    return raw->stop != NULL && raw->stop(raw->stop_context) ? 1 : 0;
}

rfi_status rfi_raw_develop(rfi_raw *raw, int32_t half, int64_t memory_limit,
                           int32_t (*stop)(void *context), void *stop_context,
                           rfi_image_pixels *out, char *message, size_t message_capacity) {
    memset(out, 0, sizeof *out);
    rfi_set_message(message, message_capacity, "");
    libraw_data_t *data = raw->data;
    int64_t sensor = (int64_t)data->sizes.raw_width * data->sizes.raw_height;
    int64_t output = (int64_t)data->sizes.width * data->sizes.height;
    if (half) output /= 4;
    /* Raw data (2 bytes a sensor pixel), LibRaw's image (4 ushort channels an output pixel), its
     * 8-bit RGB copy (3) and the BGRA result (4). */
    if (sensor * 2 + output * (8 + 3 + 4) > memory_limit) {
        rfi_set_message(message, message_capacity, "developing the camera file needs more memory than the limit");
        return RFI_STATUS_TOO_LARGE;
    }
    if (raw->missing[0] != '\0') {
        rfi_set_message(message, message_capacity, raw->missing);
        return RFI_STATUS_FAILED;
    }
    raw->stop = stop;
    raw->stop_context = stop_context;
    libraw_set_progress_handler(data, rfi_raw_progress, raw);
    data->params.half_size = half != 0;
    data->params.use_camera_wb = 1;
    data->params.output_bps = 8;
    int code = libraw_unpack(data);
    if (code == LIBRAW_IO_ERROR) {
        /* LibRaw reached the end of the file inside the picture data. */
        rfi_set_message(message, message_capacity, "no picture data: the file ends inside it");
        libraw_set_progress_handler(data, NULL, NULL);
        return RFI_STATUS_FAILED;
    }
    if (code == LIBRAW_SUCCESS) code = libraw_dcraw_process(data);
    libraw_processed_image_t *image = code == LIBRAW_SUCCESS ? libraw_dcraw_make_mem_image(data, &code) : NULL;
    libraw_set_progress_handler(data, NULL, NULL);
    if (image == NULL) return rfi_raw_failure(code != LIBRAW_SUCCESS ? code : LIBRAW_UNSUFFICIENT_MEMORY, message, message_capacity);
    /* The developed picture is upright: make_mem_image applies the flip. */
    rfi_status status = rfi_raw_bitmap(image, INT64_MAX, out, message, message_capacity);
    libraw_dcraw_clear_mem(image);
    /* Frees the raw data and LibRaw's image now rather than at close. */
    libraw_recycle(data);
    return status;
}

rfi_status rfi_raw_details(rfi_raw *raw, rfi_exif_details *out) {
    memset(out, 0, sizeof *out);
    libraw_data_t *data = raw->data;
    rfi_set_message(out->make, sizeof out->make, data->idata.make);
    rfi_set_message(out->model, sizeof out->model, data->idata.model);
    rfi_set_message(out->lens, sizeof out->lens, data->lens.Lens);
    out->exposure_seconds = data->other.shutter;
    out->f_number = data->other.aperture;
    out->focal_length_mm = data->other.focal_len;
    out->iso = (int32_t)(data->other.iso_speed + 0.5f);
    if (data->other.timestamp > 0) {
        /* LibRaw made the timestamp from EXIF's local date and time with mktime: localtime gives
         * them back as written. */
        struct tm local;
        time_t stamp = data->other.timestamp;
        if (localtime_r(&stamp, &local) != NULL)
            strftime(out->date_taken, sizeof out->date_taken, "%Y:%m:%d %H:%M:%S", &local);
    }
    const libraw_gps_info_t *gps = &data->other.parsed_gps;
    if (gps->gpsparsed && gps->latref != 0 && gps->longref != 0) {
        double latitude = gps->latitude[0] + gps->latitude[1] / 60.0 + gps->latitude[2] / 3600.0;
        double longitude = gps->longitude[0] + gps->longitude[1] / 60.0 + gps->longitude[2] / 3600.0;
        out->has_position = 1;
        out->latitude = gps->latref == 'S' ? -latitude : latitude;
        out->longitude = gps->longref == 'W' ? -longitude : longitude;
    }
    return out->make[0] || out->model[0] ? RFI_STATUS_OK : RFI_STATUS_FAILED;
}
