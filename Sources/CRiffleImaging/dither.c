/* Ordered dithering of deep samples to 8 bits: see include/rfi_dither.h. */
#include "dither.h"

#include "internal.h"
#include "stills_internal.h"

const uint8_t rfi_bayer8[8][8] = {
    {0, 32, 8, 40, 2, 34, 10, 42},  {48, 16, 56, 24, 50, 18, 58, 26}, {12, 44, 4, 36, 14, 46, 6, 38},
    {60, 28, 52, 20, 62, 30, 54, 22}, {3, 35, 11, 43, 1, 33, 9, 41},  {51, 19, 59, 27, 49, 17, 57, 25},
    {15, 47, 7, 39, 13, 45, 5, 37},  {63, 31, 55, 23, 61, 29, 53, 21},
};

/* rfi_reduce_rgba16's loop, inlined where `bits` is a constant (16, PNG's, TIFF's and JPEG XL's)
 * so that rounding divides by a constant, as the decoders' rounding did before dithering. */
static inline __attribute__((always_inline)) void rfi_reduce_run(const uint8_t *samples, uint32_t *out, size_t count,
                                                                 int32_t bits, uint32_t x0, uint32_t dx, uint32_t y,
                                                                 int32_t dithered) {
    uint32_t max = (1u << bits) - 1;
    double scale = 255.0 / max;
    for (size_t i = 0; i < count; i++) {
        const uint8_t *p = samples + 8 * i;
        uint32_t r = (uint32_t)p[0] | (uint32_t)p[1] << 8, g = (uint32_t)p[2] | (uint32_t)p[3] << 8,
                 b = (uint32_t)p[4] | (uint32_t)p[5] << 8, a = (uint32_t)p[6] | (uint32_t)p[7] << 8;
        uint32_t x = x0 + (uint32_t)i * dx;
        if (dithered) {
            r = rfi_dither_to_8(r, max, scale, x, y);
            g = rfi_dither_to_8(g, max, scale, x, y);
            b = rfi_dither_to_8(b, max, scale, x, y);
        } else {
            r = rfi_reduce_to_8(r, bits), g = rfi_reduce_to_8(g, bits), b = rfi_reduce_to_8(b, bits);
        }
        out[i] = rfi_reduce_to_8(a, bits) << 24 | r << 16 | g << 8 | b;
    }
}

void rfi_reduce_rgba16(const uint8_t *samples, uint32_t *out, size_t count, int32_t bits, uint32_t x0,
                       uint32_t dx, uint32_t y, int32_t dithered) {
    if (bits == 16) {
        rfi_reduce_run(samples, out, count, 16, x0, dx, y, dithered);
    } else {
        rfi_reduce_run(samples, out, count, bits, x0, dx, y, dithered);
    }
}
