/// The markers of a single-scan, sequential, Huffman-coded JPEG (SOF0 or SOF1, 8-bit), read
/// without decoding anything: what `JPEGScanIndex` needs to walk the scan and `JPEGBandStream`
/// needs to write a smaller JPEG made of some of its MCU rows.
///
/// Marker layout per ITU-T T.81 Annex B: SOI, then segments `FF xx` + a 16-bit big-endian length
/// (which counts itself), fill bytes `FF` allowed before any marker; the entropy-coded data
/// follows the SOS segment.
struct JPEGStructure {
    /// One component of the frame, in frame order, with the tables the scan gives it.
    struct Component {
        /// Sampling factors (1...4): blocks of this component in one MCU, across and down.
        let horizontal: Int
        let vertical: Int
        /// Indices into `dcTables` / `acTables`.
        let dcTable: Int
        let acTable: Int
    }

    /// Why a JPEG cannot be indexed; the caller decodes it the slow way instead.
    typealias Unsupported = JPEGScanIndex.Unsupported

    /// The frame's stored size in pixels.
    let width: Int
    let height: Int
    /// The scan's components, in scan (= frame, for the one interleaved scan) order.
    let components: [Component]
    /// Huffman tables by destination (0...3); nil where the file defines none.
    let dcTables: [JPEGHuffmanCode?]
    let acTables: [JPEGHuffmanCode?]
    /// MCUs between restart markers, 0 when the file has none.
    let restartInterval: Int
    /// The byte ranges of the segments a band stream keeps, in file order, each marker included:
    /// APP0 (JFIF) and APP14 (Adobe), which decide the colour space, DQT, DHT, DRI, SOF and SOS.
    let keptSegments: [Range<Int>]
    /// Offset of the SOF segment's 16-bit height field.
    let heightFieldOffset: Int
    /// Offset of the first byte of entropy-coded data (just after the SOS segment).
    let scanDataOffset: Int

    /// The largest sampling factors: an MCU is 8·maxHorizontal × 8·maxVertical pixels.
    var mcuWidth: Int { 8 * components.map(\.horizontal).max()! }
    var mcuHeight: Int { 8 * components.map(\.vertical).max()! }
    /// MCUs across and down; a single-component scan has one block per MCU (T.81 A.2.2),
    /// which the 8 × 8 MCU of a 1×1-sampled component expresses.
    var mcusPerRow: Int { (width + mcuWidth - 1) / mcuWidth }
    var mcuRows: Int { (height + mcuHeight - 1) / mcuHeight }

