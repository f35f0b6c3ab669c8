/* The codec libraries Riffle loads on first use rather than at exec: libheif, libde265, libjxl
 * (and its thread pool) and LibRaw. Linked directly, they and what they pull in (x265, aom, dav1d,
 * Highway, Brotli, OpenMP: 12 of the binary's 51 libraries) cost every launch about 9 ms before
 * `main`, most of it their static constructors (Highway measures its timer's resolution,
 * libde265 fills its tables) and their relocations (docs/startup.md), whether or not a HEIF,
 * JPEG XL or RAW file is ever opened.
 *
 * Each library's functions are reached through pointers that rfi_lazy_load fills with dlsym once,
 * the first time a file of its format is opened; the sources that call them include this header
 * last, and its macros turn each call into a call through its pointer, so they read as ordinary
 * calls. The open functions (rfi_heif_open, rfi_jxl_*, rfi_raw_open) load first and fail with
 * RFI_STATUS_LIBRARY_MISSING and the loader's reason when a library is missing; everything else
 * runs on what an open returned.
 */
#ifndef CRIFFLE_IMAGING_LAZY_CODECS_H
#define CRIFFLE_IMAGING_LAZY_CODECS_H

#include <stddef.h>

#include <jxl/decode.h>
#include <jxl/thread_parallel_runner.h>
#include <libde265/de265.h>
#include <libheif/heif.h>
#include <libraw/libraw.h>

/* The libraries loaded lazily, each by its Debian 12 soname, else by its -dev package's
 * unversioned name (a build on another release). */
typedef enum rfi_lazy_library {
    RFI_LAZY_HEIF,
    RFI_LAZY_DE265,
    RFI_LAZY_JXL,
    RFI_LAZY_JXL_THREADS,
    RFI_LAZY_RAW,
} rfi_lazy_library;

/* Loads `library` and resolves every function of it Riffle calls, once for the process
 * (thread-safe); returns 1 when they are all there, else 0 with the reason ("libheif.so.1 could
 * not be loaded: …") in `message`. Never unloaded. */
int rfi_lazy_load(rfi_lazy_library library, char *message, size_t message_capacity);

/* The functions of each library Riffle calls (what the sources' objects import from it). */
#define RFI_HEIF_FUNCTIONS(X) \
    X(heif_context_alloc) \
    X(heif_context_free) \
    X(heif_context_get_primary_image_handle) \
    X(heif_context_read_from_file) \
    X(heif_context_read_from_memory_without_copy) \
    X(heif_context_set_max_decoding_threads) \
    X(heif_decode_image) \
    X(heif_image_get_bits_per_pixel_range) \
    X(heif_image_get_height) \
    X(heif_image_get_plane) \
    X(heif_image_get_width) \
    X(heif_image_handle_free_auxiliary_types) \
    X(heif_image_handle_get_auxiliary_image_handle) \
    X(heif_image_handle_get_auxiliary_type) \
    X(heif_image_handle_get_color_profile_type) \
    X(heif_image_handle_get_height) \
    X(heif_image_handle_get_list_of_auxiliary_image_IDs) \
    X(heif_image_handle_get_list_of_metadata_block_IDs) \
    X(heif_image_handle_get_list_of_thumbnail_IDs) \
    X(heif_image_handle_get_luma_bits_per_pixel) \
    X(heif_image_handle_get_metadata) \
    X(heif_image_handle_get_metadata_size) \
    X(heif_image_handle_get_nclx_color_profile) \
    X(heif_image_handle_get_raw_color_profile) \
    X(heif_image_handle_get_raw_color_profile_size) \
    X(heif_image_handle_get_thumbnail) \
    X(heif_image_handle_get_width) \
    X(heif_image_handle_has_alpha_channel) \
    X(heif_image_handle_is_premultiplied_alpha) \
    X(heif_image_handle_release) \
    X(heif_image_release) \
    X(heif_init) \
    X(heif_nclx_color_profile_free)

