/* TIFF through libtiff: the first directory read a band of rows at a time (its own conversion
 * for photographs' layouts, TIFFRGBAImage for the rest), its ICC profile and camera details.
 *
 * libtiff reports errors through the handler given to TIFFClientOpenExt (per file, not the
 * process-wide one) and a failed return value; nothing longjmps. The file is read through client
 * procedures over a descriptor the reader does not own (pread) or over memory; nothing is
 * mapped.
 */
#include "stills_internal.h"
#include "dither.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tiffio.h>

/* The largest block libtiff may allocate at once, bytes: its strip and tile buffers and tag
 * arrays. 512 MiB holds the compressed single strip of a 100-megapixel 16-bit RGB file; a
 * hostile header claiming more is refused instead of allocated. */
#define RFI_TIFF_MAX_SINGLE_ALLOCATION ((tmsize_t)512 << 20)

/* Scanlines the reader's own path decodes into one band of a stripped file. */
#define RFI_TIFF_SCANLINE_BAND 16

/* Where libtiff reads from, and where its first error goes. */
struct rfi_tiff_client {
    int descriptor;
    const uint8_t *data;
    size_t length;
    uint64_t offset;
    char message[RFI_MESSAGE_CAPACITY];
};

static tmsize_t rfi_tiff_read_proc(thandle_t handle, void *buffer, tmsize_t size) {
    struct rfi_tiff_client *client = handle;
    if (size <= 0) return 0;
    if (client->descriptor < 0) {
        if (client->offset >= client->length) return 0;
        size_t available = client->length - (size_t)client->offset;
        size_t taken = (size_t)size < available ? (size_t)size : available;
        memcpy(buffer, client->data + client->offset, taken);
        client->offset += taken;
        return (tmsize_t)taken;
    }
    size_t done = 0;
    while (done < (size_t)size) {
        ssize_t got = pread(client->descriptor, (uint8_t *)buffer + done, (size_t)size - done,
                            (off_t)(client->offset + done));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return done > 0 ? (tmsize_t)done : -1;
        if (got == 0) break;
        done += (size_t)got;
    }
    client->offset += done;
    return (tmsize_t)done;
}

static tmsize_t rfi_tiff_write_proc(thandle_t handle, void *buffer, tmsize_t size) {
    (void)handle;
    (void)buffer;
    (void)size;
    return -1;
}

static uint64_t rfi_tiff_size_proc(thandle_t handle) {
    struct rfi_tiff_client *client = handle;
    if (client->descriptor < 0) return client->length;
    struct stat status;
    return fstat(client->descriptor, &status) == 0 ? (uint64_t)status.st_size : 0;
}

static toff_t rfi_tiff_seek_proc(thandle_t handle, toff_t offset, int whence) {
    struct rfi_tiff_client *client = handle;
    uint64_t base = whence == SEEK_CUR ? client->offset : whence == SEEK_END ? rfi_tiff_size_proc(handle) : 0;
    client->offset = base + offset;
    return client->offset;
}

static int rfi_tiff_close_proc(thandle_t handle) {
    (void)handle;
    return 0;
}

static int rfi_tiff_map_proc(thandle_t handle, void **base, toff_t *size) {
    (void)handle;
    (void)base;
    (void)size;
    return 0;
}

static void rfi_tiff_unmap_proc(thandle_t handle, void *base, toff_t size) {
    (void)handle;
    (void)base;
    (void)size;
}

/* Keeps libtiff's first error for the message; later ones are consequences. */
static int rfi_tiff_error(TIFF *tiff, void *user_data, const char *module, const char *format,
                          va_list arguments) {
    (void)tiff;
    (void)module;
    struct rfi_tiff_client *client = user_data;
    if (client->message[0] == '\0') vsnprintf(client->message, sizeof client->message, format, arguments);
    return 1;
}

/* Unknown tags, odd but readable values: the pixels are unaffected. */
static int rfi_tiff_warning(TIFF *tiff, void *user_data, const char *module, const char *format,
                            va_list arguments) {
    (void)tiff;
    (void)user_data;
    (void)module;
    (void)format;
    (void)arguments;
    return 1;
}

/* Opens libtiff over `client` (reading its first directory), or NULL with the reason in
 * client->message. */
static TIFF *rfi_tiff_open_client(struct rfi_tiff_client *client) {
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (options == NULL) {
        rfi_set_message(client->message, sizeof client->message, "out of memory");
        return NULL;
    }
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, RFI_TIFF_MAX_SINGLE_ALLOCATION);
    TIFFOpenOptionsSetErrorHandlerExtR(options, rfi_tiff_error, client);
    TIFFOpenOptionsSetWarningHandlerExtR(options, rfi_tiff_warning, client);
    /* "m": never memory-map (the client has no mapping to give). */
    TIFF *tiff = TIFFClientOpenExt("TIFF", "rm", client, rfi_tiff_read_proc, rfi_tiff_write_proc,
                                   rfi_tiff_seek_proc, rfi_tiff_close_proc, rfi_tiff_size_proc,
                                   rfi_tiff_map_proc, rfi_tiff_unmap_proc, options);
    TIFFOpenOptionsFree(options);
    if (tiff == NULL && client->message[0] == '\0')
        rfi_set_message(client->message, sizeof client->message, "libtiff cannot read the header");
    return tiff;
}

