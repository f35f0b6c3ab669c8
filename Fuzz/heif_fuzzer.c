/* libFuzzer harness: Riffle's own reader of the HEIF container (ISO/IEC 23008-12: meta, iinf,
 * iloc, iref, ipco/ipma; grid, iden, irot, imir, clap; hvcC) and the HEVC decode it drives
 * through libde265, the path taken when libheif refuses a file, on arbitrary bytes: the header
 * (size, alpha, colour profile) and the primary image within a bound on its size, so that one
 * input never runs for long. */
#include <stdint.h>
#include <stdlib.h>

#include "CRiffleImaging.h"
#include "CRiffleImagingStills.h"
#include "heif_items.h"

/* 1 MP: the largest picture one input may decode. */
#define FUZZ_PIXEL_LIMIT (1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char message[RFI_MESSAGE_CAPACITY];
    rfi_heif_own *own = NULL;
    rfi_still_header header;
    if (rfi_heif_own_open(NULL, data, size, &own, &header, message, sizeof message) != RFI_STATUS_OK) return 0;
    rfi_image_pixels pixels;
    if (rfi_heif_own_decode(own, FUZZ_PIXEL_LIMIT, &pixels, message, sizeof message) == RFI_STATUS_OK) {
        rfi_image_pixels_release(&pixels);
    }
    rfi_still_header_free(&header);
    rfi_heif_own_close(own);
    return 0;
}
