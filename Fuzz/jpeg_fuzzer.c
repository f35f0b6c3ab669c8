/* libFuzzer harness: the JPEG paths of the imaging shim on arbitrary bytes. The header probe,
 * a whole DCT-scaled decode, the streamed row reader (stopping part-way on some inputs, as a
 * cancelled decode does) and a region decode, each with a pixel limit small enough that a
 * hostile header cannot make one input take more than a fraction of a second. */
#include <stdint.h>
#include <stdlib.h>

#include "CRiffleImaging.h"

/* 1 MP: the largest output one input may decode, and so its memory and time. */
#define FUZZ_PIXEL_LIMIT (1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char message[256];
    rfi_image_header header;
    if (rfi_jpeg_read_header(data, size, &header, message, sizeof message) != RFI_STATUS_OK) return 0;
    rfi_bytes profile = {0};
    if (rfi_jpeg_read_icc_profile(data, size, &profile, message, sizeof message) == RFI_STATUS_OK) {
        rfi_bytes_free(profile.data);
    }
    /* The scale from the input's last byte, so the corpus explores every eighth. */
    int32_t eighths = size > 0 ? 1 + data[size - 1] % 8 : 1;

    rfi_pixels whole = {0};
    if (rfi_jpeg_decode(data, size, eighths, FUZZ_PIXEL_LIMIT, &whole, message, sizeof message) == RFI_STATUS_OK) {
        rfi_pixels_free(whole.pixels);
    }

    rfi_jpeg_reader *reader = NULL;
    if (rfi_jpeg_reader_open_memory(data, size, &reader, &header, message, sizeof message) == RFI_STATUS_OK) {
        int32_t width = 0, height = 0;
        if (rfi_jpeg_reader_start(reader, eighths, FUZZ_PIXEL_LIMIT, &width, &height, message, sizeof message) ==
                RFI_STATUS_OK &&
            width > 0) {
            uint32_t *rows = malloc((size_t)width * 16 * sizeof *rows);
            /* Inputs with an odd first byte stop after the first band, as a cancelled decode does. */
            int32_t bands = data[0] & 1 ? 1 : height;
            for (int32_t band = 0, read = 16; rows != NULL && band < bands && read == 16; band++) {
                if (rfi_jpeg_reader_read(reader, rows, width, 16, &read, message, sizeof message) != RFI_STATUS_OK) break;
            }
            free(rows);
            (void)rfi_jpeg_reader_rows_before_end_of_data(reader);
        }
    }
    rfi_jpeg_reader_close(reader, message, sizeof message);

    /* A region of the 1/8 image: its middle quarter. */
    int32_t w = ((int32_t)header.width + 7) / 8, h = ((int32_t)header.height + 7) / 8;
    if (w >= 2 && h >= 2) {
        rfi_pixels region = {0};
        if (rfi_jpeg_decode_region(data, size, 8, w / 4, h / 4, w / 2, h / 2, FUZZ_PIXEL_LIMIT, &region, message,
                                   sizeof message) == RFI_STATUS_OK) {
            rfi_pixels_free(region.pixels);
        }
    }
    return 0;
}
