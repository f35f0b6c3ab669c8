import RiffleGeometry
@testable import RiffleRaster
import RiffleTestSupport
import Testing

@Suite struct AreaResampleTests {
    @Test(arguments: [(7, 3), (10, 10), (3000, 1620), (5, 1), (9, 4)])
    func weightsCoverEachOutputExactly(m: Int, n: Int) {
        let taps = AreaResample.weights(from: m, to: n)
        #expect(taps.count == n)
        for t in taps {
            #expect(t.weights.reduce(0, +) == AreaResample.one)
            #expect(t.weights.allSatisfy { $0 >= 0 })
        }
        #expect(taps.first?.first == 0)
        #expect(taps.last.map { $0.first + $0.weights.count } == m)
    }

    @Test func flatColourStaysFlat() {
        let src = PixelBuffer(width: 37, height: 23)
        src.fill(Color(packed: 0x80_40_20_10))
        let out = AreaResample.shrink(src, toWidth: 11, height: 7)
        for y in 0..<7 { for x in 0..<11 { #expect(out[x, y] == 0x8040_2010) } }
    }

    /// Each output equals the exact area average of the source (computed here in doubles) within
    /// one step per pass.
    @Test(arguments: 0..<6)
    func matchesTheAreaAverage(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(seed))
        let sw = Int.random(in: 2...40, using: &rng), sh = Int.random(in: 2...30, using: &rng)
        let dw = Int.random(in: 1...sw, using: &rng), dh = Int.random(in: 1...sh, using: &rng)
        let src = randomImage(sw, sh, opaque: seed % 2 == 0, using: &rng)
        Self.expectAreaAverage(of: src, AreaResample.shrink(src, toWidth: dw, height: dh), "seed \(seed)")
    }

    /// Rows pushed one at a time; ratios just above 1 make nearly every source row straddle two
    /// output rows, exact ratios make none, and equal sizes copy rows through.
    @Test(arguments: [(41, 40), (40, 39), (33, 32), (24, 8), (24, 7), (9, 9), (17, 1)])
    func streamedRowsMatchTheAreaAverage(sourceHeight: Int, height: Int) {
        var rng = SeededGenerator(seed: UInt64(sourceHeight * 100 + height))
        let src = randomImage(23, sourceHeight, opaque: false, using: &rng)
        var resampler = AreaResampler(from: src.size, to: PixelSize(width: 19, height: height))
        for y in 0..<src.height {
            #expect(!resampler.isComplete)
            resampler.push(src.row(y))
        }
        #expect(resampler.isComplete)
        Self.expectAreaAverage(of: src, resampler.result, "\(sourceHeight) rows to \(height)")
        var same = AreaResampler(from: src.size, to: src.size)
        for y in 0..<src.height { same.push(src.row(y)) }
        #expect(maxChannelDifference(same.result, src) == 0)
    }

    static func expectAreaAverage(of src: PixelBuffer, _ out: PixelBuffer, _ label: String) {
        let sw = src.width, sh = src.height, dw = out.width, dh = out.height
        let fx = Double(sw) / Double(dw), fy = Double(sh) / Double(dh)
        for y in 0..<dh {
            for x in 0..<dw {
                for shift: UInt32 in [0, 8, 16, 24] {
                    var sum = 0.0
                    for sy in 0..<sh {
                        let wy = max(0, min(Double(sy + 1), Double(y + 1) * fy) - max(Double(sy), Double(y) * fy))
                        if wy == 0 { continue }
                        for sx in 0..<sw {
                            let wx = max(0, min(Double(sx + 1), Double(x + 1) * fx) - max(Double(sx), Double(x) * fx))
                            sum += wx * wy * Double((src[sx, sy] >> shift) & 0xFF)
                        }
                    }
                    let want = sum / (fx * fy)
                    let got = Double((out[x, y] >> shift) & 0xFF)
                    #expect(abs(got - want) <= 1.01, "\(label): (\(x), \(y)) channel \(shift): \(got) vs \(want)")
                }
            }
        }
    }
}
