/// Writes small little-endian TIFF files tag by tag, for what no installed tool writes: a TIFF
/// carrying an UNDEFINED tag (an ICC profile), a minimal DNG (no Debian package encodes camera
/// RAW). Layout: the 8-byte header, each directory followed by the values too long for its
/// entries, then the data blocks; directory 0 is the first (IFD0), the others are reached through
/// `.directory` values (SubIFDs).
enum TIFFBuilder {
    /// An entry's value, of TIFF's types.
    enum Value {
        case bytes([UInt8])
        case ascii(String)
        case shorts([UInt16])
        case longs([UInt32])
        case undefined([UInt8])
        case rationals([(UInt32, UInt32)])
        case signedRationals([(Int32, Int32)])
        /// LONG offsets of data blocks, by index (StripOffsets).
        case blocks([Int])
        /// LONG offsets of directories, by index (SubIFDs).
        case directories([Int])
    }

    /// One tagged entry.
    struct Entry {
        let tag: UInt16
        let value: Value
    }

    /// An UNDEFINED entry.
    static func undefined(_ tag: UInt16, _ bytes: [UInt8]) -> Entry { Entry(tag: tag, value: .undefined(bytes)) }

    /// The file of `directories` and `blocks`.
    static func file(_ directories: [[Entry]], blocks: [[UInt8]]) -> [UInt8] {
        func type(_ value: Value) -> (code: UInt16, count: Int, size: Int) {
            switch value {
            case .bytes(let b): (1, b.count, 1)
            case .ascii(let s): (2, s.utf8.count + 1, 1)
            case .shorts(let v): (3, v.count, 2)
            case .longs(let v): (4, v.count, 4)
            case .undefined(let b): (7, b.count, 1)
            case .rationals(let v): (5, v.count, 8)
            case .signedRationals(let v): (10, v.count, 8)
            case .blocks(let v): (4, v.count, 4)
            case .directories(let v): (4, v.count, 4)
            }
        }
        // Pass 1: where each directory and block starts.
        var directoryOffsets: [Int] = [], offset = 8
        for entries in directories {
            directoryOffsets.append(offset)
            offset += 2 + 12 * entries.count + 4
            for entry in entries {
                let t = type(entry.value)
                if t.count * t.size > 4 { offset += (t.count * t.size + 1) & ~1 }
            }
        }
        var blockOffsets: [Int] = []
        for block in blocks {
            blockOffsets.append(offset)
            offset += (block.count + 1) & ~1
        }
        // Pass 2: the bytes.
        var out: [UInt8] = [0x49, 0x49, 42, 0]
        func put16(_ v: Int, into bytes: inout [UInt8]) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func put32(_ v: Int, into bytes: inout [UInt8]) { for s in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(v >> s & 0xFF)) } }
        put32(directoryOffsets[0], into: &out)
        for (index, entries) in directories.enumerated() {
            var overflow: [UInt8] = []
            var table: [UInt8] = []
            put16(entries.count, into: &table)
            let overflowStart = directoryOffsets[index] + 2 + 12 * entries.count + 4
            for entry in entries.sorted(by: { $0.tag < $1.tag }) {
                let t = type(entry.value)
                var data: [UInt8] = []
                switch entry.value {
                case .bytes(let b), .undefined(let b): data = b
                case .ascii(let s): data = Array(s.utf8) + [0]
                case .shorts(let v): v.forEach { put16(Int($0), into: &data) }
                case .longs(let v): v.forEach { put32(Int($0), into: &data) }
                case .rationals(let v): v.forEach { put32(Int($0.0), into: &data); put32(Int($0.1), into: &data) }
                case .signedRationals(let v):
                    v.forEach { put32(Int(UInt32(bitPattern: $0.0)), into: &data); put32(Int(UInt32(bitPattern: $0.1)), into: &data) }
                case .blocks(let v): v.forEach { put32(blockOffsets[$0], into: &data) }
                case .directories(let v): v.forEach { put32(directoryOffsets[$0], into: &data) }
                }
                put16(Int(entry.tag), into: &table)
                put16(Int(t.code), into: &table)
                put32(t.count, into: &table)
                if data.count <= 4 {
                    table += data + [UInt8](repeating: 0, count: 4 - data.count)
                } else {
                    put32(overflowStart + overflow.count, into: &table)
                    overflow += data
                    if overflow.count % 2 == 1 { overflow.append(0) }
                }
            }
            put32(0, into: &table)
            out += table + overflow
        }
        for block in blocks {
            out += block
            if block.count % 2 == 1 { out.append(0) }
        }
        return out
    }

    /// An uncompressed 8-bit RGB TIFF of `width` × `height` mid-grey pixels with `extra` entries.
    static func rgb(width: Int, height: Int, extra: [Entry] = []) -> [UInt8] {
        let pixels = [UInt8](repeating: 128, count: width * height * 3)
        return file([[
            Entry(tag: 256, value: .longs([UInt32(width)])), Entry(tag: 257, value: .longs([UInt32(height)])),
            Entry(tag: 258, value: .shorts([8, 8, 8])), Entry(tag: 259, value: .shorts([1])), Entry(tag: 262, value: .shorts([2])),
            Entry(tag: 273, value: .blocks([0])), Entry(tag: 277, value: .shorts([3])), Entry(tag: 278, value: .longs([UInt32(height)])),
            Entry(tag: 279, value: .longs([UInt32(pixels.count)])),
        ] + extra], blocks: [pixels])
    }
}
