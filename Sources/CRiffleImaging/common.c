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
