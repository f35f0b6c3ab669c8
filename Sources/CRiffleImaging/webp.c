/* WebP through libwebp: the header's features, a still picture decoded incrementally (so that a
 * truncated file keeps the rows that arrived) at its size or rescaled by libwebp as it decodes,
 * the EXIF chunk's orientation, and animations through libwebpdemux's WebPAnimDecoder.
 * libwebp reports errors by status (no longjmp). */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/demux.h>

/* libwebp's VP8StatusCode as a status, with its words. */
static rfi_status rfi_webp_status(VP8StatusCode code, char *message, size_t message_capacity) {
    switch (code) {
    case VP8_STATUS_OK:
        return RFI_STATUS_OK;
    case VP8_STATUS_OUT_OF_MEMORY:
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    case VP8_STATUS_NOT_ENOUGH_DATA:
    case VP8_STATUS_SUSPENDED:
        rfi_set_message(message, message_capacity, "the data ends early");
        return RFI_STATUS_TRUNCATED;
    case VP8_STATUS_UNSUPPORTED_FEATURE:
        rfi_set_message(message, message_capacity, "libwebp does not support a feature of this file");
        return RFI_STATUS_UNSUPPORTED;
    case VP8_STATUS_INVALID_PARAM:
        rfi_set_message(message, message_capacity, "libwebp refused the decode's parameters");
        return RFI_STATUS_INVALID_REQUEST;
    default:
        rfi_set_message(message, message_capacity, "libwebp found a bitstream error");
        return RFI_STATUS_FAILED;
    }
}

rfi_status rfi_webp_read_features(const uint8_t *data, size_t length, rfi_webp_features *features,
                                  char *message, size_t message_capacity) {
    memset(features, 0, sizeof *features);
    rfi_set_message(message, message_capacity, "");
    WebPBitstreamFeatures found;
    rfi_status status = rfi_webp_status(WebPGetFeatures(data, length, &found), message, message_capacity);
    if (status != RFI_STATUS_OK) return status;
    features->width = found.width;
    features->height = found.height;
    features->has_alpha = found.has_alpha;
    features->has_animation = found.has_animation;
    return RFI_STATUS_OK;
}

