/// A small JPEG holding a band of MCU rows of an indexed JPEG, which libjpeg decodes as if it
/// were the whole picture: the way into the middle of a huge file without entropy-decoding
/// everything above.
///
/// Without restart markers, the band file is the original's headers (JFIF/Adobe, quantisation
/// and Huffman tables, frame with the height cut to the band, scan), then one *carrier row* of
/// MCUs whose blocks are flat (every AC coefficient zero) and whose DC differences bring each
/// component's predictor to its value at the band's first row, then the band's entropy-coded
/// bits copied from the original (shifted to follow the carrier row, stuffing redone), padded
/// with 1-bits, then EOI. With restart markers no carrier is needed (the predictors restart at
/// 0 with each interval): the headers (restart interval included) are followed by the band's
/// intervals copied byte for byte, the markers between them renumbered from RST0, then EOI.
///
/// Every block of the band therefore decodes to exactly the coefficients it has in the
/// original, so its pixels are the original's, except where libjpeg's upsampling reads a
/// neighbouring row: callers decode a row of context above and below what they need.
enum JPEGBandStream {
    /// A band file and where its picture lies in the original.
    struct Band {
        let bytes: [UInt8]
        /// The original's MCU row at the top of the band's picture; for a carrier row, the row
        /// above the band's first, which the carrier stands in for.
        let topRow: Int
    }

    /// The band file holding at least MCU rows `rows` of the JPEG `bytes` indexed by `index`: with
    /// a carrier row, exactly those rows under one MCU row of grey; with restart intervals, the
    /// whole intervals that hold them. The last row is cut at the picture's bottom edge, as in
    /// the original. Nil when the file's Huffman tables lack a code the carrier row needs (a DC
    /// difference category, or the end-of-block symbol).
    static func make(_ bytes: UnsafeBufferPointer<UInt8>, index: JPEGScanIndex, rows: Range<Int>) -> Band? {
        let structure = index.structure
        precondition(rows.lowerBound >= 0 && rows.upperBound <= structure.mcuRows && !rows.isEmpty, "rows outside the picture")
        /// The picture height of rows `top..<end` of the original.
        func height(_ top: Int, _ end: Int) -> Int {
            min(end * structure.mcuHeight, structure.height) - top * structure.mcuHeight
        }
        switch index.entries {
        case .rows(let starts):
            let start = starts[rows.lowerBound], end = starts[rows.upperBound]
            var writer = StuffingBitWriter(capacity: (end.byteOffset - start.byteOffset) * 101 / 100 + 4096)
            writer.appendHeaders(of: structure, from: bytes, height: structure.mcuHeight + height(rows.lowerBound, rows.upperBound))
            guard writer.appendCarrierRow(of: structure, predictors: start.predictors) else { return nil }
            writer.appendBits(of: bytes, from: start, count: end.bitPosition - start.bitPosition)
            writer.padToByte()
            writer.appendRaw([0xFF, 0xD9])
            return Band(bytes: writer.bytes, topRow: rows.lowerBound - 1)
        case .restarts(let intervals):
            let top = index.entryRow(atOrBefore: rows.lowerBound), end = index.entryRow(atOrAfter: rows.upperBound)
            let perRow = structure.mcusPerRow, mcus = structure.restartInterval
            let first = top * perRow / mcus
            let last = end == structure.mcuRows ? intervals.count : end * perRow / mcus
            let copied = intervals[first..<last]
            var writer = StuffingBitWriter(capacity: copied.reduce(0) { $0 + $1.count + 2 } + 4096)
            writer.appendHeaders(of: structure, from: bytes, height: height(top, end))
            for (k, range) in copied.enumerated() {
                if k > 0 { writer.appendRaw([0xFF, 0xD0 + UInt8((k - 1) % 8)]) }
                writer.appendRaw(bytes[range])
            }
            writer.appendRaw([0xFF, 0xD9])
            return Band(bytes: writer.bytes, topRow: top)
        }
    }
}

