/* libFuzzer harness: the EXIF paths of the imaging shim (libexif underneath) on an arbitrary
 * APP1 body: the embedded thumbnail and the details the info panel shows. */
#include <stdint.h>

#include "CRiffleImaging.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    rfi_bytes thumbnail = {0};
    if (rfi_exif_thumbnail(data, size, &thumbnail) == RFI_STATUS_OK) rfi_bytes_free(thumbnail.data);
    rfi_exif_details details;
    (void)rfi_exif_read_details(data, size, &details);
    return 0;
}
