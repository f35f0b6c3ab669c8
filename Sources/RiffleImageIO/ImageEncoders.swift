import CRiffleImaging
import RiffleRaster

/// Writes pixel buffers as PNG files: 8-bit RGB for a buffer whose every pixel is opaque, else
/// RGBA with straight (un-premultiplied) alpha.
///
/// Used for test snapshots and goldens. Decoding the result with `ImageDecoder` gives back
/// exactly the same pixels for opaque buffers; translucent pixels can differ by rounding,
/// since premultiplied → straight → premultiplied is not lossless at low alpha.
public enum PNGEncoder {
    /// How hard the encoder works at making the file small.
    public enum Compression: Sendable {
        /// libpng's defaults: zlib level 6, a filter chosen row by row.
        case small
        /// zlib level 1 and the Sub filter on every row: several times faster for a file about
        /// a quarter larger (a thumbnail written while the grid waits for it).
        case fast
    }

    /// The PNG file bytes for `buffer`, Adam7-interlaced when `interlaced`; an empty buffer (0
    /// width or height) cannot be encoded.
    public static func encode(
        _ buffer: PixelBuffer, interlaced: Bool = false, compression: Compression = .small
    ) throws(ImageEncodeError) -> [UInt8] {
        try encode(buffer, interlaced: interlaced, compression: compression, text: [])
    }

    /// The PNG file bytes for `buffer` (Adam7-interlaced when `interlaced`) with `text` as text
    /// chunks before the image data, in that order: a tEXt chunk for a text Latin-1 can spell,
    /// an iTXt chunk (UTF-8) for any other. Throws for an empty buffer, for a key that is not 1
    /// to 79 printable Latin-1 characters without leading, trailing or double spaces, and for a
    /// text holding a NUL.
    package static func encode(
        _ buffer: PixelBuffer, interlaced: Bool = false, compression: Compression = .small, text: [PNGTextChunk]
    ) throws(ImageEncodeError) -> [UInt8] {
        var encoded = rfi_bytes()
        var message = MessageBuffer()
        let status = try PNGTextChunk.withShimEntries(text) { entries in
            message.withPointer { reason, capacity in
                rfi_png_encode(
                    buffer.pixels, Int32(buffer.width), Int32(buffer.height), Int32(buffer.rowPixels), interlaced ? 1 : 0, compression == .fast ? 1 : 0,
                    entries.baseAddress, Int32(entries.count), &encoded, reason, capacity)
            }
        }
        return try takeBytes(encoded, status: status, format: "PNG", message: message.text)
    }

    /// Encodes `buffer` and replaces the file at `path` with the result.
    public static func write(_ buffer: PixelBuffer, toPath path: String) throws(ImageEncodeError) {
        try FileBytes.write(encode(buffer), toPath: path)
    }
}

/// Writes pixel buffers as single-scan baseline JPEG files with libjpeg-turbo's standard tables
/// (4:2:0 chroma unless told otherwise).
///
/// Alpha is ignored: the premultiplied colour channels are encoded as they are, which for
/// translucent pixels means the colour composited over black. Used to make camera-like test
/// photos for benchmarks, and the layouts (subsampling, grey, restart markers) the decoders
/// are tested against.
public enum JPEGEncoder {
    /// How the colour is sampled.
    public enum Sampling: Sendable, CaseIterable {
        /// Chroma halved both ways (cameras' usual).
        case yuv420
        /// Chroma halved horizontally.
        case yuv422
        /// Chroma at full resolution.
        case yuv444
        /// Luma only.
        case grayscale
    }

    /// Where restart markers (T.81 B.2.4.4) go.
    public enum Restarts: Sendable, Hashable {
        /// None (libjpeg's default).
        case none
        /// One every `n` MCU rows (n ≥ 1).
        case everyRows(Int)
        /// One every `n` MCUs (1...65535), wherever that falls in a row.
        case everyMCUs(Int)
    }

    /// The JPEG file bytes for `buffer` at `quality` (1...100, clamped; 90 is typical of cameras),
    /// with `sampling` and `restarts`. An empty buffer (0 width or height) cannot be encoded.
    public static func encode(
        _ buffer: PixelBuffer, quality: Int, sampling: Sampling = .yuv420, restarts: Restarts = .none
    ) throws(ImageEncodeError) -> [UInt8] {
        var encoded = rfi_bytes()
        var message = MessageBuffer()
        var options = rfi_jpeg_encode_options()
        options.quality = Int32(min(max(quality, 1), 100))
        options.luma_h = sampling == .yuv444 ? 1 : 2
        options.luma_v = sampling == .yuv420 ? 2 : 1
        options.grayscale = sampling == .grayscale ? 1 : 0
        switch restarts {
        case .none: break
        case .everyRows(let n): options.restart_rows = Int32(clamping: n)
        case .everyMCUs(let n): options.restart_mcus = Int32(clamping: n)
        }
        let status = message.withPointer { text, capacity in
            rfi_jpeg_encode(
                buffer.pixels, Int32(buffer.width), Int32(buffer.height), Int32(buffer.rowPixels), options,
                &encoded, text, capacity)
        }
        return try takeBytes(encoded, status: status, format: "JPEG", message: message.text)
    }

    /// Encodes `buffer` at `quality` and replaces the file at `path` with the result.
    public static func write(_ buffer: PixelBuffer, quality: Int, toPath path: String) throws(ImageEncodeError) {
        try FileBytes.write(encode(buffer, quality: quality), toPath: path)
    }
}

/// Copies the shim's malloc'ed output into an array and frees it, or turns a failure into an error.
private func takeBytes(
    _ encoded: rfi_bytes, status: rfi_status, format: String, message: String
) throws(ImageEncodeError) -> [UInt8] {
    guard status == RFI_STATUS_OK, let data = encoded.data else {
        throw ImageEncodeError(reason: "Cannot encode the \(format) image: \(message)")
    }
    defer { rfi_bytes_free(data) }
    return Array(UnsafeBufferPointer(start: data, count: encoded.length))
}
