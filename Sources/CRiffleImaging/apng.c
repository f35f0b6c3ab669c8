/* APNG over libpng, which Debian builds without the APNG patch: the chunks are walked here and
 * each frame is decoded by libpng as a PNG of its own (rfi_png_reader over memory).
 *
 * The layout is the APNG specification's (https://wiki.mozilla.org/APNG_Specification): acTL
 * (num_frames, num_plays) before the first IDAT; an fcTL before each frame (sequence number,
 * width, height, x and y offset, delay numerator and denominator, dispose_op, blend_op); the
 * first frame's data is the IDAT chunks when its fcTL comes before them (else the IDAT image is
 * the default image, shown by decoders without APNG support and not part of the animation), and
 * every other frame's data is fdAT chunks, each a sequence number then what an IDAT would hold.
 * fcTL and fdAT share one sequence, from 0 without gaps. */
#include "canvas.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* A stretch of a frame's compressed data within the file. */
struct rfi_apng_data {
    size_t offset;
    size_t length;
};

/* One frame: its fcTL and where its data chunks lie (a run of `data_count` entries of the
 * data table from `first_data`). */
struct rfi_apng_frame {
    uint32_t width, height, x, y;
    uint16_t delay_numerator, delay_denominator;
    uint8_t dispose, blend;
    size_t first_data;
    size_t data_count;
};

enum { RFI_APNG_DISPOSE_NONE = 0, RFI_APNG_DISPOSE_BACKGROUND = 1, RFI_APNG_DISPOSE_PREVIOUS = 2 };
enum { RFI_APNG_BLEND_SOURCE = 0, RFI_APNG_BLEND_OVER = 1 };

struct rfi_apng {
    const uint8_t *file;
    /* IHDR's 13 bytes, PLTE's and tRNS's data (NULL when absent), as the file holds them. */
    const uint8_t *header;
    const uint8_t *palette;
    size_t palette_length;
    const uint8_t *transparency;
    size_t transparency_length;
    struct rfi_apng_frame *frames;
    struct rfi_apng_data *data;
    size_t data_count;
    rfi_animation_info info;
    int32_t next;
    rfi_canvas canvas;
    rfi_canvas saved;
    /* The last frame's disposal and rectangle. */
    int dispose;
    struct rfi_apng_frame *shown;
    /* One frame's pixels as libpng delivers them (canvas-sized: no frame is larger). */
    rfi_canvas frame;
};

static uint32_t rfi_apng_u32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint16_t rfi_apng_u16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

void rfi_apng_close(rfi_apng *apng) {
    if (apng == NULL) return;
    free(apng->frames);
    free(apng->data);
    rfi_canvas_free(&apng->canvas);
    rfi_canvas_free(&apng->saved);
    rfi_canvas_free(&apng->frame);
    free(apng);
}

/* Appends a data stretch to frame `index`; 0 when memory runs out. */
static int rfi_apng_add_data(rfi_apng *apng, size_t *capacity, int32_t index, size_t offset, size_t length) {
    if (apng->data_count == *capacity) {
        size_t grown = *capacity ? *capacity * 2 : 16;
        struct rfi_apng_data *data = realloc(apng->data, grown * sizeof *data);
        if (data == NULL) return 0;
        apng->data = data;
        *capacity = grown;
    }
    apng->data[apng->data_count++] = (struct rfi_apng_data){offset, length};
    apng->frames[index].data_count++;
    return 1;
}

/* Walks the chunks into the frame table. A frame counts (`info.frame_count`) once a chunk
 * after its data is whole (another fcTL, IEND, any other chunk); the walk stops at the first
 * chunk the specification forbids (a sequence number out of order, a frame outside the canvas,
 * data with no frame open), a CRC that does not match, or the end of the data. Returns 0 when
 * memory runs out. */
