import CRiffleImaging

/// The coefficient blocks of a sequential JPEG's scan handed from one `JPEGRowReader`, which
/// entropy-decodes them on one thread (`feed(_:)`), to another reader of the same file, which
/// does everything after the Huffman pass on another (`takeCoefficients(from:)`): a few MCU rows
/// at a time (`rfi_jpeg_coefficient_feed`). Either thread may give it up (`abandon()`), which
/// stops the other. Freed once both readers are done with it.
final class JPEGCoefficientFeed: @unchecked Sendable {
    let pointer: OpaquePointer

    /// A new feed; throws the out-of-memory error of the image `info` when none can be had.
    init(for info: ImageInfo) throws(ImageDecodeError) {
        guard let pointer = rfi_jpeg_feed_create() else { throw ImageDecoder.outOfMemory(info.uprightSize, format: .jpeg) }
        self.pointer = pointer
    }

    deinit { rfi_jpeg_feed_free(pointer) }

    /// Stops both readers at their next row.
    func abandon() { rfi_jpeg_feed_abandon(pointer) }
}
