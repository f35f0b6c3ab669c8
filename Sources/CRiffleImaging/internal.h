/* Helpers shared by the CRiffleImaging sources; not part of the public header. */
#ifndef CRIFFLE_IMAGING_INTERNAL_H
#define CRIFFLE_IMAGING_INTERNAL_H

#include "CRiffleImaging.h"

/* Copies `text` into `message` (truncating, always NUL-terminated when capacity > 0). */
void rfi_set_message(char *message, size_t message_capacity, const char *text);

/* EXIF orientation 1...8 from an APP1 payload that starts with "Exif\0\0"; 1 when absent. */
int32_t rfi_exif_orientation(const uint8_t *exif, size_t length);

/* Premultiplies `count` BGRA pixels in place, rounding c·a/255 to nearest; returns 1 when some
 * pixel has alpha below 255. */
int rfi_premultiply(uint32_t *pixels, size_t count);

#endif
