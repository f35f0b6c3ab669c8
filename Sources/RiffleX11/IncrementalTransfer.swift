/// One reply sent in pieces by ICCCM's INCR protocol (section 2.7.2): a reply larger than one
/// ChangeProperty request can carry goes out `chunkSize` bytes at a time, each written when the
/// requestor has deleted the one before, and ends with a zero-length write.
///
/// `nextChunk()` returns ⌈count / chunkSize⌉ chunks covering the bytes in order, then one empty
/// chunk (the end), then nil.
public struct IncrementalTransfer: Sendable {
    /// The reply's type (`image/png`).
    public let type: String
    private let bytes: [UInt8]
    private let chunkSize: Int
    private var sent = 0
    private var ended = false

    /// A transfer of `bytes` of `type` in chunks of at most `chunkSize` (≥ 1) bytes.
    public init(type: String, bytes: [UInt8], chunkSize: Int) {
        precondition(chunkSize >= 1, "an INCR chunk holds at least one byte")
        self.type = type
        self.bytes = bytes
        self.chunkSize = chunkSize
    }

    /// Whether a reply of `byteCount` bytes must go by INCR on a connection whose requests carry
    /// at most `maxPropertyBytes` bytes of property data.
    public static func isNeeded(byteCount: Int, maxPropertyBytes: Int) -> Bool {
        byteCount > maxPropertyBytes
    }

    /// The total size announced in the INCR property.
    public var totalBytes: Int { bytes.count }

    /// The next chunk to write, the empty end, or nil once the end has been written.
    public mutating func nextChunk() -> ArraySlice<UInt8>? {
        guard !ended else { return nil }
        let end = min(sent + chunkSize, bytes.count)
        let chunk = bytes[sent..<end]
        sent = end
        if chunk.isEmpty { ended = true }
        return chunk
    }
}
