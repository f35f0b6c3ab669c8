/* CRiffleImaging, the still formats beyond JPEG and PNG: TIFF (libtiff), HEIF and AVIF (libheif),
 * JPEG XL (libjxl) and camera RAW (LibRaw's C API). Included by CRiffleImaging.h; the same rules
 * hold: rfi_ prefixes, an rfi_status and a message for every failure, no library type here.
 *
 * None of these libraries longjmps: libtiff, libheif, libjxl and LibRaw report errors as return
 * values (LibRaw catches its own C++ exceptions, std::bad_alloc among them).
 *
 * Every decode delivers premultiplied BGRA, 8 bits a channel. A sample of more than 8 bits
 * (`bits` of them, stored as a uint16_t) is reduced by round(v · 255 / max) with
 * max = 2^bits − 1, in integers (v · 255 + max / 2) / max: for 16 bits (v · 255 + 32767) / 65535.
 * Straight alpha is premultiplied by round(c · a / 255) (rfi_premultiply).
 */
#ifndef CRIFFLE_IMAGING_STILLS_H
#define CRIFFLE_IMAGING_STILLS_H

#include <stddef.h>
#include <stdint.h>

/* Pixels decoded into memory a library may own: premultiplied BGRA, one uint32_t 0xAARRGGBB
 * each, `row_pixels` apart. Release with rfi_image_pixels_release (it frees whichever owns them:
 * a malloc'ed block, or libheif's image, converted in place). */
typedef struct rfi_image_pixels {
    uint32_t *pixels;
    int32_t width;
    int32_t height;
    int32_t row_pixels;
    /* 1 when some pixel has alpha below 255. */
    int32_t translucent;
    /* What holds the memory, and how to free it; NULL when nothing is held. */
    void *owner;
    void (*release)(void *owner);
} rfi_image_pixels;

/* Frees what `pixels` holds (nothing when it holds nothing) and empties it. */
void rfi_image_pixels_release(rfi_image_pixels *pixels);

/* What a still's header says beyond rfi_image_header. */
typedef struct rfi_still_header {
    rfi_image_header image;
    /* The embedded ICC profile as stored (malloc'ed; release with rfi_bytes_free); data NULL
     * when there is none. */
    rfi_bytes icc;
    /* 1 when the colour is described by code points (HEIF's nclx, JPEG XL's enumerated colour
     * encoding) and no ICC profile is stored; `icc` then holds the profile made from them (for
     * HEIF, rfi_colour_profile_from_code_points; for JPEG XL, libjxl's), none for sRGB's. */
    int32_t has_code_point_colour;
    /* Bits a sample as stored (8, 10, 12, 16, 32 for float). */
    int32_t bits_per_sample;
} rfi_still_header;

/* Frees the ICC profile a header holds. */
void rfi_still_header_free(rfi_still_header *header);

/* MARK: TIFF (libtiff) */

/* A TIFF's first directory read a band of rows at a time, so that a caller can reduce each band
 * as it comes (see TIFFCodec.swift for the memory bound). Only the first page (directory) of a
 * multi-page file is read. Rows come in stored order; the Orientation tag is reported, never
 * applied. Use from one thread at a time. Calls: open, then read until it delivers no row (or
 * stop early), then close; after a failed read only close is allowed.
 *
 * Two ways through a directory:
 * - its own, for the layouts of photographs: greyscale (MinIsBlack, MinIsWhite), RGB, palette
 *   (1, 2, 4 or 8 bits, colour map reduced to 8 bits by the rounding above) and CMYK inks,
 *   8 or 16 bits a sample, interleaved (PlanarConfiguration 1), strips or tiles, any compression
 *   libtiff decodes, with one extra sample as alpha (associated; unassociated, then
 *   premultiplied; or unspecified, taken as associated as TIFFRGBAImage takes it); CIELab
 *   (8 or 16 bits, relative to the WhitePoint tag) converted to sRGB through lcms2, its ICC
 *   profile dropped; stripped files are read a scanline at a time, tiled ones a row of tiles at a time;
 * - else libtiff's TIFFRGBAImage (YCbCr, separate planes, 1-bit, LogLuv, …), a strip or
 *   a row of tiles at a time, with its own 8-bit reduction (the high byte of a 16-bit sample).
 * CMYK becomes R = (255 − C)(255 − K)/255 rounded (no ink profile), as libjpeg's Adobe path. */
typedef struct rfi_tiff_reader rfi_tiff_reader;

/* Opens the TIFF in the open file `descriptor` (read with pread; the reader does not own it,
 * which must stay open until close) and reads its first directory: size, Orientation, alpha,
 * ICC profile (TIFFTAG_ICCPROFILE). */
