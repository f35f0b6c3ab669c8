/* libFuzzer harness: the tile cache's inflater (zlib underneath) on an arbitrary stream, as a
 * damaged or foreign file in the tile folder would hand it: a 64 × 16 tile of 3 or 4 bytes a
 * pixel, as the input's first byte says. */
#include <stdint.h>
#include <stdlib.h>

#include "CRiffleImaging.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    enum { width = 64, height = 16 };
    static uint32_t pixels[width * height];
    char message[256];
    (void)rfi_inflate_rows(data + 1, size - 1, data[0] & 1 ? 4 : 3, pixels, width, height, width, message,
                           sizeof message);
    return 0;
}
