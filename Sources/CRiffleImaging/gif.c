/* GIF through giflib: a walk over the blocks for the layout (no pixel decoded), then frame by
 * frame with giflib's record API (DGifGetRecordType, DGifGetImageHeader, DGifGetLine),
 * composited onto a canvas as browsers do. giflib reports errors by return value (no longjmp).
 *
 * The layout is the GIF89a specification's (https://www.w3.org/Graphics/GIF/spec-gif89a.txt):
 * a 6-byte header, the logical screen descriptor (section 18) and its global colour table, then
 * blocks: an extension (0x21, a label, data sub-blocks ending with an empty one; the graphic
 * control extension of section 23 and the NETSCAPE2.0 application extension among them), an
 * image (0x2C, the descriptor of section 20, a local colour table, the LZW minimum code size
 * and data sub-blocks), or the trailer (0x3B). */
#include "canvas.h"
#include "internal.h"

#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>

/* What the walk learned beyond rfi_animation_info. */
struct rfi_gif_layout {
    rfi_animation_info info;
    /* The logical screen size, before the first frame grows it. */
    int32_t screen_width;
    int32_t screen_height;
};

static uint32_t rfi_gif_u16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }

/* Skips data sub-blocks from `*offset` up to and including the empty one; 0 when the data ends
 * first. */
static int rfi_gif_skip_sub_blocks(const uint8_t *data, size_t length, size_t *offset) {
    while (*offset < length) {
        size_t size = data[*offset];
        *offset += 1 + size;
        if (size == 0) return 1;
    }
    return 0;
}

/* The application extension's NETSCAPE2.0 (or ANIMEXTS1.0) loop count at `offset` (just after
 * the label), or -1 when it is another extension or cut short. */
static int32_t rfi_gif_loop_extension(const uint8_t *data, size_t length, size_t offset) {
    if (offset + 16 > length || data[offset] != 11) return -1;
    if (memcmp(data + offset + 1, "NETSCAPE2.0", 11) != 0 && memcmp(data + offset + 1, "ANIMEXTS1.0", 11) != 0)
        return -1;
    if (data[offset + 12] != 3 || data[offset + 13] != 1) return -1;
    return (int32_t)rfi_gif_u16(data + offset + 14);
}