/* The status of a failure libtiff described in `text`: data that ends early is truncation. */
static rfi_status rfi_tiff_failure_status(const struct rfi_tiff_client *client) {
    const char *text = client->message;
    if (strstr(text, "Read error") != NULL || strstr(text, "Cannot read") != NULL ||
        strstr(text, "end of file") != NULL || strstr(text, "Not enough data") != NULL ||
        strstr(text, "Premature EOF") != NULL)
        return RFI_STATUS_TRUNCATED;
    if (strstr(text, "memory") != NULL || strstr(text, "Out of") != NULL) return RFI_STATUS_OUT_OF_MEMORY;
    return RFI_STATUS_FAILED;
}

/* How the reader turns a directory into rows. */
enum rfi_tiff_path {
    /* Its own conversion of a scanline (stripped) or a row of tiles (tiled). */
    RFI_TIFF_OWN_SCANLINES,
    RFI_TIFF_OWN_TILES,
    /* libtiff's TIFFRGBAImage, a strip or a row of tiles at a time. */
    RFI_TIFF_RGBA_IMAGE,
};

/* How the reader's own path reads a pixel. */
enum rfi_tiff_colour { RFI_TIFF_GREY, RFI_TIFF_RGB, RFI_TIFF_PALETTE, RFI_TIFF_CMYK, RFI_TIFF_LAB };

struct rfi_tiff_reader {
    struct rfi_tiff_client client;
    TIFF *tiff;
    uint32_t width;
    uint32_t height;
    enum rfi_tiff_path path;
    /* Own path: layout of a pixel. */
    enum rfi_tiff_colour colour;
    int bits;
    int samples;
    int inverted;
    /* Index of the alpha sample, -1 when none; 1 when it is associated (premultiplied). */
    int alpha;
    int associated;
    /* Palette: the colour map as 8-bit B, G, R in opaque BGRA. */
    uint32_t palette[256];
    /* CIELab: lcms2's transform to sRGB, and a row of L*, a*, b* floats for it. */
    void *lab_transform;
    float *lab_row;
    /* Own tiled path: tile size and a row of raw tiles. */
    uint32_t tile_width;
    uint32_t tile_height;
    uint8_t *raw;
    tmsize_t raw_stride;
    /* TIFFRGBAImage path. */
    TIFFRGBAImage image;
    int image_started;
    uint32_t *raster;
    /* Rows of a band, and the next row to deliver. */
    uint32_t band_rows;
    uint32_t row;
    int failed;
};

/* A colour map entry as 8 bits: maps written with 8-bit values (every entry below 256, as some
 * old writers did; libtiff's checkcmap makes the same guess) are taken as they are. */
static uint32_t rfi_tiff_map_value(uint16_t value, int eight_bit) {
    return eight_bit ? value : rfi_reduce_to_8(value, 16);
}

