/// Finding a chunk in the first bytes of a PNG without decoding it (PNG specification, "Chunk
/// layout": after the 8-byte signature each chunk is a 4-byte big-endian data length, a 4-byte
/// type, the data, and a 4-byte CRC, which is not checked here: libexif parses defensively).
enum PNGChunks {
    /// The PNG signature, 137 80 78 71 13 10 26 10.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The data of the eXIf chunk in `head`, when one lies wholly inside it before the first
    /// IDAT. The standard lets eXIf come after the image data too, but only the file's head is
    /// read here, and writers put it before (libpng's `png_write_info`); the decoder likewise
    /// applies only an orientation read before the image data.
    static func exifChunk(inPNGHead head: [UInt8]) -> Range<Int>? {
        chunk("eXIf", inPNGHead: head)
    }

    /// The number of frames an APNG's acTL chunk announces (num_frames, the first of its two
    /// 32-bit big-endian fields; https://wiki.mozilla.org/APNG_Specification), when one lies
    /// in `head` before the first IDAT, as the specification requires; nil for a still PNG.
    static func announcedFrames(inPNGHead head: [UInt8]) -> Int? {
        guard let control = chunk("acTL", inPNGHead: head), control.count == 8 else { return nil }
        return head[control.prefix(4)].reduce(0) { $0 << 8 | Int($1) }
    }

    /// The data of the first chunk of type `wanted` in `head`, when one lies wholly inside it before the
    /// first IDAT.
    private static func chunk(_ wanted: String, inPNGHead head: [UInt8]) -> Range<Int>? {
        guard head.count >= signature.count, Array(head[0..<signature.count]) == signature else { return nil }
        var offset = signature.count
        while offset + 8 <= head.count {
            let length = head[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: head[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let data = offset + 8, end = data + length + 4
            if type == "IDAT" || type == "IEND" { return nil }
            guard length <= 0x7FFF_FFFF, end <= head.count else { return nil }
            if type == wanted { return data..<(data + length) }
            offset = end
        }
        return nil
    }
}
