/* CRiffleImaging: prefixed C shim over libjpeg-turbo, libpng (and its zlib), libexif, FreeType,
 * fontconfig (rfi_).
 *
 * Every function returns an rfi_status and, when it is not RFI_STATUS_OK, writes a human-readable
 * reason (the library's own text where it has one) into `message` (at most `message_capacity`
 * bytes, always NUL-terminated). Every setjmp/longjmp of libjpeg and libpng happens inside the
 * shim; callers never see one. No libjpeg, libpng, zlib, libexif, FreeType or fontconfig type
 * appears in this header.
 */
#ifndef CRIFFLE_IMAGING_H
#define CRIFFLE_IMAGING_H

#include <stddef.h>
#include <stdint.h>

/* Enough for libjpeg's JMSG_LENGTH_MAX (200) and a prefix. */
#define RFI_MESSAGE_CAPACITY 256

typedef enum rfi_status {
    RFI_STATUS_OK = 0,
    /* The library rejected the data; `message` says why. */
    RFI_STATUS_FAILED = 1,
    /* The data ended before the library had what it needed. */
    RFI_STATUS_TRUNCATED = 2,
    /* The output would hold more than `pixel_limit` pixels (nothing was allocated), or a JPEG
     * needs more working memory than the limit allows (8 bytes a limit pixel + 16 MiB, without
     * wrapping: INT64_MAX allows any). */
    RFI_STATUS_TOO_LARGE = 3,
    /* An allocation failed: the shim's own, or one inside libjpeg, libpng or zlib. */
    RFI_STATUS_OUT_OF_MEMORY = 4,
    /* The arguments do not describe a valid request for this image (a region outside it, a
     * scale libjpeg does not offer); `message` says why. */
    RFI_STATUS_INVALID_REQUEST = 5,
    /* The data is valid but cannot be decoded the way asked within the limits; `message` says
     * why and what to do instead. */
    RFI_STATUS_UNSUPPORTED = 6,
    /* The format's library, loaded on first use (lazy_codecs.h), is not on this system;
     * `message` names it and the loader's reason. */
    RFI_STATUS_LIBRARY_MISSING = 7,
} rfi_status;

/* A problem a decoder recovered from: the pixels are usable but not all of them are real. */
typedef enum rfi_warning {
    RFI_WARNING_NONE = 0,
    /* The data ends early; the missing part is grey (libjpeg's fill, or the PNG reader's). */
    RFI_WARNING_TRUNCATED = 1,
    /* The entropy-coded data is damaged; libjpeg resynchronised (`message` has its text). */
    RFI_WARNING_CORRUPT_DATA = 2,
} rfi_warning;

/* What a header says, read without decoding pixels. */
typedef struct rfi_image_header {
    /* Size of the image as stored, before EXIF orientation is applied. */
    int32_t width;
    int32_t height;
    /* EXIF orientation 1...8; 1 when there is no EXIF data or the value is invalid. */
    int32_t orientation;
    /* 1 when the JPEG has more than one scan (progressive, or multi-scan baseline), or the PNG is
     * Adam7-interlaced: any part of it at full resolution needs data from the whole file. 0 for
     * single-scan JPEGs and non-interlaced PNGs. */
    int32_t multiple_scans;
    /* 1 when the PNG stores transparency (an alpha channel or a tRNS chunk); 0 for JPEGs. */
    int32_t has_alpha;
} rfi_image_header;

/* Decoded pixels: premultiplied BGRA, one uint32_t 0xAARRGGBB each, rows packed (width pixels). */
typedef struct rfi_pixels {
    /* malloc'ed; release with rfi_pixels_free. NULL unless the status was RFI_STATUS_OK. */
    uint32_t *pixels;
    int32_t width;
    int32_t height;
    rfi_warning warning;
} rfi_pixels;

/* An encoded file in memory. */
typedef struct rfi_bytes {
    /* malloc'ed; release with rfi_bytes_free. NULL unless the status was RFI_STATUS_OK. */
    uint8_t *data;
    size_t length;
} rfi_bytes;

void rfi_pixels_free(uint32_t *pixels);
void rfi_bytes_free(uint8_t *data);

#include "rfi_colour.h"
#include "rfi_dither.h"

/* MARK: JPEG (libjpeg-turbo, libexif) */