rfi_status rfi_webp_decode(const uint8_t *data, size_t length, int32_t width, int32_t height,
                           int64_t pixel_limit, rfi_pixels *out, int32_t *rows_decoded,
                           char *message, size_t message_capacity) {
    memset(out, 0, sizeof *out);
    *rows_decoded = 0;
    rfi_set_message(message, message_capacity, "");
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) {
        rfi_set_message(message, message_capacity, "libwebp's version does not match its header");
        return RFI_STATUS_FAILED;
    }
    rfi_status status = rfi_webp_status(WebPGetFeatures(data, length, &config.input), message, message_capacity);
    if (status != RFI_STATUS_OK) return status;
    if (config.input.has_animation) {
        rfi_set_message(message, message_capacity, "the WebP is animated: its frames are decoded one by one");
        return RFI_STATUS_UNSUPPORTED;
    }
    if (width <= 0 || height <= 0 || width > config.input.width || height > config.input.height) {
        rfi_set_message(message, message_capacity, "the size asked for is not within the picture's");
        return RFI_STATUS_INVALID_REQUEST;
    }
    if ((int64_t)width * height > pixel_limit) {
        rfi_set_message(message, message_capacity, "the picture has more pixels than the limit");
        return RFI_STATUS_TOO_LARGE;
    }
    uint32_t *pixels = calloc((size_t)width * (size_t)height, sizeof *pixels);
    if (pixels == NULL) {
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    if (width != config.input.width || height != config.input.height) {
        config.options.use_scaling = 1;
        config.options.scaled_width = width;
        config.options.scaled_height = height;
    }
    config.output.colorspace = MODE_bgrA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = (uint8_t *)pixels;
    config.output.u.RGBA.stride = width * 4;
    config.output.u.RGBA.size = (size_t)width * (size_t)height * 4;
    /* Incremental: all the data at once, but a file cut short leaves the rows before the cut
     * (last_y) instead of nothing. */
    WebPIDecoder *decoder = WebPIDecode(NULL, 0, &config);
    if (decoder == NULL) {
        free(pixels);
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    VP8StatusCode code = WebPIUpdate(decoder, data, length);
    int last_y = height;
    if (code == VP8_STATUS_SUSPENDED) {
        if (WebPIDecGetRGB(decoder, &last_y, NULL, NULL, NULL) == NULL) last_y = 0;
        for (size_t i = (size_t)last_y * (size_t)width; i < (size_t)width * (size_t)height; i++) pixels[i] = 0xFF808080u;
        out->warning = RFI_WARNING_TRUNCATED;
        rfi_set_message(message, message_capacity, "the data ends early");
    } else if (code != VP8_STATUS_OK) {
        WebPIDelete(decoder);
        free(pixels);
        return rfi_webp_status(code, message, message_capacity);
    }
    WebPIDelete(decoder);
    *rows_decoded = last_y;
    out->pixels = pixels;
    out->width = width;
    out->height = height;
    return RFI_STATUS_OK;
}

int32_t rfi_webp_exif_orientation(const uint8_t *exif, size_t length) {
    static const uint8_t prefix[6] = {'E', 'x', 'i', 'f', 0, 0};
    if (exif == NULL || length == 0) return 1;
    if (length >= 6 && memcmp(exif, prefix, 6) == 0) return rfi_exif_orientation(exif, length);
    /* libexif reads an APP1 payload: "Exif\0\0" then the TIFF structure. */
    uint8_t *segment = malloc(length + 6);
    if (segment == NULL) return 1;
    memcpy(segment, prefix, 6);
    memcpy(segment + 6, exif, length);
    int32_t orientation = rfi_exif_orientation(segment, length + 6);
    free(segment);
    return orientation;
}

struct rfi_webp_animation {
    WebPAnimDecoder *decoder;
    /* The frames' durations in milliseconds, from the demuxer. */
    int *durations;
    int32_t frame_count;
    int32_t next;
    int32_t width;
    int32_t height;
    /* The complete frames of a file cut short, as a file of their own (freed at close). */
    uint8_t *whole;
};

void rfi_webp_animation_close(rfi_webp_animation *animation) {
    if (animation == NULL) return;
    WebPAnimDecoderDelete(animation->decoder);
    free(animation->durations);
    free(animation->whole);
    free(animation);
}

/* For a file cut short: the bytes up to the end of its last complete frame (`*frames` of them),
 * with the RIFF header's size mended, which libwebp's demuxer takes as a whole file; NULL (with
 * `*frames` 0) when no frame is complete. */
static uint8_t *rfi_webp_complete_frames(const uint8_t *data, size_t length, size_t *whole_length, int32_t *frames) {
    *frames = 0;
    WebPData partial = {data, length};
    WebPDemuxState state;
    WebPDemuxer *demuxer = WebPDemuxPartial(&partial, &state);
    if (demuxer == NULL) return NULL;
    size_t end = 0;
    WebPIterator iterator;
    if (WebPDemuxGetFrame(demuxer, 1, &iterator)) {
        do {
            if (!iterator.complete) break;
            /* The frame's ANMF chunk ends with its bitstream (padded to an even size). */
            size_t stop = (size_t)(iterator.fragment.bytes - data) + iterator.fragment.size;
            end = stop + (stop & 1);
            ++*frames;
        } while (WebPDemuxNextFrame(&iterator));
        WebPDemuxReleaseIterator(&iterator);
    }
    WebPDemuxDelete(demuxer);
    if (*frames == 0 || end > length || end < 12) {
        *frames = 0;
        return NULL;
    }
    uint8_t *whole = malloc(end);
    if (whole == NULL) return NULL;
    memcpy(whole, data, end);
    uint32_t riff = (uint32_t)(end - 8);
    for (int i = 0; i < 4; i++) whole[4 + i] = (uint8_t)(riff >> (8 * i));
    *whole_length = end;
    return whole;
}

rfi_status rfi_webp_animation_open(const uint8_t *data, size_t length, int64_t pixel_limit,
                                   rfi_webp_animation **out, rfi_animation_info *info,
                                   char *message, size_t message_capacity) {
    *out = NULL;
    memset(info, 0, sizeof *info);
    rfi_set_message(message, message_capacity, "");
    rfi_webp_animation *animation = calloc(1, sizeof *animation);
    if (animation == NULL) {
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    WebPData whole = {data, length};
    WebPDemuxer *demuxer = WebPDemux(&whole);
    if (demuxer == NULL) {
        /* Cut short, or broken: keep the frames that arrived whole, if any. */
        int32_t frames = 0;
        size_t whole_length = 0;
        animation->whole = rfi_webp_complete_frames(data, length, &whole_length, &frames);
        if (animation->whole == NULL) {
            WebPDemuxState state;
            WebPDemuxer *partial = WebPDemuxPartial(&whole, &state);
            int cut_short = partial != NULL && state != WEBP_DEMUX_DONE;
            WebPDemuxDelete(partial);
            rfi_webp_animation_close(animation);
            if (cut_short) {
                rfi_set_message(message, message_capacity, "the data ends before the first frame is whole");
                return RFI_STATUS_TRUNCATED;
            }
            rfi_set_message(message, message_capacity, "libwebp cannot parse the WebP container");
            return RFI_STATUS_FAILED;
        }
        whole = (WebPData){animation->whole, whole_length};
        info->truncated = 1;
        demuxer = WebPDemux(&whole);
        if (demuxer == NULL) {
            rfi_webp_animation_close(animation);
            rfi_set_message(message, message_capacity, "libwebp cannot parse the WebP container");
            return RFI_STATUS_FAILED;
        }
    }
    info->width = (int32_t)WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH);
    info->height = (int32_t)WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT);
    info->frame_count = (int32_t)WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT);
    info->loop_count = (int32_t)WebPDemuxGetI(demuxer, WEBP_FF_LOOP_COUNT);
    info->has_alpha = (WebPDemuxGetI(demuxer, WEBP_FF_FORMAT_FLAGS) & ALPHA_FLAG) != 0;
    if ((int64_t)info->width * info->height > pixel_limit) {
        WebPDemuxDelete(demuxer);
        rfi_webp_animation_close(animation);
        rfi_set_message(message, message_capacity, "the canvas has more pixels than the limit");
        return RFI_STATUS_TOO_LARGE;
    }
    animation->durations = calloc(info->frame_count > 0 ? (size_t)info->frame_count : 1, sizeof(int));
    WebPIterator iterator;
    int32_t listed = 0;
    if (animation->durations != NULL && WebPDemuxGetFrame(demuxer, 1, &iterator)) {
        do {
            if (listed < info->frame_count) animation->durations[listed++] = iterator.duration;
            /* A frame that leaves part of the canvas to what is under it. */
            if (iterator.has_alpha || iterator.x_offset > 0 || iterator.y_offset > 0 ||
                iterator.width < info->width || iterator.height < info->height)
                info->has_alpha = 1;
        } while (WebPDemuxNextFrame(&iterator));
        WebPDemuxReleaseIterator(&iterator);
    }
    WebPDemuxDelete(demuxer);
    if (animation->durations == NULL) {
        rfi_webp_animation_close(animation);
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) {
        rfi_webp_animation_close(animation);
        rfi_set_message(message, message_capacity, "libwebp's version does not match its header");
        return RFI_STATUS_FAILED;
    }
    options.color_mode = MODE_bgrA;
    options.use_threads = 0;
    animation->decoder = WebPAnimDecoderNew(&whole, &options);
    if (animation->decoder == NULL || info->frame_count <= 0) {
        rfi_webp_animation_close(animation);
        rfi_set_message(message, message_capacity, "libwebp cannot decode the animation");
        return RFI_STATUS_FAILED;
    }
    animation->frame_count = info->frame_count;
    animation->width = info->width;
    animation->height = info->height;
    *out = animation;
    return RFI_STATUS_OK;
}

