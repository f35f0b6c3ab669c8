/* libFuzzer harness: an embedded ICC profile as a hostile file carries it, read by lcms2 through
 * the imaging shim's colour management: the RGB/grey transform to the display (sRGB), applied to
 * a row of opaque and translucent pixels, and the CMYK transform the JPEG decoder makes. */
#include <stdint.h>
#include <stdlib.h>

#include "CRiffleImaging.h"
#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char message[256];
    enum { width = 16 };
    uint32_t row[width];
    for (int x = 0; x < width; x++) row[x] = (uint32_t)(x * 16) << 24 | 0x00806040u;
    rfi_colour_alpha alpha = size > 0 && data[size - 1] & 1 ? RFI_COLOUR_PREMULTIPLIED : RFI_COLOUR_OPAQUE;
    rfi_colour_transform *transform = NULL;
    if (rfi_colour_transform_create(data, size, NULL, 0, alpha, &transform, message, sizeof message) == RFI_STATUS_OK) {
        rfi_colour_transform_apply(transform, row, width, 1, width);
        rfi_colour_transform_free(transform);
    }
    (void)rfi_colour_profile_is_cmyk(data, size);
    void *cmyk = rfi_colour_cmyk_transform_create(data, size, 1);
    if (cmyk != NULL) {
        uint8_t inks[width * 4];
        for (int i = 0; i < width * 4; i++) inks[i] = (uint8_t)(i * 7);
        rfi_colour_cmyk_row(cmyk, inks, row, width);
        rfi_colour_cmyk_transform_free(cmyk);
    }
    return 0;
}
