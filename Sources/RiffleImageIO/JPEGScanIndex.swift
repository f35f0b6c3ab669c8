/// Where each MCU row of a JPEG's entropy-coded data begins, and the decoder state there: the
/// entry points that let `JPEGBandStream` cut a band of rows out of the file without
/// entropy-decoding the rows above it.
///
/// Huffman-coded data has no row index and each block's DC coefficient is coded as the
/// difference from the previous block's (T.81 F.1.2.1), so entering the scan mid-way needs the
/// bit where a row starts and the DC predictor of every component there. One walk over the scan
/// finds both: it reads every Huffman code (skipping the coefficients' extra bits, with no
/// dequantisation or IDCT), which costs about what a 1/8-scaled libjpeg decode of the file
/// costs, once; the index is 40 bytes a row.
///
/// Only single-scan sequential Huffman JPEGs without restart markers are indexed (see
/// `JPEGStructure`); everything else is decoded by libjpeg's skip, as before.
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

    /// The file's markers.
    let structure: JPEGStructure
    /// `structure.mcuRows + 1` entries: the start of every MCU row, then the end of the last.
    let rowStarts: [RowStart]

    /// MCU rows of the stored picture, each `mcuHeight` pixels tall (the last may be shorter).
    public var mcuRows: Int { structure.mcuRows }
    /// Stored-picture pixel rows in one MCU row: 8 × the largest vertical sampling factor.
    public var mcuHeight: Int { structure.mcuHeight }

    /// Indexes the JPEG in `bytes`; throws `JPEGScanIndex.Unsupported` with the reason for a
    /// file it cannot index (progressive, restart markers, damaged or truncated scan data...),
    /// and `Unsupported.stopped` once `stop`, asked before each MCU row, says true.
    public init(_ bytes: [UInt8], until stop: () -> Bool = { false }) throws(Unsupported) {
        let result: Result<(JPEGStructure, [RowStart]), Unsupported> = bytes.withUnsafeBufferPointer { data in
            do throws(Unsupported) {
                let structure = try JPEGStructure(data)
                guard structure.restartInterval == 0 else {
                    throw Unsupported(reason: "the scan has restart markers")
                }
                return .success((structure, try Self.walk(data, structure, until: stop)))
            } catch {
                return .failure(error)
            }
        }
        (structure, rowStarts) = try result.get()
    }

    /// Why a file cannot be indexed.
    public struct Unsupported: Error, Equatable, Sendable {
        /// In words, e.g. "the scan has restart markers".
        public let reason: String

        /// The walk was told to stop before the end.
        public static let stopped = Unsupported(reason: "stopped before the end of the scan")
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