rfi_status rfi_webp_animation_next(rfi_webp_animation *animation, uint32_t *canvas,
                                   int32_t row_pixels, rfi_animation_frame *frame, char *message,
                                   size_t message_capacity) {
    memset(frame, 0, sizeof *frame);
    rfi_set_message(message, message_capacity, "");
    if (row_pixels < animation->width) {
        rfi_set_message(message, message_capacity, "the rows are narrower than the canvas");
        return RFI_STATUS_INVALID_REQUEST;
    }
    if (animation->next >= animation->frame_count) {
        WebPAnimDecoderReset(animation->decoder);
        animation->next = 0;
    }
    uint8_t *pixels = NULL;
    int timestamp = 0;
    if (!WebPAnimDecoderGetNext(animation->decoder, &pixels, &timestamp) || pixels == NULL) {
        rfi_set_message(message, message_capacity, "libwebp cannot decode a frame");
        return RFI_STATUS_FAILED;
    }
    for (int32_t y = 0; y < animation->height; y++) {
        memcpy(canvas + (size_t)y * (size_t)row_pixels, pixels + (size_t)y * (size_t)animation->width * 4,
               (size_t)animation->width * 4);
    }
    frame->duration_us = (int64_t)animation->durations[animation->next] * 1000;
    animation->next++;
    return RFI_STATUS_OK;
}
