/* Deflated pixel rows through zlib (libpng's own compressor): the tile cache of huge PNGs.
 *
 * The layout (channels kept, the Sub filter, level 1, a 4 KiB window) is described in the
 * header. zlib reports errors by return value, so nothing here jumps.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* deflate memory is (1 << (window_bits + 2)) + (1 << (memory_level + 9)) bytes (zlib.h, "The
 * memory requirements for deflate"): 16 KiB + 64 KiB here, against 256 KiB at zlib's defaults,
 * for a compressed size within 2% of theirs on photographs (each tile row of 512 pixels is 1.5
 * or 2 KiB, so the window still reaches the two rows above). */
static const int rfi_deflate_window_bits = 12;
static const int rfi_deflate_memory_level = 7;

struct rfi_row_deflater {
    z_stream stream;
    int channels;
    /* One filtered row. */
    uint8_t *row;
    size_t row_capacity;
    /* The compressed bytes so far. */
    uint8_t *out;
    size_t length;
    size_t capacity;
};

static rfi_status rfi_zlib_failure(int code, const z_stream *stream, char *message,
                                   size_t message_capacity) {
    if (code == Z_MEM_ERROR) {
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    rfi_set_message(message, message_capacity,
                    stream->msg != NULL ? stream->msg : "the deflated data is damaged");
    return RFI_STATUS_FAILED;
}

rfi_status rfi_row_deflater_create(int32_t channels, rfi_row_deflater **deflater, char *message,
                                   size_t message_capacity) {
    *deflater = NULL;
    if (channels != 3 && channels != 4) {
        rfi_set_message(message, message_capacity, "rows keep 3 or 4 bytes a pixel");
        return RFI_STATUS_INVALID_REQUEST;
    }
    struct rfi_row_deflater *made = calloc(1, sizeof *made);
    if (made == NULL) {
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    made->channels = channels;
    int code = deflateInit2(&made->stream, 1, Z_DEFLATED, rfi_deflate_window_bits,
                            rfi_deflate_memory_level, Z_DEFAULT_STRATEGY);
    if (code != Z_OK) {
        rfi_status status = rfi_zlib_failure(code, &made->stream, message, message_capacity);
        free(made);
        return status;
    }
    *deflater = made;
    return RFI_STATUS_OK;
}

/* Runs deflate over what the stream holds with `flush`, growing the output as it fills. */
static rfi_status rfi_row_deflater_run(struct rfi_row_deflater *deflater, int flush,
                                       char *message, size_t message_capacity) {
    z_stream *stream = &deflater->stream;
    for (;;) {
        if (deflater->capacity - deflater->length < 4096) {
            size_t capacity = deflater->capacity ? deflater->capacity * 2 : 65536;
            uint8_t *grown = realloc(deflater->out, capacity);
            if (grown == NULL) {
                rfi_set_message(message, message_capacity, "out of memory");
                return RFI_STATUS_OUT_OF_MEMORY;
            }
            deflater->out = grown;
            deflater->capacity = capacity;
        }
        stream->next_out = deflater->out + deflater->length;
        stream->avail_out = (uInt)(deflater->capacity - deflater->length);
        int code = deflate(stream, flush);
        deflater->length = deflater->capacity - stream->avail_out;
        if (code == Z_STREAM_END) return RFI_STATUS_OK;
        if (code != Z_OK && code != Z_BUF_ERROR) {
            return rfi_zlib_failure(code, stream, message, message_capacity);
        }
        /* Done once the input is taken and deflate left room unused (it had no more to say). */
        if (flush == Z_NO_FLUSH && stream->avail_in == 0 && stream->avail_out > 0) {
            return RFI_STATUS_OK;
        }
    }
}

rfi_status rfi_row_deflater_add(rfi_row_deflater *deflater, const uint32_t *pixels,
                                int32_t count, char *message, size_t message_capacity) {
    if (count <= 0) return RFI_STATUS_OK;
    size_t channels = (size_t)deflater->channels, bytes = (size_t)count * channels;
    if (bytes > deflater->row_capacity) {
        uint8_t *grown = realloc(deflater->row, bytes);
        if (grown == NULL) {
            rfi_set_message(message, message_capacity, "out of memory");
            return RFI_STATUS_OUT_OF_MEMORY;
        }
        deflater->row = grown;
        deflater->row_capacity = bytes;
    }
    /* The pixels' bytes in memory: B, G, R, A (Riffle runs little-endian). */
    const uint8_t *in = (const uint8_t *)pixels;
    uint8_t *row = deflater->row;
    memcpy(row, in, channels);
    for (size_t x = 1; x < (size_t)count; x++) {
        for (size_t c = 0; c < channels; c++) {
            row[x * channels + c] = (uint8_t)(in[4 * x + c] - in[4 * x - 4 + c]);
        }
    }
    deflater->stream.next_in = row;
    deflater->stream.avail_in = (uInt)bytes;
    return rfi_row_deflater_run(deflater, Z_NO_FLUSH, message, message_capacity);
}

rfi_status rfi_row_deflater_finish(rfi_row_deflater *deflater, rfi_bytes *out, char *message,
                                   size_t message_capacity) {
    memset(out, 0, sizeof *out);
    rfi_status status = rfi_row_deflater_run(deflater, Z_FINISH, message, message_capacity);
    if (status == RFI_STATUS_OK) {
        out->data = deflater->out;
        out->length = deflater->length;
        deflater->out = NULL;
    }
    rfi_row_deflater_free(deflater);
    return status;
}

void rfi_row_deflater_free(rfi_row_deflater *deflater) {
    if (deflater == NULL) return;
    deflateEnd(&deflater->stream);
    free(deflater->row);
    free(deflater->out);
    free(deflater);
}

rfi_status rfi_inflate_rows(const uint8_t *data, size_t length, int32_t channels,
                            uint32_t *pixels, int32_t width, int32_t height, int32_t row_pixels,
                            char *message, size_t message_capacity) {
    if ((channels != 3 && channels != 4) || width <= 0 || height <= 0 || row_pixels < width) {
        rfi_set_message(message, message_capacity, "rows keep 3 or 4 bytes a pixel and are not empty");
        return RFI_STATUS_INVALID_REQUEST;
    }
    size_t row_bytes = (size_t)width * (size_t)channels;
    uint8_t *row = malloc(row_bytes);
    if (row == NULL) {
        rfi_set_message(message, message_capacity, "out of memory");
        return RFI_STATUS_OUT_OF_MEMORY;
    }
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    int code = inflateInit2(&stream, rfi_deflate_window_bits);
    if (code != Z_OK) {
        free(row);
        return rfi_zlib_failure(code, &stream, message, message_capacity);
    }
    stream.next_in = (Bytef *)data;
    stream.avail_in = (uInt)length;
    rfi_status status = RFI_STATUS_OK;
    for (int32_t y = 0; y < height && status == RFI_STATUS_OK; y++) {
        stream.next_out = row;
        stream.avail_out = (uInt)row_bytes;
        code = inflate(&stream, Z_SYNC_FLUSH);
        if (stream.avail_out != 0 || (code != Z_OK && code != Z_STREAM_END)) {
            status = rfi_zlib_failure(code == Z_MEM_ERROR ? code : Z_DATA_ERROR, &stream, message,
                                      message_capacity);
            break;
        }
        /* Undo the Sub filter: each byte plus the same byte of the pixel to its left. */
        uint8_t *out = (uint8_t *)(pixels + (size_t)y * (size_t)row_pixels);
        size_t n = (size_t)channels;
        for (size_t x = 0; x < (size_t)width; x++) {
            for (size_t c = 0; c < n; c++) {
                out[4 * x + c] = (uint8_t)(row[x * n + c] + (x > 0 ? out[4 * x - 4 + c] : 0));
            }
            if (n == 3) out[4 * x + 3] = 0xFF;
        }
    }
    if (status == RFI_STATUS_OK && code != Z_STREAM_END) {
        /* The stream's end (and its check value) may follow the last row's bytes. */
        uint8_t extra;
        stream.next_out = &extra;
        stream.avail_out = 1;
        if (inflate(&stream, Z_FINISH) != Z_STREAM_END || stream.avail_out == 0) {
            rfi_set_message(message, message_capacity, "the deflated rows do not hold the picture");
            status = RFI_STATUS_FAILED;
        }
    }
    inflateEnd(&stream);
    free(row);
    return status;
}