/// Writes entropy-coded bits most significant first, inserting a zero byte after every `FF`
/// (T.81 F.1.2.3), and raw marker bytes between them.
private struct StuffingBitWriter {
    private(set) var bytes: [UInt8] = []
    /// Bits not yet written out, right-aligned, and how many.
    private var pending: UInt64 = 0
    private var pendingCount = 0

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// SOI, then the segments `structure` keeps, the frame's height set to `height`.
    mutating func appendHeaders(of structure: JPEGStructure, from file: UnsafeBufferPointer<UInt8>, height: Int) {
        appendRaw([0xFF, 0xD8])
        for segment in structure.keptSegments {
            let base = bytes.count
            bytes.append(contentsOf: file[segment])
            if segment.contains(structure.heightFieldOffset) {
                let at = base + structure.heightFieldOffset - segment.lowerBound
                bytes[at] = UInt8(height >> 8)
                bytes[at + 1] = UInt8(height & 0xFF)
            }
        }
    }

    mutating func appendRaw(_ raw: some Collection<UInt8>) {
        precondition(pendingCount == 0, "raw bytes only at a byte boundary")
        bytes.append(contentsOf: raw)
    }

    /// Appends the `length` low bits of `value` (length ≤ 32).
    @inline(__always)
    mutating func append(_ value: UInt32, length: Int) {
        pending = pending &<< UInt64(length) | UInt64(value & UInt32(truncatingIfNeeded: (UInt64(1) << length) - 1))
        pendingCount += length
        while pendingCount >= 8 {
            pendingCount -= 8
            let byte = UInt8(truncatingIfNeeded: pending &>> UInt64(pendingCount))
            bytes.append(byte)
            if byte == 0xFF { bytes.append(0) }
        }
    }

    /// Fills the last byte with 1-bits, as an encoder pads before a marker (T.81 F.1.2.3).
    mutating func padToByte() {
        if pendingCount > 0 { append(UInt32.max, length: 8 - pendingCount) }
    }

    /// One MCU row of flat blocks: each component's first block carries its predictor as the DC
    /// difference from 0, every other block a difference of 0; every block ends at once (EOB).
    /// False when a needed code is missing from the tables.
    mutating func appendCarrierRow(of structure: JPEGStructure, predictors: [Int32]) -> Bool {
        for mcu in 0..<structure.mcusPerRow {
            for (c, component) in structure.components.enumerated() {
                let dc = structure.dcTables[component.dcTable]!, ac = structure.acTables[component.acTable]!
                let endOfBlock = ac.encoding[0]
                for block in 0..<(component.horizontal * component.vertical) {
                    let difference = mcu == 0 && block == 0 ? predictors[c] : 0
                    let magnitude = difference.magnitude
                    let size = magnitude == 0 ? 0 : 32 - magnitude.leadingZeroBitCount
                    let category = dc.encoding[size]
                    guard category.length > 0, endOfBlock.length > 0 else { return false }
                    append(category.code, length: Int(category.length))
                    if size > 0 {
                        // T.81 F.1.2.1: a negative difference is written as difference − 1 in `size` bits.
                        append(UInt32(bitPattern: difference < 0 ? difference - 1 : difference), length: size)
                    }
                    append(endOfBlock.code, length: Int(endOfBlock.length))
                }
            }
        }
        return true
    }

    /// Appends `count` entropy-coded bits of `file` starting at `start`, unstuffing as it reads.
    mutating func appendBits(of file: UnsafeBufferPointer<UInt8>, from start: JPEGScanIndex.RowStart, count: Int) {
        var left = count
        var position = start.byteOffset
        var skip = start.bitOffset
        while left > 0 {
            let byte = file[position]
            position += byte == 0xFF ? 2 : 1
            let available = 8 - skip
            let take = min(available, left)
            let bits = (UInt32(byte) &>> UInt32(available - take)) & ((1 << take) - 1)
            append(bits, length: take)
            left -= take
            skip = 0
        }
    }
}
