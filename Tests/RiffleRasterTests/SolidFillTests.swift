@testable import RiffleRaster
import RiffleGeometry
import RiffleTestSupport
import Testing

/// A translucent fill blends eight pixels at a time with the arithmetic of `PixelBlend.over`:
/// the same pixels, bit for bit, whatever the colour, the row's length or what lies beneath.
@Suite struct SolidFillTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func eightAtATimeEqualsOneByOne(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<200 {
            // Premultiplied colours, of every alpha but 255 (opaque fills are plain stores).
            let alpha = UInt32(random.next() % 255)
            let channel = { UInt32(random.next() % UInt64(alpha + 1)) }
            let src = alpha << 24 | channel() << 16 | channel() << 8 | channel()
            let count = Int(random.next() % 40)
            let row = UnsafeMutablePointer<UInt32>.allocate(capacity: count + 1)
            defer { row.deallocate() }
            var expected: [UInt32] = []
            for i in 0..<count {
                row[i] = UInt32(truncatingIfNeeded: random.next())
                expected.append(PixelBlend.over(src, row[i]))
            }
            SolidFill.blend(src, over: row, count: count)
            #expect(Array(UnsafeBufferPointer(start: row, count: count)) == expected, "seed \(seed), src \(src), \(count) pixels")
        }
    }

    /// Text through a mask, eight pixels at a time: bit for bit the pixel-by-pixel formula
    /// (over(scale(colour, ⌊c · a / 255⌋), p)), for masks with runs of no coverage, every
    /// opacity, offsets that cut the mask and rows of any length.
    @Test(arguments: [UInt64(4), 5, 6])
    func textEightAtATimeEqualsOneByOne(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<60 {
            let width = Int(random.next() % 37) + 1, height = Int(random.next() % 5) + 1
            var mask = AlphaMask(width: width, height: height)
            for i in mask.coverage.indices where random.next() % 3 != 0 { mask.coverage[i] = UInt8(truncatingIfNeeded: random.next()) }
            let target = PixelBuffer(width: 48, height: 8)
            for y in 0..<8 { for x in 0..<48 { target.row(y)[x] = UInt32(truncatingIfNeeded: random.next()) | 0xFF00_0000 } }
            let before = (0..<8).map { y in Array(UnsafeBufferPointer(start: target.row(y), count: 48)) }
            let color = Color(packed: UInt32(truncatingIfNeeded: random.next()) | 0xFF00_0000)
            let opacity = Double(random.next() % 256) / 255
            let x = Int(random.next() % 20) - 4, y = Int(random.next() % 6) - 2
            let clip = PixelRect(minX: 0, minY: 0, maxX: 48, maxY: 8)
            SolidFill.fill(mask, atX: x, y: y, color: color, opacity: opacity, clip: clip, rows: 0..<8, into: target)
            let a = UInt32((opacity * 255).rounded())
            for py in 0..<8 {
                for px in 0..<48 {
                    var expected = before[py][px]
                    let mx = px - x, my = py - y
                    if (0..<width).contains(mx), (0..<height).contains(my) {
                        let c = UInt32(mask.coverage[my * width + mx])
                        if c != 0 { expected = PixelBlend.over(PixelBlend.scale(color.packed, by: c * a / 255), expected) }
                    }
                    #expect(target.row(py)[px] == expected, "seed \(seed), pixel \(px), \(py)")
                }
            }
        }
    }
}