    /// Reads the markers of `bytes` up to the start of the scan data.
    ///
    /// Throws `Unsupported` for anything but one interleaved (or single-component) scan of a
    /// baseline or extended sequential Huffman frame at 8 bits: progressive, lossless,
    /// hierarchical and arithmetic-coded files, a second scan's tables, a height left to a DNL
    /// marker, and damaged marker data.
    init(_ bytes: UnsafeBufferPointer<UInt8>) throws(Unsupported) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw Unsupported(reason: "no SOI marker") }
        var dc = [JPEGHuffmanCode?](repeating: nil, count: 4)
        var ac = [JPEGHuffmanCode?](repeating: nil, count: 4)
        var kept: [Range<Int>] = []
        var frame: (width: Int, height: Int, heightOffset: Int, ids: [Int], sampling: [(Int, Int)])?
        var restart = 0
        var offset = 2
        while true {
            // Fill bytes (any number of FF) may precede a marker.
            guard offset < bytes.count, bytes[offset] == 0xFF else { throw Unsupported(reason: "a marker was expected") }
            while offset < bytes.count && bytes[offset] == 0xFF { offset += 1 }
            guard offset + 2 < bytes.count else { throw Unsupported(reason: "the file ends before the scan") }
            let marker = bytes[offset]
            let start = offset - 1
            let length = Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            let body = offset + 3
            let end = offset + 1 + length
            guard length >= 2, end <= bytes.count else { throw Unsupported(reason: "a segment runs past the end") }
            let segment = UnsafeBufferPointer(rebasing: bytes[body..<end])
            switch marker {
            case 0xC0, 0xC1:
                guard frame == nil, segment.count >= 6, segment[0] == 8 else {
                    throw Unsupported(reason: "the frame is not 8-bit sequential")
                }
                let height = Int(segment[1]) << 8 | Int(segment[2])
                let width = Int(segment[3]) << 8 | Int(segment[4])
                let count = Int(segment[5])
                guard height > 0, width > 0, (1...4).contains(count), segment.count >= 6 + 3 * count else {
                    throw Unsupported(reason: "the frame header is damaged or leaves its height to a DNL marker")
                }
                var ids: [Int] = []
                var sampling: [(Int, Int)] = []
                for k in 0..<count {
                    let factors = segment[7 + 3 * k]
                    let h = Int(factors >> 4), v = Int(factors & 15)
                    guard (1...4).contains(h), (1...4).contains(v) else { throw Unsupported(reason: "bad sampling factors") }
                    ids.append(Int(segment[6 + 3 * k]))
                    sampling.append((h, v))
                }
                frame = (width, height, body + 1, ids, sampling)
                kept.append(start..<end)
            case 0xC2...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                throw Unsupported(reason: "the frame is progressive, lossless, hierarchical or arithmetic-coded")
            case 0xC4:
                var at = 0
                while at < segment.count {
                    guard at + 17 <= segment.count else { throw Unsupported(reason: "a Huffman table is damaged") }
                    let kind = Int(segment[at] >> 4), slot = Int(segment[at] & 15)
                    let counts = Array(segment[(at + 1)..<(at + 17)]).map(Int.init)
                    let total = counts.reduce(0, +)
                    guard kind <= 1, slot <= 3, at + 17 + total <= segment.count,
                          let code = JPEGHuffmanCode(counts: counts, symbols: Array(segment[(at + 17)..<(at + 17 + total)]))
                    else { throw Unsupported(reason: "a Huffman table is damaged") }
                    if kind == 0 { dc[slot] = code } else { ac[slot] = code }
                    at += 17 + total
                }
                kept.append(start..<end)
            case 0xDD:
                guard segment.count >= 2 else { throw Unsupported(reason: "the restart interval is damaged") }
                restart = Int(segment[0]) << 8 | Int(segment[1])
                kept.append(start..<end)
            case 0xDB, 0xE0, 0xEE:
                kept.append(start..<end)
            case 0xDA:
                guard let frame else { throw Unsupported(reason: "the scan comes before the frame header") }
                let count = segment.isEmpty ? 0 : Int(segment[0])
                guard count == frame.ids.count, segment.count >= 1 + 2 * count + 3 else {
                    throw Unsupported(reason: "the first scan does not hold every component (the file has several scans)")
                }
                let spectral = (segment[1 + 2 * count], segment[2 + 2 * count], segment[3 + 2 * count])
                guard spectral == (0, 63, 0) else { throw Unsupported(reason: "the scan is not sequential") }
                var components: [Component] = []
                for k in 0..<count {
                    guard let index = frame.ids.firstIndex(of: Int(segment[1 + 2 * k])) else {
                        throw Unsupported(reason: "the scan names a component the frame lacks")
                    }
                    let tables = segment[2 + 2 * k]
                    let (h, v) = count == 1 ? (1, 1) : frame.sampling[index]
                    components.append(Component(
                        horizontal: h, vertical: v, dcTable: Int(tables >> 4), acTable: Int(tables & 15)))
                }
                for c in components {
                    guard c.dcTable <= 3, c.acTable <= 3, dc[c.dcTable] != nil, ac[c.acTable] != nil else {
                        throw Unsupported(reason: "the scan uses a Huffman table the file does not define")
                    }
                }
                guard components.reduce(0, { $0 + $1.horizontal * $1.vertical }) <= 10 else {
                    throw Unsupported(reason: "more than 10 blocks in an MCU")
                }
                kept.append(start..<end)
                self.width = frame.width
                self.height = frame.height
                self.components = components
                self.dcTables = dc
                self.acTables = ac
                self.restartInterval = restart
                self.keptSegments = kept
                self.heightFieldOffset = frame.heightOffset
                self.scanDataOffset = end
                return
            case 0xD8, 0xD9, 0xD0...0xD7, 0x01:
                throw Unsupported(reason: "a stand-alone marker before the scan")
            default:
                break  // APPn, COM and the rest: not needed to decode
            }
            offset = end
        }
    }
}
