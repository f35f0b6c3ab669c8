/* CRiffleImaging's animated and web formats: WebP, still and animated (libwebp, libwebpdemux),
 * GIF (giflib) and APNG (its frames parsed here and decoded by libpng). Included from
 * CRiffleImaging.h, whose rfi_status, rfi_warning and rfi_pixels these use; no libwebp, giflib
 * or libpng type appears here.
 *
 * An animation is decoded frame after frame into whole canvases, as they are to be shown: each
 * frame composited over what the frames before it left, after their disposal, exactly as the
 * format says (GIF89a section 23; the WebP container's ANMF blending and disposal; the APNG
 * specification's dispose_op and blend_op). Every canvas is premultiplied BGRA, transparent
 * where nothing has been drawn. The data given to an open call must outlive the decoder. */
#ifndef RFI_ANIMATED_H
#define RFI_ANIMATED_H

#include <stddef.h>
#include <stdint.h>

/* What an animation's container says before any frame is decoded. */
typedef struct rfi_animation_info {
    /* The canvas every frame is drawn on. */
    int32_t width;
    int32_t height;
    /* Frames that can be shown: those whose data is all there (a file cut inside its first
     * frame still has 1, shown with grey where its data never came). */
    int32_t frame_count;
    /* How many times the frames play; 0: forever. */
    int32_t loop_count;
    /* 1 when some pixel may be translucent (a transparent index or alpha, or frames that leave
     * part of the canvas empty). */
    int32_t has_alpha;
    /* 1 when the data ends before the format's end (a GIF's trailer, an APNG's IEND or the
     * frames its acTL announces, an animated WebP's last frame) or breaks off at a chunk the
     * format forbids: the frames after frame_count are lost. */
    int32_t truncated;
} rfi_animation_info;

/* One decoded frame's timing and health. */
typedef struct rfi_animation_frame {
    /* How long the frame stays, microseconds, as the file says (no minimum applied). */
    int64_t duration_us;
    /* RFI_WARNING_TRUNCATED or RFI_WARNING_CORRUPT_DATA when rows of this frame could not be
     * decoded: they are grey (opaque 128, 128, 128); `message` has the library's text. */
    rfi_warning warning;
} rfi_animation_frame;

/* MARK: WebP (libwebp, libwebpdemux) */

/* What a WebP's first chunks say (WebPGetFeatures): its size (the canvas, for an animation),
 * alpha and whether it is animated. RFI_STATUS_TRUNCATED when the data ends inside them. */
typedef struct rfi_webp_features {
    int32_t width;
    int32_t height;
    int32_t has_alpha;
    int32_t has_animation;
} rfi_webp_features;

rfi_status rfi_webp_read_features(const uint8_t *data, size_t length, rfi_webp_features *features,
                                  char *message, size_t message_capacity);

/* Decodes a still (not animated) WebP, lossy or lossless, with or without alpha, to
 * premultiplied BGRA (libwebp's MODE_bgrA) at `width` × `height`: the stored size, or smaller
 * through libwebp's own rescaler as the rows are decoded (use_scaling: each output pixel the
 * area average of the stored pixels it covers), which never holds the picture at full size.
 * Refuses more than `pixel_limit` output pixels with RFI_STATUS_TOO_LARGE before allocating any.
 * Data that ends early is no failure: the rows libwebp could decode are kept (`rows_decoded` of
 * them; all of them for a whole file), the rest grey, with RFI_WARNING_TRUNCATED. EXIF
 * orientation is not applied. */
rfi_status rfi_webp_decode(const uint8_t *data, size_t length, int32_t width, int32_t height,
                           int64_t pixel_limit, rfi_pixels *out, int32_t *rows_decoded,
                           char *message, size_t message_capacity);

/* The orientation (1...8; 1 when absent or invalid) in a WebP's EXIF chunk: a bare TIFF
 * structure as the container specifies, or one after "Exif\0\0" as some writers put it. */
int32_t rfi_webp_exif_orientation(const uint8_t *exif, size_t length);

/* An animated WebP decoded frame by frame by libwebp's WebPAnimDecoder, which composites each
 * ANMF frame onto the canvas (blending and disposal) itself. Use from one thread at a time. */
typedef struct rfi_webp_animation rfi_webp_animation;

/* Parses the container (the whole file: libwebp's demuxer wants every frame's data). Refuses
 * a canvas of more than `pixel_limit` pixels with RFI_STATUS_TOO_LARGE; a file cut anywhere
 * fails with RFI_STATUS_TRUNCATED. */