/* Decides whether the reader's own path reads this directory, and sets its layout. */
static int rfi_tiff_choose_own_path(struct rfi_tiff_reader *reader) {
    TIFF *tiff = reader->tiff;
    uint16_t photometric = 0, bits = 0, samples = 0, planar = 0, extra_count = 0, ink_set = 0;
    uint16_t *extra = NULL;
    if (!TIFFGetField(tiff, TIFFTAG_PHOTOMETRIC, &photometric)) return 0;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_EXTRASAMPLES, &extra_count, &extra);
    uint16_t format = SAMPLEFORMAT_UINT;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLEFORMAT, &format);
    if (planar != PLANARCONFIG_CONTIG || format != SAMPLEFORMAT_UINT) return 0;
    int colours;
    switch (photometric) {
    case PHOTOMETRIC_MINISBLACK:
    case PHOTOMETRIC_MINISWHITE:
        reader->colour = RFI_TIFF_GREY;
        reader->inverted = photometric == PHOTOMETRIC_MINISWHITE;
        colours = 1;
        if (bits != 8 && bits != 16) return 0;
        break;
    case PHOTOMETRIC_RGB:
        reader->colour = RFI_TIFF_RGB;
        colours = 3;
        if (bits != 8 && bits != 16) return 0;
        break;
    case PHOTOMETRIC_SEPARATED:
        TIFFGetFieldDefaulted(tiff, TIFFTAG_INKSET, &ink_set);
        if (ink_set != INKSET_CMYK) return 0;
        reader->colour = RFI_TIFF_CMYK;
        colours = 4;
        if (bits != 8 && bits != 16) return 0;
        break;
    case PHOTOMETRIC_CIELAB: {
        /* TIFF 6.0, section 23: L* as unsigned 0...100, a* and b* signed (two's complement),
         * relative to the WhitePoint tag (libtiff's default: D65). libtiff's TIFFRGBAImage
         * converts it with its own rounding, which crushes the shadows to black: lcms2 instead. */
        if (bits != 8 && bits != 16) return 0;
        float *white = NULL;
        double white_x = 0.3127, white_y = 0.3290;
        if (TIFFGetFieldDefaulted(tiff, TIFFTAG_WHITEPOINT, &white) && white != NULL && white[1] > 0)
            white_x = white[0], white_y = white[1];
        reader->lab_transform = rfi_colour_lab_transform_create(white_x, white_y);
        if (reader->lab_transform == NULL) return 0;
        reader->colour = RFI_TIFF_LAB;
        colours = 3;
        break;
    }
    case PHOTOMETRIC_PALETTE: {
        uint16_t *red = NULL, *green = NULL, *blue = NULL;
        if (bits < 1 || bits > 8 || (8 % bits) != 0 || !TIFFGetField(tiff, TIFFTAG_COLORMAP, &red, &green, &blue))
            return 0;
        reader->colour = RFI_TIFF_PALETTE;
        colours = 1;
        size_t entries = (size_t)1 << bits;
        int eight_bit = 1;
        for (size_t i = 0; i < entries; i++)
            if (red[i] > 255 || green[i] > 255 || blue[i] > 255) eight_bit = 0;
        for (size_t i = 0; i < 256; i++) {
            size_t e = i < entries ? i : 0;
            reader->palette[i] = 0xFF000000u | rfi_tiff_map_value(red[e], eight_bit) << 16 |
                                 rfi_tiff_map_value(green[e], eight_bit) << 8 |
                                 rfi_tiff_map_value(blue[e], eight_bit);
        }
        break;
    }
    default:
        return 0;
    }
    if (samples < colours) return 0;
    reader->bits = bits;
    reader->samples = samples;
    reader->alpha = -1;
    /* The first extra sample, if it is alpha; unspecified data is taken as associated alpha, as
     * TIFFRGBAImage takes it. */
    if (samples > colours && extra_count >= 1 && extra != NULL && colours + extra_count <= samples &&
        reader->colour != RFI_TIFF_PALETTE) {
        reader->alpha = colours;
        reader->associated = extra[0] != EXTRASAMPLE_UNASSALPHA;
    }
    return 1;
}

/* Sample `index` of pixel `x` in a raw row of the own path, as 8 bits. */
static inline uint32_t rfi_tiff_sample(const struct rfi_tiff_reader *reader, const uint8_t *row,
                                       uint32_t x, int index) {
    size_t i = (size_t)x * (size_t)reader->samples + (size_t)index;
    if (reader->bits == 8) return row[i];
    uint16_t value;
    memcpy(&value, row + 2 * i, 2);
    return rfi_reduce_to_8(value, 16);
}

/* Colour sample `index` of pixel `x` in a raw row of the own path, as 8 bits: a 16-bit one
 * dithered (rfi_dither_to_8, see rfi_dither.h) at stored pixel (`column`, `y`), an inverted
 * one (MinIsWhite) inverted first so the dither adds to the tone shown. */
static inline uint32_t rfi_tiff_colour_sample(const struct rfi_tiff_reader *reader, const uint8_t *row,
                                              uint32_t x, int index, uint32_t column, uint32_t y) {
    size_t i = (size_t)x * (size_t)reader->samples + (size_t)index;
    if (reader->bits == 8) return reader->inverted ? 255 - row[i] : row[i];
    uint16_t value;
    memcpy(&value, row + 2 * i, 2);
    if (reader->inverted) value = (uint16_t)(0xFFFF - value);
    return rfi_dither_to_8(value, 0xFFFF, 255.0 / 0xFFFF, column, y);
}

/* One raw row of `count` pixels (starting at pixel `first` of the row) to premultiplied BGRA;
 * the pixel at `first` is stored pixel (`column`, `y`) of the picture, where the dither of deep
 * colour samples is taken. Returns 1 when some pixel has alpha below 255. */