static rfi_status rfi_gif_walk(const uint8_t *data, size_t length, struct rfi_gif_layout *layout,
                               char *message, size_t message_capacity) {
    memset(layout, 0, sizeof *layout);
    rfi_animation_info *info = &layout->info;
    if (length < 6 || (memcmp(data, "GIF87a", 6) != 0 && memcmp(data, "GIF89a", 6) != 0)) {
        rfi_set_message(message, message_capacity, "not a GIF file");
        return RFI_STATUS_FAILED;
    }
    if (length < 13) {
        rfi_set_message(message, message_capacity, "the data ends inside the screen descriptor");
        return RFI_STATUS_TRUNCATED;
    }
    layout->screen_width = (int32_t)rfi_gif_u16(data + 6);
    layout->screen_height = (int32_t)rfi_gif_u16(data + 8);
    info->width = layout->screen_width;
    info->height = layout->screen_height;
    /* Without a NETSCAPE2.0 extension the frames play once. */
    info->loop_count = 1;
    size_t offset = 13;
    if (data[10] & 0x80) offset += 3u << ((data[10] & 7) + 1);
    int seen_loop = 0;
    for (;;) {
        if (offset >= length) {
            info->truncated = 1;
            break;
        }
        uint8_t block = data[offset++];
        if (block == 0x3B) break;
        if (block == 0x21) {
            if (offset >= length) {
                info->truncated = 1;
                break;
            }
            uint8_t label = data[offset++];
            if (label == 0xF9 && offset + 5 <= length && data[offset] == 4) {
                uint8_t flags = data[offset + 1];
                /* A transparent index, or a frame cleared to transparent after it shows. */
                if ((flags & 1) || ((flags >> 2) & 7) == 2) info->has_alpha = 1;
            }
            if (label == 0xFF && !seen_loop) {
                int32_t loops = rfi_gif_loop_extension(data, length, offset);
                if (loops >= 0) {
                    /* N on the wire means "repeat N times after the first play"; 0 forever. */
                    info->loop_count = loops == 0 ? 0 : loops + 1;
                    seen_loop = 1;
                }
            }
            if (!rfi_gif_skip_sub_blocks(data, length, &offset)) {
                info->truncated = 1;
                break;
            }
            continue;
        }
        if (block != 0x2C) break;  /* Not a block: the data ends here, as for decoders that stop. */
        if (offset + 9 > length) {
            info->truncated = 1;
            break;
        }
        uint32_t left = rfi_gif_u16(data + offset), top = rfi_gif_u16(data + offset + 2);
        uint32_t width = rfi_gif_u16(data + offset + 4), height = rfi_gif_u16(data + offset + 6);
        uint8_t flags = data[offset + 8];
        if (info->frame_count == 0) {
            /* The canvas grows to hold the first frame, as Wuffs does
             * (std/gif/decode_gif.wuffs, decode_id_part0): some writers leave the screen 0×0. */
            if (left + width > (uint32_t)info->width) info->width = (int32_t)(left + width);
            if (top + height > (uint32_t)info->height) info->height = (int32_t)(top + height);
        }
        if (left > 0 || top > 0 || left + width < (uint32_t)info->width || top + height < (uint32_t)info->height)
            info->has_alpha = 1;
        offset += 9;
        if (flags & 0x80) offset += 3u << ((flags & 7) + 1);
        /* The LZW minimum code size, then the data. */
        offset += 1;
        if (offset > length || !rfi_gif_skip_sub_blocks(data, length, &offset)) {
            info->truncated = 1;
            /* A first frame cut short is shown as far as it goes. */
            if (info->frame_count == 0) info->frame_count = 1;
            break;
        }
        info->frame_count++;
    }
    if (info->frame_count == 0) {
        rfi_set_message(message, message_capacity,
                        info->truncated ? "the data ends before the first image" : "the GIF has no image in it");
        return info->truncated ? RFI_STATUS_TRUNCATED : RFI_STATUS_FAILED;
    }
    if (info->width == 0 || info->height == 0) {
        rfi_set_message(message, message_capacity, "the GIF's screen and first image are empty (0 pixels)");
        return RFI_STATUS_FAILED;
    }
    return RFI_STATUS_OK;
}

rfi_status rfi_gif_read_info(const uint8_t *data, size_t length, rfi_animation_info *info,
                             char *message, size_t message_capacity) {
    struct rfi_gif_layout layout;
    rfi_set_message(message, message_capacity, "");
    rfi_status status = rfi_gif_walk(data, length, &layout, message, message_capacity);
    *info = layout.info;
    return status;
}

/* giflib's words for error `code`; `otherwise` when it has none (GifErrorString returns NULL for
 * 0, which some of its checks leave, and for codes it does not know). */
static const char *rfi_gif_error_text(int code, const char *otherwise) {
    const char *text = GifErrorString(code);
    return text != NULL ? text : otherwise;
}

/* The bytes giflib reads, and how far it has read. */
struct rfi_gif_source {
    const uint8_t *data;
    size_t length;
    size_t offset;
};

struct rfi_gif {
    struct rfi_gif_source source;
    GifFileType *file;
    rfi_animation_info info;
    int64_t pixel_limit;
    /* The frame next() decodes next, from 0. */
    int32_t next;
    /* The canvas as the last frame left it (before its disposal), and a copy from before it
     * was drawn, for a frame to be disposed of by restoring the previous canvas. */
    rfi_canvas canvas;
    rfi_canvas saved;
    /* The last frame's disposal (GIF89a 23.c.iv) and rectangle, clipped to the canvas. */
    int disposal;
    int32_t frame_x, frame_y, frame_width, frame_height;
    /* One row of colour indices, as wide as the widest frame so far. */
    GifPixelType *row;
    int32_t row_capacity;
};

