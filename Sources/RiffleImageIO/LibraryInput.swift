import CRiffleImaging

/// What a library that opens a file by its path, or reads bytes in place (libheif, LibRaw), is
/// opened on: the file's path, checked first to be a regular file (a directory, a pipe or a
/// device is refused with the reason, as every codec refuses it), or a copy of the bytes that
/// stays put, 16-byte aligned, for as long as the library reads it: until this goes away.
final class LibraryInput {
    /// The file, or nil for bytes.
    private let path: String?
    /// The copy of the bytes; nil for a file.
    private let bytes: UnsafeMutableRawBufferPointer?
    private let count: Int

    /// The file at `path`, or `data` when `path` is nil.
    init(path: String?, bytes data: [UInt8]) throws(ImageDecodeError) {
        self.path = path
        if let path {
            _ = try FileBytes.read(atPath: path, upTo: 0)
            bytes = nil
            count = 0
        } else {
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
            data.withUnsafeBytes { if let base = $0.baseAddress { copy.baseAddress!.copyMemory(from: base, byteCount: $0.count) } }
            bytes = copy
            count = data.count
        }
    }

    deinit { bytes?.deallocate() }

    /// Runs the library's `open` with the file's path (and no bytes), or with the bytes (and no
    /// path), and returns its status.
    func open(_ open: (UnsafePointer<CChar>?, UnsafePointer<UInt8>?, Int) -> rfi_status) -> rfi_status {
        if let path { return FileSystemPath.withSystemPath(path) { open($0, nil, 0) } }
        return open(nil, bytes!.baseAddress!.assumingMemoryBound(to: UInt8.self), count)
    }
}
