/* libFuzzer harness: the animated and web formats of the imaging shim on arbitrary bytes. By
 * signature: a GIF's block walk and its frames through giflib; a WebP's features, its still
 * decode at full size and rescaled to half (libwebp's rescaler), and an animated one's frames;
 * a PNG's APNG chunk walk and its frames through libpng. Every frame of a loop and the first of
 * the next are decoded (the rewind), a few at most, within a bound on the canvas's size so that
 * one input never runs for long. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "CRiffleImaging.h"

/* 1 MP: the largest canvas (and still) one input may decode. */
#define FUZZ_PIXEL_LIMIT (1 << 20)
/* Frames decoded at most per input. */
#define FUZZ_FRAMES 12

typedef rfi_status (*fuzz_next)(void *, uint32_t *, int32_t, rfi_animation_frame *, char *, size_t);

/* Decodes the frames of an opened animation, and the first again after the last. */
static void fuzz_frames(void *decoder, const rfi_animation_info *info, fuzz_next next) {
    if (info->width <= 0 || info->height <= 0) return;
    uint32_t *canvas = malloc((size_t)info->width * (size_t)info->height * sizeof *canvas);
    if (canvas == NULL) return;
    char message[RFI_MESSAGE_CAPACITY];
    int32_t frames = info->frame_count + 1 < FUZZ_FRAMES ? info->frame_count + 1 : FUZZ_FRAMES;
    for (int32_t i = 0; i < frames; i++) {
        rfi_animation_frame frame;
        if (next(decoder, canvas, info->width, &frame, message, sizeof message) != RFI_STATUS_OK) break;
    }
    free(canvas);
}

static rfi_status fuzz_gif_next(void *d, uint32_t *c, int32_t r, rfi_animation_frame *f, char *m, size_t n) {
    return rfi_gif_next(d, c, r, f, m, n);
}

static rfi_status fuzz_webp_next(void *d, uint32_t *c, int32_t r, rfi_animation_frame *f, char *m, size_t n) {
    return rfi_webp_animation_next(d, c, r, f, m, n);
}

static rfi_status fuzz_apng_next(void *d, uint32_t *c, int32_t r, rfi_animation_frame *f, char *m, size_t n) {
    return rfi_apng_next(d, c, r, f, m, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char message[RFI_MESSAGE_CAPACITY];
    rfi_animation_info info;
    if (size >= 6 && (memcmp(data, "GIF87a", 6) == 0 || memcmp(data, "GIF89a", 6) == 0)) {
        rfi_gif_read_info(data, size, &info, message, sizeof message);
        rfi_gif *gif = NULL;
        if (rfi_gif_open(data, size, FUZZ_PIXEL_LIMIT, &gif, &info, message, sizeof message) == RFI_STATUS_OK) {
            fuzz_frames(gif, &info, fuzz_gif_next);
        }
        rfi_gif_close(gif);
    } else if (size >= 12 && memcmp(data, "RIFF", 4) == 0 && memcmp(data + 8, "WEBP", 4) == 0) {
        rfi_webp_features features;
        if (rfi_webp_read_features(data, size, &features, message, sizeof message) != RFI_STATUS_OK) return 0;
        if ((int64_t)features.width * features.height > FUZZ_PIXEL_LIMIT) return 0;
        if (!features.has_animation) {
            for (int half = 0; half < 2; half++) {
                int32_t width = features.width >> half, height = features.height >> half;
                rfi_pixels pixels;
                int32_t rows = 0;
                if (width > 0 && height > 0 &&
                    rfi_webp_decode(data, size, width, height, FUZZ_PIXEL_LIMIT, &pixels, &rows, message, sizeof message) ==
                        RFI_STATUS_OK) {
                    rfi_pixels_free(pixels.pixels);
                }
            }
            return 0;
        }
        rfi_webp_animation *animation = NULL;
        if (rfi_webp_animation_open(data, size, FUZZ_PIXEL_LIMIT, &animation, &info, message, sizeof message) == RFI_STATUS_OK) {
            fuzz_frames(animation, &info, fuzz_webp_next);
        }
        rfi_webp_animation_close(animation);
    } else {
        rfi_apng *apng = NULL;
        if (rfi_apng_open(data, size, FUZZ_PIXEL_LIMIT, &apng, &info, message, sizeof message) == RFI_STATUS_OK) {
            fuzz_frames(apng, &info, fuzz_apng_next);
        }
        rfi_apng_close(apng);
    }
    return 0;
}