static int rfi_tiff_convert_row(const struct rfi_tiff_reader *reader, const uint8_t *row,
                                uint32_t first, uint32_t count, uint32_t *out, uint32_t column, uint32_t y) {
    int translucent = 0;
    if (reader->colour == RFI_TIFF_LAB) {
        /* The row's Lab through lcms2 at once, then alpha (taken as straight). */
        for (uint32_t x = first; x < first + count; x++) {
            size_t i = (size_t)x * (size_t)reader->samples;
            float *lab = reader->lab_row + 3 * (size_t)(x - first);
            if (reader->bits == 8) {
                lab[0] = (float)row[i] * 100.0f / 255.0f;
                lab[1] = (float)(int8_t)row[i + 1];
                lab[2] = (float)(int8_t)row[i + 2];
            } else {
                uint16_t l, a, b;
                memcpy(&l, row + 2 * i, 2), memcpy(&a, row + 2 * i + 2, 2), memcpy(&b, row + 2 * i + 4, 2);
                lab[0] = (float)l * 100.0f / 65535.0f;
                lab[1] = (float)(int16_t)a / 256.0f;
                lab[2] = (float)(int16_t)b / 256.0f;
            }
        }
        rfi_colour_lab_row(reader->lab_transform, reader->lab_row, out, count);
        if (reader->alpha >= 0) {
            for (uint32_t x = first; x < first + count; x++) {
                uint32_t a = rfi_tiff_sample(reader, row, x, reader->alpha), p = out[x - first];
                if (a < 255) translucent = 1;
                out[x - first] = a << 24 | rfi_times_alpha((p >> 16) & 0xFF, a) << 16 |
                                 rfi_times_alpha((p >> 8) & 0xFF, a) << 8 | rfi_times_alpha(p & 0xFF, a);
            }
        }
        return translucent;
    }
    for (uint32_t x = first; x < first + count; x++) {
        uint32_t r, g, b, a = 255;
        uint32_t at = column + (x - first);
        switch (reader->colour) {
        case RFI_TIFF_GREY:
            r = g = b = rfi_tiff_colour_sample(reader, row, x, 0, at, y);
            break;
        case RFI_TIFF_RGB:
            r = rfi_tiff_colour_sample(reader, row, x, 0, at, y);
            g = rfi_tiff_colour_sample(reader, row, x, 1, at, y);
            b = rfi_tiff_colour_sample(reader, row, x, 2, at, y);
            break;
        case RFI_TIFF_CMYK: {
            uint32_t k = 255 - rfi_tiff_sample(reader, row, x, 3);
            r = rfi_times_alpha(255 - rfi_tiff_sample(reader, row, x, 0), k);
            g = rfi_times_alpha(255 - rfi_tiff_sample(reader, row, x, 1), k);
            b = rfi_times_alpha(255 - rfi_tiff_sample(reader, row, x, 2), k);
            break;
        }
        case RFI_TIFF_PALETTE:
        default: {
            /* Indices of `bits` bits, packed from the high bits of each byte. */
            size_t bit = (size_t)x * (size_t)reader->bits;
            uint32_t index = (row[bit / 8] >> (8 - reader->bits - (int)(bit % 8))) & ((1u << reader->bits) - 1);
            out[x - first] = reader->palette[index];
            continue;
        }
        }
        if (reader->alpha >= 0) {
            a = rfi_tiff_sample(reader, row, x, reader->alpha);
            if (reader->associated) {
                /* Premultiplied already; a channel above alpha would break the invariant. */
                if (r > a) r = a;
                if (g > a) g = a;
                if (b > a) b = a;
            } else {
                r = rfi_times_alpha(r, a);
                g = rfi_times_alpha(g, a);
                b = rfi_times_alpha(b, a);
            }
            if (a < 255) translucent = 1;
        }
        out[x - first] = a << 24 | r << 16 | g << 8 | b;
    }
    return translucent;
}

static void rfi_tiff_read_header(struct rfi_tiff_reader *reader, rfi_still_header *header) {
    TIFF *tiff = reader->tiff;
    uint16_t orientation = ORIENTATION_TOPLEFT, bits = 8, samples = 1, extra_count = 0;
    uint16_t *extra = NULL;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_ORIENTATION, &orientation);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_EXTRASAMPLES, &extra_count, &extra);
    header->image.width = (int32_t)reader->width;
    header->image.height = (int32_t)reader->height;
    header->image.orientation = orientation >= 1 && orientation <= 8 ? orientation : 1;
    header->image.has_alpha = extra_count > 0 && extra != NULL;
    header->bits_per_sample = bits;
    uint32_t icc_length = 0;
    void *icc = NULL;
    if (TIFFGetField(tiff, TIFFTAG_ICCPROFILE, &icc_length, &icc) && icc != NULL && icc_length > 0)
        rfi_bytes_copy(&header->icc, icc, icc_length);
}