rfi_status rfi_webp_animation_open(const uint8_t *data, size_t length, int64_t pixel_limit,
                                   rfi_webp_animation **animation, rfi_animation_info *info,
                                   char *message, size_t message_capacity);

/* Decodes the next frame into `canvas` (width × height of the info, `row_pixels` apart); after
 * the last one, the first again. */
rfi_status rfi_webp_animation_next(rfi_webp_animation *animation, uint32_t *canvas,
                                   int32_t row_pixels, rfi_animation_frame *frame, char *message,
                                   size_t message_capacity);

void rfi_webp_animation_close(rfi_webp_animation *animation);

/* MARK: GIF (giflib) */

/* What a GIF says, from a walk over its blocks that decodes no pixel (the LZW data is skipped
 * sub-block by sub-block), so it is cheap on any part of a file: the canvas (the logical screen,
 * grown to hold the first frame, as Wuffs does), the frames whose data is all there, the
 * NETSCAPE2.0 loop count, transparency, and whether the data ends before the trailer.
 * RFI_STATUS_TRUNCATED when it ends inside the header; RFI_STATUS_FAILED for what is no GIF. */
rfi_status rfi_gif_read_info(const uint8_t *data, size_t length, rfi_animation_info *info,
                             char *message, size_t message_capacity);

/* A GIF decoded frame by frame through giflib (DGifGetLine), composited onto the canvas with
 * each frame's disposal (none, background: cleared to transparent as browsers do, previous),
 * transparent index and interlacing. Use from one thread at a time. */
typedef struct rfi_gif rfi_gif;

/* Reads the GIF's layout (rfi_gif_read_info) and opens giflib on it. Refuses a canvas of more
 * than `pixel_limit` pixels with RFI_STATUS_TOO_LARGE, and a GIF without a single frame. */
rfi_status rfi_gif_open(const uint8_t *data, size_t length, int64_t pixel_limit, rfi_gif **gif,
                        rfi_animation_info *info, char *message, size_t message_capacity);

/* Decodes the next frame into `canvas` (width × height of the info, `row_pixels` apart); after
 * the last one, the first again (the canvas starts empty each loop). A frame whose data ends
 * early or whose LZW codes are damaged keeps the rows that decoded, the rest grey, with the
 * warning; a frame larger than `pixel_limit` of the open call fails with RFI_STATUS_TOO_LARGE. */
rfi_status rfi_gif_next(rfi_gif *gif, uint32_t *canvas, int32_t row_pixels,
                        rfi_animation_frame *frame, char *message, size_t message_capacity);

void rfi_gif_close(rfi_gif *gif);

/* MARK: APNG (libpng) */

/* An animated PNG decoded frame by frame: Debian's libpng has no APNG support, so the chunks
 * are walked here (acTL, fcTL, fdAT, with their sequence numbers and CRCs checked) and each
 * frame is handed to libpng as a PNG of its own: the file's IHDR with the frame's size, its
 * PLTE and tRNS, and the frame's data as IDAT (an fdAT's payload after its sequence number).
 * Frames are composited with their blend_op (source, or over) and dispose_op (none, background,
 * previous; previous on the first frame as background, as the specification says). Use from
 * one thread at a time. */
typedef struct rfi_apng rfi_apng;

/* Walks the whole file. RFI_STATUS_UNSUPPORTED for a PNG without acTL (a still one); a chunk
 * layout the specification forbids (a frame outside the canvas, sequence numbers out of order)
 * ends the frames before it, as does data that ends early (`truncated`); RFI_STATUS_FAILED
 * when no frame is left. Refuses a canvas of more than `pixel_limit` pixels. */
rfi_status rfi_apng_open(const uint8_t *data, size_t length, int64_t pixel_limit, rfi_apng **apng,
                         rfi_animation_info *info, char *message, size_t message_capacity);

/* Decodes the next frame into `canvas` (width × height, `row_pixels` apart); after the last
 * one, the first again (the canvas starts empty each loop). Damaged image data (libpng's error)
 * fails with its text. */
rfi_status rfi_apng_next(rfi_apng *apng, uint32_t *canvas, int32_t row_pixels,
                         rfi_animation_frame *frame, char *message, size_t message_capacity);

void rfi_apng_close(rfi_apng *apng);

#endif
