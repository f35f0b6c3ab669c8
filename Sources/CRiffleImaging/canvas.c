/* The canvas animations are composited on (see canvas.h). */
#include "canvas.h"

#include <stdlib.h>
#include <string.h>

rfi_canvas rfi_canvas_make(int32_t width, int32_t height) {
    rfi_canvas canvas = {NULL, width, height};
    if (width > 0 && height > 0) canvas.pixels = calloc((size_t)width * (size_t)height, sizeof(uint32_t));
    return canvas;
}

void rfi_canvas_free(rfi_canvas *canvas) {
    free(canvas->pixels);
    canvas->pixels = NULL;
}

void rfi_canvas_fill(rfi_canvas *canvas, int32_t x, int32_t y, int32_t width, int32_t height,
                     uint32_t value) {
    for (int32_t row = y; row < y + height; row++) {
        uint32_t *line = canvas->pixels + (size_t)row * (size_t)canvas->width + x;
        for (int32_t i = 0; i < width; i++) line[i] = value;
    }
}

void rfi_canvas_copy(const rfi_canvas *from, rfi_canvas *to) {
    memcpy(to->pixels, from->pixels, (size_t)from->width * (size_t)from->height * sizeof(uint32_t));
}

void rfi_canvas_write(const rfi_canvas *canvas, uint32_t *out, int32_t row_pixels) {
    for (int32_t y = 0; y < canvas->height; y++) {
        memcpy(out + (size_t)y * (size_t)row_pixels, canvas->pixels + (size_t)y * (size_t)canvas->width,
               (size_t)canvas->width * sizeof(uint32_t));
    }
}

/* Exact round(c·a/255) for 8-bit inputs (Jim Blinn, "Three wrongs make a right"), as
 * rfi_premultiply rounds. */
static inline uint32_t rfi_canvas_scale(uint32_t channel, uint32_t alpha) {
    uint32_t t = channel * alpha + 128;
    return (t + (t >> 8)) >> 8;
}

uint32_t rfi_canvas_over(uint32_t source, uint32_t destination) {
    uint32_t alpha = source >> 24;
    if (alpha == 255) return source;
    if (source == 0) return destination;
    uint32_t keep = 255 - alpha, result = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        uint32_t value = ((source >> shift) & 0xFF) + rfi_canvas_scale((destination >> shift) & 0xFF, keep);
        result |= (value > 255 ? 255 : value) << shift;
    }
    return result;
}
