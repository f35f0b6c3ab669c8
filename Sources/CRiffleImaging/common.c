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

static inline uint32_t rfi_multiply_255(uint32_t channel, uint32_t alpha) {
    /* Exact round(channel·alpha/255) for 8-bit inputs (Jim Blinn, "Three wrongs make a right"). */
    uint32_t t = channel * alpha + 128;
    return (t + (t >> 8)) >> 8;
}

void rfi_premultiply(uint32_t *pixels, size_t count) {
    for (size_t i = 0; i < count; i++) {
        uint32_t p = pixels[i];
        uint32_t a = p >> 24;
        if (a == 255) continue;
        uint32_t r = rfi_multiply_255((p >> 16) & 0xFF, a);
        uint32_t g = rfi_multiply_255((p >> 8) & 0xFF, a);
        uint32_t b = rfi_multiply_255(p & 0xFF, a);
        pixels[i] = (a << 24) | (r << 16) | (g << 8) | b;
    }
}

int32_t rfi_set_mmap_threshold(size_t threshold_bytes) {
    return mallopt(M_MMAP_THRESHOLD, (int)threshold_bytes) == 1;
}