/* Sets up the chosen path's buffers. */
static rfi_status rfi_tiff_prepare(struct rfi_tiff_reader *reader) {
    TIFF *tiff = reader->tiff;
    if (rfi_tiff_choose_own_path(reader)) {
        if (!TIFFIsTiled(tiff)) {
            reader->path = RFI_TIFF_OWN_SCANLINES;
            reader->band_rows = RFI_TIFF_SCANLINE_BAND;
            reader->raw_stride = TIFFScanlineSize(tiff);
            reader->raw = reader->raw_stride > 0 ? malloc((size_t)reader->raw_stride) : NULL;
        } else {
            reader->path = RFI_TIFF_OWN_TILES;
            TIFFGetField(tiff, TIFFTAG_TILEWIDTH, &reader->tile_width);
            TIFFGetField(tiff, TIFFTAG_TILELENGTH, &reader->tile_height);
            tmsize_t tile = TIFFTileSize(tiff);
            uint32_t across = reader->tile_width ? (reader->width + reader->tile_width - 1) / reader->tile_width : 0;
            if (tile <= 0 || across == 0 || reader->tile_height == 0 ||
                (size_t)tile > (size_t)RFI_TIFF_MAX_SINGLE_ALLOCATION / across) {
                rfi_set_message(reader->client.message, sizeof reader->client.message, "the tiles' size is not valid");
                return RFI_STATUS_FAILED;
            }
            reader->band_rows = reader->tile_height;
            reader->raw_stride = tile;
            reader->raw = malloc((size_t)tile * across);
        }
        if (reader->raw == NULL) {
            rfi_set_message(reader->client.message, sizeof reader->client.message,
                            reader->raw_stride > 0 ? "out of memory" : "the rows' size is not valid");
            return reader->raw_stride > 0 ? RFI_STATUS_OUT_OF_MEMORY : RFI_STATUS_FAILED;
        }
        if (reader->colour == RFI_TIFF_LAB) {
            /* A row of the picture or of a tile, whichever is wider. */
            size_t pixels = reader->width > reader->tile_width ? reader->width : reader->tile_width;
            reader->lab_row = malloc(pixels * 3 * sizeof(float));
            if (reader->lab_row == NULL) {
                rfi_set_message(reader->client.message, sizeof reader->client.message, "out of memory");
                return RFI_STATUS_OUT_OF_MEMORY;
            }
        }
        return RFI_STATUS_OK;
    }
    char reason[1024] = "";
    if (!TIFFRGBAImageOK(tiff, reason) || !TIFFRGBAImageBegin(&reader->image, tiff, 0, reason)) {
        rfi_set_message(reader->client.message, sizeof reader->client.message, reason[0] ? reason : "libtiff cannot convert this image");
        return RFI_STATUS_UNSUPPORTED;
    }
    reader->image_started = 1;
    /* Rows in stored order: the Orientation tag is Riffle's to apply, never libtiff's flips. */
    reader->image.req_orientation = ORIENTATION_TOPLEFT;
    reader->image.orientation = ORIENTATION_TOPLEFT;
    reader->path = RFI_TIFF_RGBA_IMAGE;
    uint32_t band = 0;
    if (TIFFIsTiled(tiff)) {
        TIFFGetField(tiff, TIFFTAG_TILELENGTH, &band);
    } else {
        TIFFGetFieldDefaulted(tiff, TIFFTAG_ROWSPERSTRIP, &band);
    }
    reader->band_rows = band == 0 || band > reader->height ? reader->height : band;
    return RFI_STATUS_OK;
}

static rfi_status rfi_tiff_reader_open(int descriptor, const uint8_t *data, size_t length,
                                       rfi_tiff_reader **out, rfi_still_header *header,
                                       char *message, size_t message_capacity) {
    *out = NULL;
    memset(header, 0, sizeof *header);
    struct rfi_tiff_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) {
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    reader->client.descriptor = descriptor;
    reader->client.data = data;
    reader->client.length = length;
    reader->tiff = rfi_tiff_open_client(&reader->client);
    rfi_status status = RFI_STATUS_OK;
    if (reader->tiff == NULL) {
        status = rfi_tiff_failure_status(&reader->client);
    } else if (!TIFFGetField(reader->tiff, TIFFTAG_IMAGEWIDTH, &reader->width) ||
               !TIFFGetField(reader->tiff, TIFFTAG_IMAGELENGTH, &reader->height) || reader->width == 0 ||
               reader->height == 0 || reader->width > INT32_MAX || reader->height > INT32_MAX) {
        rfi_set_message(reader->client.message, sizeof reader->client.message, "the image has no valid size");
        status = RFI_STATUS_FAILED;
    } else {
        rfi_tiff_read_header(reader, header);
        status = rfi_tiff_prepare(reader);
        /* CIELab rows are delivered in sRGB: a profile stored with them no longer describes them. */
        if (reader->colour == RFI_TIFF_LAB) rfi_still_header_free(header);
    }
    if (status != RFI_STATUS_OK) {
        rfi_set_message(message, message_capacity, reader->client.message);
        rfi_still_header_free(header);
        rfi_tiff_reader_close(reader);
        return status;
    }
    *out = reader;
    return RFI_STATUS_OK;
}

rfi_status rfi_tiff_reader_open_file(int32_t descriptor, rfi_tiff_reader **reader,
                                     rfi_still_header *header, char *message,
                                     size_t message_capacity) {
    if (descriptor < 0) {
        *reader = NULL;
        memset(header, 0, sizeof *header);
        rfi_set_message(message, message_capacity, "no file descriptor");
        return RFI_STATUS_INVALID_REQUEST;
    }
    return rfi_tiff_reader_open(descriptor, NULL, 0, reader, header, message, message_capacity);
}

rfi_status rfi_tiff_reader_open_memory(const uint8_t *data, size_t length,
                                       rfi_tiff_reader **reader, rfi_still_header *header,
                                       char *message, size_t message_capacity) {
    return rfi_tiff_reader_open(-1, data, length, reader, header, message, message_capacity);
}

int32_t rfi_tiff_reader_band_rows(const rfi_tiff_reader *reader) { return (int32_t)reader->band_rows; }