static int rfi_apng_walk(rfi_apng *apng, const uint8_t *data, size_t length, uint32_t announced) {
    size_t data_capacity = 0, offset = 8;
    uint32_t sequence = 0, canvas_width = 0, canvas_height = 0;
    /* Frames whose fcTL was read: the last of them is open while its data comes. */
    int32_t started = 0;
    int seen_image_data = 0, ended = 0;
    /* The open frame's data is IDAT (the first frame, its fcTL before the image data) or fdAT. */
    int open_is_image_data = 0;
    apng->frames = calloc(announced, sizeof *apng->frames);
    if (apng->frames == NULL) return 0;
    while (!ended && offset + 12 <= length) {
        uint32_t chunk_length = rfi_apng_u32(data + offset);
        const uint8_t *type = data + offset + 4, *body = data + offset + 8;
        if (chunk_length > 0x7FFFFFFFu || chunk_length > length - offset - 12) break;
        if (crc32(crc32(0, NULL, 0), type, chunk_length + 4) != rfi_apng_u32(body + chunk_length)) break;
        int is_image_data = memcmp(type, "IDAT", 4) == 0, is_frame_data = memcmp(type, "fdAT", 4) == 0;
        int is_open_frames_data = started > apng->info.frame_count &&
                                  (open_is_image_data ? is_image_data : is_frame_data);
        if (started > apng->info.frame_count && !is_open_frames_data) {
            if (apng->frames[started - 1].data_count == 0) break;
            apng->info.frame_count = started;
        }
        if (memcmp(type, "IHDR", 4) == 0 && chunk_length == 13) {
            apng->header = body;
            canvas_width = rfi_apng_u32(body);
            canvas_height = rfi_apng_u32(body + 4);
        } else if (memcmp(type, "PLTE", 4) == 0) {
            apng->palette = body;
            apng->palette_length = chunk_length;
        } else if (memcmp(type, "tRNS", 4) == 0) {
            apng->transparency = body;
            apng->transparency_length = chunk_length;
        } else if (memcmp(type, "fcTL", 4) == 0) {
            if (chunk_length != 26 || rfi_apng_u32(body) != sequence++ || (uint32_t)started == announced) break;
            struct rfi_apng_frame frame = {
                rfi_apng_u32(body + 4), rfi_apng_u32(body + 8), rfi_apng_u32(body + 12), rfi_apng_u32(body + 16),
                rfi_apng_u16(body + 20), rfi_apng_u16(body + 22), body[24], body[25], apng->data_count, 0};
            /* Within the canvas (and the first frame, before the IDAT, exactly the canvas). */
            if (frame.width == 0 || frame.height == 0 || frame.x > canvas_width || frame.y > canvas_height ||
                frame.width > canvas_width - frame.x || frame.height > canvas_height - frame.y ||
                frame.dispose > RFI_APNG_DISPOSE_PREVIOUS || frame.blend > RFI_APNG_BLEND_OVER)
                break;
            if (!seen_image_data && (frame.x != 0 || frame.y != 0 || frame.width != canvas_width ||
                                     frame.height != canvas_height))
                break;
            /* The first frame's "previous" is the empty canvas: the specification says to treat it
             * as background. */
            if (started == 0 && frame.dispose == RFI_APNG_DISPOSE_PREVIOUS) frame.dispose = RFI_APNG_DISPOSE_BACKGROUND;
            apng->frames[started++] = frame;
            /* The IDAT image is the first frame when its fcTL comes before it. */
            open_is_image_data = !seen_image_data;
        } else if (is_image_data) {
            if (is_open_frames_data && !rfi_apng_add_data(apng, &data_capacity, 0, offset + 8, chunk_length)) return 0;
            seen_image_data = 1;
        } else if (is_frame_data) {
            if (!is_open_frames_data || chunk_length < 4 || rfi_apng_u32(body) != sequence++) break;
            if (!rfi_apng_add_data(apng, &data_capacity, started - 1, offset + 12, chunk_length - 4)) return 0;
        } else if (memcmp(type, "IEND", 4) == 0) {
            ended = 1;
        }
        offset += 12 + (size_t)chunk_length;
    }
    apng->info.truncated = !ended || (uint32_t)apng->info.frame_count < announced;
    return 1;
}

