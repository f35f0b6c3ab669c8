import Glibc

/// The process's standard error, for the messages a person running Riffle should see.
public enum StandardError {
    /// Writes `line` and a newline to file descriptor 2 (unbuffered, so it is out before a crash
    /// or exit), retrying short writes and interruptions; a failed write is dropped, since there is
    /// nowhere else to report it.
    public static func write(_ line: String) {
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            offset += count
        }
    }
}