/* Reads the JPEG header and the EXIF orientation from an APP1 segment. */
rfi_status rfi_jpeg_read_header(const uint8_t *data, size_t length, rfi_image_header *header,
                                char *message, size_t message_capacity);

/* The ICC profile in the JPEG's APP2 "ICC_PROFILE" chunks, reassembled (libjpeg-turbo's
 * jpeg_read_icc_profile); `out` stays empty (data NULL) when there is none or the chunks are
 * incomplete. Release `out->data` with rfi_bytes_free. */
rfi_status rfi_jpeg_read_icc_profile(const uint8_t *data, size_t length, rfi_bytes *out, char *message,
                                     size_t message_capacity);

/* Decodes at scale_eighths/8 (1 to 8) of the stored size using libjpeg-turbo's DCT scaling, each
 * side rounded up; 1/8, 2/8, 4/8 and 8/8 run its SIMD IDCTs, the other eighths its scaled C ones.
 * Refuses with RFI_STATUS_TOO_LARGE, before allocating pixel memory, when the scaled output has
 * more than pixel_limit pixels, and also when libjpeg's working memory would pass 8 bytes a limit
 * pixel + 16 MiB (a progressive file holds all its coefficients, up to 8 bytes a stored pixel,
 * whatever the scale). Adobe CMYK/YCCK is converted to RGB (inverted CMYK when an Adobe APP14
 * marker is present). Truncated or damaged entropy data is not an error: the result has
 * RFI_WARNING_TRUNCATED or RFI_WARNING_CORRUPT_DATA and `message` holds libjpeg's text. EXIF
 * orientation is not applied. */
rfi_status rfi_jpeg_decode(const uint8_t *data, size_t length, int32_t scale_eighths,
                           int64_t pixel_limit, rfi_pixels *out, char *message,
                           size_t message_capacity);

/* A JPEG decode delivered a few rows at a time, so that a caller can reduce each row as it comes
 * (area-average it to the shown size) and never hold the picture at the decoded scale; reading
 * from a file descriptor it also never holds the file (64 KiB at a time). Use from one thread at
 * a time. Calls: open, then start, then read until every row is in (or stop early), then close;
 * after a failed call only close is allowed. */
typedef struct rfi_jpeg_reader rfi_jpeg_reader;

/* Reads the header (and the EXIF orientation) of the JPEG in the open file `descriptor`, from its
 * current offset; the reader does not own the descriptor, which must stay open until close. */
rfi_status rfi_jpeg_reader_open_file(int32_t descriptor, rfi_jpeg_reader **reader,
                                     rfi_image_header *header, char *message,
                                     size_t message_capacity);

/* As rfi_jpeg_reader_open_file, over `length` bytes at `data`, which must outlive the reader. */
rfi_status rfi_jpeg_reader_open_memory(const uint8_t *data, size_t length,
                                       rfi_jpeg_reader **reader, rfi_image_header *header,
                                       char *message, size_t message_capacity);

/* Starts decoding at scale_eighths/8 (1 to 8), with the limits, colour handling and output size
 * (`width` × `height`) of rfi_jpeg_decode. */
rfi_status rfi_jpeg_reader_start(rfi_jpeg_reader *reader, int32_t scale_eighths,
                                 int64_t pixel_limit, int32_t *width, int32_t *height,
                                 char *message, size_t message_capacity);

/* Decodes up to `max_rows` next rows into `rows` (premultiplied BGRA, `row_pixels` ≥ width apart),
 * setting `rows_read` (fewer only at the picture's end, or on failure: the rows before it). */
rfi_status rfi_jpeg_reader_read(rfi_jpeg_reader *reader, uint32_t *rows, int32_t row_pixels,
                                 int32_t max_rows, int32_t *rows_read, char *message,
                                 size_t message_capacity);

/* Whether this CPU can run Riffle's AVX2 scaled IDCTs (jpeg_scaled_idct.c), which a 5/8 decode
 * uses in place of libjpeg-turbo's scalar jpeg_idct_5x5 and jpeg_idct_10x10: the same samples,
 * bit for bit, in less time. */
int32_t rfi_jpeg_vector_idct_available(void);

/* A sequential JPEG decoded by two readers of the same file on two threads: one entropy-decodes
 * the scan (the Huffman pass, which cannot be split without restart markers) into the feed,
 * MCU row after MCU row; the other takes the coefficient blocks from the feed in place of its
 * own entropy decoding and does everything after: dequantising, inverse DCTs, upsampling and
 * colour conversion, row by row. The rows are the ones one reader alone gives, bit for bit, with
 * its warnings at the same rows; the feed holds a few MCU rows (RFI_JPEG_FEED_ROWS), never the
 * picture's coefficients. Either reader's thread may give the feed up, which stops the other. */