rfi_status rfi_apng_open(const uint8_t *data, size_t length, int64_t pixel_limit, rfi_apng **out,
                         rfi_animation_info *info, char *message, size_t message_capacity) {
    *out = NULL;
    memset(info, 0, sizeof *info);
    rfi_set_message(message, message_capacity, "");
    /* acTL before the image data (the walk checks the rest). */
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    if (length < 8 || memcmp(data, signature, 8) != 0) {
        rfi_set_message(message, message_capacity, "not a PNG file");
        return RFI_STATUS_FAILED;
    }
    uint32_t announced = 0, plays = 0;
    int found = 0;
    for (size_t offset = 8; offset + 12 <= length && !found;) {
        uint32_t chunk_length = rfi_apng_u32(data + offset);
        if (chunk_length > length - offset - 12 || memcmp(data + offset + 4, "IDAT", 4) == 0) break;
        if (memcmp(data + offset + 4, "acTL", 4) == 0 && chunk_length == 8) {
            announced = rfi_apng_u32(data + offset + 8);
            plays = rfi_apng_u32(data + offset + 12);
            found = 1;
        }
        offset += 12 + (size_t)chunk_length;
    }
    if (!found || announced == 0) {
        rfi_set_message(message, message_capacity, "the PNG is not animated (no acTL chunk)");
        return RFI_STATUS_UNSUPPORTED;
    }
    rfi_apng *apng = calloc(1, sizeof *apng);
    /* No more frames than fcTL chunks (26 bytes each, with their 12 of framing) fit the file. */
    if (announced > length / 38) announced = (uint32_t)(length / 38);
    if (apng == NULL || !rfi_apng_walk(apng, data, length, announced)) {
        rfi_apng_close(apng);
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    apng->file = data;
    apng->info.loop_count = plays > 0x7FFFFFFFu ? 0 : (int32_t)plays;
    if (apng->header != NULL) {
        apng->info.width = (int32_t)(rfi_apng_u32(apng->header) & 0x7FFFFFFF);
        apng->info.height = (int32_t)(rfi_apng_u32(apng->header + 4) & 0x7FFFFFFF);
        /* Colour types 4 and 6 carry alpha. */
        apng->info.has_alpha = (apng->header[9] & 4) != 0 || apng->transparency != NULL;
    }
    for (int32_t i = 0; i < apng->info.frame_count; i++) {
        const struct rfi_apng_frame *frame = &apng->frames[i];
        if (frame->dispose != RFI_APNG_DISPOSE_NONE || frame->width < (uint32_t)apng->info.width ||
            frame->height < (uint32_t)apng->info.height)
            apng->info.has_alpha = 1;
    }
    *info = apng->info;
    if (apng->info.frame_count == 0) {
        rfi_apng_close(apng);
        rfi_set_message(message, message_capacity, "no frame of the animation is whole");
        return RFI_STATUS_FAILED;
    }
    if ((int64_t)info->width * info->height > pixel_limit) {
        rfi_apng_close(apng);
        rfi_set_message(message, message_capacity, "the canvas has more pixels than the limit");
        return RFI_STATUS_TOO_LARGE;
    }
    apng->canvas = rfi_canvas_make(info->width, info->height);
    apng->frame = rfi_canvas_make(info->width, info->height);
    if (apng->canvas.pixels == NULL || apng->frame.pixels == NULL) {
        rfi_apng_close(apng);
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    *out = apng;
    return RFI_STATUS_OK;
}

/* Writes a chunk of `type` around `length` bytes of `body` at `out`; returns the end. */
static uint8_t *rfi_apng_put_chunk(uint8_t *out, const char *type, const uint8_t *body, size_t length) {
    for (int i = 0; i < 4; i++) out[i] = (uint8_t)(length >> (24 - 8 * i));
    memcpy(out + 4, type, 4);
    if (length > 0) memcpy(out + 8, body, length);
    uLong crc = crc32(crc32(0, NULL, 0), out + 4, (uInt)length + 4);
    for (int i = 0; i < 4; i++) out[8 + length + i] = (uint8_t)(crc >> (24 - 8 * i));
    return out + 12 + length;
}

/* The frame as a PNG of its own: the file's IHDR with the frame's size, its PLTE and tRNS, the
 * frame's data as IDAT chunks, IEND. NULL when memory runs out. */
static uint8_t *rfi_apng_frame_file(const rfi_apng *apng, const struct rfi_apng_frame *frame, size_t *length) {
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    size_t size = 8 + 25 + 12;
    if (apng->palette != NULL) size += 12 + apng->palette_length;
    if (apng->transparency != NULL) size += 12 + apng->transparency_length;
    for (size_t i = 0; i < frame->data_count; i++) size += 12 + apng->data[frame->first_data + i].length;
    uint8_t *file = malloc(size);
    if (file == NULL) return NULL;
    uint8_t header[13];
    memcpy(header, apng->header, 13);
    for (int i = 0; i < 4; i++) {
        header[i] = (uint8_t)(frame->width >> (24 - 8 * i));
        header[4 + i] = (uint8_t)(frame->height >> (24 - 8 * i));
    }
    memcpy(file, signature, 8);
    uint8_t *end = rfi_apng_put_chunk(file + 8, "IHDR", header, 13);
    if (apng->palette != NULL) end = rfi_apng_put_chunk(end, "PLTE", apng->palette, apng->palette_length);
    if (apng->transparency != NULL) end = rfi_apng_put_chunk(end, "tRNS", apng->transparency, apng->transparency_length);
    for (size_t i = 0; i < frame->data_count; i++) {
        const struct rfi_apng_data *stretch = &apng->data[frame->first_data + i];
        end = rfi_apng_put_chunk(end, "IDAT", apng->file + stretch->offset, stretch->length);
    }
    end = rfi_apng_put_chunk(end, "IEND", NULL, 0);
    *length = (size_t)(end - file);
    return file;
}

/* Decodes `frame` into apng->frame (its top-left width × height), placing an interlaced one's
 * passes where they belong. */
static rfi_status rfi_apng_decode_frame(rfi_apng *apng, const struct rfi_apng_frame *frame,
                                        rfi_animation_frame *result, char *message, size_t message_capacity) {
    size_t length = 0;
    uint8_t *file = rfi_apng_frame_file(apng, frame, &length);
    uint32_t *rows = malloc((size_t)frame->width * 16 * sizeof *rows);
    if (file == NULL || rows == NULL) {
        free(file);
        free(rows);
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    rfi_png_reader *reader = NULL;
    rfi_image_header header;
    rfi_status status = rfi_png_reader_open_memory(file, length, &reader, &header, message, message_capacity);
    if (status == RFI_STATUS_OK) status = rfi_png_reader_start(reader, message, message_capacity);
    while (status == RFI_STATUS_OK) {
        rfi_png_rows batch;
        status = rfi_png_reader_read(reader, rows, (int32_t)frame->width, 16, &batch, message, message_capacity);
        if (status != RFI_STATUS_OK || batch.count == 0) break;
        for (int32_t r = 0; r < batch.count; r++) {
            uint32_t *target = apng->frame.pixels + (size_t)(batch.y0 + (batch.first_row + r) * batch.dy) * (size_t)apng->frame.width;
            const uint32_t *source = rows + (size_t)r * frame->width;
            for (int32_t i = 0; i < batch.width; i++) target[batch.x0 + i * batch.dx] = source[i];
        }
    }
    char text[RFI_MESSAGE_CAPACITY];
    rfi_warning warning = rfi_png_reader_close(reader, text, sizeof text);
    if (status == RFI_STATUS_OK && warning != RFI_WARNING_NONE) {
        result->warning = warning;
        rfi_set_message(message, message_capacity, text);
    }
    free(file);
    free(rows);
    return status;
}

rfi_status rfi_apng_next(rfi_apng *apng, uint32_t *canvas, int32_t row_pixels,
                         rfi_animation_frame *result, char *message, size_t message_capacity) {
    memset(result, 0, sizeof *result);
    rfi_set_message(message, message_capacity, "");
    if (row_pixels < apng->canvas.width) {
        rfi_set_message(message, message_capacity, "the rows are narrower than the canvas");
        return RFI_STATUS_INVALID_REQUEST;
    }
    rfi_canvas *target = &apng->canvas;
    if (apng->next >= apng->info.frame_count) {
        memset(target->pixels, 0, (size_t)target->width * (size_t)target->height * sizeof(uint32_t));
        apng->next = 0;
        apng->shown = NULL;
    }
    /* Undo the frame before, as its dispose_op says. */
    const struct rfi_apng_frame *before = apng->shown;
    if (before != NULL && before->dispose == RFI_APNG_DISPOSE_BACKGROUND) {
        rfi_canvas_fill(target, (int32_t)before->x, (int32_t)before->y, (int32_t)before->width, (int32_t)before->height, 0);
    } else if (before != NULL && before->dispose == RFI_APNG_DISPOSE_PREVIOUS && apng->saved.pixels != NULL) {
        rfi_canvas_copy(&apng->saved, target);
    }
    struct rfi_apng_frame *frame = &apng->frames[apng->next];
    if (frame->dispose == RFI_APNG_DISPOSE_PREVIOUS) {
        if (apng->saved.pixels == NULL) apng->saved = rfi_canvas_make(target->width, target->height);
        if (apng->saved.pixels == NULL) {
            rfi_set_message(message, message_capacity, "out of memory");
            return RFI_STATUS_OUT_OF_MEMORY;
        }
        rfi_canvas_copy(target, &apng->saved);
    }
    rfi_status status = rfi_apng_decode_frame(apng, frame, result, message, message_capacity);
    if (status != RFI_STATUS_OK) return status;
    for (uint32_t y = 0; y < frame->height; y++) {
        const uint32_t *source = apng->frame.pixels + (size_t)y * (size_t)apng->frame.width;
        uint32_t *line = target->pixels + (size_t)(frame->y + y) * (size_t)target->width + frame->x;
        for (uint32_t x = 0; x < frame->width; x++) {
            line[x] = frame->blend == RFI_APNG_BLEND_OVER ? rfi_canvas_over(source[x], line[x]) : source[x];
        }
    }
    apng->shown = frame;
    apng->next++;
    /* Seconds as a fraction; a denominator of 0 means hundredths. */
    uint32_t denominator = frame->delay_denominator ? frame->delay_denominator : 100;
    result->duration_us = ((int64_t)frame->delay_numerator * 1000000 + denominator / 2) / denominator;
    rfi_canvas_write(target, canvas, row_pixels);
    return RFI_STATUS_OK;
}
