/// Where MCU rows of a JPEG's entropy-coded data begin, and the decoder state there: the entry
/// points that let `JPEGBandStream` cut a band of rows out of the file without entropy-decoding
/// the rows above it.
///
/// Huffman-coded data has no row index and each block's DC coefficient is coded as the
/// difference from the previous block's (T.81 F.1.2.1), so entering the scan mid-way needs the
/// bit where a row starts and the DC predictor of every component there. Without restart
/// markers one walk over the scan finds both: it reads every Huffman code (skipping the
/// coefficients' extra bits, with no dequantisation or IDCT), which costs about what a
/// 1/8-scaled libjpeg decode of the file costs, once; the index is 40 bytes a row. With restart
/// markers the scan says it itself: after each RSTn the data restarts on a byte boundary with
/// every predictor 0 (T.81 E.1.4), so finding the markers is the whole index, a pass over the
/// bytes with no decoding; a row is entered where an interval begins.
///
/// Only single-scan sequential Huffman JPEGs are indexed (see `JPEGStructure`), and with restart
/// markers only those whose intervals are whole MCU rows or divide one; everything else is
/// decoded by libjpeg's skip, as before.
public struct JPEGScanIndex: Sendable {
    /// The decoder's position and state at the start of one MCU row.
    struct RowStart: Sendable, Equatable {
        /// Offset in the file of the byte holding the row's first bit (a stuffed `FF 00`
        /// pair counts as its `FF`).
        let byteOffset: Int
        /// Bits of that byte that belong to the rows before (0...7).
        let bitOffset: Int
        /// The row's first bit counted from the start of the scan data, stuffing removed.
        let bitPosition: Int
        /// DC predictor of each scan component at the row's start (its last DC value so far).
        let predictors: [Int32]
    }

    /// How bands enter the scan.
    enum Entries: Sendable {
        /// Found by the Huffman walk: every MCU row's start, then the end of the last
        /// (`mcuRows + 1` entries).
        case rows([RowStart])
        /// The byte ranges of the restart intervals' entropy-coded data in the file, markers
        /// excluded, each `structure.restartInterval` MCUs but the last: a row is an entry where
        /// an interval begins.
        case restarts([Range<Int>])
    }

    /// The file's markers.
    let structure: JPEGStructure
    /// Where bands can begin.
    let entries: Entries

    /// MCU rows of the stored picture, each `mcuHeight` pixels tall (the last may be shorter).
    public var mcuRows: Int { structure.mcuRows }
    /// Stored-picture pixel rows in one MCU row: 8 × the largest vertical sampling factor.
    public var mcuHeight: Int { structure.mcuHeight }

    /// Indexes the JPEG in `bytes`; throws `JPEGScanIndex.Unsupported` with the reason for a
    /// file it cannot index (progressive, restart intervals that split rows, damaged or truncated
    /// scan data...), and `Unsupported.stopped` once `stop`, asked before each MCU row (with
    /// restart markers, before each interval that begins one), says true.
    public init(_ bytes: [UInt8], until stop: () -> Bool = { false }) throws(Unsupported) {
        let result: Result<(JPEGStructure, Entries), Unsupported> = bytes.withUnsafeBufferPointer { data in
            do throws(Unsupported) {
                let structure = try JPEGStructure(data)
                if structure.restartInterval > 0 {
                    return .success((structure, .restarts(try Self.findRestarts(data, structure, until: stop))))
                }
                return .success((structure, .rows(try Self.walk(data, structure, until: stop))))
            } catch {
                return .failure(error)
            }
        }
        (structure, entries) = try result.get()
    }

    /// Why a file cannot be indexed.
    public struct Unsupported: Error, Equatable, Sendable {
        /// In words, e.g. "the scan data ends early (the file is truncated)".
        public let reason: String

        /// The walk was told to stop before the end.
        public static let stopped = Unsupported(reason: "stopped before the end of the scan")
    }

    /// MCU rows from one entry to the next: 1, or an interval's rows where intervals hold several.
    var entrySpacing: Int {
        guard case .restarts = entries, structure.restartInterval > structure.mcusPerRow else { return 1 }
        return structure.restartInterval / structure.mcusPerRow
    }

    /// The last MCU row at or before `row` where a band can begin.
    func entryRow(atOrBefore row: Int) -> Int { row / entrySpacing * entrySpacing }

    /// The first MCU row at or after `row` where a band can end: an entry, or the picture's end.
    func entryRow(atOrAfter row: Int) -> Int {
        min(mcuRows, (row + entrySpacing - 1) / entrySpacing * entrySpacing)
    }