typedef struct rfi_jpeg_coefficient_feed rfi_jpeg_coefficient_feed;

/* A new feed (NULL when out of memory); free it once neither reader uses it. */
rfi_jpeg_coefficient_feed *rfi_jpeg_feed_create(void);
void rfi_jpeg_feed_free(rfi_jpeg_coefficient_feed *feed);
void rfi_jpeg_feed_abandon(rfi_jpeg_coefficient_feed *feed);

/* Before rfi_jpeg_reader_start: the reader takes its coefficients from `feed`. Its reads then
 * wait for the feeding reader's rows, and fail with its failure where its own decoding would
 * have; closing it after its last row waits for the feeding reader to read the markers after
 * the scan, whose warnings are its own too. */
void rfi_jpeg_reader_consume_feed(rfi_jpeg_reader *reader, rfi_jpeg_coefficient_feed *feed);

/* The feeding reader, started at the same scale as the taking one (libjpeg keeps only the DC
 * coefficients at 1/8): entropy-decodes every MCU of the scan into `feed`, waiting whenever the
 * taker is RFI_JPEG_FEED_ROWS rows behind, then reads the markers after the scan. Returns once
 * done, or once the feed is given up (RFI_STATUS_OK both), or with the failure it also hands to
 * the taker. */
rfi_status rfi_jpeg_reader_feed(rfi_jpeg_reader *reader, rfi_jpeg_coefficient_feed *feed, char *message,
                                size_t message_capacity);

/* Whether this CPU can run the AVX2 loops of the Lanczos-3 resampler (lanczos_avx2.c). */
int32_t rfi_lanczos_avx2_available(void);

/* RiffleRaster's LanczosResampler, across: `row` (source_width premultiplied BGRA pixels) into
 * `source` as floats (four a pixel; the floats past the row's end, to source_width + 4·groups
 * pixels, are the caller's zeros), then output x = Σ over its `groups` groups of four taps from
 * pixel firsts[x], into out[4x ... 4x + 3]. A group's weights w0…w3 are eight floats from
 * weights[8·groups·x + 8·g]: (w0, w2, w0, w2, w1, w3, w1, w3). The Swift loop's floats, bit
 * for bit. Only where rfi_lanczos_avx2_available(). */
void rfi_lanczos_across_avx2(const uint32_t *row, ptrdiff_t source_width, float *source, const ptrdiff_t *firsts,
                             const float *weights, ptrdiff_t groups, ptrdiff_t width, float *out);

/* RiffleRaster's LanczosResampler, down: output pixel x = Σₖ rows[k][4x ...]·weights[k] over
 * `taps` rows resampled across, clamped, colours to at most alpha, rounded and packed into
 * out[x]. The Swift loop's pixels, bit for bit. Only where rfi_lanczos_avx2_available(). */
void rfi_lanczos_down_avx2(const float *const *rows, const float *weights, ptrdiff_t taps, ptrdiff_t width,
                           uint32_t *out);

/* Before rfi_jpeg_reader_start: 0 to decode with libjpeg's own IDCTs (for tests and benchmarks;
 * the samples are the same), 1 (the default) for the vector ones where they apply. */
void rfi_jpeg_reader_set_vector_idct(rfi_jpeg_reader *reader, int32_t enabled);

/* How many of the started reader's components decode through the vector IDCTs (0 unless the
 * scale is 5/8, the reader wants them and the CPU has them). */
int32_t rfi_jpeg_reader_vector_idct_components(const rfi_jpeg_reader *reader);

/* How many output rows had been read when the file's data ran out (libjpeg then fills the rest
 * with grey), or -1 while it has not. Meaningful for single-scan JPEGs only: a progressive one
 * is read whole before its first row, so its missing data lowers the quality everywhere. */
int64_t rfi_jpeg_reader_rows_before_end_of_data(const rfi_jpeg_reader *reader);

/* Ends the decode and frees the reader (NULL is ignored); returns the warning of the decode so
 * far, its text in `message` (which may be NULL). Stopping before the last row skips the rest of
 * the entropy-coded data. */
rfi_warning rfi_jpeg_reader_close(rfi_jpeg_reader *reader, char *message,
                                  size_t message_capacity);

