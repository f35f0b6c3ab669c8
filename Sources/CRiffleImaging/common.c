/* Shared helpers: messages, freeing, EXIF orientation, premultiplication. */
#include "internal.h"

#include <libexif/exif-data.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

void rfi_set_message(char *message, size_t message_capacity, const char *text) {
    if (message == NULL || message_capacity == 0) return;
    size_t length = strlen(text);
    if (length >= message_capacity) length = message_capacity - 1;
    memcpy(message, text, length);
    message[length] = '\0';
}

void rfi_pixels_free(uint32_t *pixels) { free(pixels); }

void rfi_bytes_free(uint8_t *data) { free(data); }

int32_t rfi_exif_orientation(const uint8_t *exif, size_t length) {
    if (exif == NULL || length < 6 || length > 0xFFFFFFFFu) return 1;
    ExifData *data = exif_data_new_from_data(exif, (unsigned int)length);
    if (data == NULL) return 1;
    int32_t orientation = 1;
    /* Orientation belongs to IFD0 (the main image); IFD1 describes the thumbnail. */
    ExifEntry *entry = exif_content_get_entry(data->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
    if (entry != NULL && entry->format == EXIF_FORMAT_SHORT && entry->components >= 1 &&
        entry->data != NULL && entry->size >= 2) {
        ExifShort value = exif_get_short(entry->data, exif_data_get_byte_order(data));
        if (value >= 1 && value <= 8) orientation = (int32_t)value;
    }
    exif_data_unref(data);
    return orientation;
}

rfi_status rfi_exif_thumbnail(const uint8_t *exif, size_t length, rfi_bytes *out) {
    memset(out, 0, sizeof *out);
    if (exif == NULL || length < 6 || length > 0xFFFFFFFFu) return RFI_STATUS_OK;
    ExifData *data = exif_data_new_from_data(exif, (unsigned int)length);
    if (data == NULL) return RFI_STATUS_OK;
    rfi_status status = RFI_STATUS_OK;
    /* libexif keeps IFD1's JPEGInterchangeFormat bytes as `data`/`size`. */
    if (data->data != NULL && data->size > 0) {
        out->data = malloc(data->size);
        if (out->data == NULL) {
            status = RFI_STATUS_OUT_OF_MEMORY;
        } else {
            memcpy(out->data, data->data, data->size);
            out->length = data->size;
        }
    }
    exif_data_unref(data);
    return status;
}

rfi_status rfi_exif_make(const uint8_t *thumbnail, size_t length, int32_t orientation,
                         rfi_bytes *out, char *message, size_t message_capacity) {
    memset(out, 0, sizeof *out);
    if (orientation < 1 || orientation > 8 || length > 60000) {
        rfi_set_message(message, message_capacity,
                        "orientation must be 1 to 8 and the thumbnail at most 60000 bytes");
        return RFI_STATUS_INVALID_REQUEST;
    }
    ExifData *data = exif_data_new();
    ExifEntry *entry = exif_entry_new();
    if (data == NULL || entry == NULL) {
        if (data != NULL) exif_data_unref(data);
        if (entry != NULL) exif_entry_unref(entry);
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    exif_data_set_byte_order(data, EXIF_BYTE_ORDER_INTEL);
    exif_content_add_entry(data->ifd[EXIF_IFD_0], entry);
    exif_entry_initialize(entry, EXIF_TAG_ORIENTATION);
    exif_set_short(entry->data, EXIF_BYTE_ORDER_INTEL, (ExifShort)orientation);
    exif_entry_unref(entry);
    if (thumbnail != NULL && length > 0) {
        /* exif_data_unref frees `data->data` with libexif's allocator, malloc by default. */
        data->data = malloc(length);
        if (data->data == NULL) {
            exif_data_unref(data);
            rfi_set_message(message, message_capacity, "out of memory");
            return RFI_STATUS_OUT_OF_MEMORY;
        }
        memcpy(data->data, thumbnail, length);
        data->size = (unsigned int)length;
    }
    unsigned char *saved = NULL;
    unsigned int size = 0;
    exif_data_save_data(data, &saved, &size);
    exif_data_unref(data);
    if (saved == NULL || size == 0) {
        rfi_set_message(message, message_capacity, "libexif could not write the EXIF data");
        return RFI_STATUS_FAILED;
    }
    out->data = saved;
    out->length = size;
    return RFI_STATUS_OK;
}

static inline uint32_t rfi_multiply_255(uint32_t channel, uint32_t alpha) {
    /* Exact round(channel·alpha/255) for 8-bit inputs (Jim Blinn, "Three wrongs make a right"). */
    uint32_t t = channel * alpha + 128;
    return (t + (t >> 8)) >> 8;
}

int rfi_premultiply(uint32_t *pixels, size_t count) {
    int translucent = 0;
    for (size_t i = 0; i < count; i++) {
        uint32_t p = pixels[i];
        uint32_t a = p >> 24;
        if (a == 255) continue;
        translucent = 1;
        uint32_t r = rfi_multiply_255((p >> 16) & 0xFF, a);
        uint32_t g = rfi_multiply_255((p >> 8) & 0xFF, a);
        uint32_t b = rfi_multiply_255(p & 0xFF, a);
        pixels[i] = (a << 24) | (r << 16) | (g << 8) | b;
    }
    return translucent;
}

int32_t rfi_set_mmap_threshold(size_t threshold_bytes) {
    return mallopt(M_MMAP_THRESHOLD, (int)threshold_bytes) == 1;
}

/* Copies an ASCII entry into `out` (capacity bytes), trailing spaces and NULs removed. */
static void rfi_exif_copy_text(ExifEntry *entry, char *out, size_t capacity) {
    out[0] = '\0';
    if (entry == NULL || entry->format != EXIF_FORMAT_ASCII || entry->data == NULL) return;
    size_t length = entry->size < capacity - 1 ? entry->size : capacity - 1;
    memcpy(out, entry->data, length);
    out[length] = '\0';
    size_t end = strnlen(out, length);
    while (end > 0 && out[end - 1] == ' ') end--;
    out[end] = '\0';
}

/* Component `index` of a RATIONAL entry as a double; 0 when absent or its denominator is 0. */
static double rfi_exif_rational(ExifEntry *entry, unsigned index, ExifByteOrder order) {
    if (entry == NULL || entry->format != EXIF_FORMAT_RATIONAL || entry->data == NULL ||
        entry->components <= index || entry->size < 8 * (index + 1))
        return 0;
    ExifRational value = exif_get_rational(entry->data + 8 * index, order);
    return value.denominator == 0 ? 0 : (double)value.numerator / (double)value.denominator;
}

/* Component `index` of a RATIONAL or SRATIONAL entry; *valid = 0 when it is absent or its
 * denominator is 0 (0/0 is how some cameras write "no seconds": the caller decides). */
static double rfi_exif_signed_rational(ExifEntry *entry, unsigned index, ExifByteOrder order, int *valid) {
    *valid = 0;
    if (entry == NULL || entry->data == NULL || entry->components <= index || entry->size < 8 * (index + 1)) return 0;
    if (entry->format == EXIF_FORMAT_RATIONAL) {
        ExifRational value = exif_get_rational(entry->data + 8 * index, order);
        if (value.denominator == 0) return 0;
        *valid = 1;
        return (double)value.numerator / (double)value.denominator;
    }
    if (entry->format == EXIF_FORMAT_SRATIONAL) {
        ExifSRational value = exif_get_srational(entry->data + 8 * index, order);
        if (value.denominator == 0) return 0;
        *valid = 1;
        return (double)value.numerator / (double)value.denominator;
    }
    return 0;
}

/* Degrees from a GPS coordinate entry and its N/S or E/W reference, in every encoding cameras
 * write (each read the way ExifTool reads it, lib/Image/ExifTool/GPS.pm's ToDegrees):
 * - RATIONAL, as EXIF 2.32 says (4.6.6, GPSLatitude), or SRATIONAL, as some phones write it;
 * - degrees, minutes and seconds, or fewer components (decimal degrees alone, degrees and
 *   decimal minutes), each with any denominator;
 * - minutes or seconds written 0/0 (no value) count as 0; degrees written so mean no position;
 * - no reference tag: the value's own sign (north and east when positive), as ExifTool's
 *   numeric output gives it;
 * - no GPSVersionID (EXIF calls it mandatory; many phones leave it out): not needed.
 * 0 with *present = 0 when there is no coordinate, or it lies outside ±`limit` degrees. */
static double rfi_exif_coordinate(ExifData *data, ExifTag tag, ExifTag reference, char negative, double limit,
                                  int32_t *present) {
    ExifByteOrder order = exif_data_get_byte_order(data);
    ExifEntry *value = exif_content_get_entry(data->ifd[EXIF_IFD_GPS], tag);
    ExifEntry *ref = exif_content_get_entry(data->ifd[EXIF_IFD_GPS], reference);
    *present = 0;
    int valid = 0;
    double degrees = rfi_exif_signed_rational(value, 0, order, &valid);
    if (!valid) return 0;
    double magnitude = degrees < 0 ? -degrees : degrees;
    for (unsigned index = 1; index < 3; index++) {
        double part = rfi_exif_signed_rational(value, index, order, &valid);
        if (valid) magnitude += (part < 0 ? -part : part) / (index == 1 ? 60 : 3600);
    }
    char reference_text[4] = "";
    if (ref != NULL && ref->format == EXIF_FORMAT_ASCII && ref->data != NULL && ref->size >= 1) {
        size_t length = ref->size < sizeof reference_text - 1 ? ref->size : sizeof reference_text - 1;
        memcpy(reference_text, ref->data, length);
        reference_text[length] = '\0';
    }
    return rfi_gps_signed(magnitude, degrees < 0, ref != NULL ? reference_text : NULL, negative, limit, present);
}

double rfi_gps_signed(double magnitude, int negative_value, const char *reference, char negative, double limit,
                      int32_t *present) {
    *present = 0;
    if (!(magnitude <= limit)) return 0;
    int south_or_west = negative_value;
    if (reference != NULL) {
        /* "N", "S", also lower case or after spaces. */
        while (*reference == ' ') reference++;
        if (*reference != '\0') south_or_west = (*reference & ~0x20) == negative;
    }
    *present = 1;
    return south_or_west ? -magnitude : magnitude;
}

rfi_status rfi_exif_read_details(const uint8_t *exif, size_t length, rfi_exif_details *out) {
    memset(out, 0, sizeof *out);
    if (exif == NULL || length < 6 || length > 0xFFFFFFFFu) return RFI_STATUS_FAILED;
    ExifData *data = exif_data_new_from_data(exif, (unsigned int)length);
    if (data == NULL) return RFI_STATUS_FAILED;
    ExifByteOrder order = exif_data_get_byte_order(data);
    ExifContent *ifd0 = data->ifd[EXIF_IFD_0], *ifd_exif = data->ifd[EXIF_IFD_EXIF];
    rfi_exif_copy_text(exif_content_get_entry(ifd0, EXIF_TAG_MAKE), out->make, sizeof out->make);
    rfi_exif_copy_text(exif_content_get_entry(ifd0, EXIF_TAG_MODEL), out->model, sizeof out->model);
    rfi_exif_copy_text(exif_content_get_entry(ifd_exif, EXIF_TAG_LENS_MODEL), out->lens, sizeof out->lens);
    rfi_exif_copy_text(exif_content_get_entry(ifd_exif, EXIF_TAG_DATE_TIME_ORIGINAL), out->date_taken,
                       sizeof out->date_taken);
    rfi_exif_copy_text(exif_content_get_entry(ifd_exif, EXIF_TAG_OFFSET_TIME_ORIGINAL), out->offset_taken,
                       sizeof out->offset_taken);
    out->exposure_seconds = rfi_exif_rational(exif_content_get_entry(ifd_exif, EXIF_TAG_EXPOSURE_TIME), 0, order);
    out->f_number = rfi_exif_rational(exif_content_get_entry(ifd_exif, EXIF_TAG_FNUMBER), 0, order);
    out->focal_length_mm = rfi_exif_rational(exif_content_get_entry(ifd_exif, EXIF_TAG_FOCAL_LENGTH), 0, order);
    ExifEntry *iso = exif_content_get_entry(ifd_exif, EXIF_TAG_ISO_SPEED_RATINGS);
    if (iso != NULL && iso->format == EXIF_FORMAT_SHORT && iso->components >= 1 && iso->data != NULL &&
        iso->size >= 2)
        out->iso = exif_get_short(iso->data, order);
    int32_t latitude_present = 1, longitude_present = 1;
    out->latitude = rfi_exif_coordinate(data, EXIF_TAG_GPS_LATITUDE, EXIF_TAG_GPS_LATITUDE_REF, 'S', 90,
                                        &latitude_present);
    out->longitude = rfi_exif_coordinate(data, EXIF_TAG_GPS_LONGITUDE, EXIF_TAG_GPS_LONGITUDE_REF, 'W', 180,
                                         &longitude_present);
    ExifEntry *space = exif_content_get_entry(ifd_exif, EXIF_TAG_COLOR_SPACE);
    if (space != NULL && space->format == EXIF_FORMAT_SHORT && space->components >= 1 && space->data != NULL &&
        space->size >= 2)
        out->colour_space = exif_get_short(space->data, order);
    rfi_exif_copy_text(exif_content_get_entry(data->ifd[EXIF_IFD_INTEROPERABILITY], EXIF_TAG_INTEROPERABILITY_INDEX),
                       out->interoperability_index, sizeof out->interoperability_index);
    out->has_position = latitude_present && longitude_present;
    if (!out->has_position) out->latitude = out->longitude = 0;
    exif_data_unref(data);
    return RFI_STATUS_OK;
}
