import RiffleGeometry
@testable import RiffleRaster
import Testing

@Suite struct BoxDownsampleTests {
    @Test func halvingAveragesEachTwoByTwoBlock() {
        let src = PixelBuffer(width: 3, height: 2)
        src[0, 0] = 0xFF00_0000; src[1, 0] = 0xFF00_0004; src[0, 1] = 0xFF00_0008; src[1, 1] = 0xFF00_000C
        src[2, 0] = 0x8040_2010; src[2, 1] = 0x8040_2010
        let half = BoxDownsample.halved(src)
        #expect(half.size == PixelSize(width: 2, height: 1))
        #expect(half[0, 0] == 0xFF00_0006)  // (0 + 4 + 8 + 12) / 4
        #expect(half[1, 0] == 0x8040_2010)  // odd column averaged with itself
    }
}
