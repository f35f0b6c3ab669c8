/// Small files that claim or inflate to enormous pictures, put together byte by byte (as
/// `HandMadePNG` does, with neither libpng, libjpeg nor zlib), for testing that Riffle refuses
/// them or shows them scaled within bounded memory.
public enum DecompressionBomb {
    /// An 8-bit RGB PNG of `width` × `height` pixels whose image data is compressed for real: a
    /// zlib stream of one fixed-Huffman deflate block (RFC 1951 §3.2.6) that is one literal and
    /// then copies of 258 bytes at distance 1, 13 bits each, so the file is 1/159 of what it
    /// inflates to. Every byte of that data is 1: each row's filter byte is 1 (Sub, PNG §9.2),
    /// so pixel x of every row is grey (x + 1) mod 256, ramps that average to mid grey. With
    /// `rows`, only the first `rows` rows are in the stream (a header that claims more than the
    /// data holds).
    public static func rampPNG(width: Int, height: Int, rows: Int? = nil) -> [UInt8] {
        var header = HandMadePNG.bigEndian(UInt32(width)) + HandMadePNG.bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // depth, colour type RGB, compression, filter, interlace
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + HandMadePNG.chunk("IHDR", header)
        let stream = zlibRun(of: 1, count: (rows ?? height) * (1 + 3 * width))
        // IDAT chunks of at most 1 MiB, as encoders split their data.
        var start = 0
        while start < stream.count {
            let end = min(stream.count, start + (1 << 20))
            file += HandMadePNG.chunk("IDAT", Array(stream[start..<end]))
            start = end
        }
        return file + HandMadePNG.chunk("IEND", [])
    }

    /// A baseline greyscale JPEG of `width` × `height` mid-grey pixels whose entropy-coded data is
    /// all there: every 8×8 block a DC difference of 0 and an end of block, each coded in 1 bit
    /// by one-symbol Huffman tables (ITU-T T.81 §C: a table of one code of length 1), so the
    /// scan is `blocks / 4` zero bytes. 65500 × 65500 (the most a JPEG's header allows,
    /// libjpeg's JPEG_MAX_DIMENSION) is 4.3 gigapixels in 16 MiB.
    public static func greyJPEG(width: Int, height: Int) -> [UInt8] {
        func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
            [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        }
        let quantisation = segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))
        let frame = segment(0xC0, [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0])
        // One code of length 1 for symbol 0: DC category 0 (no difference), AC 0x00 (end of block).
        let oneCode = [UInt8(1)] + [UInt8](repeating: 0, count: 15) + [0]
        let tables = segment(0xC4, [0x00] + oneCode + [0x10] + oneCode)
        let scanHeader = segment(0xDA, [1, 1, 0x00, 0, 63, 0])
        let blocks = ((width + 7) / 8) * ((height + 7) / 8)
        // Two bits a block; a last partial byte is padded with 1-bits (T.81 §F.1.2.3).
        var scan = [UInt8](repeating: 0, count: blocks * 2 / 8)
        if blocks % 4 != 0 { scan.append(0xFF >> (2 * (blocks % 4))) }
        return [0xFF, 0xD8] + quantisation + frame + tables + scanHeader + scan + [0xFF, 0xD9]
    }

    /// A zlib stream (RFC 1950) inflating to `count` bytes of `byte` (`count` ≥ 1, `byte` ≤ 143,
    /// whose fixed literal code is 8 bits, 0x30 + byte): header, one final fixed-Huffman block,
    /// Adler-32. After the 3 header bits, the literal (8) and the first copy (13) the writer is at
    /// a byte boundary, and every 8 copies after it are the same 13 bytes.
    static func zlibRun(of byte: UInt8, count: Int) -> [UInt8] {
        precondition(count >= 1 && byte <= 143)
        let literal = 0x30 + UInt32(byte)
        var bits = BitWriter()
        bits.write(0b1, count: 1)  // BFINAL
        bits.write(0b01, count: 2)  // BTYPE 01: fixed Huffman codes
        bits.writeCode(literal, length: 8)
        let copies = (count - 1) / 258, literals = (count - 1) % 258
        func copy(_ writer: inout BitWriter) {
            writer.writeCode(0b1100_0101, length: 8)  // length symbol 285: 258 bytes, no extra bits
            writer.writeCode(0b00000, length: 5)  // distance symbol 0: distance 1
        }
        var stream: [UInt8] = [0x78, 0x01]  // deflate, 32 KiB window; 0x7801 is a multiple of 31
        var done = 0
        if copies > 0 {
            copy(&bits)
            precondition(bits.pending == 0, "aligned after the first copy")
            stream += bits.bytes
            var group = BitWriter()
            for _ in 0..<8 { copy(&group) }
            let groups = (copies - 1) / 8
            stream.reserveCapacity(stream.count + groups * 13 + 300)
            for _ in 0..<groups { stream += group.bytes }
            done = 1 + groups * 8
            bits = BitWriter()
        }
        for _ in done..<copies { copy(&bits) }
        for _ in 0..<literals { bits.writeCode(literal, length: 8) }
        bits.writeCode(0, length: 7)  // end of block, symbol 256
        bits.flush()
        stream += bits.bytes
        // Adler-32: A = 1 + n·byte, B = Σ(i = 1…n) (1 + i·byte) = n + byte·n(n+1)/2, both mod 65521.
        let m: UInt64 = 65521, n = UInt64(count) % m, v = UInt64(byte)
        let a = (1 + n * v) % m
        let triangle = (UInt64(count) % (2 * m)) * ((UInt64(count) + 1) % (2 * m)) / 2 % m
        let b = (n + v * triangle) % m
        return stream + HandMadePNG.bigEndian(UInt32(b << 16 | a))
    }

    /// Bits packed as deflate packs them: least significant first within a byte; Huffman codes
    /// from their most significant bit (RFC 1951 §3.1.1).
    struct BitWriter {
        private(set) var bytes: [UInt8] = []
        private var current: UInt8 = 0
        /// Bits written into `current` so far (0 to 7).
        private(set) var pending = 0

        /// The `count` low bits of `value`, least significant first (header fields, extra bits).
        mutating func write(_ value: UInt32, count: Int) {
            for i in 0..<count { put(value >> UInt32(i) & 1) }
        }

        /// A Huffman code of `length` bits, most significant first.
        mutating func writeCode(_ code: UInt32, length: Int) {
            for i in stride(from: length - 1, through: 0, by: -1) { put(code >> UInt32(i) & 1) }
        }

        /// Pads the last byte with zeros.
        mutating func flush() {
            if pending > 0 {
                bytes.append(current)
                current = 0
                pending = 0
            }
        }

        private mutating func put(_ bit: UInt32) {
            current |= UInt8(bit) << UInt8(pending)
            pending += 1
            if pending == 8 { flush() }
        }
    }
}
