/* JPEG XL through libjxl: the basic info and colour encoding, the first frame decoded to
 * premultiplied BGRA at its stored orientation, and the "Exif" box.
 *
 * libjxl returns a JxlDecoderStatus from every call; nothing longjmps.
 */
#include "stills_internal.h"

#include <stdlib.h>
#include <string.h>

#include <jxl/decode.h>
#include <jxl/thread_parallel_runner.h>

#include "lazy_codecs.h"

/* Threads libjxl decodes a frame's groups on: as libheif's (see heif.c), two for the two cores
 * Riffle is made for. */
#define RFI_JXL_THREADS 2

/* The largest EXIF box read, bytes: far above a camera's 64 KiB. */
#define RFI_JXL_MAX_EXIF_BYTES ((size_t)16 << 20)

/* The status and message of a decoder that stopped with `status`. */
static rfi_status rfi_jxl_failure(JxlDecoderStatus status, char *message, size_t message_capacity) {
    if (status == JXL_DEC_NEED_MORE_INPUT) {
        rfi_set_message(message, message_capacity, "the data ends early");
        return RFI_STATUS_TRUNCATED;
    }
    rfi_set_message(message, message_capacity, "libjxl cannot decode the data");
    return RFI_STATUS_FAILED;
}

/* Chooses the colour encoding the decoder delivers pixels in, at its JXL_DEC_COLOR_ENCODING
 * event, for an image whose basic info is `info`; the pixels are then described by
 * JXL_COLOR_PROFILE_TARGET_DATA. A lossless (non-XYB) image comes in its own encoding; an XYB
 * one in its original encoding when that is an enumerated one, but libjxl 0.7 cannot convert XYB
 * to an ICC profile and delivers linear sRGB instead (JxlDecoderGetColorAsEncodedProfile, decode.h:
 * "the data ... linear sRGB"), which 8 bits a sample cannot hold without banding: such an image
 * is asked for sRGB (JxlDecoderSetPreferredColorProfile), the wider gamut clipped either way. */
static void rfi_jxl_choose_output(JxlDecoder *decoder, const JxlBasicInfo *info) {
    if (info->uses_original_profile) return;
    JxlColorEncoding original;
    if (JxlDecoderGetColorAsEncodedProfile(decoder, NULL, JXL_COLOR_PROFILE_TARGET_ORIGINAL, &original) ==
        JXL_DEC_SUCCESS)
        return;
    JxlColorEncoding srgb;
    memset(&srgb, 0, sizeof srgb);
    srgb.color_space = info->num_color_channels == 1 ? JXL_COLOR_SPACE_GRAY : JXL_COLOR_SPACE_RGB;
    srgb.white_point = JXL_WHITE_POINT_D65;
    srgb.primaries = JXL_PRIMARIES_SRGB;
    srgb.transfer_function = JXL_TRANSFER_FUNCTION_SRGB;
    srgb.rendering_intent = JXL_RENDERING_INTENT_PERCEPTUAL;
    JxlDecoderSetPreferredColorProfile(decoder, &srgb);
}

