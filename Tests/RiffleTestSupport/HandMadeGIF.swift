/// GIF files put together byte by byte, without giflib, for testing the decoder on frames whose
/// every pixel is known: the GIF89a layout (https://www.w3.org/Graphics/GIF/spec-gif89a.txt):
/// header, logical screen descriptor and global colour table (section 18), a NETSCAPE2.0 loop
/// extension, then per frame a graphic control extension (section 23), an image descriptor
/// (section 20), an optional local colour table and the LZW-coded indices (appendix F).
///
/// The LZW data uses no string codes: each index is its own literal code, and a clear code
/// comes before the table would grow past the first code size, so every code has the same
/// width (the minimum code size + 1) and the stream is valid for any decoder.
public enum HandMadeGIF {
    /// An opaque colour of a colour table.
    public struct RGB: Hashable, Sendable {
        public var red, green, blue: UInt8

        public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }
    }

    /// One image of the file, with its graphic control.
    public struct Frame: Sendable {
        /// Where it lies on the logical screen.
        public var x, y, width, height: Int
        /// Colour indices, row by row top to bottom as displayed (`width` × `height`); an
        /// interlaced frame is stored in pass order by the writer.
        public var indices: [UInt8]
        /// The delay, centiseconds.
        public var delay: Int
        /// GIF89a disposal method: 0 unspecified, 1 do not dispose, 2 restore to background, 3
        /// restore to previous.
        public var disposal: Int
        /// The transparent index, if any.
        public var transparent: UInt8?
        public var interlaced: Bool
        /// A local colour table (replacing the global one for this frame).
        public var palette: [RGB]?

        public init(
            x: Int = 0, y: Int = 0, width: Int, height: Int, indices: [UInt8], delay: Int = 10, disposal: Int = 1,
            transparent: UInt8? = nil, interlaced: Bool = false, palette: [RGB]? = nil
        ) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.indices = indices
            self.delay = delay
            self.disposal = disposal
            self.transparent = transparent
            self.interlaced = interlaced
            self.palette = palette
        }

        /// A frame of one index everywhere.
        public static func solid(
            _ index: UInt8, x: Int = 0, y: Int = 0, width: Int, height: Int, delay: Int = 10, disposal: Int = 1,
            transparent: UInt8? = nil
        ) -> Frame {
            Frame(
                x: x, y: y, width: width, height: height, indices: [UInt8](repeating: index, count: width * height), delay: delay,
                disposal: disposal, transparent: transparent)
        }
    }

    /// A GIF89a of a `width` × `height` screen, the global colour table `palette` (padded to a
    /// power of two, at least 2 entries), `frames`, and a NETSCAPE2.0 extension with `loops`
    /// (the wire value: repeats after the first play, 0 for ever) when it is not nil.
    public static func file(width: Int, height: Int, palette: [RGB], frames: [Frame], loops: Int? = nil) -> [UInt8] {
        var out = Array("GIF89a".utf8) + u16(width) + u16(height)
        let bits = tableBits(palette.count)
        out += [0x80 | UInt8(bits - 1), 0, 0] + table(palette, bits: bits)
        if let loops {
            out += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + u16(loops) + [0]
        }
        for frame in frames {
            let flags = UInt8(frame.disposal << 2) | (frame.transparent == nil ? 0 : 1)
            out += [0x21, 0xF9, 4, flags] + u16(frame.delay) + [frame.transparent ?? 0, 0]
            out += [0x2C] + u16(frame.x) + u16(frame.y) + u16(frame.width) + u16(frame.height)
            var descriptorFlags: UInt8 = frame.interlaced ? 0x40 : 0
            var codeBits = bits
            if let local = frame.palette {
                codeBits = tableBits(local.count)
                descriptorFlags |= 0x80 | UInt8(codeBits - 1)
            }
            out.append(descriptorFlags)
            if let local = frame.palette { out += table(local, bits: codeBits) }
            let rows = frame.interlaced ? interlacedOrder(frame.height) : Array(0..<frame.height)
            let indices = rows.flatMap { frame.indices[($0 * frame.width)..<(($0 + 1) * frame.width)] }
            out += lzw(indices, minimumCodeSize: max(2, codeBits))
        }
        return out + [0x3B]
    }

    /// The rows of an interlaced image of `height` rows in the order they are stored: every 8th
    /// from 0, every 8th from 4, every 4th from 2, every 2nd from 1 (GIF89a appendix E).
    public static func interlacedOrder(_ height: Int) -> [Int] {
        [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in Array(stride(from: start, to: height, by: step)) }
    }

    /// The minimum code size byte, then the LZW codes of `indices` packed least significant bit
    /// first into data sub-blocks of at most 255 bytes, then the empty block.
    static func lzw(_ indices: [UInt8], minimumCodeSize size: Int) -> [UInt8] {
        let clear = 1 << size, end = clear + 1, width = size + 1
        // After a clear the decoder's next code is clear + 2; each code read adds one, and the
        // width grows once it passes 2^width: clear again before that.
        let run = (1 << width) - clear - 2
        var codes = [clear]
        for (i, index) in indices.enumerated() {
            if i > 0 && i % run == 0 { codes.append(clear) }
            codes.append(Int(index))
        }
        codes.append(end)
        var packed: [UInt8] = [], accumulator = 0, bitCount = 0
        for code in codes {
            accumulator |= code << bitCount
            bitCount += width
            while bitCount >= 8 {
                packed.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                bitCount -= 8
            }
        }
        if bitCount > 0 { packed.append(UInt8(accumulator & 0xFF)) }
        var out = [UInt8(size)]
        var start = 0
        while start < packed.count {
            let count = min(255, packed.count - start)
            out += [UInt8(count)] + packed[start..<(start + count)]
            start += count
        }
        return out + [0]
    }

    /// Bits of a colour table holding `count` colours: 2^bits ≥ count, at least 1.
    static func tableBits(_ count: Int) -> Int {
        var bits = 1
        while 1 << bits < count { bits += 1 }
        return bits
    }

    static func table(_ palette: [RGB], bits: Int) -> [UInt8] {
        let padded = palette + [RGB](repeating: RGB(0, 0, 0), count: (1 << bits) - palette.count)
        return padded.flatMap { [$0.red, $0.green, $0.blue] }
    }

    static func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
}