/* Reads the next band through the chosen path; returns the rows delivered, or -1. */
static int32_t rfi_tiff_read_band(struct rfi_tiff_reader *reader, uint32_t *rows, int32_t row_pixels,
                                  int32_t *translucent) {
    uint32_t count = reader->height - reader->row;
    if (count > reader->band_rows) count = reader->band_rows;
    switch (reader->path) {
    case RFI_TIFF_OWN_SCANLINES:
        for (uint32_t i = 0; i < count; i++) {
            if (TIFFReadScanline(reader->tiff, reader->raw, reader->row + i, 0) < 0) return -1;
            *translucent |= rfi_tiff_convert_row(reader, reader->raw, 0, reader->width,
                                                 rows + (size_t)i * (size_t)row_pixels, 0, reader->row + i);
        }
        return (int32_t)count;
    case RFI_TIFF_OWN_TILES: {
        uint32_t across = (reader->width + reader->tile_width - 1) / reader->tile_width;
        for (uint32_t column = 0; column < across; column++) {
            ttile_t tile = TIFFComputeTile(reader->tiff, column * reader->tile_width, reader->row, 0, 0);
            if (TIFFReadEncodedTile(reader->tiff, tile, reader->raw + (size_t)column * (size_t)reader->raw_stride,
                                    reader->raw_stride) < 0)
                return -1;
        }
        tmsize_t tile_row_bytes = TIFFTileRowSize(reader->tiff);
        for (uint32_t i = 0; i < count; i++) {
            for (uint32_t column = 0; column < across; column++) {
                uint32_t first = column * reader->tile_width;
                uint32_t pixels = reader->width - first < reader->tile_width ? reader->width - first : reader->tile_width;
                /* The tile's row as if it were a row starting at pixel `first`. */
                const uint8_t *tile_row = reader->raw + (size_t)column * (size_t)reader->raw_stride +
                                          (size_t)i * (size_t)tile_row_bytes;
                uint32_t *out = rows + (size_t)i * (size_t)row_pixels + first;
                *translucent |= rfi_tiff_convert_row(reader, tile_row, 0, pixels, out, first, reader->row + i);
            }
        }
        return (int32_t)count;
    }
    case RFI_TIFF_RGBA_IMAGE:
    default: {
        reader->image.row_offset = (int)reader->row;
        reader->image.col_offset = 0;
        if (!TIFFRGBAImageGet(&reader->image, reader->raster, reader->width, count)) return -1;
        for (uint32_t i = 0; i < count; i++) {
            const uint32_t *source = reader->raster + (size_t)i * reader->width;
            uint32_t *out = rows + (size_t)i * (size_t)row_pixels;
            for (uint32_t x = 0; x < reader->width; x++) {
                /* TIFFRGBAImage packs A, B, G, R from the high byte (TIFFGetR is the low one),
                 * alpha associated. */
                uint32_t p = source[x];
                uint32_t a = TIFFGetA(p);
                out[x] = a << 24 | TIFFGetR(p) << 16 | TIFFGetG(p) << 8 | TIFFGetB(p);
                if (a < 255) *translucent = 1;
            }
        }
        return (int32_t)count;
    }
    }
}

rfi_status rfi_tiff_reader_read(rfi_tiff_reader *reader, uint32_t *rows, int32_t row_pixels,
                                int64_t band_pixel_limit, int32_t *rows_read,
                                int32_t *translucent, char *message, size_t message_capacity) {
    *rows_read = 0;
    *translucent = 0;
    if (reader->failed || row_pixels < 0 || (uint32_t)row_pixels < reader->width) {
        rfi_set_message(message, message_capacity, "the reader has failed, or the rows are too short");
        return RFI_STATUS_INVALID_REQUEST;
    }
    if (reader->row >= reader->height) return RFI_STATUS_OK;
    if ((int64_t)reader->band_rows * (int64_t)reader->width > band_pixel_limit) {
        reader->failed = 1;
        rfi_set_message(message, message_capacity, "a strip of the image holds more pixels than the limit");
        return RFI_STATUS_TOO_LARGE;
    }
    if (reader->path == RFI_TIFF_RGBA_IMAGE && reader->raster == NULL) {
        reader->raster = malloc((size_t)reader->band_rows * reader->width * sizeof(uint32_t));
        if (reader->raster == NULL) {
            reader->failed = 1;
            rfi_set_message(message, message_capacity, "out of memory");
            return RFI_STATUS_OUT_OF_MEMORY;
        }
    }
    reader->client.message[0] = '\0';
    int32_t count = rfi_tiff_read_band(reader, rows, row_pixels, translucent);
    if (count < 0) {
        reader->failed = 1;
        if (reader->client.message[0] == '\0')
            rfi_set_message(reader->client.message, sizeof reader->client.message, "libtiff cannot decode the image data");
        rfi_set_message(message, message_capacity, reader->client.message);
        return rfi_tiff_failure_status(&reader->client);
    }
    reader->row += (uint32_t)count;
    *rows_read = count;
    return RFI_STATUS_OK;
}

