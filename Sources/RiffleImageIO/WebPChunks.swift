import Glibc

/// What a WebP's RIFF chunks hold besides the picture: its ICC profile, its EXIF block and how
/// many animation frames it has, found without decoding anything.
///
/// The layout is the WebP container's (https://developers.google.com/speed/webp/docs/riff_container):
/// "RIFF", the size of what follows (32-bit little-endian), "WEBP", then chunks, each a FourCC,
/// its payload's size (32-bit little-endian), the payload and a pad byte when the size is odd.
/// ICCP comes before the image data, EXIF after it (after every ANMF frame of an animation), so
/// in a large file the EXIF chunk lies past the first `ImageCodecs.headBytes`: chunks past the
/// head are read from the file, 8 bytes of header each, their payloads only when wanted.
struct WebPChunks {
    /// The ICCP chunk's payload: an ICC profile.
    var iccProfile: [UInt8]?
    /// The EXIF chunk's payload: a TIFF structure (some writers put "Exif\0\0" before it).
    var exif: [UInt8]?
    /// ANMF chunks: the frames of an animation.
    var frameCount = 0

    /// The largest ICCP or EXIF payload read, 16 MiB (a profile is rarely over a megabyte, an
    /// EXIF block in a JPEG at most 64 KiB): a size field claiming more is not believed.
    static let largestPayload = 16 << 20

    /// The chunks of the WebP whose first bytes are `head` (the whole file, or its first
    /// `ImageCodecs.headBytes`), reading those past the head from the file at `path` (nil: none
    /// are read). A chunk cut short ends the walk; what was found before it stays.
    static func read(head: [UInt8], path: String?) -> WebPChunks {
        var chunks = WebPChunks()
        guard head.count >= 12, Array(head[0..<4]) == Array("RIFF".utf8), Array(head[8..<12]) == Array("WEBP".utf8) else {
            return chunks
        }
        let file = head.count >= ImageCodecs.headBytes ? path.flatMap { OpenFile(path: $0) } : nil
        let declared = 8 + Int(littleEndian(head, at: 4))
        let end = min(declared, file?.size ?? head.count)
        var offset = 12
        while offset + 8 <= end {
            guard let header = bytes(head, file, offset: offset, count: 8) else { break }
            let type = String(decoding: header[0..<4], as: UTF8.self)
            let size = Int(littleEndian(header, at: 4))
            let payload = offset + 8
            guard size <= end - payload else { break }
            switch type {
            case "ANMF":
                chunks.frameCount += 1
            case "ICCP" where size <= largestPayload:
                chunks.iccProfile = bytes(head, file, offset: payload, count: size)
            case "EXIF" where size <= largestPayload:
                chunks.exif = bytes(head, file, offset: payload, count: size)
            default:
                break
            }
            offset = payload + size + (size & 1)
        }
        return chunks
    }

    /// `count` bytes from `offset`: from `head` when they lie in it, else from `file`.
    private static func bytes(_ head: [UInt8], _ file: OpenFile?, offset: Int, count: Int) -> [UInt8]? {
        if offset + count <= head.count { return Array(head[offset..<(offset + count)]) }
        return file?.read(offset: offset, count: count)
    }

    private static func littleEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    /// A regular file open for reads at any offset, closed when released.
    private final class OpenFile {
        let descriptor: Int32
        let size: Int

        init?(path: String) {
            guard let (descriptor, status) = try? FileBytes.openRegularFile(atPath: path) else { return nil }
            self.descriptor = descriptor
            size = Int(status.st_size)
        }

        deinit { close(descriptor) }

        /// Exactly `count` bytes at `offset`; nil when the file has fewer there or cannot be read.
        func read(offset: Int, count: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            var done = 0
            while done < count {
                let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done)) }
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { return nil }
                done += got
            }
            return bytes
        }
    }
}
