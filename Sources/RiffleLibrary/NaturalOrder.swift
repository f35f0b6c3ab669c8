import Glibc

/// The order a person expects for file names: runs of digits compare by their numeric value
/// ("img2" before "img10"), letters compare case-insensitively, and ties fall back to the plain
/// code-point order so that the order is total and stable.
///
/// Each name becomes a sort key once, which then compares as plain bytes (memcmp(3)): a folder
/// of 100,000 names costs 100,000 lowercasings, not one per comparison (n log₂ n ≈ 1.7 million).
/// The key is the lowercased name's scalar values, each a big-endian UInt32, with every run of
/// digits written as "0" (U+0030), then the run's length without its leading zeros, then those
/// digits. That orders two runs by length, then digit by digit, as numbers; and a run against a
/// letter as its first digit would (every digit lies between the same two letters, U+002F and
/// U+003A, as "0" does), so the key order is the name order.
public enum NaturalOrder {
    /// True when `a` sorts before `b`.
    public static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        let x = key(a), y = key(b)
        let c = x.withUnsafeBytes { x in y.withUnsafeBytes { y in compare(x, y) } }
        return c != 0 ? c < 0 : a < b
    }

    /// `names` in natural order.
    public static func sorted(_ names: [String]) -> [String] {
        var keys: [UInt8] = []
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(names.count)
        for name in names {
            let start = keys.count
            appendKey(of: name, to: &keys)
            ranges.append(start..<keys.count)
        }
        let order = keys.withUnsafeBytes { all in
            names.indices.sorted { i, j in
                let c = compare(UnsafeRawBufferPointer(rebasing: all[ranges[i]]), UnsafeRawBufferPointer(rebasing: all[ranges[j]]))
                return c != 0 ? c < 0 : names[i] < names[j]
            }
        }
        return order.map { names[$0] }
    }

    /// `name`'s sort key (see above).
    static func key(_ name: String) -> [UInt8] {
        var key: [UInt8] = []
        appendKey(of: name, to: &key)
        return key
    }

    /// Appends `name`'s sort key to `key`, written straight into it: a folder's keys cost no
    /// allocation per name (a launch sorts a tree of 100,000 names while the first frame
    /// waits).
    static func appendKey(of name: String, to key: inout [UInt8]) {
        var name = name
        // ASCII (nearly every camera's names) lowercases byte by byte; the rest as Unicode does.
        let isASCII = name.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return false }
            appendKey(ofScalars: bytes, lowercasing: true, to: &key)
            return true
        }
        guard !isASCII else { return }
        let scalars = name.lowercased().unicodeScalars.map(\.value)
        scalars.withUnsafeBufferPointer { appendKey(ofScalars: $0, lowercasing: false, to: &key) }
    }

    /// Appends the key of the name whose scalar values are `scalars`, lowercased (ASCII's
    /// capitals) when `lowercasing`.
    private static func appendKey<Scalar: FixedWidthInteger & UnsignedInteger>(
        ofScalars scalars: UnsafeBufferPointer<Scalar>, lowercasing: Bool, to key: inout [UInt8]
    ) {
        // No `reserveCapacity` here: asked of a buffer that grows name by name, it would
        // reallocate it to the exact size every time (quadratic), where appends grow it by doubling.
        func append(_ value: UInt32) {
            key.append(UInt8(value >> 24))
            key.append(UInt8(value >> 16 & 0xFF))
            key.append(UInt8(value >> 8 & 0xFF))
            key.append(UInt8(value & 0xFF))
        }
        func scalar(_ k: Int) -> UInt32 {
            let value = UInt32(scalars[k])
            return lowercasing && value &- 0x41 < 26 ? value | 0x20 : value
        }
        var i = 0
        while i < scalars.count {
            guard isDigit(scalar(i)) else {
                append(scalar(i))
                i += 1
                continue
            }
            var end = i
            while end < scalars.count && isDigit(scalar(end)) { end += 1 }
            var significant = i
            while significant < end && scalar(significant) == 0x30 { significant += 1 }
            append(0x30)
            append(UInt32(end - significant))
            for k in significant..<end { append(scalar(k)) }
            i = end
        }
    }

    /// −1, 0 or 1 as key `x` sorts before, with, or after key `y`: bytes, then length (byte
    /// order, a prefix first; the index's merge of names compares by it too).
    package static func compare(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Int {
        let common = min(x.count, y.count)
        if common > 0, let a = x.baseAddress, let b = y.baseAddress {
            let c = memcmp(a, b, common)
            if c != 0 { return c < 0 ? -1 : 1 }
        }
        return x.count == y.count ? 0 : x.count < y.count ? -1 : 1
    }

    /// "0" ... "9".
    private static func isDigit(_ value: UInt32) -> Bool { value &- 0x30 < 10 }
}
