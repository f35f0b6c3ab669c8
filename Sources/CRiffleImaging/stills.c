/* What the still formats share: releasing pixels and headers, copying bytes. */
#include "stills_internal.h"

#include <stdlib.h>
#include <string.h>

void rfi_free_owner(void *owner) { free(owner); }

void rfi_image_pixels_release(rfi_image_pixels *pixels) {
    if (pixels == NULL) return;
    if (pixels->owner != NULL && pixels->release != NULL) pixels->release(pixels->owner);
    memset(pixels, 0, sizeof *pixels);
}

void rfi_still_header_free(rfi_still_header *header) {
    if (header == NULL) return;
    free(header->icc.data);
    header->icc.data = NULL;
    header->icc.length = 0;
}

int rfi_bytes_copy(rfi_bytes *out, const void *data, size_t length) {
    out->data = NULL;
    out->length = 0;
    if (length == 0) return 1;
    out->data = malloc(length);
    if (out->data == NULL) return 0;
    memcpy(out->data, data, length);
    out->length = length;
    return 1;
}