void rfi_tiff_reader_close(rfi_tiff_reader *reader) {
    if (reader == NULL) return;
    if (reader->image_started) TIFFRGBAImageEnd(&reader->image);
    if (reader->tiff != NULL) TIFFClose(reader->tiff);
    free(reader->raw);
    free(reader->raster);
    free(reader->lab_row);
    rfi_colour_lab_transform_free(reader->lab_transform);
    free(reader);
}

/* MARK: a camera file's picture data */

/* Where the strips or tiles of the current directory end, bytes from the start: the largest
 * offset + byte count; 0 when it has none. */
static uint64_t rfi_tiff_directory_data_end(TIFF *tiff) {
    int tiled = TIFFIsTiled(tiff);
    uint32_t count = tiled ? TIFFNumberOfTiles(tiff) : TIFFNumberOfStrips(tiff);
    uint64_t *offsets = NULL, *sizes = NULL, end = 0;
    if (!TIFFGetField(tiff, tiled ? TIFFTAG_TILEOFFSETS : TIFFTAG_STRIPOFFSETS, &offsets) ||
        !TIFFGetField(tiff, tiled ? TIFFTAG_TILEBYTECOUNTS : TIFFTAG_STRIPBYTECOUNTS, &sizes) || offsets == NULL ||
        sizes == NULL)
        return 0;
    for (uint32_t i = 0; i < count; i++) {
        if (offsets[i] + sizes[i] > end) end = offsets[i] + sizes[i];
    }
    return end;
}

/* Takes the current directory as the picture when it has more pixels than `*most`: `*most`
 * becomes its pixel count and `*end` the end of its data. */
static void rfi_tiff_note_if_largest(TIFF *tiff, uint64_t *most, uint64_t *end, int *found) {
    uint32_t width = 0, height = 0;
    TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &width);
    TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &height);
    if ((uint64_t)width * height <= *most) return;
    *most = (uint64_t)width * height;
    *end = rfi_tiff_directory_data_end(tiff);
    *found = 1;
}

int rfi_tiff_picture_data_end(int32_t descriptor, const uint8_t *data, size_t length, uint64_t *end,
                              uint64_t *file_size) {
    struct rfi_tiff_client client = {.descriptor = descriptor, .data = data, .length = length};
    TIFF *tiff = rfi_tiff_open_client(&client);
    if (tiff == NULL) return 0;
    *file_size = rfi_tiff_size_proc(&client);
    /* The camera's picture is the directory of the most pixels: IFD0, a later one, or a SubIFD
     * (TIFF/EP, DNG 1.4: "SubIFDs"), where cameras put it beside a preview. */
    uint64_t most = 0;
    int found = 0;
    toff_t subdirectories[16];
    int subdirectory_count = 0;
    do {
        rfi_tiff_note_if_largest(tiff, &most, end, &found);
        uint16_t count = 0;
        uint64_t *offsets = NULL;
        if (TIFFGetField(tiff, TIFFTAG_SUBIFD, &count, &offsets) && offsets != NULL) {
            for (uint16_t i = 0; i < count && subdirectory_count < 16; i++) subdirectories[subdirectory_count++] = offsets[i];
        }
    } while (TIFFReadDirectory(tiff));
    for (int i = 0; i < subdirectory_count; i++) {
        if (TIFFSetSubDirectory(tiff, subdirectories[i])) rfi_tiff_note_if_largest(tiff, &most, end, &found);
    }
    TIFFClose(tiff);
    return found && *end > 0;
}

/* MARK: details */

/* Copies an ASCII field into `out` (capacity bytes), trailing spaces removed. */
static void rfi_tiff_copy_text(TIFF *tiff, uint32_t tag, char *out, size_t capacity) {
    char *text = NULL;
    out[0] = '\0';
    if (!TIFFGetField(tiff, tag, &text) || text == NULL) return;
    rfi_set_message(out, capacity, text);
    size_t end = strlen(out);
    while (end > 0 && out[end - 1] == ' ') out[--end] = '\0';
}

/* Element `index` of a RATIONAL field, however libtiff stores it (float or double, with or
 * without a count); 0 when absent, and then *found = 0 (found may be NULL). */
static double rfi_tiff_rational_found(TIFF *tiff, uint32_t tag, int index, int *found_out) {
    int ignored;
    int *found_flag = found_out != NULL ? found_out : &ignored;
    *found_flag = 0;
    const TIFFField *field = TIFFFieldWithTag(tiff, tag);
    if (field == NULL) return 0;
    int size = TIFFFieldSetGetSize(field);
    int single = TIFFFieldWriteCount(field) == 1 && !TIFFFieldPassCount(field);
    if (single) {
        if (index != 0) return 0;
        if (size == 4) {
            float value = 0;
            *found_flag = TIFFGetField(tiff, tag, &value) != 0;
            return *found_flag ? value : 0;
        }
        double value = 0;
        *found_flag = TIFFGetField(tiff, tag, &value) != 0;
        return *found_flag ? value : 0;
    }
    void *array = NULL;
    uint32_t count = 0;
    int found;
    if (TIFFFieldPassCount(field)) {
        if (TIFFFieldWriteCount(field) == TIFF_VARIABLE2) {
            found = TIFFGetField(tiff, tag, &count, &array);
        } else {
            uint16_t short_count = 0;
            found = TIFFGetField(tiff, tag, &short_count, &array);
            count = short_count;
        }
    } else {
        found = TIFFGetField(tiff, tag, &array);
        count = (uint32_t)TIFFFieldWriteCount(field);
    }
    if (!found || array == NULL || (uint32_t)index >= count) return 0;
    *found_flag = 1;
    return size == 4 ? ((float *)array)[index] : ((double *)array)[index];
}

