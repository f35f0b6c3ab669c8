import RiffleGeometry
import RiffleInteraction
import RiffleRaster
import Testing

@testable import RiffleApp

/// A drag down to dismiss hides the bars and the strip as it starts (Photos does), rather than
/// drawing them over the grid showing through; they come back when the photo springs back.
/// Checked on the `chrome-and-drag-down` replay's snapshots (whose goldens show the same), by
/// the bar's blue button text.
@Suite struct DragDownBarsTests {
    /// How many pixels of `frame` inside `rect` are the bar buttons' blue on white (#007AFF, within
    /// 40 a channel): none of the test photos or their thumbnails has it.
    static func tintPixels(_ frame: PixelBuffer, in rect: Rect) -> Int {
        var count = 0
        for y in Int(rect.minY)..<Int(rect.maxY) {
            for x in Int(rect.minX)..<Int(rect.maxX) {
                let p = frame[x, y]
                let (r, g, b) = (Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF))
                if r < 40, abs(g - 0x7A) < 40, b > 0xFF - 40 { count += 1 }
            }
        }
        return count
    }

    @Test func theBarsHideWhileThePhotoIsDraggedDown() throws {
        let shots = Dictionary(uniqueKeysWithValues: try replay("chrome-and-drag-down").shots)
        let bar = ChromeLayout(viewport: Size(width: 320, height: 200)).bar
        #expect(Self.tintPixels(try #require(shots["white"]), in: bar) > 20, "the bars do not show on white: the check sees nothing")
        #expect(Self.tintPixels(try #require(shots["dragging-down"]), in: bar) == 0, "the bars show over the grid while the photo is dragged down")
        #expect(Self.tintPixels(try #require(shots["sprung-back"]), in: bar) > 20, "the bars did not come back when the photo sprang back")
    }
}