static int rfi_gif_read(GifFileType *file, GifByteType *target, int count) {
    struct rfi_gif_source *source = file->UserData;
    size_t left = source->length - source->offset;
    size_t taken = count < 0 ? 0 : ((size_t)count < left ? (size_t)count : left);
    memcpy(target, source->data + source->offset, taken);
    source->offset += taken;
    return (int)taken;
}

/* (Re)opens giflib at the start of the data with an empty canvas. */
static rfi_status rfi_gif_start(rfi_gif *gif, char *message, size_t message_capacity) {
    if (gif->file != NULL) DGifCloseFile(gif->file, NULL);
    gif->source.offset = 0;
    int error = 0;
    gif->file = DGifOpen(&gif->source, rfi_gif_read, &error);
    if (gif->file == NULL) {
        rfi_set_message(message, message_capacity, rfi_gif_error_text(error, "giflib cannot read the header"));
        return error == D_GIF_ERR_NOT_ENOUGH_MEM ? RFI_STATUS_OUT_OF_MEMORY : RFI_STATUS_FAILED;
    }
    memset(gif->canvas.pixels, 0, (size_t)gif->canvas.width * (size_t)gif->canvas.height * sizeof(uint32_t));
    gif->next = 0;
    gif->disposal = DISPOSE_DO_NOT;
    return RFI_STATUS_OK;
}

void rfi_gif_close(rfi_gif *gif) {
    if (gif == NULL) return;
    if (gif->file != NULL) DGifCloseFile(gif->file, NULL);
    rfi_canvas_free(&gif->canvas);
    rfi_canvas_free(&gif->saved);
    free(gif->row);
    free(gif);
}

