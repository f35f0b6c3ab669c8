import RiffleGeometry
import RiffleRaster
import Testing

/// The measure behind every golden and window-vs-headless check: a bug here passes every
/// screenshot test at once, so its counting is pinned down pixel by pixel.
@Suite struct ImageDifferenceTests {
    /// A grey of alpha 240 every channel can move ±4 from and stay premultiplied (colour ≤ alpha).
    static let grey: UInt32 = 0xF080_8080

    static func picture(_ width: Int, _ height: Int, filledWith packed: UInt32 = grey) -> PixelBuffer {
        let buffer = PixelBuffer(width: width, height: height)
        buffer.fill(Color(packed: packed))
        return buffer
    }

    /// `packed` with the channel at `shift` (0 blue, 8 green, 16 red, 24 alpha) moved by `delta`.
    static func nudged(_ packed: UInt32, shift: UInt32, by delta: Int) -> UInt32 {
        let channel = Int((packed >> shift) & 0xFF) + delta
        precondition((0...255).contains(channel))
        return packed & ~(0xFF << shift) | UInt32(channel) << shift
    }

    @Test func identicalPicturesDoNotDiffer() {
        let diff = ImageDifference(Self.picture(4, 3), Self.picture(4, 3), tolerance: 0)
        #expect(diff.maxChannel == 0)
        #expect(diff.pixelsOverTolerance == 0)
        #expect(diff.visualization.size == PixelSize(width: 4, height: 3))
        #expect(diff.visualization[2, 1] == 0xFF00_0000, "equal is opaque black")
    }

    /// Tolerance 3 (the goldens') lets 3 levels through in any channel, alpha included, either
    /// way, and catches 4.
    @Test(arguments: [UInt32(0), 8, 16, 24], [-4, -3, 3, 4])
    func toleranceIsInclusive(shift: UInt32, delta: Int) {
        let a = Self.picture(3, 2), b = Self.picture(3, 2)
        b[1, 1] = Self.nudged(Self.grey, shift: shift, by: delta)
        let diff = ImageDifference(a, b, tolerance: 3)
        #expect(diff.maxChannel == abs(delta))
        #expect(diff.pixelsOverTolerance == (abs(delta) > 3 ? 1 : 0), "channel at bit \(shift) moved \(delta)")
    }

    /// A change of alpha alone is a difference (a frame turned translucent is a bug), though the
    /// visualization, which shows colour channels only, stays black there.
    @Test func alphaOnlyChangesCount() {
        let a = Self.picture(2, 2, filledWith: 0xFF00_0000), b = Self.picture(2, 2, filledWith: 0xFF00_0000)
        b[0, 1] = 0x8000_0000
        let diff = ImageDifference(a, b, tolerance: 3)
        #expect(diff.maxChannel == 0x7F)
        #expect(diff.pixelsOverTolerance == 1)
        #expect(diff.visualization[0, 1] == 0xFF00_0000)
    }

    /// Pixels are counted once however many of their channels differ; the worst channel of any
    /// pixel is reported; the visualization shows each colour channel's difference ×4, clamped.
    @Test func countsDifferingPixelsOnce() {
        let a = Self.picture(5, 4), b = Self.picture(5, 4)
        b[0, 0] = 0xF084_8484  // every colour channel +4: one pixel
        b[4, 0] = 0xF080_8083  // +3: within tolerance
        b[2, 2] = 0xF080_F080  // green +112: the worst
        b[4, 3] = 0xE980_8080  // alpha −7
        let diff = ImageDifference(a, b, tolerance: 3)
        #expect(diff.pixelsOverTolerance == 3)
        #expect(diff.maxChannel == 112)
        #expect(diff.visualization[0, 0] == 0xFF10_1010)  // 4 × 4
        #expect(diff.visualization[4, 0] == 0xFF00_000C)  // 3 × 4, shown though tolerated
        #expect(diff.visualization[2, 2] == 0xFF00_FF00)  // 112 × 4 clamped to 255
        #expect(diff.visualization[1, 1] == 0xFF00_0000)
        #expect(ImageDifference(a, b, tolerance: 0).pixelsOverTolerance == 4, "tolerance 0 counts every change")
        #expect(ImageDifference(a, b, tolerance: 112).pixelsOverTolerance == 0)
        #expect(ImageDifference(b, a, tolerance: 3).pixelsOverTolerance == 3, "symmetric")
    }

    /// Only the pixels are compared: what lies in a row's padding (an MIT-SHM segment's, a
    /// cropped view's) is not.
    @Test func rowPaddingIsIgnored() {
        let padded = UnsafeMutablePointer<UInt32>.allocate(capacity: 6 * 2)
        padded.initialize(repeating: 0x1234_5678, count: 6 * 2)
        let a = PixelBuffer(wrapping: padded, width: 4, height: 2, rowPixels: 6, release: { $0.deallocate() })
        a.fill(Color(packed: Self.grey))
        let diff = ImageDifference(a, Self.picture(4, 2), tolerance: 0)
        #expect(diff.pixelsOverTolerance == 0)
        #expect(diff.maxChannel == 0)
    }

    /// Pictures of different sizes cannot be compared: the caller checks sizes first (a size
    /// change is its own failure message), and a call that does not stops the process.
    @Test func sizeMismatchStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            _ = ImageDifference(PixelBuffer(width: 4, height: 3), PixelBuffer(width: 3, height: 4), tolerance: 3)
        }
    }
}