static double rfi_tiff_rational(TIFF *tiff, uint32_t tag, int index) { return rfi_tiff_rational_found(tiff, tag, index, NULL); }

rfi_status rfi_tiff_read_details(int32_t descriptor, rfi_exif_details *out) {
    memset(out, 0, sizeof *out);
    struct rfi_tiff_client client = {.descriptor = descriptor};
    TIFF *tiff = descriptor >= 0 ? rfi_tiff_open_client(&client) : NULL;
    if (tiff == NULL) return RFI_STATUS_FAILED;
    rfi_tiff_copy_text(tiff, TIFFTAG_MAKE, out->make, sizeof out->make);
    rfi_tiff_copy_text(tiff, TIFFTAG_MODEL, out->model, sizeof out->model);
    toff_t exif = 0, gps = 0;
    int has_exif = TIFFGetField(tiff, TIFFTAG_EXIFIFD, &exif) && exif != 0;
    int has_gps = TIFFGetField(tiff, TIFFTAG_GPSIFD, &gps) && gps != 0;
    if (has_exif && TIFFReadEXIFDirectory(tiff, exif)) {
        rfi_tiff_copy_text(tiff, EXIFTAG_DATETIMEORIGINAL, out->date_taken, sizeof out->date_taken);
        rfi_tiff_copy_text(tiff, EXIFTAG_OFFSETTIMEORIGINAL, out->offset_taken, sizeof out->offset_taken);
        rfi_tiff_copy_text(tiff, EXIFTAG_LENSMODEL, out->lens, sizeof out->lens);
        out->exposure_seconds = rfi_tiff_rational(tiff, EXIFTAG_EXPOSURETIME, 0);
        out->f_number = rfi_tiff_rational(tiff, EXIFTAG_FNUMBER, 0);
        out->focal_length_mm = rfi_tiff_rational(tiff, EXIFTAG_FOCALLENGTH, 0);
        uint16_t count = 0;
        uint16_t *iso = NULL;
        if (TIFFGetField(tiff, EXIFTAG_ISOSPEEDRATINGS, &count, &iso) && count >= 1 && iso != NULL) out->iso = iso[0];
    }
    if (has_gps && TIFFReadGPSDirectory(tiff, gps)) {
        char north[4] = "", east[4] = "";
        rfi_tiff_copy_text(tiff, GPSTAG_LATITUDEREF, north, sizeof north);
        rfi_tiff_copy_text(tiff, GPSTAG_LONGITUDEREF, east, sizeof east);
        double latitude = rfi_tiff_rational(tiff, GPSTAG_LATITUDE, 0) + rfi_tiff_rational(tiff, GPSTAG_LATITUDE, 1) / 60 +
                          rfi_tiff_rational(tiff, GPSTAG_LATITUDE, 2) / 3600;
        double longitude = rfi_tiff_rational(tiff, GPSTAG_LONGITUDE, 0) +
                           rfi_tiff_rational(tiff, GPSTAG_LONGITUDE, 1) / 60 +
                           rfi_tiff_rational(tiff, GPSTAG_LONGITUDE, 2) / 3600;
        /* The rules of the EXIF reader (common.c, rfi_exif_coordinate): references missing or in
         * lower case, past the poles no position. libtiff gives rationals as floats, 0 for 0/0. */
        int32_t latitude_present = 0, longitude_present = 0;
        int has_latitude = 0, has_longitude = 0;
        rfi_tiff_rational_found(tiff, GPSTAG_LATITUDE, 0, &has_latitude);
        rfi_tiff_rational_found(tiff, GPSTAG_LONGITUDE, 0, &has_longitude);
        out->latitude = rfi_gps_signed(latitude < 0 ? -latitude : latitude, latitude < 0, north[0] ? north : NULL, 'S', 90,
                                       &latitude_present);
        out->longitude = rfi_gps_signed(longitude < 0 ? -longitude : longitude, longitude < 0, east[0] ? east : NULL, 'W', 180,
                                        &longitude_present);
        out->has_position = has_latitude && has_longitude && latitude_present && longitude_present;
        if (!out->has_position) out->latitude = out->longitude = 0;
    }
    TIFFClose(tiff);
    int any = out->make[0] || out->model[0] || out->lens[0] || out->date_taken[0] || out->iso ||
              out->exposure_seconds > 0 || out->f_number > 0 || out->focal_length_mm > 0 || out->has_position;
    return any ? RFI_STATUS_OK : RFI_STATUS_FAILED;
}
