@testable import RiffleRaster
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
}