rfi_status rfi_jxl_read_header(const uint8_t *data, size_t length, rfi_still_header *header,
                               char *message, size_t message_capacity) {
    memset(header, 0, sizeof *header);
    rfi_set_message(message, message_capacity, "");
    if (!rfi_lazy_load(RFI_LAZY_JXL, message, message_capacity)) return RFI_STATUS_LIBRARY_MISSING;
    JxlDecoder *decoder = JxlDecoderCreate(NULL);
    if (decoder == NULL) {
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    rfi_status result = RFI_STATUS_OK;
    JxlDecoderStatus status = JxlDecoderSubscribeEvents(decoder, JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING);
    /* Else libjxl reports the size after orientation and the orientation as 1. */
    if (status == JXL_DEC_SUCCESS) status = JxlDecoderSetKeepOrientation(decoder, JXL_TRUE);
    if (status == JXL_DEC_SUCCESS) status = JxlDecoderSetInput(decoder, data, length);
    int have_info = 0;
    JxlBasicInfo info;
    while (status == JXL_DEC_SUCCESS || status == JXL_DEC_BASIC_INFO) {
        status = JxlDecoderProcessInput(decoder);
        /* The end of the input before its colour encoding: the header is incomplete. */
        if (status == JXL_DEC_SUCCESS) {
            status = JXL_DEC_ERROR;
            break;
        }
        if (status == JXL_DEC_BASIC_INFO) {
            if (JxlDecoderGetBasicInfo(decoder, &info) != JXL_DEC_SUCCESS || info.xsize == 0 || info.ysize == 0 ||
                info.xsize > INT32_MAX || info.ysize > INT32_MAX) {
                status = JXL_DEC_ERROR;
                break;
            }
            header->image.width = (int32_t)info.xsize;
            header->image.height = (int32_t)info.ysize;
            header->image.orientation = info.orientation >= 1 && info.orientation <= 8 ? (int32_t)info.orientation : 1;
            header->image.has_alpha = info.alpha_bits > 0;
            header->bits_per_sample = (int32_t)info.bits_per_sample;
            have_info = 1;
        } else if (status == JXL_DEC_COLOR_ENCODING) {
            /* The profile of the pixels rfi_jxl_decode delivers: its choice made here too. */
            if (have_info) rfi_jxl_choose_output(decoder, &info);
            JxlColorEncoding encoding;
            header->has_code_point_colour =
                JxlDecoderGetColorAsEncodedProfile(decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &encoding) ==
                JXL_DEC_SUCCESS;
            size_t size = 0;
            if (JxlDecoderGetICCProfileSize(decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS &&
                size > 0) {
                header->icc.data = malloc(size);
                if (header->icc.data != NULL && JxlDecoderGetColorAsICCProfile(decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA,
                                                                               header->icc.data, size) == JXL_DEC_SUCCESS &&
                    !rfi_colour_profile_is_cmyk(header->icc.data, size)) {
                    header->icc.length = size;
                } else {
                    /* (A CMYK profile too: rfi_jxl_decode converts through it, to sRGB.) */
                    free(header->icc.data);
                    header->icc.data = NULL;
                }
            }
            status = JXL_DEC_SUCCESS;
            break;
        }
    }
    if (!have_info || status != JXL_DEC_SUCCESS) {
        result = rfi_jxl_failure(status, message, message_capacity);
        rfi_still_header_free(header);
        memset(header, 0, sizeof *header);
    }
    JxlDecoderDestroy(decoder);
    return result;
}

/* The index of the black extra channel of a CMYK image (JPEG XL keeps C, M and Y as the colour
 * channels, K as an extra channel of type kBlack, ISO/IEC 18181-1 Table D.9), or -1. */
static int rfi_jxl_black_channel(const JxlDecoder *decoder, const JxlBasicInfo *info) {
    for (uint32_t i = 0; i < info->num_extra_channels; i++) {
        JxlExtraChannelInfo extra;
        if (JxlDecoderGetExtraChannelInfo(decoder, i, &extra) == JXL_DEC_SUCCESS && extra.type == JXL_CHANNEL_BLACK)
            return (int)i;
    }
    return -1;
}

/* lcms2's transform of the CMYK profile the image carries (its original one), for a CMYK image
 * whose black channel is `black`; NULL for any other image. JPEG XL stores every ink as 1 − ink
 * (0 = full ink), as Adobe's CMYK JPEGs do: the transform takes it inverted. */
static void *rfi_jxl_cmyk_transform(JxlDecoder *decoder, int black) {
    size_t size = 0;
    if (black < 0 || JxlDecoderGetICCProfileSize(decoder, NULL, JXL_COLOR_PROFILE_TARGET_ORIGINAL, &size) != JXL_DEC_SUCCESS ||
        size == 0)
        return NULL;
    uint8_t *profile = malloc(size);
    void *transform = NULL;
    if (profile != NULL &&
        JxlDecoderGetColorAsICCProfile(decoder, NULL, JXL_COLOR_PROFILE_TARGET_ORIGINAL, profile, size) == JXL_DEC_SUCCESS &&
        rfi_colour_profile_is_cmyk(profile, size))
        transform = rfi_colour_cmyk_transform_create(profile, size, 1);
    free(profile);
    return transform;
}

/* C, M, Y (the callback's R, G, B of `pixels`) and K (`black`, one byte a pixel) through
 * `transform` to opaque sRGB BGRA, in place, row by row. */
static int rfi_jxl_convert_cmyk(void *transform, uint32_t *pixels, const uint8_t *black, uint32_t width,
                                uint32_t height) {
    uint8_t *row = malloc((size_t)width * 4);
    if (row == NULL) return 0;
    for (uint32_t y = 0; y < height; y++) {
        uint32_t *line = pixels + (size_t)y * width;
        for (uint32_t x = 0; x < width; x++) {
            uint32_t p = line[x];
            row[4 * x] = (uint8_t)(p >> 16), row[4 * x + 1] = (uint8_t)(p >> 8), row[4 * x + 2] = (uint8_t)p;
            row[4 * x + 3] = black[(size_t)y * width + x];
        }
        rfi_colour_cmyk_row(transform, row, line, width);
    }
    free(row);
    return 1;
}

/* Where the image-out callback writes: the BGRA picture, its layout and alpha handling. */
struct rfi_jxl_output {
    uint32_t *pixels;
    size_t width;
    int deep;
    int premultiplied;
    int translucent;
};

/* libjxl's image-out callback: `count` pixels of row `y` from column `x`, R, G, B, A as uint8 or
 * little-endian uint16 (reduced to 8 bits by rfi_reduce_rgba16: colour dithered at the stored
 * pixel, alpha rounded). Called from the runner's threads at once, each on pixels of its own. */
static void rfi_jxl_rows(void *opaque, size_t x, size_t y, size_t count, const void *pixels) {
    struct rfi_jxl_output *output = opaque;
    uint32_t *out = output->pixels + y * output->width + x;
    int translucent = 0;
    if (output->deep) rfi_reduce_rgba16(pixels, out, count, 16, (uint32_t)x, 1, (uint32_t)y, 1);
    for (size_t i = 0; i < count; i++) {
        uint32_t r, g, b, a;
        if (output->deep) {
            uint32_t p = out[i];
            a = p >> 24, r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF;
        } else {
            const uint8_t *p = (const uint8_t *)pixels + 4 * i;
            r = p[0], g = p[1], b = p[2], a = p[3];
        }
        if (a < 255) {
            translucent = 1;
            if (output->premultiplied) {
                r = r > a ? a : r, g = g > a ? a : g, b = b > a ? a : b;
            } else {
                r = rfi_times_alpha(r, a), g = rfi_times_alpha(g, a), b = rfi_times_alpha(b, a);
            }
        }
        out[i] = a << 24 | r << 16 | g << 8 | b;
    }
    if (translucent) __atomic_store_n(&output->translucent, 1, __ATOMIC_RELAXED);
}

rfi_status rfi_jxl_decode(const uint8_t *data, size_t length, int64_t pixel_limit,
                          rfi_image_pixels *out, char *message, size_t message_capacity) {
    memset(out, 0, sizeof *out);
    rfi_set_message(message, message_capacity, "");
    if (!rfi_lazy_load(RFI_LAZY_JXL, message, message_capacity) || !rfi_lazy_load(RFI_LAZY_JXL_THREADS, message, message_capacity))
        return RFI_STATUS_LIBRARY_MISSING;
    JxlDecoder *decoder = JxlDecoderCreate(NULL);
    void *runner = JxlThreadParallelRunnerCreate(NULL, RFI_JXL_THREADS);
    if (decoder == NULL || runner == NULL) {
        if (decoder != NULL) JxlDecoderDestroy(decoder);
        if (runner != NULL) JxlThreadParallelRunnerDestroy(runner);
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    struct rfi_jxl_output output = {0};
    JxlPixelFormat format = {4, JXL_TYPE_UINT8, JXL_LITTLE_ENDIAN, 0};
    rfi_status result = RFI_STATUS_OK;
    int done = 0;
    uint32_t width = 0, height = 0;
    JxlBasicInfo info;
    /* A CMYK image: its black channel's index, its bytes, and the transform to sRGB. */
    int black = -1;
    uint8_t *black_pixels = NULL;
    void *cmyk = NULL;
    JxlDecoderStatus status = JxlDecoderSubscribeEvents(decoder, JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING | JXL_DEC_FULL_IMAGE);
    /* Stored orientation: Riffle turns the picture upright as it does a JPEG's. */
    if (status == JXL_DEC_SUCCESS) status = JxlDecoderSetKeepOrientation(decoder, JXL_TRUE);
    if (status == JXL_DEC_SUCCESS) status = JxlDecoderSetParallelRunner(decoder, JxlThreadParallelRunner, runner);
    if (status == JXL_DEC_SUCCESS) status = JxlDecoderSetInput(decoder, data, length);
    while (status == JXL_DEC_SUCCESS && !done) {
        status = JxlDecoderProcessInput(decoder);
        switch (status) {
        case JXL_DEC_BASIC_INFO: {
            if (JxlDecoderGetBasicInfo(decoder, &info) != JXL_DEC_SUCCESS) {
                status = JXL_DEC_ERROR;
                break;
            }
            width = info.xsize, height = info.ysize;
            if (width == 0 || height == 0 || width > INT32_MAX || height > INT32_MAX) {
                status = JXL_DEC_ERROR;
                break;
            }
            if ((int64_t)width * (int64_t)height > pixel_limit) {
                result = RFI_STATUS_TOO_LARGE;
                rfi_set_message(message, message_capacity, "the image has more pixels than the limit");
                done = 1;
                break;
            }
            output.deep = info.bits_per_sample > 8 || info.exponent_bits_per_sample > 0;
            output.premultiplied = info.alpha_premultiplied;
            output.width = width;
            format.data_type = output.deep ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8;
            output.pixels = malloc((size_t)width * height * sizeof(uint32_t));
            if (output.pixels == NULL) {
                result = RFI_STATUS_OUT_OF_MEMORY;
                rfi_set_message(message, message_capacity, "out of memory");
                done = 1;
                break;
            }
            status = JXL_DEC_SUCCESS;
            break;
        }
        case JXL_DEC_COLOR_ENCODING:
            /* As rfi_jxl_read_header chose it, so that its profile describes these pixels. */
            rfi_jxl_choose_output(decoder, &info);
            cmyk = rfi_jxl_cmyk_transform(decoder, rfi_jxl_black_channel(decoder, &info));
            if (cmyk != NULL) black = rfi_jxl_black_channel(decoder, &info);
            status = JXL_DEC_SUCCESS;
            break;
        case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
            status = JxlDecoderSetImageOutCallback(decoder, &format, rfi_jxl_rows, &output);
            if (status == JXL_DEC_SUCCESS && black >= 0 && black_pixels == NULL) {
                /* K at 8 bits, whatever the depth: the CMYK transform is an 8-bit one. */
                JxlPixelFormat one = {1, JXL_TYPE_UINT8, JXL_LITTLE_ENDIAN, 0};
                black_pixels = malloc((size_t)width * height);
                if (black_pixels == NULL) {
                    result = RFI_STATUS_OUT_OF_MEMORY;
                    rfi_set_message(message, message_capacity, "out of memory");
                    done = 1;
                    break;
                }
                status = JxlDecoderSetExtraChannelBuffer(decoder, &one, black_pixels, (size_t)width * height, (uint32_t)black);
            }
            break;
        case JXL_DEC_FULL_IMAGE:
            /* The first frame is all a still needs. */
            done = 1;
            status = JXL_DEC_SUCCESS;
            break;
        case JXL_DEC_SUCCESS:
            /* The input ended without a whole frame. */
            status = JXL_DEC_ERROR;
            break;
        default:
            break;
        }
    }
    if (!done && result == RFI_STATUS_OK) result = rfi_jxl_failure(status, message, message_capacity);
    if (result == RFI_STATUS_OK && output.pixels != NULL && cmyk != NULL && black_pixels != NULL &&
        !rfi_jxl_convert_cmyk(cmyk, output.pixels, black_pixels, width, height)) {
        result = RFI_STATUS_OUT_OF_MEMORY;
        rfi_set_message(message, message_capacity, "out of memory");
    }
    free(black_pixels);
    rfi_colour_cmyk_transform_free(cmyk);
    if (result != RFI_STATUS_OK || output.pixels == NULL) {
        if (result == RFI_STATUS_OK) result = rfi_jxl_failure(JXL_DEC_ERROR, message, message_capacity);
        free(output.pixels);
    } else {
        out->pixels = output.pixels;
        out->width = (int32_t)width;
        out->height = (int32_t)height;
        out->row_pixels = (int32_t)width;
        out->translucent = output.translucent;
        out->owner = output.pixels;
        out->release = rfi_free_owner;
    }
    JxlDecoderDestroy(decoder);
    JxlThreadParallelRunnerDestroy(runner);
    return result;
}

rfi_status rfi_jxl_exif(const uint8_t *data, size_t length, rfi_bytes *out) {
    memset(out, 0, sizeof *out);
    if (!rfi_lazy_load(RFI_LAZY_JXL, NULL, 0)) return RFI_STATUS_LIBRARY_MISSING;
    JxlDecoder *decoder = JxlDecoderCreate(NULL);
    if (decoder == NULL) return RFI_STATUS_OUT_OF_MEMORY;
    uint8_t *box = NULL;
    size_t capacity = 0, filled = 0;
    int in_exif = 0, found = 0;
    JxlDecoderStatus status = JxlDecoderSubscribeEvents(decoder, JXL_DEC_BOX);
    /* A "brob" box holds another box Brotli-compressed; libjxl opens it. */
    if (status == JXL_DEC_SUCCESS) status = JxlDecoderSetDecompressBoxes(decoder, JXL_TRUE);
    if (status == JXL_DEC_SUCCESS) status = JxlDecoderSetInput(decoder, data, length);
    JxlDecoderCloseInput(decoder);
    /* JXL_DEC_SUCCESS from JxlDecoderProcessInput is the end of the input: a bare codestream,
     * which holds no box, ends there at once. Only a box event goes round again. */
    while (status == JXL_DEC_SUCCESS) {
        status = JxlDecoderProcessInput(decoder);
        if (in_exif && (status == JXL_DEC_BOX || status == JXL_DEC_SUCCESS)) {
            filled = capacity - JxlDecoderReleaseBoxBuffer(decoder);
            found = 1;
            break;
        }
        if (status == JXL_DEC_BOX) {
            JxlBoxType type;
            if (JxlDecoderGetBoxType(decoder, type, JXL_TRUE) == JXL_DEC_SUCCESS && memcmp(type, "Exif", 4) == 0) {
                capacity = 65536;
                box = malloc(capacity);
                if (box == NULL || JxlDecoderSetBoxBuffer(decoder, box, capacity) != JXL_DEC_SUCCESS) break;
                in_exif = 1;
            }
        } else if (status == JXL_DEC_BOX_NEED_MORE_OUTPUT && in_exif) {
            size_t used = capacity - JxlDecoderReleaseBoxBuffer(decoder);
            if (capacity * 2 > RFI_JXL_MAX_EXIF_BYTES) break;
            uint8_t *grown = realloc(box, capacity * 2);
            if (grown == NULL) break;
            box = grown;
            capacity *= 2;
            /* The new buffer ends where the block does, so what is left of it at the end
             * gives the bytes written in all. */
            if (JxlDecoderSetBoxBuffer(decoder, box + used, capacity - used) != JXL_DEC_SUCCESS) break;
        } else {
            break;
        }
        status = JXL_DEC_SUCCESS;
    }
    rfi_status result = RFI_STATUS_OK;
    if (found && filled >= 12) {
        /* As HEIF's Exif item: a 32-bit big-endian offset from after itself to the TIFF header. */
        size_t offset = (size_t)box[0] << 24 | (size_t)box[1] << 16 | (size_t)box[2] << 8 | box[3];
        if (offset <= filled - 4 && filled - 4 - offset >= 8) {
            size_t tiff_length = filled - 4 - offset;
            out->data = malloc(tiff_length + 6);
            if (out->data == NULL) {
                result = RFI_STATUS_OUT_OF_MEMORY;
            } else {
                memcpy(out->data, "Exif\0\0", 6);
                memcpy(out->data + 6, box + 4 + offset, tiff_length);
                out->length = tiff_length + 6;
            }
        }
    }
    free(box);
    JxlDecoderDestroy(decoder);
    return result;
}
