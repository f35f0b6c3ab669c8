import Glibc
import RiffleImageIO

/// The writes of the thumbnail cache, made as the standard asks: folders with mode 0700, files
/// with mode 0600, and a file given its name only once it is complete, so that another program
/// reading the cache at the same time never sees part of one
/// (https://specifications.freedesktop.org/thumbnail-spec/latest/thumbsave.html).
enum ThumbnailFiles {
    /// Creates the folder at `path` with mode 0700 unless something is there already; its
    /// parent must exist. An existing folder is left as it is. Throws the OS's reason.
    static func makeFolder(atPath path: String) throws(ImageEncodeError) {
        guard mkdir(path, 0o700) == 0 else {
            guard errno == EEXIST else { throw failure("create the folder", path) }
            return
        }
        // mkdir's mode passes through the umask; the standard asks for exactly 0700.
        guard chmod(path, 0o700) == 0 else { throw failure("set the mode of", path) }
    }

    /// Makes `path` (an absolute path) and every missing folder above it, each as
    /// `makeFolder(atPath:)` makes one; folders that exist are left as they are.
    static func makeFolderAndParents(atPath path: String) throws(ImageEncodeError) {
        var made = ""
        for component in path.split(separator: "/") {
            made += "/" + component
            try makeFolder(atPath: made)
        }
    }

    /// Replaces the file at `path` with `bytes` (mode 0600) in one step: they are written to a
    /// new temporary file beside it (same folder, so the same file system), which is then
    /// renamed over `path`. A reader sees the old file or the new one, whole; the temporary
    /// file is removed whenever something fails. Not fsync'ed: after a crash a thumbnail may
    /// be empty, and an empty one is simply made again.
    static func replace(atPath path: String, with bytes: [UInt8]) throws(ImageEncodeError) {
        // mkstemp replaces the six X's with a unique suffix and creates the file (O_EXCL, 0600).
        var template = Array((path + ".riffle-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw failure("create a file beside", path) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        do throws(ImageEncodeError) {
            try write(bytes, to: descriptor, path: temporary)
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        guard close(descriptor) == 0 else {
            let error = failure("write", temporary)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = failure("rename a file to", path)
            unlink(temporary)
            throw error
        }
    }

    /// Sets the mode of the open file to 0600 and writes all of `bytes` to it.
    private static func write(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(ImageEncodeError) {
        guard fchmod(descriptor, 0o600) == 0 else { throw failure("set the mode of", path) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("write", path)
            }
            written += count
        }
    }

    /// "Cannot `action` `path`: " and the OS's reason for the last call's failure.
    private static func failure(_ action: String, _ path: String) -> ImageEncodeError {
        ImageEncodeError(reason: "Cannot \(action) \(path): \(String(cString: strerror(errno)))")
    }
}