#define RFI_DE265_FUNCTIONS(X) \
    X(de265_decode) \
    X(de265_flush_data) \
    X(de265_free_decoder) \
    X(de265_get_bits_per_pixel) \
    X(de265_get_chroma_format) \
    X(de265_get_image_full_range_flag) \
    X(de265_get_image_height) \
    X(de265_get_image_matrix_coefficients) \
    X(de265_get_image_plane) \
    X(de265_get_image_width) \
    X(de265_get_next_picture) \
    X(de265_isOK) \
    X(de265_new_decoder) \
    X(de265_push_NAL)

#define RFI_JXL_FUNCTIONS(X) \
    X(JxlDecoderCloseInput) \
    X(JxlDecoderCreate) \
    X(JxlDecoderDestroy) \
    X(JxlDecoderGetBasicInfo) \
    X(JxlDecoderGetBoxType) \
    X(JxlDecoderGetColorAsEncodedProfile) \
    X(JxlDecoderGetColorAsICCProfile) \
    X(JxlDecoderGetExtraChannelInfo) \
    X(JxlDecoderGetICCProfileSize) \
    X(JxlDecoderProcessInput) \
    X(JxlDecoderReleaseBoxBuffer) \
    X(JxlDecoderSetBoxBuffer) \
    X(JxlDecoderSetDecompressBoxes) \
    X(JxlDecoderSetExtraChannelBuffer) \
    X(JxlDecoderSetImageOutCallback) \
    X(JxlDecoderSetInput) \
    X(JxlDecoderSetKeepOrientation) \
    X(JxlDecoderSetParallelRunner) \
    X(JxlDecoderSetPreferredColorProfile) \
    X(JxlDecoderSubscribeEvents)

#define RFI_JXL_THREADS_FUNCTIONS(X) \
    X(JxlThreadParallelRunner) \
    X(JxlThreadParallelRunnerCreate) \
    X(JxlThreadParallelRunnerDestroy)

#define RFI_RAW_FUNCTIONS(X) \
    X(libraw_close) \
    X(libraw_dcraw_clear_mem) \
    X(libraw_dcraw_make_mem_image) \
    X(libraw_dcraw_make_mem_thumb) \
    X(libraw_dcraw_process) \
    X(libraw_init) \
    X(libraw_open_buffer) \
    X(libraw_open_file) \
    X(libraw_recycle) \
    X(libraw_set_progress_handler) \
    X(libraw_strerror) \
    X(libraw_unpack) \
    X(libraw_unpack_thumb)

#define RFI_LAZY_POINTER_DECLARATION(name) extern __typeof__(name) *rfi_lazy_##name;
RFI_HEIF_FUNCTIONS(RFI_LAZY_POINTER_DECLARATION)
RFI_DE265_FUNCTIONS(RFI_LAZY_POINTER_DECLARATION)
RFI_JXL_FUNCTIONS(RFI_LAZY_POINTER_DECLARATION)
RFI_JXL_THREADS_FUNCTIONS(RFI_LAZY_POINTER_DECLARATION)
RFI_RAW_FUNCTIONS(RFI_LAZY_POINTER_DECLARATION)
#undef RFI_LAZY_POINTER_DECLARATION

/* Calls through the pointers: every name below means its pointer's function from here on (not
 * in lazy_codecs.c, which defines the pointers). */
