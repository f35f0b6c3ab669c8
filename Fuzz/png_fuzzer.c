/* libFuzzer harness: the PNG paths of the imaging shim on arbitrary bytes. The header probe,
 * its colour profile (iCCP inflated, or one built from gAMA and cHRM), the streamed row reader
 * through every row (or the first band only, as a cancelled decode
 * stops), and the text chunks after the image data, with a bound on the image's size so that
 * a hostile header cannot make one input run for long. */
#include <stdint.h>
#include <stdlib.h>

#include "CRiffleImaging.h"

/* 1 MP: the largest image one input may decode through every row. */
#define FUZZ_PIXEL_LIMIT (1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char message[256];
    rfi_image_header header;
    if (rfi_png_read_header(data, size, &header, message, sizeof message) != RFI_STATUS_OK) return 0;
    rfi_bytes profile = {0};
    if (rfi_png_read_colour_profile(data, size, &profile, message, sizeof message) == RFI_STATUS_OK) {
        rfi_bytes_free(profile.data);
    }
    if ((int64_t)header.width * header.height > FUZZ_PIXEL_LIMIT) return 0;

    rfi_png_reader *reader = NULL;
    if (rfi_png_reader_open_memory(data, size, &reader, &header, message, sizeof message) == RFI_STATUS_OK &&
        rfi_png_reader_start(reader, message, sizeof message) == RFI_STATUS_OK) {
        uint32_t *rows = malloc((size_t)header.width * 16 * sizeof *rows);
        int all = !(size > 8 && data[size - 1] & 1);
        rfi_png_rows out = {0};
        int ok = rows != NULL;
        do {
            ok = ok && rfi_png_reader_read(reader, rows, header.width, 16, &out, message, sizeof message) == RFI_STATUS_OK;
        } while (ok && all && out.count > 0);
        if (ok && all) {
            rfi_png_text_list text = {0};
            if (rfi_png_reader_read_text(reader, &text, message, sizeof message) == RFI_STATUS_OK) {
                rfi_png_text_free(text.entries);
            }
        }
        free(rows);
    }
    rfi_png_reader_close(reader, message, sizeof message);
    return 0;
}