    /// Finds every restart marker of the scan: the byte ranges of the intervals between them.
    /// The markers must count RST0 ... RST7 over and over, and the intervals cover every MCU.
    private static func findRestarts(
        _ data: UnsafeBufferPointer<UInt8>, _ structure: JPEGStructure, until stop: () -> Bool
    ) throws(Unsupported) -> [Range<Int>] {
        let mcus = structure.restartInterval, perRow = structure.mcusPerRow
        guard mcus % perRow == 0 || perRow % mcus == 0 else {
            throw Unsupported(reason: "the restart intervals (\(mcus) MCUs) neither hold whole MCU rows nor divide one (\(perRow))")
        }
        let expected = (structure.mcuRows * perRow + mcus - 1) / mcus
        var intervals: [Range<Int>] = []
        intervals.reserveCapacity(expected)
        var start = structure.scanDataOffset, at = start
        if stop() { throw .stopped }
        while true {
            // Entropy-coded data holds FF only as a stuffed FF 00; any other FF begins a marker,
            // perhaps after fill bytes (more FF).
            while at < data.count && data[at] != 0xFF { at += 1 }
            guard at + 1 < data.count else { throw Unsupported(reason: "the scan data ends early (the file is truncated)") }
            if data[at + 1] == 0 {
                at += 2
                continue
            }
            var marker = at + 1
            while marker < data.count && data[marker] == 0xFF { marker += 1 }
            guard marker < data.count else { throw Unsupported(reason: "the scan data ends early (the file is truncated)") }
            intervals.append(start..<at)
            let code = data[marker]
            guard (0xD0...0xD7).contains(code) else { break }
            guard Int(code - 0xD0) == (intervals.count - 1) % 8 else {
                throw Unsupported(reason: "the restart markers are out of sequence (the scan is damaged)")
            }
            if intervals.count * mcus % perRow == 0, stop() { throw .stopped }
            start = marker + 1
            at = start
        }
        guard intervals.count == expected else {
            throw Unsupported(reason: "the scan has \(intervals.count) restart intervals where its size needs \(expected)")
        }
        return intervals
    }

    /// Reads every Huffman code of the scan, noting each MCU row's start.
    private static func walk(
        _ data: UnsafeBufferPointer<UInt8>, _ structure: JPEGStructure, until stop: () -> Bool
    ) throws(Unsupported) -> [RowStart] {
        let tables = FlatHuffmanTables(structure)
        var reader = EntropyBitReader(data: data, start: structure.scanDataOffset)
        // Each block of an MCU in order: its component's index in the scan.
        let blockComponents = structure.components.enumerated().flatMap { index, c in
            [Int](repeating: index, count: c.horizontal * c.vertical)
        }
        var predictors = [Int32](repeating: 0, count: structure.components.count)
        var starts: [RowStart] = []
        starts.reserveCapacity(structure.mcuRows + 1)
        let mcusPerRow = structure.mcusPerRow
        return try tables.withPointers { dc, ac throws(Unsupported) -> [RowStart] in
            for _ in 0..<structure.mcuRows {
                if stop() { throw .stopped }
                starts.append(try reader.rowStart(predictors))
                for _ in 0..<mcusPerRow {
                    for component in blockComponents {
                        guard reader.skipBlock(dc: dc[component], ac: ac[component], predictor: &predictors[component]) else {
                            throw Unsupported(reason: "the scan data is damaged (no Huffman code matches)")
                        }
                    }
                }
            }
            starts.append(try reader.rowStart(predictors))
            return starts
        }
    }
}

/// The Huffman tables of each scan component copied into flat buffers, so the walk reads them
/// through raw pointers (no per-access retain or bounds check).
private struct FlatHuffmanTables {
    private let dc: [JPEGHuffmanCode]
    private let ac: [JPEGHuffmanCode]

    init(_ structure: JPEGStructure) {
        dc = structure.components.map { structure.dcTables[$0.dcTable]! }
        ac = structure.components.map { structure.acTables[$0.acTable]! }
    }

    /// Runs `body` with a decoding view of each component's DC and AC table.
    func withPointers<R>(
        _ body: ([HuffmanView], [HuffmanView]) throws(JPEGScanIndex.Unsupported) -> R
    ) throws(JPEGScanIndex.Unsupported) -> R {
        let all = dc + ac
        let lookup = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: all.count << JPEGHuffmanCode.lookupBits)
        let maxCode = UnsafeMutableBufferPointer<Int32>.allocate(capacity: all.count * 18)
        let offsets = UnsafeMutableBufferPointer<Int32>.allocate(capacity: all.count * 18)
        let symbols = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: all.count * 256)
        defer {
            lookup.deallocate()
            maxCode.deallocate()
            offsets.deallocate()
            symbols.deallocate()
        }
        var views: [HuffmanView] = []
        for (k, table) in all.enumerated() {
            let l = lookup.baseAddress! + (k << JPEGHuffmanCode.lookupBits)
            let m = maxCode.baseAddress! + k * 18
            let o = offsets.baseAddress! + k * 18
            let s = symbols.baseAddress! + k * 256
            l.update(from: table.lookup, count: table.lookup.count)
            m.update(from: table.maxCode, count: 18)
            o.update(from: table.symbolOffset, count: 18)
            s.update(repeating: 0, count: 256)
            s.update(from: table.symbols, count: table.symbols.count)
            views.append(HuffmanView(lookup: l, maxCode: m, symbolOffset: o, symbols: s))
        }
        return try body(Array(views[0..<dc.count]), Array(views[dc.count...]))
    }
}