#ifndef RFI_LAZY_CODECS_DEFINING
#define heif_context_alloc (*rfi_lazy_heif_context_alloc)
#define heif_context_free (*rfi_lazy_heif_context_free)
#define heif_context_get_primary_image_handle (*rfi_lazy_heif_context_get_primary_image_handle)
#define heif_context_read_from_file (*rfi_lazy_heif_context_read_from_file)
#define heif_context_read_from_memory_without_copy (*rfi_lazy_heif_context_read_from_memory_without_copy)
#define heif_context_set_max_decoding_threads (*rfi_lazy_heif_context_set_max_decoding_threads)
#define heif_decode_image (*rfi_lazy_heif_decode_image)
#define heif_image_get_bits_per_pixel_range (*rfi_lazy_heif_image_get_bits_per_pixel_range)
#define heif_image_get_height (*rfi_lazy_heif_image_get_height)
#define heif_image_get_plane (*rfi_lazy_heif_image_get_plane)
#define heif_image_get_width (*rfi_lazy_heif_image_get_width)
#define heif_image_handle_free_auxiliary_types (*rfi_lazy_heif_image_handle_free_auxiliary_types)
#define heif_image_handle_get_auxiliary_image_handle (*rfi_lazy_heif_image_handle_get_auxiliary_image_handle)
#define heif_image_handle_get_auxiliary_type (*rfi_lazy_heif_image_handle_get_auxiliary_type)
#define heif_image_handle_get_color_profile_type (*rfi_lazy_heif_image_handle_get_color_profile_type)
#define heif_image_handle_get_height (*rfi_lazy_heif_image_handle_get_height)
#define heif_image_handle_get_list_of_auxiliary_image_IDs (*rfi_lazy_heif_image_handle_get_list_of_auxiliary_image_IDs)
#define heif_image_handle_get_list_of_metadata_block_IDs (*rfi_lazy_heif_image_handle_get_list_of_metadata_block_IDs)
#define heif_image_handle_get_list_of_thumbnail_IDs (*rfi_lazy_heif_image_handle_get_list_of_thumbnail_IDs)
#define heif_image_handle_get_luma_bits_per_pixel (*rfi_lazy_heif_image_handle_get_luma_bits_per_pixel)
#define heif_image_handle_get_metadata (*rfi_lazy_heif_image_handle_get_metadata)
#define heif_image_handle_get_metadata_size (*rfi_lazy_heif_image_handle_get_metadata_size)
#define heif_image_handle_get_nclx_color_profile (*rfi_lazy_heif_image_handle_get_nclx_color_profile)
#define heif_image_handle_get_raw_color_profile (*rfi_lazy_heif_image_handle_get_raw_color_profile)
#define heif_image_handle_get_raw_color_profile_size (*rfi_lazy_heif_image_handle_get_raw_color_profile_size)
#define heif_image_handle_get_thumbnail (*rfi_lazy_heif_image_handle_get_thumbnail)
#define heif_image_handle_get_width (*rfi_lazy_heif_image_handle_get_width)
#define heif_image_handle_has_alpha_channel (*rfi_lazy_heif_image_handle_has_alpha_channel)
#define heif_image_handle_is_premultiplied_alpha (*rfi_lazy_heif_image_handle_is_premultiplied_alpha)
#define heif_image_handle_release (*rfi_lazy_heif_image_handle_release)
#define heif_image_release (*rfi_lazy_heif_image_release)
#define heif_init (*rfi_lazy_heif_init)
#define heif_nclx_color_profile_free (*rfi_lazy_heif_nclx_color_profile_free)
#define de265_decode (*rfi_lazy_de265_decode)
#define de265_flush_data (*rfi_lazy_de265_flush_data)
#define de265_free_decoder (*rfi_lazy_de265_free_decoder)
#define de265_get_bits_per_pixel (*rfi_lazy_de265_get_bits_per_pixel)
#define de265_get_chroma_format (*rfi_lazy_de265_get_chroma_format)
#define de265_get_image_full_range_flag (*rfi_lazy_de265_get_image_full_range_flag)
#define de265_get_image_height (*rfi_lazy_de265_get_image_height)
#define de265_get_image_matrix_coefficients (*rfi_lazy_de265_get_image_matrix_coefficients)
#define de265_get_image_plane (*rfi_lazy_de265_get_image_plane)
#define de265_get_image_width (*rfi_lazy_de265_get_image_width)
#define de265_get_next_picture (*rfi_lazy_de265_get_next_picture)
#define de265_isOK (*rfi_lazy_de265_isOK)
#define de265_new_decoder (*rfi_lazy_de265_new_decoder)
#define de265_push_NAL (*rfi_lazy_de265_push_NAL)
#define JxlDecoderCloseInput (*rfi_lazy_JxlDecoderCloseInput)
#define JxlDecoderCreate (*rfi_lazy_JxlDecoderCreate)
#define JxlDecoderDestroy (*rfi_lazy_JxlDecoderDestroy)
#define JxlDecoderGetBasicInfo (*rfi_lazy_JxlDecoderGetBasicInfo)
#define JxlDecoderGetBoxType (*rfi_lazy_JxlDecoderGetBoxType)
#define JxlDecoderGetColorAsEncodedProfile (*rfi_lazy_JxlDecoderGetColorAsEncodedProfile)
#define JxlDecoderGetColorAsICCProfile (*rfi_lazy_JxlDecoderGetColorAsICCProfile)
#define JxlDecoderGetExtraChannelInfo (*rfi_lazy_JxlDecoderGetExtraChannelInfo)
#define JxlDecoderGetICCProfileSize (*rfi_lazy_JxlDecoderGetICCProfileSize)
#define JxlDecoderProcessInput (*rfi_lazy_JxlDecoderProcessInput)
#define JxlDecoderReleaseBoxBuffer (*rfi_lazy_JxlDecoderReleaseBoxBuffer)
#define JxlDecoderSetBoxBuffer (*rfi_lazy_JxlDecoderSetBoxBuffer)
#define JxlDecoderSetDecompressBoxes (*rfi_lazy_JxlDecoderSetDecompressBoxes)
#define JxlDecoderSetExtraChannelBuffer (*rfi_lazy_JxlDecoderSetExtraChannelBuffer)
#define JxlDecoderSetImageOutCallback (*rfi_lazy_JxlDecoderSetImageOutCallback)
#define JxlDecoderSetInput (*rfi_lazy_JxlDecoderSetInput)
#define JxlDecoderSetKeepOrientation (*rfi_lazy_JxlDecoderSetKeepOrientation)
#define JxlDecoderSetParallelRunner (*rfi_lazy_JxlDecoderSetParallelRunner)
#define JxlDecoderSetPreferredColorProfile (*rfi_lazy_JxlDecoderSetPreferredColorProfile)
#define JxlDecoderSubscribeEvents (*rfi_lazy_JxlDecoderSubscribeEvents)
#define JxlThreadParallelRunner (*rfi_lazy_JxlThreadParallelRunner)
#define JxlThreadParallelRunnerCreate (*rfi_lazy_JxlThreadParallelRunnerCreate)
#define JxlThreadParallelRunnerDestroy (*rfi_lazy_JxlThreadParallelRunnerDestroy)
#define libraw_close (*rfi_lazy_libraw_close)
#define libraw_dcraw_clear_mem (*rfi_lazy_libraw_dcraw_clear_mem)
#define libraw_dcraw_make_mem_image (*rfi_lazy_libraw_dcraw_make_mem_image)
#define libraw_dcraw_make_mem_thumb (*rfi_lazy_libraw_dcraw_make_mem_thumb)
#define libraw_dcraw_process (*rfi_lazy_libraw_dcraw_process)
#define libraw_init (*rfi_lazy_libraw_init)
#define libraw_open_buffer (*rfi_lazy_libraw_open_buffer)
#define libraw_open_file (*rfi_lazy_libraw_open_file)
#define libraw_recycle (*rfi_lazy_libraw_recycle)
#define libraw_set_progress_handler (*rfi_lazy_libraw_set_progress_handler)
#define libraw_strerror (*rfi_lazy_libraw_strerror)
#define libraw_unpack (*rfi_lazy_libraw_unpack)
#define libraw_unpack_thumb (*rfi_lazy_libraw_unpack_thumb)
#endif

#endif
