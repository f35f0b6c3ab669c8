/* The canvas an animation's frames are composited on (GIF, APNG): premultiplied BGRA pixels,
 * one uint32_t 0xAARRGGBB each, rows packed; shared by gif.c and apng.c, not part of the public
 * header. Rectangles are clipped to the canvas by the caller. */
#ifndef CRIFFLE_IMAGING_CANVAS_H
#define CRIFFLE_IMAGING_CANVAS_H

#include <stddef.h>
#include <stdint.h>

/* The grey of rows whose data never came, as the PNG reader fills them: opaque 128, 128, 128. */
#define RFI_CANVAS_FILL 0xFF808080u

typedef struct rfi_canvas {
    uint32_t *pixels;
    int32_t width;
    int32_t height;
} rfi_canvas;

/* A canvas of width × height, every pixel transparent (0); pixels NULL when calloc fails. */
rfi_canvas rfi_canvas_make(int32_t width, int32_t height);

void rfi_canvas_free(rfi_canvas *canvas);

/* Sets the x, y, width × height rectangle to `value`. */
void rfi_canvas_fill(rfi_canvas *canvas, int32_t x, int32_t y, int32_t width, int32_t height,
                     uint32_t value);

/* Copies every pixel of `from` (of the same size) into `to`. */
void rfi_canvas_copy(const rfi_canvas *from, rfi_canvas *to);

/* Copies the canvas into `out`, rows `row_pixels` apart. */
void rfi_canvas_write(const rfi_canvas *canvas, uint32_t *out, int32_t row_pixels);

/* `source` drawn over `destination`, both premultiplied (Porter-Duff over):
 * d' = s + d·(255 − αs)/255 per channel, the division rounded to nearest. */
uint32_t rfi_canvas_over(uint32_t source, uint32_t destination);

#endif
