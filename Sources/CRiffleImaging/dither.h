/* Ordered dithering of deep samples to 8 bits, for the decoders' own loops (see
 * include/rfi_dither.h for the formula and its references). */
#ifndef CRIFFLE_IMAGING_DITHER_H
#define CRIFFLE_IMAGING_DITHER_H

#include <stdint.h>

/* Bayer's 8×8 ordered-dither matrix: B(x, y) for x = column mod 8, y = row mod 8, the 64
 * thresholds 0...63 spread so that every 2×2, 4×4 and 8×8 block holds them evenly (Bayer 1973;
 * B's bits are those of x XOR y and y interleaved, reversed). */
extern const uint8_t rfi_bayer8[8][8];

/* ⌊v·255/max + (2·B(x, y) + 1)/128⌋, max = 2^bits − 1 (bits 9 to 16): a sample of `bits` bits
 * ordered-dithered to 8 bits at stored pixel (x, y). `scale` is 255/max, computed once by the
 * caller. In doubles the product is within 255·2⁻⁵² of v·255/max, and v·255/max + (2B+1)/128 is
 * never within 1/(128·max) of a whole number (max and 2B + 1 are odd, v·255·128 even), so the
 * floor is the exact one. */
static inline uint32_t rfi_dither_to_8(uint32_t value, uint32_t max, double scale, uint32_t x, uint32_t y) {
    if (value > max) value = max;
    return (uint32_t)((double)value * scale + (2.0 * rfi_bayer8[y & 7][x & 7] + 1.0) / 128.0);
}

#endif