/// Decodes with a `JPEGHuffmanCode`'s tables through raw pointers (no per-access retain or
/// bounds check), which must outlive it.
struct HuffmanView {
    let lookup: UnsafePointer<UInt16>
    let maxCode: UnsafePointer<Int32>
    let symbolOffset: UnsafePointer<Int32>
    let symbols: UnsafePointer<UInt8>

    /// `length << 8 | symbol` of the code beginning the 16-bit `window`, or 0 when none matches.
    @inline(__always)
    func decode(_ window: UInt32) -> Int {
        let entry = Int(lookup[Int(window &>> UInt32(16 - JPEGHuffmanCode.lookupBits))])
        if entry != 0 { return entry }
        var length = JPEGHuffmanCode.lookupBits + 1
        while length <= 16 {
            let code = Int32(window &>> UInt32(16 - length))
            if code <= maxCode[length] { return length << 8 | Int(symbols[Int(code &+ symbolOffset[length])]) }
            length += 1
        }
        return 0
    }
}

/// Reads a scan's entropy-coded bits most significant first, removing the stuffed zero after
/// each `FF` (T.81 F.1.2.3) and reading zeros once a marker or the end of the file is reached,
/// as libjpeg does. Remembers where the last 16 data bytes lay in the file, so that the position
/// of the next unread bit can be given as a file offset.
private struct EntropyBitReader {
    private let data: UnsafeBufferPointer<UInt8>
    /// The next byte of the file to load.
    private var position: Int
    /// Unread bits, left-aligned: the next bit is bit 63.
    private var buffer: UInt64 = 0
    private var count = 0
    /// Data bytes loaded so far, and how many of them came from the file (the rest are the
    /// zeros read at a marker or the end).
    private var loaded = 0
    private var loadedFromFile = 0
    private var atMarker = false
    /// File offset of data byte `n` at index `n & 15`.
    private var offsets = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    init(data: UnsafeBufferPointer<UInt8>, start: Int) {
        self.data = data
        position = start
    }

    /// Loads bytes until more than 56 bits are unread.
    @inline(__always)
    private mutating func refill() {
        while count <= 56 {
            var byte: UInt64 = 0
            let offset = position
            if !atMarker && position < data.count {
                let b = data[position]
                if b != 0xFF {
                    byte = UInt64(b)
                    position += 1
                    loadedFromFile += 1
                } else if position + 1 < data.count && data[position + 1] == 0 {
                    byte = 0xFF
                    position += 2
                    loadedFromFile += 1
                } else {
                    atMarker = true
                }
            }
            withUnsafeMutableBytes(of: &offsets) { $0.storeBytes(of: offset, toByteOffset: (loaded & 15) * 8, as: Int.self) }
            buffer |= byte &<< UInt64(56 - count)
            count += 8
            loaded += 1
        }
    }

    @inline(__always)
    private mutating func consume(_ n: Int) {
        buffer = buffer &<< UInt64(n)
        count -= n
    }

    /// Where the next unread bit is, with `predictors`; throws when it lies past the data the
    /// file holds (the scan is truncated).
    mutating func rowStart(_ predictors: [Int32]) throws(JPEGScanIndex.Unsupported) -> JPEGScanIndex.RowStart {
        refill()
        let consumed = loaded * 8 - count
        guard consumed <= loadedFromFile * 8 else { throw .init(reason: "the scan data ends early (the file is truncated)") }
        let byte = consumed >> 3
        let offset = withUnsafeBytes(of: offsets) { $0.load(fromByteOffset: (byte & 15) * 8, as: Int.self) }
        return JPEGScanIndex.RowStart(byteOffset: offset, bitOffset: consumed & 7, bitPosition: consumed, predictors: predictors)
    }

    /// Reads one block's codes: the DC difference (added to `predictor`) and the AC run/size
    /// symbols up to the end-of-block or the 63rd coefficient, skipping the coefficient bits.
    /// False when a code matches no symbol (damaged data).
    @inline(__always)
    mutating func skipBlock(dc: HuffmanView, ac: HuffmanView, predictor: inout Int32) -> Bool {
        if count < 32 { refill() }
        let dcEntry = dc.decode(UInt32(truncatingIfNeeded: buffer &>> 48))
        guard dcEntry != 0 else { return false }
        consume(dcEntry >> 8)
        let size = dcEntry & 0xFF
        if size != 0 {
            guard size <= 16 else { return false }
            let raw = Int32(truncatingIfNeeded: buffer &>> UInt64(64 - size))
            consume(size)
            // EXTEND (T.81 F.2.2.1): a leading 0 bit means a negative difference.
            predictor &+= raw < (1 &<< Int32(size - 1)) ? raw &- (1 &<< Int32(size)) &+ 1 : raw
        }
        var k = 1
        while k < 64 {
            if count < 32 { refill() }
            let entry = ac.decode(UInt32(truncatingIfNeeded: buffer &>> 48))
            guard entry != 0 else { return false }
            consume(entry >> 8)
            let run = (entry >> 4) & 15, bits = entry & 15
            if bits != 0 {
                consume(bits)
                k += run + 1
            } else if run == 15 {
                k += 16
            } else {
                break
            }
        }
        return true
    }
}
