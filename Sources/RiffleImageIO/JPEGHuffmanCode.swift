/// One JPEG Huffman table (a DHT entry), ready to decode and to encode with.
///
/// Codes are canonical (T.81 Annex C): lengths 1...16, `counts[l − 1]` codes of length l taken
/// in order of `symbols`, each length's first code one more than the previous length's last,
/// shifted left by one. Decoding (`HuffmanView`) looks the next `lookupBits` bits up in one
/// table (almost every code in a photo is that short) and falls back to comparing against each
/// longer length's largest code (T.81 F.2.2.3, DECODE).
struct JPEGHuffmanCode: Sendable {
    /// Bits looked up at once: 9 covers the DC categories and the common AC symbols of the
    /// standard tables (libjpeg-turbo uses 8, stb_image 9).
    static let lookupBits = 9

    /// For each `lookupBits`-bit prefix: `length << 8 | symbol` of the code it begins with, or 0
    /// when the code is longer than `lookupBits`.
    let lookup: [UInt16]
    /// Per length l (index l, 1...16): the largest code of that length, or −1 when none.
    let maxCode: [Int32]
    /// Per length l: the index in `symbols` of the first code of that length, minus that code.
    let symbolOffset: [Int32]
    let symbols: [UInt8]
    /// Per symbol (0...255): its code and length, length 0 when the table has no such symbol.
    let encoding: [(code: UInt32, length: UInt8)]

    /// Builds the table from a DHT entry's 16 counts and its symbols; nil when the counts
    /// describe more codes than fit their lengths (a damaged table).
    init?(counts: [Int], symbols: [UInt8]) {
        guard counts.count == 16, counts.reduce(0, +) == symbols.count, symbols.count <= 256 else { return nil }
        var lookup = [UInt16](repeating: 0, count: 1 << Self.lookupBits)
        var maxCode = [Int32](repeating: -1, count: 18)
        var symbolOffset = [Int32](repeating: 0, count: 18)
        var encoding = [(code: UInt32, length: UInt8)](repeating: (0, 0), count: 256)
        var code: UInt32 = 0
        var index = 0
        for length in 1...16 {
            let n = counts[length - 1]
            if n > 0 {
                symbolOffset[length] = Int32(index) - Int32(code)
                for _ in 0..<n {
                    // More codes than this length holds (libjpeg's JERR_BAD_HUFF_TABLE).
                    guard code < UInt32(1) << length else { return nil }
                    let symbol = symbols[index]
                    encoding[Int(symbol)] = (code, UInt8(length))
                    if length <= Self.lookupBits {
                        let shift = Self.lookupBits - length
                        let first = Int(code) << shift
                        for prefix in first..<(first + (1 << shift)) {
                            lookup[prefix] = UInt16(length) << 8 | UInt16(symbol)
                        }
                    }
                    code += 1
                    index += 1
                }
                maxCode[length] = Int32(code) - 1
            }
            code <<= 1
        }
        self.lookup = lookup
        self.maxCode = maxCode
        self.symbolOffset = symbolOffset
        self.symbols = symbols
        self.encoding = encoding
    }

    /// Runs `body` with a decoder over this table's arrays (`HuffmanView.decode`), valid only
    /// inside it.
    func withDecoder<R>(_ body: (HuffmanView) -> R) -> R {
        lookup.withUnsafeBufferPointer { l in
            maxCode.withUnsafeBufferPointer { m in
                symbolOffset.withUnsafeBufferPointer { o in
                    symbols.withUnsafeBufferPointer { s in
                        body(HuffmanView(lookup: l.baseAddress!, maxCode: m.baseAddress!, symbolOffset: o.baseAddress!, symbols: s.baseAddress!))
                    }
                }
            }
        }
    }
}