/* Decodes only the rectangle x, y, width × height of the image as rfi_jpeg_decode would produce
 * it at 1/scale_denominator (1, 2, 4 or 8): coordinates are in the scaled output's pixels, in the
 * stored orientation. Columns are cropped with jpeg_crop_scanline (which widens the crop to
 * iMCU boundaries; the widened part is decoded and dropped) and rows above the rectangle are
 * skipped with jpeg_skip_scanlines (entropy-decoded but neither dequantised nor transformed);
 * decoding stops at the rectangle's last row. `out` is exactly width × height. Working memory is
 * the rectangle plus row buffers a scaled image row wide: O(region + width), never O(image).
 * The pixels equal the same rectangle of rfi_jpeg_decode's output at the same scale.
 * Refuses with RFI_STATUS_INVALID_REQUEST a rectangle that is empty or not inside the scaled
 * image; with RFI_STATUS_TOO_LARGE one of more than pixel_limit pixels; with
 * RFI_STATUS_UNSUPPORTED a multi-scan (progressive) file whose stored size exceeds pixel_limit,
 * since libjpeg must then buffer every coefficient of the image (decode such files whole with
 * rfi_jpeg_decode instead). Warnings and CMYK as rfi_jpeg_decode; EXIF orientation not applied. */
rfi_status rfi_jpeg_decode_region(const uint8_t *data, size_t length, int32_t scale_denominator,
                                  int32_t x, int32_t y, int32_t width, int32_t height,
                                  int64_t pixel_limit, rfi_pixels *out, char *message,
                                  size_t message_capacity);

/* How rfi_jpeg_encode lays out a baseline JPEG. */
typedef struct rfi_jpeg_encode_options {
    /* 1...100 (clamped). */
    int32_t quality;
    /* Luma sampling factors, 1 or 2 each (chroma is 1×1): 2×2 is 4:2:0, 2×1 is 4:2:2, 1×1 is
     * 4:4:4. Ignored for grayscale. */
    int32_t luma_h;
    int32_t luma_v;
    /* Nonzero: one luma component only. */
    int32_t grayscale;
    /* Nonzero: a restart marker (DRI) every this many MCU rows. */
    int32_t restart_rows;
    /* Nonzero: a restart marker every this many MCUs (1...65535), instead of restart_rows. */
    int32_t restart_mcus;
} rfi_jpeg_encode_options;

/* Encodes opaque BGRA rows (alpha ignored) as a single-scan baseline JPEG with libjpeg-turbo's
 * standard Huffman tables, laid out as `options` says. */
rfi_status rfi_jpeg_encode(const uint32_t *pixels, int32_t width, int32_t height,
                           int32_t row_pixels, rfi_jpeg_encode_options options, rfi_bytes *out,
                           char *message, size_t message_capacity);

/* MARK: EXIF (libexif) */

/* The thumbnail (IFD1's JPEGInterchangeFormat bytes, itself a small JPEG) of an EXIF block
 * `exif` ("Exif\0\0" then TIFF, as in a JPEG's APP1); `out` stays empty (data NULL) when the
 * block has none or cannot be read. Release `out->data` with rfi_bytes_free. */
rfi_status rfi_exif_thumbnail(const uint8_t *exif, size_t length, rfi_bytes *out);

/* An EXIF block ("Exif\0\0" then little-endian TIFF) with IFD0's Orientation set to
 * `orientation` (1...8) and, when `length` > 0, `thumbnail` (a JPEG of at most 60000 bytes) as
 * IFD1's thumbnail: what a camera writes into its APP1 segment. */
rfi_status rfi_exif_make(const uint8_t *thumbnail, size_t length, int32_t orientation,
                         rfi_bytes *out, char *message, size_t message_capacity);

/* What an EXIF block says about how a photo was taken. Text is UTF-8 (EXIF's ASCII), NUL-terminated,
 * trailing spaces removed, cut to the field's size; empty when absent. A number is 0 when absent. */
