/// Damaged copies of valid PNG and JPEG bytes, made by walking their structure (PNG chunks, JPEG
/// marker segments) rather than at fixed offsets, so that each case keeps meaning the same
/// damage whatever the encoder wrote around it.
enum FileDamage {
    // MARK: PNG: a signature, then chunks of a 4-byte big-endian data length, a 4-byte type, the
    // data and a CRC-32 of type and data (PNG specification, section 5.3,
    // https://www.w3.org/TR/png/#5Chunk-layout).

    /// One chunk of a PNG.
    struct PNGChunk {
        /// The four-letter type, e.g. "IDAT".
        let type: String
        /// Where the chunk's data lies in the file.
        let data: Range<Int>
        /// Offset of the chunk's length field, its first byte.
        var start: Int { data.lowerBound - 8 }
        /// Offset of the chunk's CRC, just after its data.
        var crcOffset: Int { data.upperBound }
    }

    /// The chunks of `png`, in file order.
    static func pngChunks(_ png: [UInt8]) -> [PNGChunk] {
        var chunks: [PNGChunk] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            let data = offset + 8..<offset + 8 + length
            chunks.append(PNGChunk(type: type, data: data))
            offset = data.upperBound + 4
        }
        return chunks
    }

    /// `png` with the CRC of its first `type` chunk inverted.
    static func png(_ png: [UInt8], breakingCRCOf type: String) -> [UInt8] {
        let chunk = pngChunks(png).first { $0.type == type }!
        var damaged = png
        for i in chunk.crcOffset..<chunk.crcOffset + 4 { damaged[i] ^= 0xFF }
        return damaged
    }

    /// `png` with `change` made to the data of its first `type` chunk and the chunk's CRC made
    /// right again, so that only the data is wrong.
    static func png(_ png: [UInt8], changingDataOf type: String, _ change: (inout ArraySlice<UInt8>) -> Void) -> [UInt8] {
        let chunk = pngChunks(png).first { $0.type == type }!
        var damaged = png
        change(&damaged[chunk.data])
        let crc = crc32(damaged[chunk.data.lowerBound - 4..<chunk.data.upperBound])
        for i in 0..<4 { damaged[chunk.crcOffset + i] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * i)) }
        return damaged
    }

    /// A PNG made of the signature and `chunks` (type and data), each given its length and CRC.
    static func png(chunks: [(type: String, data: [UInt8])]) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for (type, data) in chunks {
            png += bigEndian(UInt32(data.count))
            let typeAndData = Array(type.utf8) + data
            png += typeAndData + bigEndian(crc32(typeAndData))
        }
        return png
    }

    /// The four big-endian bytes of `value`.
    static func bigEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
    }

    /// CRC-32 as PNG uses it (PNG specification, annex D, https://www.w3.org/TR/png/#D-CRCAppendix):
    /// reflected polynomial 0xEDB88320, initial value and final XOR 0xFFFFFFFF.
    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    // MARK: JPEG: SOI, then marker segments FF xx with a 16-bit big-endian length that counts
    // itself; the entropy-coded data follows SOS, with FF stuffed as FF 00 and restart markers
    // FF D0...FF D7 inside it (ITU-T T.81, annex B, https://www.w3.org/Graphics/JPEG/itu-t81.pdf).

    /// The offset of the first marker segment of type `marker` (e.g. 0xC2 for SOF2), its FF.
    static func jpegSegment(_ jpeg: [UInt8], marker: UInt8) -> Int? {
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xFF {
            if jpeg[offset + 1] == marker { return offset }
            if jpeg[offset + 1] == 0xDA { return nil }  // the scan data follows: no more headers
            offset += 2 + (Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3]))
        }
        return nil
    }

    /// Where the first scan's entropy-coded data lies: from the end of the SOS segment to the
    /// next marker that is neither a stuffed FF 00 nor a restart marker.
    static func jpegFirstScan(_ jpeg: [UInt8]) -> Range<Int> {
        let sos = jpegSegment(jpeg, marker: 0xDA)!
        let start = sos + 2 + (Int(jpeg[sos + 2]) << 8 | Int(jpeg[sos + 3]))
        var end = start
        while end + 1 < jpeg.count, !(jpeg[end] == 0xFF && jpeg[end + 1] != 0 && !(0xD0...0xD7).contains(jpeg[end + 1])) {
            end += 1
        }
        return start..<end
    }

    /// `jpeg` with FF 00 FF 00 FF 00 (three stuffed FF bytes: 24 one-bits) written over the middle
    /// of its first scan, clear of any FF byte so that no stuffing pair or restart marker is
    /// cut. No Huffman code is all one-bits (T.81 annex C reserves them), so libjpeg must meet a
    /// bad code there, whatever the bits around it.
    static func jpegWithBadHuffmanCode(_ jpeg: [UInt8]) -> [UInt8] {
        let scan = jpegFirstScan(jpeg)
        var at = (scan.lowerBound + scan.upperBound) / 2
        while jpeg[at - 1..<at + 7].contains(0xFF) { at += 1 }
        precondition(at + 7 < scan.upperBound, "no clear place in the scan")
        var damaged = jpeg
        damaged.replaceSubrange(at..<at + 6, with: [0xFF, 0x00, 0xFF, 0x00, 0xFF, 0x00])
        return damaged
    }
}
