/// The order a person expects for file names: runs of digits compare by their numeric value
/// ("img2" before "img10"), letters compare case-insensitively, and ties fall back to the plain
/// code-point order so that the order is total and stable.
public enum NaturalOrder {
    /// True when `a` sorts before `b`.
    public static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        let c = compare(a, b)
        return c != 0 ? c < 0 : a < b
    }

    /// −1, 0 or 1 as `a` sorts before, with, or after `b` (ignoring case and leading zeros).
    static func compare(_ a: String, _ b: String) -> Int {
        let x = Array(a.lowercased().unicodeScalars), y = Array(b.lowercased().unicodeScalars)
        var i = 0, j = 0
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                let (ri, ni) = digitRun(x, from: i), (rj, nj) = digitRun(y, from: j)
                let vi = ri.drop(while: { $0 == "0" }), vj = rj.drop(while: { $0 == "0" })
                if vi.count != vj.count { return vi.count < vj.count ? -1 : 1 }
                for (p, q) in zip(vi, vj) where p != q { return p < q ? -1 : 1 }
                i = ni
                j = nj
            } else {
                if x[i] != y[j] { return x[i].value < y[j].value ? -1 : 1 }
                i += 1
                j += 1
            }
        }
        if i < x.count { return 1 }
        if j < y.count { return -1 }
        return 0
    }

    private static func isDigit(_ s: Unicode.Scalar) -> Bool { s >= "0" && s <= "9" }

    private static func digitRun(_ s: [Unicode.Scalar], from start: Int) -> ([Unicode.Scalar], Int) {
        var end = start
        while end < s.count && isDigit(s[end]) { end += 1 }
        return (Array(s[start..<end]), end)
    }
}