typedef struct rfi_exif_details {
    char make[64];
    char model[64];
    char lens[96];
    /* DateTimeOriginal as written: "YYYY:MM:DD HH:MM:SS". */
    char date_taken[32];
    /* OffsetTimeOriginal as written: the zone of DateTimeOriginal, "+HH:MM" or "-HH:MM". */
    char offset_taken[8];
    double exposure_seconds;
    double f_number;
    int32_t iso;
    double focal_length_mm;
    /* 1 when GPSLatitude and GPSLongitude are present; then in degrees, north and east positive. */
    int32_t has_position;
    double latitude;
    double longitude;
    /* Exif ColorSpace: 1 sRGB, 0xFFFF uncalibrated (2 from some cameras for Adobe RGB); 0 when absent. */
    int32_t colour_space;
    /* The Interoperability IFD's InteroperabilityIndex: "R98" (sRGB), "R03" (Adobe RGB). */
    char interoperability_index[8];
} rfi_exif_details;

/* Reads make, model, lens, DateTimeOriginal, exposure time, f-number, ISO, focal length and GPS
 * position from an EXIF block `exif` ("Exif\0\0" then TIFF, as in a JPEG's APP1); RFI_STATUS_FAILED
 * when libexif cannot read the block (`out` then all empty). */
rfi_status rfi_exif_read_details(const uint8_t *exif, size_t length, rfi_exif_details *out);

/* MARK: PNG (libpng, libexif) */

/* Reads IHDR and, if it comes before the image data, the EXIF orientation from an eXIf chunk. */
rfi_status rfi_png_read_header(const uint8_t *data, size_t length, rfi_image_header *header,
                               char *message, size_t message_capacity);

/* The colour profile a PNG's chunks before its image data give it, in the PNG specification's
 * order of precedence: iCCP's profile (inflated), else none for an sRGB chunk, else one built
 * from gAMA and cHRM (rfi_colour_profile_from_png_chunks) — except a gAMA of 45455 (the value
 * the specification pairs with sRGB) with no cHRM or sRGB's, which is sRGB.
 * `out` stays empty (data NULL) for sRGB and for a PNG that says nothing (taken as sRGB).
 * Release `out->data` with rfi_bytes_free. */
rfi_status rfi_png_read_colour_profile(const uint8_t *data, size_t length, rfi_bytes *out, char *message,
                                       size_t message_capacity);

/* A PNG decoded a few rows at a time (png_read_row), so that a caller can reduce each row as it
 * comes and never hold the picture; reading from a file descriptor it also never holds the file
 * (64 KiB at a time). Rows come in file order: an Adam7-interlaced image delivers the rows of
 * its seven passes one pass after another (libpng's deinterlacing is not used), each row only
 * its pass's pixels, and the caller places them (rfi_png_rows says where). Any colour type and
 * bit depth becomes premultiplied BGRA (16-bit scaled to 8 with rounding, palettes and tRNS
 * expanded, grey replicated); no gamma or colour-profile conversion. Use from one thread at a
 * time. Calls: open, then start, then read until it delivers no row (or stop early), then
 * read_text if the text chunks are wanted, then close; after a failed call only close is
 * allowed. */
typedef struct rfi_png_reader rfi_png_reader;

/* Where the rows of one rfi_png_reader_read call belong. */
typedef struct rfi_png_rows {
    /* Rows delivered; the first `decoded` came from the data, the rest are grey fill (opaque
     * 128, 128, 128) for a file that ended early. */
    int32_t count;
    int32_t decoded;
    /* 1 when some pixel of these rows has alpha below 255. */
    int32_t translucent;
    /* Index within the pass of the first row delivered. */
    int32_t first_row;
    /* Pixels in each row of the pass. */
    int32_t width;
    /* Pixel i of pass row j is image pixel (x0 + i·dx, y0 + j·dy). */
    int32_t x0;
    int32_t y0;
    int32_t dx;
    int32_t dy;
} rfi_png_rows;

/* Reads the header (and the eXIf orientation) of the PNG in the open file `descriptor`, from its
 * current offset; the reader does not own the descriptor, which must stay open until close. */
rfi_status rfi_png_reader_open_file(int32_t descriptor, rfi_png_reader **reader,
                                    rfi_image_header *header, char *message,
                                    size_t message_capacity);

/* As rfi_png_reader_open_file, over `length` bytes at `data`, which must outlive the reader. */
rfi_status rfi_png_reader_open_memory(const uint8_t *data, size_t length,
                                      rfi_png_reader **reader, rfi_image_header *header,
                                      char *message, size_t message_capacity);

/* Sets up the conversion to premultiplied BGRA. Allocates nothing proportional to the image
 * but libpng's two raw rows (at most 8 bytes a pixel each). */
