/* The reduction of samples deeper than 8 bits (16-bit PNG and TIFF, 10- and 12-bit HEIF and
 * AVIF, 16-bit and float JPEG XL) to 8 bits: ordered dithering, so that a smooth gradient keeps
 * its tones on average instead of falling into flat bands a level apart. Included from
 * CRiffleImaging.h.
 *
 * The formula, for a colour sample v of `bits` bits (max = 2^bits − 1) at stored pixel (x, y):
 *
 *     out = ⌊v·255/max + (2·B(x mod 8, y mod 8) + 1)/128⌋
 *
 * B being Bayer's 8×8 ordered-dither matrix (thresholds 0...63). The added offset runs over
 * 1/128 ... 127/128 in steps of 1/64, averaging 1/2: it is rounding to nearest (⌊u + 1/2⌋) with
 * an ordered offset of ±63/128 (about ±½ of an 8-bit level) added before it. So:
 *   - over any 8×8 block of one value u the mean of `out` is u within 1/128, where rounding
 *     would be off by up to 1/2 (the band a gradient shows);
 *   - |out − u| < 1, and out is round(u) or a neighbour: within 1 of the rounded value;
 *   - a sample that holds an 8-bit value exactly (v·255/max whole, e.g. v = 257·k at 16 bits:
 *     an 8-bit picture saved deeper) gives that value at every pixel, no noise;
 *   - the same file gives the same pixels every time (no randomness, no state).
 * Alpha is rounded, (v·255 + max/2)/max, not dithered: noise in coverage would show as a
 * speckled edge.
 *
 * References: B. E. Bayer, "An optimum method for two-level rendition of continuous-tone
 * pictures", IEEE International Conference on Communications, 1973, vol. 1, pp. 26-11–26-15
 * (the matrix); R. Ulichney, "Digital Halftoning", MIT Press 1987 (ordered dither as a threshold
 * array added before quantisation, to two or more output levels). */
#ifndef RFI_DITHER_H
#define RFI_DITHER_H

#include <stddef.h>
#include <stdint.h>

/* Reduces `count` pixels of interleaved R, G, B, A samples of `bits` bits (9 to 16), each a
 * little-endian 16-bit word (8 bytes a pixel), to straight 0xAARRGGBB: colour dithered as above
 * at stored pixels (x0 + i·dx, y) for i = 0 ... count − 1, alpha rounded. With `dithered` 0 the
 * colour is rounded as alpha is (the undithered reduction, for the bench to compare). `out` may
 * start where `samples` does (each pixel is read before its 4 bytes are written). */
void rfi_reduce_rgba16(const uint8_t *samples, uint32_t *out, size_t count, int32_t bits, uint32_t x0,
                       uint32_t dx, uint32_t y, int32_t dithered);

#endif
