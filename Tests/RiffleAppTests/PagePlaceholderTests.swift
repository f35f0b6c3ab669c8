import Foundation
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleDisplay
import RiffleGeometry
import RiffleInteraction
import RiffleRaster
import Testing

/// A page whose photo has nothing decoded yet shows a plate of its photo's shape, from the
/// header, where the photo will be at fit: fast paging never shows a black page.
@Suite(.serialized) struct PagePlaceholderTests {
    /// The run of pixels of `colour` through (`x`, `y`) along its row and its column, as a
    /// rectangle (window pixels, whole).
    static func run(of colour: UInt32, through x: Int, _ y: Int, in frame: PixelBuffer) -> Rect {
        var left = x, right = x, top = y, bottom = y
        while left > 0, frame[left - 1, y] == colour { left -= 1 }
        while right < frame.width - 1, frame[right + 1, y] == colour { right += 1 }
        while top > 0, frame[x, top - 1] == colour { top -= 1 }
        while bottom < frame.height - 1, frame[x, bottom + 1] == colour { bottom += 1 }
        return Rect(x: Double(left), y: Double(top), width: Double(right - left + 1), height: Double(bottom - top + 1))
    }

    /// Three presses of Right 30 ms apart with every decode held (previews too: the worst case,
    /// photos without EXIF thumbnails on busy cores): mid-flight, each page on screen shows its
    /// photo's shape in the quiet tone (the golden), no frame has a black page; at rest, the
    /// plate covers exactly the rectangle the photo, once decoded, is drawn in.
    @Test func fastPagingShowsEachPhotosShapeNeverBlack() throws {
        let dir = try FastPagingTests.library(count: 8)
        defer { try? FileManager.default.removeItem(at: dir) }
        let decoder = GatedDecoder(holdPreviews: true)
        let display = HeadlessDisplay(size: PixelSize(width: 480, height: 300))
        let (v, pipeline) = viewer(decoder: decoder, display: display, workers: 1, startAt: dir.appendingPathComponent("p00.jpg").path)
        defer { decoder.release(64); pipeline.shutdown() }
        var black: [(Double, [Int])] = []
        var presses = [0.5, 0.53, 0.56]
        var midFlight: PixelBuffer?
        for frame in 0...90 {
            let t = Double(frame) / 60
            while let at = presses.first, at <= t {
                v.handle(.key(.right, modifiers: [], time: at), now: at)
                presses.removeFirst()
            }
            v.advance(to: t)
            v.drawFrame(on: display)
            if !v.blackPages.isEmpty { black.append((t, v.blackPages)) }
            // Six frames into the flight: two pages share the window.
            if frame == 36 { midFlight = try display.capture() }
        }
        #expect(black.isEmpty, "black pages: \(black)")
        #expect(v.current == 3 && v.blankPages == [3], "at rest on p03, its photo still held back")
        let flight = try #require(midFlight)
        try GoldenImage.check(flight, golden: "placeholder/fast-paging")

        // At rest on p03 (friends.jpg, portrait) with nothing decoded: its plate, the quiet tone,
        // seen 40 pixels right of and below the window's centre, clear of the spinner there.
        let atRest = try display.capture()
        let centre = (x: atRest.width / 2 + 40, y: atRest.height / 2 + 40)
        let tone = atRest[centre.x, centre.y]
        #expect([PagePlaceholder.darkTone.packed, PagePlaceholder.lightTone.packed].contains(tone), "centre \(String(tone, radix: 16))")
        let plate = Self.run(of: tone, through: centre.x, centre.y, in: atRest)

        // The photo decoded: its fit frame, from the decode's own size, is the plate's.
        decoder.release(64)
        #expect(eventually {
            v.advance(to: 1.6)
            return pipeline.photoStore.isSharp(PhotoID(3))
        })
        let fit = v.fitFrame(ofPhoto: 3)
        #expect(abs(plate.origin.x - fit.origin.x) <= 0.5 && abs(plate.size.width - fit.size.width) <= 1, "plate \(plate), photo \(fit)")
        #expect(abs(plate.origin.y - fit.origin.y) <= 0.5 && abs(plate.size.height - fit.size.height) <= 1, "plate \(plate), photo \(fit)")
        #expect(plate.size.width < Double(atRest.width), "the plate has the photo's shape, not the window's")
    }

    /// The plate follows the background: the dark tone on black, the light one on white, never
    /// the background itself.
    @Test func theToneIsQuietButNeverTheBackground() {
        #expect(PagePlaceholder.tone(backgroundBlackness: 1) == PagePlaceholder.darkTone)
        #expect(PagePlaceholder.tone(backgroundBlackness: 0) == PagePlaceholder.lightTone)
        #expect(PagePlaceholder.darkTone != .black && PagePlaceholder.lightTone != .white)
    }

    /// A plate is the photo's shape turned as the page is: a quarter turn swaps its sides.
    @Test func aQuarterTurnSwapsThePlatesSides() {
        let viewport = Size(width: 480, height: 300)
        let shape = PixelSize(width: 2056, height: 3088)
        let upright = PagePlaceholder.frame(shape: shape, rotation: .none, viewport: viewport)
        #expect(upright == Rect(x: 140, y: 0, width: 200, height: 300))
        let turned = PagePlaceholder.frame(shape: shape, rotation: Rotation(quarterTurns: 1), viewport: viewport)
        // Turned, 3088×2056 fits 450×300.
        #expect(turned == Rect(x: 15, y: 0, width: 450, height: 300))
    }
}