rfi_status rfi_png_reader_start(rfi_png_reader *reader, char *message, size_t message_capacity);

/* Decodes up to `max_rows` next rows, all of one pass, into `rows` (premultiplied BGRA,
 * `row_pixels` apart, which must be at least the image's width even for a pass's narrower rows:
 * libpng writes whole image rows), and says in `out` where they belong; `out->count` is 0 once
 * every row is in. Data that ends early is no failure: the rows from there on are grey fill,
 * and close reports RFI_WARNING_TRUNCATED. Any other damage fails with libpng's text. */
rfi_status rfi_png_reader_read(rfi_png_reader *reader, uint32_t *rows, int32_t row_pixels,
                               int32_t max_rows, rfi_png_rows *out, char *message,
                               size_t message_capacity);

/* One PNG text chunk: tEXt or zTXt (Latin-1 text) or iTXt (UTF-8 text). */
typedef struct rfi_png_text {
    /* The keyword: 1 to 79 Latin-1 bytes, NUL-terminated. */
    const char *key;
    /* The text: `length` bytes, NUL-terminated as well (a text holds no NUL). */
    const char *text;
    size_t length;
    /* 1: UTF-8, an iTXt chunk; 0: Latin-1, a tEXt or zTXt chunk. */
    int32_t is_utf8;
} rfi_png_text;

/* The text chunks of a decoded PNG, in file order. `entries` is one malloc'ed block holding the
 * entries and their strings; release it with rfi_png_text_free. NULL when `count` is 0. */
typedef struct rfi_png_text_list {
    rfi_png_text *entries;
    int32_t count;
} rfi_png_text_list;

void rfi_png_text_free(rfi_png_text *entries);

/* Once every row is read (the last read delivered none), reads the chunks after the image data
 * up to IEND, which must be there, and puts every text chunk of the file, before and after the
 * image data, into `text` in file order; it is empty (entries NULL) unless the status is
 * RFI_STATUS_OK. A file whose data ended early fails with RFI_STATUS_TRUNCATED. Only close is
 * allowed after it. */
rfi_status rfi_png_reader_read_text(rfi_png_reader *reader, rfi_png_text_list *text,
                                    char *message, size_t message_capacity);

/* Frees the reader (NULL is ignored) and returns the warning of the decode so far, its text in
 * `message` (which may be NULL). The rows not read, and the chunks after the image data unless
 * rfi_png_reader_read_text read them, are never looked at. */
rfi_warning rfi_png_reader_close(rfi_png_reader *reader, char *message, size_t message_capacity);

/* Encodes premultiplied BGRA rows as an 8-bit PNG: RGB when every pixel is opaque, else RGBA
 * with straight (un-premultiplied) alpha; Adam7-interlaced when `interlaced` is nonzero; with
 * `text_count` text chunks (uncompressed tEXt, or iTXt when `is_utf8`) before the image data.
 * Each key must be a PNG keyword (1 to 79 printable Latin-1 bytes, no leading, trailing or
 * double spaces) and each text free of NUL: libpng refuses an empty key (RFI_STATUS_FAILED) but
 * quietly truncates or mends any other bad one. With `fast` nonzero, zlib level 1 and the Sub
 * filter on every row (see RFI_PNG_FAST_LEVEL); else libpng's defaults (level 6, a filter chosen
 * per row). */
rfi_status rfi_png_encode(const uint32_t *pixels, int32_t width, int32_t height,
                          int32_t row_pixels, int32_t interlaced, int32_t fast, const rfi_png_text *text,
                          int32_t text_count, rfi_bytes *out, char *message,
                          size_t message_capacity);

/* MARK: Deflated pixel rows (zlib)
 *
 * Pictures kept compressed losslessly, to be read back whole: the tiles of a huge PNG. A row
 * is stored as the first `channels` bytes of each pixel (3: B, G, R, for pixels known to be
 * opaque; 4: B, G, R, A), each byte minus the same byte of the pixel to its left (PNG's Sub
 * filter: photographs' gradients become small numbers that code in few bits), and the rows are
 * deflated at zlib level 1 (its fastest matcher) with a 4 KiB window, which reaches two tile
 * rows back. */

/* One deflate stream being written, row by row: about 80 KiB of zlib state plus the output so
 * far. */
typedef struct rfi_row_deflater rfi_row_deflater;