rfi_status rfi_tiff_reader_open_file(int32_t descriptor, rfi_tiff_reader **reader,
                                     rfi_still_header *header, char *message,
                                     size_t message_capacity);

/* As rfi_tiff_reader_open_file, over `length` bytes at `data`, which must outlive the reader. */
rfi_status rfi_tiff_reader_open_memory(const uint8_t *data, size_t length,
                                       rfi_tiff_reader **reader, rfi_still_header *header,
                                       char *message, size_t message_capacity);

/* Rows one read delivers at most: the band the reader decodes at a time (a scanline for its own
 * stripped path, else a row of tiles or a strip), for sizing the caller's buffer. */
int32_t rfi_tiff_reader_band_rows(const rfi_tiff_reader *reader);

/* Decodes the next band of rows into `rows` (premultiplied BGRA, `row_pixels` ≥ width apart, room
 * for rfi_tiff_reader_band_rows rows), setting `rows_read` (0 once every row is in) and
 * `translucent` (1 when some pixel of them has alpha below 255). Refuses with
 * RFI_STATUS_TOO_LARGE a band of more than `band_pixel_limit` pixels. */
rfi_status rfi_tiff_reader_read(rfi_tiff_reader *reader, uint32_t *rows, int32_t row_pixels,
                                int64_t band_pixel_limit, int32_t *rows_read,
                                int32_t *translucent, char *message, size_t message_capacity);

/* Frees the reader (NULL is ignored). */
void rfi_tiff_reader_close(rfi_tiff_reader *reader);

/* The camera's details from the first directory (Make, Model) and its EXIF and GPS directories
 * (TIFFTAG_EXIFIFD, TIFFTAG_GPSIFD) of the TIFF in `descriptor`; RFI_STATUS_FAILED when libtiff
 * cannot read it or it has none of them. */
rfi_status rfi_tiff_read_details(int32_t descriptor, rfi_exif_details *out);

/* MARK: HEIF and AVIF (libheif) */

/* An open HEIF or AVIF file and its primary image. Use from one thread at a time. */
typedef struct rfi_heif rfi_heif;

/* Opens the file at `path` (libheif reads it as it needs, never whole) or `length` bytes at
 * `data` (which must outlive the handle) when `path` is NULL, and reads the primary image's
 * header: its size after the file's transformations (irot, imir, clap, which libheif applies:
 * orientation is always 1; the size is ispe's put through them in their ipma order, read from
 * the meta box, whatever ispe's place among them), alpha, bit depth, ICC profile or nclx code
 * points. A file libheif refuses as invalid or unsupported whose primary image is HEVC (an
 * item, a grid of them, or an iden of either) is read by Riffle itself (heif_hevc.c, libde265):
 * 8 bits a sample, no thumbnail, no EXIF. */
rfi_status rfi_heif_open(const char *path, const uint8_t *data, size_t length, rfi_heif **heif,
                         rfi_still_header *header, char *message, size_t message_capacity);

/* Decodes the primary image (a grid's tiles assembled, transformations applied) to
 * premultiplied BGRA in libheif's own image memory, a monochrome AV1 image's grey and an AV1
 * alpha plane coded in limited range expanded to full range (ITU-T H.273, 8.3); refuses with RFI_STATUS_TOO_LARGE an
 * image of more than `pixel_limit` pixels before decoding it. `thumbnail` nonzero: the image's
 * first thumbnail instead (RFI_STATUS_UNSUPPORTED when it has none). */
rfi_status rfi_heif_decode(rfi_heif *heif, int32_t thumbnail, int64_t pixel_limit,
                           rfi_image_pixels *out, char *message, size_t message_capacity);

/* The primary image's EXIF block as an APP1 payload ("Exif\0\0" then the TIFF structure);
 * data NULL when it has none. */
rfi_status rfi_heif_exif(rfi_heif *heif, rfi_bytes *out);

void rfi_heif_close(rfi_heif *heif);

/* MARK: JPEG XL (libjxl) */

/* Reads the basic info and colour encoding of the JPEG XL in `data`: size as stored, the
 * codestream's orientation (reported, not applied: the decode keeps it, as a JPEG's), alpha, bits
 * a sample, the ICC profile of the pixels rfi_jxl_decode delivers (JxlDecoderGetColorAsICCProfile
 * of the data: the file's own, or sRGB for a lossy XYB file whose own is an ICC profile libjxl
 * cannot convert to; libjxl synthesises one for an enumerated colour encoding, so
 * has_code_point_colour is 1 then). */
