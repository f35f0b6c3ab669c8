/// PNG files put together byte by byte, with neither libpng nor zlib, for testing the decoder
/// on files as other programs write them: each chunk with its CRC-32 (PNG §5.3,
/// https://www.w3.org/TR/png/#5Chunk-layout), the image data a zlib stream of stored
/// (uncompressed) deflate blocks with its Adler-32 (RFC 1950 and RFC 1951 §3.2.4).
public enum HandMadePNG {
    /// An 8-bit RGB PNG (colour type 2, no alpha) of one colour, with `text` as tEXt chunks
    /// (keys and values in ASCII) before the image data, or after it when `textAfterImageData`.
    public static func rgb(
        width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8,
        text: [(key: String, value: String)], textAfterImageData: Bool = false
    ) -> [UInt8] {
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // depth, colour type, compression, filter, interlace
        var rows: [UInt8] = []
        for _ in 0..<height {
            rows.append(0)  // filter type None
            for _ in 0..<width { rows += [red, green, blue] }
        }
        let textChunks = text.flatMap { chunk("tEXt", Array($0.key.utf8) + [0] + Array($0.value.utf8)) }
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
        if !textAfterImageData { file += textChunks }
        file += chunk("IDAT", zlibStored(rows))
        if textAfterImageData { file += textChunks }
        return file + chunk("IEND", [])
    }

    /// An 8-bit RGB PNG of `patches` side by side, each `side` × `side` pixels, with
    /// `chunks` (whole chunks, from `chunk(_:_:)`) between IHDR and the image data: where
    /// iCCP, sRGB, gAMA and cHRM must come.
    public static func patches(_ patches: [(red: UInt8, green: UInt8, blue: UInt8)], side: Int, chunks: [[UInt8]]) -> [UInt8] {
        var header = bigEndian(UInt32(side * patches.count)) + bigEndian(UInt32(side))
        header += [8, 2, 0, 0, 0]  // depth, colour type, compression, filter, interlace
        var rows: [UInt8] = []
        for _ in 0..<side {
            rows.append(0)  // filter type None
            for patch in patches {
                for _ in 0..<side { rows += [patch.red, patch.green, patch.blue] }
            }
        }
        let file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
        return file + chunks.flatMap { $0 } + chunk("IDAT", zlibStored(rows)) + chunk("IEND", [])
    }

    /// An iCCP chunk holding `profile` (named "ICC profile", compressed as a zlib stream of
    /// stored blocks).
    public static func iccpChunk(_ profile: [UInt8]) -> [UInt8] {
        chunk("iCCP", Array("ICC profile".utf8) + [0, 0] + zlibStored(profile))
    }

    /// A chunk: length, type, data, CRC-32 of type and data.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + typeAndData + bigEndian(crc32(typeAndData))
    }

    /// `data` as a zlib stream of stored deflate blocks (at most 65535 bytes each).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]  // deflate, 32 KiB window; (0x7801 % 31 == 0)
        var start = 0
        repeat {
            let count = min(65535, data.count - start)
            let isLast = start + count == data.count
            let length = UInt16(count)
            stream += [isLast ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            stream += data[start..<(start + count)]
            start += count
        } while start < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return stream + bigEndian(b << 16 | a)
    }

    /// The CRC-32 of PNG and zlib (reflected polynomial 0xEDB88320), bit by bit.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    public static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