/* A stream storing `channels` (3 or 4) bytes a pixel. */
rfi_status rfi_row_deflater_create(int32_t channels, rfi_row_deflater **deflater, char *message,
                                   size_t message_capacity);

/* Adds one row of `count` premultiplied BGRA pixels. */
rfi_status rfi_row_deflater_add(rfi_row_deflater *deflater, const uint32_t *pixels,
                                int32_t count, char *message, size_t message_capacity);

/* Ends the stream and hands over its bytes (release with rfi_bytes_free); frees the deflater,
 * whatever the outcome. */
rfi_status rfi_row_deflater_finish(rfi_row_deflater *deflater, rfi_bytes *out, char *message,
                                   size_t message_capacity);

/* Frees a deflater without finishing it (NULL is ignored). */
void rfi_row_deflater_free(rfi_row_deflater *deflater);

/* Inflates a stream of `height` rows of `width` pixels written by a rfi_row_deflater with
 * `channels` bytes a pixel into `pixels` (`row_pixels` apart; alpha 255 when `channels` is 3).
 * Fails when the bytes do not hold exactly that. */
rfi_status rfi_inflate_rows(const uint8_t *data, size_t length, int32_t channels,
                            uint32_t *pixels, int32_t width, int32_t height, int32_t row_pixels,
                            char *message, size_t message_capacity);

/* MARK: Fonts (fontconfig, FreeType) */

/* An open FreeType face with its own FT_Library; use from one thread at a time. */
typedef struct rfi_font rfi_font;

/* One rendered glyph. `coverage` belongs to the font and is valid until its next call. */
typedef struct rfi_glyph {
    /* FreeType glyph index, for rfi_font_kerning. */
    uint32_t glyph_index;
    /* Coverage bitmap, 0...255, `width` bytes a row, rows packed, top row first. */
    const uint8_t *coverage;
    int32_t width;
    int32_t height;
    /* Bitmap's left edge, right of the pen position, in pixels. */
    int32_t left;
    /* Bitmap's top edge above the baseline, in pixels (y grows upwards). */
    int32_t top;
    /* Pen advance in 1/64 pixel. */
    int32_t advance_64ths;
} rfi_glyph;

/* Vertical metrics of the face at the current size, in 1/64 pixel, FreeType's sign convention. */
typedef struct rfi_font_metrics {
    /* Baseline to the top of the tallest glyphs (positive). */
    int32_t ascender_64ths;
    /* Baseline to the bottom of the deepest glyphs (negative). */
    int32_t descender_64ths;
} rfi_font_metrics;

/* Opens fontconfig's best match for `family` (regular or bold weight) with FreeType. */
rfi_status rfi_font_open(const char *family, int32_t bold, rfi_font **font, char *message,
                         size_t message_capacity);

void rfi_font_close(rfi_font *font);

/* Sets the em size in whole pixels (FT_Set_Pixel_Sizes) and reports the vertical metrics. */
rfi_status rfi_font_set_pixel_height(rfi_font *font, int32_t pixel_height,
                                     rfi_font_metrics *metrics, char *message,
                                     size_t message_capacity);

/* Renders `codepoint` anti-aliased (FT_RENDER_MODE_NORMAL) at the current size. A codepoint the
 * face lacks renders as U+FFFD if the face has it, else as the face's .notdef glyph. */
rfi_status rfi_font_render_glyph(rfi_font *font, uint32_t codepoint, rfi_glyph *glyph,
                                 char *message, size_t message_capacity);

/* Kerning between two glyph indices at the current size in 1/64 pixel (grid-fitted);
 * 0 when the face has no kerning table. */
int32_t rfi_font_kerning(rfi_font *font, uint32_t left_glyph_index, uint32_t right_glyph_index);

/* 1 when the face has a kerning table FreeType can read (FT_HAS_KERNING). */
int32_t rfi_font_has_kerning(const rfi_font *font);

/* MARK: memory */

/* Makes glibc serve every allocation of `threshold_bytes` or more with its own mmap (and return
 * it to the system when freed): decoded photos are large, short-lived buffers, and glibc's
 * default raises the threshold after the first such free, so later ones come from a heap that
 * never shrinks. Returns 1 on success. */
int32_t rfi_set_mmap_threshold(size_t threshold_bytes);

/* TIFF, HEIF, AVIF, JPEG XL and camera RAW. */
#include "CRiffleImagingStills.h"

/* WebP, GIF and APNG, still and animated. */
#include "rfi_animated.h"

#endif