rfi_status rfi_jxl_read_header(const uint8_t *data, size_t length, rfi_still_header *header,
                               char *message, size_t message_capacity);

/* Decodes the first frame (a recompressed JPEG too, to pixels) at its stored orientation into
 * malloc'ed premultiplied BGRA; refuses with RFI_STATUS_TOO_LARGE more than `pixel_limit` pixels
 * before allocating. Samples of more than 8 bits, and floats, come from libjxl as 16-bit and are
 * reduced by the rounding above. A CMYK image (a black extra channel and a CMYK profile) is
 * converted through that profile to sRGB (8-bit, perceptual, black point compensation, as a
 * CMYK JPEG), and rfi_jxl_read_header then reports no profile. A file that ends early fails
 * with RFI_STATUS_TRUNCATED. */
rfi_status rfi_jxl_decode(const uint8_t *data, size_t length, int64_t pixel_limit,
                          rfi_image_pixels *out, char *message, size_t message_capacity);

/* The "Exif" box as an APP1 payload ("Exif\0\0" then TIFF); data NULL when there is none. */
rfi_status rfi_jxl_exif(const uint8_t *data, size_t length, rfi_bytes *out);

/* MARK: Camera RAW (LibRaw) */

/* An open camera RAW file. Use from one thread at a time. */
typedef struct rfi_raw rfi_raw;

/* What LibRaw's identify says of a RAW file. */
typedef struct rfi_raw_header {
    /* The developed picture's size before orientation (LibRaw's sizes.width, height), and the
     * orientation as EXIF's 1...8 (from LibRaw's flip). */
    rfi_image_header image;
    /* The embedded preview's size as stored (0 × 0 when there is none), as identify reports it
     * (its format is known once rfi_raw_preview reads it). */
    int32_t preview_width;
    int32_t preview_height;
} rfi_raw_header;

/* Opens the file at `path`, or `length` bytes at `data` (which must outlive the handle) when
 * `path` is NULL, and identifies it. */
rfi_status rfi_raw_open(const char *path, const uint8_t *data, size_t length, rfi_raw **raw,
                        rfi_raw_header *header, char *message, size_t message_capacity);

/* The embedded preview (libraw_unpack_thumb): a JPEG's bytes in `jpeg`, or a bitmap (8 or 16
 * bits, grey or RGB) as opaque BGRA in `bitmap`, stored as the sensor is (orientation not
 * applied); RFI_STATUS_UNSUPPORTED when there is none LibRaw reads. A bitmap of more than
 * `pixel_limit` pixels is refused with RFI_STATUS_TOO_LARGE. Release `jpeg->data` with
 * rfi_bytes_free, `bitmap` with rfi_image_pixels_release. */
rfi_status rfi_raw_preview(rfi_raw *raw, int64_t pixel_limit, rfi_bytes *jpeg,
                           rfi_image_pixels *bitmap, char *message, size_t message_capacity);

/* Develops the RAW (libraw_unpack, then libraw_dcraw_process: camera white balance, AHD
 * demosaicing, sRGB, 8 bits), at half size each way when `half` is nonzero (LibRaw's half_size:
 * each 2×2 CFA block becomes one pixel, no demosaicing), upright (LibRaw applies the flip).
 * Refuses with RFI_STATUS_TOO_LARGE, before unpacking, when its working memory — the raw data at
 * 2 bytes a sensor pixel, LibRaw's image at 8 bytes an output pixel, its 8-bit copy at 3 and the
 * BGRA result at 4 — would pass `memory_limit` bytes. `stop`, when not NULL, is asked at each of
 * LibRaw's progress steps; once it returns nonzero the development ends with
 * RFI_STATUS_INVALID_REQUEST and the message "stopped". A file whose picture data is not in it
 * (a TIFF-structured one whose strips or tiles end past the file, or one LibRaw reaches the end
 * of while unpacking) fails with RFI_STATUS_FAILED and a message beginning "no picture data: "
 * and the reason. */
rfi_status rfi_raw_develop(rfi_raw *raw, int32_t half, int64_t memory_limit,
                           int32_t (*stop)(void *context), void *stop_context,
                           rfi_image_pixels *out, char *message, size_t message_capacity);

/* What LibRaw read of how the photo was taken (make, model, lens, exposure, aperture, ISO, focal
 * length, date, GPS position), from whichever block the camera wrote it in; RFI_STATUS_FAILED
 * when it names no camera. */
rfi_status rfi_raw_details(rfi_raw *raw, rfi_exif_details *out);

void rfi_raw_close(rfi_raw *raw);

#endif
