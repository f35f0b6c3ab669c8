import CRiffleImaging

/// Bytes the imaging shim hands out: a malloc'ed `rfi_bytes`, copied into an array and freed.
enum ShimBytes {
    /// Runs `call` with an empty `rfi_bytes` and a message buffer, and returns its status, the
    /// bytes it wrote (nil when it wrote none) and its message.
    static func read(
        _ call: (UnsafeMutablePointer<rfi_bytes>, UnsafeMutablePointer<CChar>, Int) -> rfi_status
    ) -> (status: rfi_status, bytes: [UInt8]?, message: String) {
        var out = rfi_bytes()
        var message = MessageBuffer()
        let status = message.withPointer { call(&out, $0, $1) }
        defer { rfi_bytes_free(out.data) }
        return (status, out.data.map { Array(UnsafeBufferPointer(start: $0, count: out.length)) }, message.text)
    }
}
