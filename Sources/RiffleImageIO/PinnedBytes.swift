/// A copy of some bytes at an address that stays put for the copy's life: for a C decoder that
/// keeps pointing into its input between calls (libwebp's demuxer, giflib's reader, the APNG
/// frame table), which an `Array`'s storage does not promise outside `withUnsafeBufferPointer`.
final class PinnedBytes {
    let buffer: UnsafeMutableBufferPointer<UInt8>

    init(_ bytes: [UInt8]) {
        buffer = .allocate(capacity: max(1, bytes.count))
        _ = buffer.initialize(from: bytes)
        count = bytes.count
    }

    /// The first byte; valid while this object lives.
    var start: UnsafePointer<UInt8> { UnsafePointer(buffer.baseAddress!) }

    /// How many bytes were copied.
    let count: Int

    deinit { buffer.deallocate() }
}