rfi_status rfi_gif_open(const uint8_t *data, size_t length, int64_t pixel_limit, rfi_gif **out,
                        rfi_animation_info *info, char *message, size_t message_capacity) {
    *out = NULL;
    struct rfi_gif_layout layout;
    rfi_set_message(message, message_capacity, "");
    rfi_status status = rfi_gif_walk(data, length, &layout, message, message_capacity);
    *info = layout.info;
    if (status != RFI_STATUS_OK) return status;
    if ((int64_t)info->width * info->height > pixel_limit) {
        rfi_set_message(message, message_capacity, "the canvas has more pixels than the limit");
        return RFI_STATUS_TOO_LARGE;
    }
    rfi_gif *gif = calloc(1, sizeof *gif);
    if (gif != NULL) gif->canvas = rfi_canvas_make(info->width, info->height);
    if (gif == NULL || gif->canvas.pixels == NULL) {
        rfi_gif_close(gif);
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    gif->source = (struct rfi_gif_source){data, length, 0};
    gif->info = *info;
    gif->pixel_limit = pixel_limit;
    status = rfi_gif_start(gif, message, message_capacity);
    if (status != RFI_STATUS_OK) {
        rfi_gif_close(gif);
        return status;
    }
    *out = gif;
    return RFI_STATUS_OK;
}

/* The canvas row of the `k`-th row an interlaced frame of `height` rows stores: passes of every
 * 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1 (GIF89a appendix E). */
static int32_t rfi_gif_interlaced_row(int32_t k, int32_t height) {
    static const int32_t start[4] = {0, 4, 2, 1}, step[4] = {8, 8, 4, 2};
    for (int pass = 0; pass < 4; pass++) {
        int32_t rows = height > start[pass] ? (height - start[pass] + step[pass] - 1) / step[pass] : 0;
        if (k < rows) return start[pass] + k * step[pass];
        k -= rows;
    }
    return height;
}

/* Undoes the last frame as its disposal says, before the next one is drawn. Background clears
 * its rectangle to transparent, not to the background colour: every browser does (Wuffs and
 * Firefox document it), and a GIF's background colour is almost never meant to show. */
static void rfi_gif_dispose(rfi_gif *gif) {
    if (gif->disposal == DISPOSE_BACKGROUND) {
        rfi_canvas_fill(&gif->canvas, gif->frame_x, gif->frame_y, gif->frame_width, gif->frame_height, 0);
    } else if (gif->disposal == DISPOSE_PREVIOUS && gif->saved.pixels != NULL) {
        rfi_canvas_copy(&gif->saved, &gif->canvas);
    }
    gif->disposal = DISPOSE_DO_NOT;
}

/* Reads the current image's pixels (its descriptor read) onto the canvas with `control`'s
 * transparent index. An index with no colour (past the table, or no table at all) is left
 * transparent, as Wuffs does (its palettes are transparent black past their entries). */
static rfi_status rfi_gif_draw(rfi_gif *gif, const GraphicsControlBlock *control,
                               rfi_animation_frame *frame, char *message, size_t message_capacity) {
    GifFileType *file = gif->file;
    GifImageDesc *image = &file->Image;
    int32_t width = image->Width, height = image->Height;
    if ((int64_t)width * height > gif->pixel_limit) {
        rfi_set_message(message, message_capacity, "a frame has more pixels than the limit");
        return RFI_STATUS_TOO_LARGE;
    }
    ColorMapObject *map = image->ColorMap != NULL ? image->ColorMap : file->SColorMap;
    uint32_t palette[256];
    int colours = map != NULL && map->ColorCount > 0 ? (map->ColorCount < 256 ? map->ColorCount : 256) : 0;
    for (int i = 0; i < 256; i++) {
        palette[i] = i < colours ? 0xFF000000u | (uint32_t)map->Colors[i].Red << 16 |
                                      (uint32_t)map->Colors[i].Green << 8 | map->Colors[i].Blue
                                 : 0;
    }
    if (control->TransparentColor >= 0 && control->TransparentColor < 256) palette[control->TransparentColor] = 0;
    /* The frame's rectangle on the canvas. */
    int32_t x0 = image->Left, y0 = image->Top;
    int32_t x1 = x0 + width < gif->canvas.width ? x0 + width : gif->canvas.width;
    int32_t y1 = y0 + height < gif->canvas.height ? y0 + height : gif->canvas.height;
    gif->frame_x = x0 < x1 ? x0 : 0;
    gif->frame_y = y0 < y1 ? y0 : 0;
    gif->frame_width = x0 < x1 ? x1 - x0 : 0;
    gif->frame_height = y0 < y1 ? y1 - y0 : 0;
    if (control->DisposalMode == DISPOSE_PREVIOUS) {
        if (gif->saved.pixels == NULL) gif->saved = rfi_canvas_make(gif->canvas.width, gif->canvas.height);
        if (gif->saved.pixels == NULL) {
            rfi_set_message(message, message_capacity, "out of memory");
            return RFI_STATUS_OUT_OF_MEMORY;
        }
        rfi_canvas_copy(&gif->canvas, &gif->saved);
    }
    gif->disposal = control->DisposalMode;
    if (width == 0 || height == 0) {
        /* No pixel to read: pass over the data giflib set up for. */
        int code_size = 0;
        GifByteType *block = NULL;
        if (DGifGetCode(file, &code_size, &block) == GIF_ERROR) goto failed;
        while (block != NULL) {
            if (DGifGetCodeNext(file, &block) == GIF_ERROR) goto failed;
        }
        return RFI_STATUS_OK;
    }
    if (width > gif->row_capacity) {
        GifPixelType *row = realloc(gif->row, (size_t)width);
        if (row == NULL) {
            rfi_set_message(message, message_capacity, "out of memory");
            return RFI_STATUS_OUT_OF_MEMORY;
        }
        gif->row = row;
        gif->row_capacity = width;
    }
    /* Which canvas rows the frame's data reached, to fill the others grey if it breaks off. */
    int32_t k = 0;
    for (; k < height; k++) {
        if (DGifGetLine(file, gif->row, width) == GIF_ERROR) break;
        int32_t y = y0 + (image->Interlace ? rfi_gif_interlaced_row(k, height) : k);
        if (y >= y1) continue;
        uint32_t *line = gif->canvas.pixels + (size_t)y * (size_t)gif->canvas.width;
        for (int32_t x = x0; x < x1; x++) {
            uint32_t colour = palette[gif->row[x - x0]];
            if (colour != 0) line[x] = colour;
        }
    }
    if (k == height) return RFI_STATUS_OK;
    /* The rows never read are grey, as a truncated PNG's are; the frames after this one cannot
     * be reached (giflib's decoder is left inside this frame's data). */
    frame->warning = file->Error == D_GIF_ERR_READ_FAILED || file->Error == D_GIF_ERR_EOF_TOO_SOON
                         ? RFI_WARNING_TRUNCATED
                         : RFI_WARNING_CORRUPT_DATA;
    rfi_set_message(message, message_capacity, rfi_gif_error_text(file->Error, "giflib cannot decode the image data"));
    for (; k < height; k++) {
        int32_t y = y0 + (image->Interlace ? rfi_gif_interlaced_row(k, height) : k);
        if (y < y1 && x0 < x1) rfi_canvas_fill(&gif->canvas, x0, y, x1 - x0, 1, RFI_CANVAS_FILL);
    }
    return RFI_STATUS_OK;
failed:
    rfi_set_message(message, message_capacity, rfi_gif_error_text(file->Error, "giflib cannot read the image data"));
    return file->Error == D_GIF_ERR_READ_FAILED ? RFI_STATUS_TRUNCATED : RFI_STATUS_FAILED;
}

rfi_status rfi_gif_next(rfi_gif *gif, uint32_t *canvas, int32_t row_pixels,
                        rfi_animation_frame *frame, char *message, size_t message_capacity) {
    memset(frame, 0, sizeof *frame);
    rfi_set_message(message, message_capacity, "");
    if (row_pixels < gif->canvas.width) {
        rfi_set_message(message, message_capacity, "the rows are narrower than the canvas");
        return RFI_STATUS_INVALID_REQUEST;
    }
    if (gif->next >= gif->info.frame_count) {
        rfi_status status = rfi_gif_start(gif, message, message_capacity);
        if (status != RFI_STATUS_OK) return status;
    }
    GifFileType *file = gif->file;
    GraphicsControlBlock control = {DISPOSE_DO_NOT, 0, 0, NO_TRANSPARENT_COLOR};
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(file, &type) == GIF_ERROR) break;
        if (type == EXTENSION_RECORD_TYPE) {
            int code = 0;
            GifByteType *block = NULL;
            if (DGifGetExtension(file, &code, &block) == GIF_ERROR) break;
            /* The graphic control extension applies to the image that follows it. */
            if (code == GRAPHICS_EXT_FUNC_CODE && block != NULL && block[0] >= 4)
                DGifExtensionToGCB(block[0], block + 1, &control);
            while (block != NULL) {
                if (DGifGetExtensionNext(file, &block) == GIF_ERROR) goto broken;
            }
        } else if (type == IMAGE_DESC_RECORD_TYPE) {
            if (DGifGetImageHeader(file) == GIF_ERROR) {
                rfi_set_message(message, message_capacity, rfi_gif_error_text(file->Error, "giflib cannot read an image descriptor"));
                return file->Error == D_GIF_ERR_READ_FAILED ? RFI_STATUS_TRUNCATED : RFI_STATUS_FAILED;
            }
            rfi_gif_dispose(gif);
            rfi_status status = rfi_gif_draw(gif, &control, frame, message, message_capacity);
            if (status != RFI_STATUS_OK) return status;
            /* Centiseconds. */
            frame->duration_us = (int64_t)control.DelayTime * 10000;
            gif->next++;
            rfi_canvas_write(&gif->canvas, canvas, row_pixels);
            return RFI_STATUS_OK;
        } else if (type == TERMINATE_RECORD_TYPE) {
            rfi_set_message(message, message_capacity, "the GIF ends before the frame");
            return RFI_STATUS_FAILED;
        } else {
            break;
        }
    }
broken:
    rfi_set_message(message, message_capacity, rfi_gif_error_text(file->Error, "giflib cannot read the blocks"));
    return file->Error == D_GIF_ERR_READ_FAILED ? RFI_STATUS_TRUNCATED : RFI_STATUS_FAILED;
}
