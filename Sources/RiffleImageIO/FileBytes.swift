import Glibc

/// Whole-file reads and writes through POSIX calls, reporting failures with the OS's reason.
public enum FileBytes {
    /// The OS's text for `errno`, e.g. "No such file or directory".
    static func reasonForErrno() -> String {
        String(cString: strerror(errno))
    }

    /// A read-only descriptor of the regular file at `path` (the caller closes it) and its
    /// status. Never blocks on what is not a file: it is opened non-blocking, so a named pipe
    /// with no writer (`mkfifo a.jpg`) opens at once and is refused with the other kinds (a
    /// directory, a socket, a device), then made blocking again for the reads.
    static func openRegularFile(atPath path: String) throws(ImageDecodeError) -> (descriptor: Int32, status: stat) {
        let shown = FileSystemPath.displayed(path)
        let descriptor = FileSystemPath.withSystemPath(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard descriptor >= 0 else {
            throw ImageDecodeError(reason: "Cannot open \(shown): \(reasonForErrno())")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = reasonForErrno()
            close(descriptor)
            throw ImageDecodeError(reason: "Cannot read \(shown): \(reason)")
        }
        let kind: String? = switch status.st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a named pipe"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "not a regular file"
        }
        if let kind {
            close(descriptor)
            throw ImageDecodeError(reason: "Cannot read \(shown): it is \(kind), not a file")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return (descriptor, status)
    }

    /// The first `limit` bytes (all, by default) of the regular file at `path` (a
    /// `FileSystemPath`, as every path here); fewer when the file is shorter. The error says which OS call failed and why.
    public static func read(atPath path: String, upTo limit: Int = .max) throws(ImageDecodeError) -> [UInt8] {
        let (descriptor, status) = try openRegularFile(atPath: path)
        defer { close(descriptor) }
        // st_size is a hint: the file may grow or shrink while we read, so read until EOF.
        var bytes = [UInt8]()
        bytes.reserveCapacity(min(max(Int(status.st_size), 0), limit))
        var chunk = [UInt8](repeating: 0, count: min(1 << 16, limit))
        while bytes.count < limit {
            let wanted = min(chunk.count, limit - bytes.count)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, wanted) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw ImageDecodeError(reason: "Cannot read \(FileSystemPath.displayed(path)): \(reasonForErrno())")
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    /// Replaces the file at `path` with `bytes` (created with mode 0644 if missing).
    static func write(_ bytes: [UInt8], toPath path: String) throws(ImageEncodeError) {
        let descriptor = FileSystemPath.withSystemPath(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        guard descriptor >= 0 else {
            throw ImageEncodeError(reason: "Cannot create \(FileSystemPath.displayed(path)): \(reasonForErrno())")
        }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                let reason = reasonForErrno()
                close(descriptor)
                throw ImageEncodeError(reason: "Cannot write \(path): \(reason)")
            }
            written += count
        }
        guard close(descriptor) == 0 else {
            throw ImageEncodeError(reason: "Cannot write \(path): \(reasonForErrno())")
        }
    }
}
