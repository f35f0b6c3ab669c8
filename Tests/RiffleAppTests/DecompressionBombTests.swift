import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing

@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline

/// Decompression bombs, small files that claim or inflate to enormous pictures, are refused with
/// a reason or shown scaled, and the real binary opening one never holds more than
/// `peakLimit` resident. The limits that decide which (`ImageDecoder.pngPixelLimit` and
/// `pngSideLimit`, `PhotoDecoding.pixelLimit`) are each stated once, with their reasons, where
/// the decoders apply them.
@Suite struct DecompressionBombTests {
    /// The most resident memory, in MiB, the binary may reach on a bomb: a 320×200 window's
    /// process runs in ~25 MiB, so this leaves room for any honest decode and none for a picture
    /// held whole (the PNG below is 1.7 GB of pixels, the JPEG 4.3 G).
    static let peakLimit = 512.0

    enum Outcome: Sendable {
        /// Refused: the error page says this (the window shows it; the pipeline is asked here).
        case refused(String)
        /// Shown scaled to fit: a square of grey ramps in the middle of the window.
        case shownSquareOfGrey
    }

    struct Bomb: Sendable, CustomTestStringConvertible {
        let name: String
        let make: @Sendable () -> [UInt8]
        let outcome: Outcome
        var testDescription: String { name }
    }

    static let bombs: [Bomb] = [
        // A header claiming 10 gigapixels, with the first rows of data behind it.
        Bomb(name: "100000x100000.png", make: { DecompressionBomb.rampPNG(width: 100_000, height: 100_000, rows: 64) },
             outcome: .refused("The PNG is 100000×100000 pixels, more than Riffle reads from a PNG (1073 megapixels): each of its pixels would have to be inflated to show it")),
        // A picture within the PNG limits whose data inflates to 1.7 GB from 11 MB: streamed.
        Bomb(name: "24000x24000.png", make: { DecompressionBomb.rampPNG(width: 24_000, height: 24_000) }, outcome: .shownSquareOfGrey),
        // The largest JPEG there can be, its whole scan present: 4.3 gigapixels in 16 MiB, more
        // than `PhotoDecoding.pixelLimit` even at libjpeg's smallest scale.
        Bomb(name: "65500x65500.jpg", make: { DecompressionBomb.greyJPEG(width: 65_500, height: 65_500) },
             outcome: .refused("The image is 65500×65500 pixels; even at 1/8 scale (8188×8188) that is more than Riffle's limit of 64 megapixels")),
    ]

    @Test(arguments: bombs)
    func refusedOrShownScaledWithinBoundedMemory(bomb: Bomb) throws {
        let scratch = try ScratchFolder()
        let photo = try scratch.write(bomb.make(), to: bomb.name)
        try scratch.write(Array("wait 100\nsnapshot shown\n".utf8), to: "show.replay")
        let peak = try RiffleBinary.run([
            "--headless", "--stats", "--size", "320x200", "--replay", scratch.path("show.replay"),
            "--snapshots", scratch.path("snapshots"), photo,
        ]).peakResidentMiB()
        #expect(peak < Self.peakLimit, "peak RSS \(peak) MiB")

        let frame = try ImageDecoder.decodeFile(atPath: scratch.path("snapshots/shown.png")).pixels
        switch bomb.outcome {
        case .shownSquareOfGrey:
            // At fit, 200 × 200 in the middle of the 320 × 200 window, black beside it: every
            // pixel grey, their mean mid grey (area averages keep the ramps' mean, 127.5; the
            // ramps' 256-pixel period against 120 pixels a frame pixel leaves bands of 60 to 200).
            let photo = (61..<259).flatMap { x in (0..<200).map { y in frame[x, y] } }
            #expect(photo.allSatisfy { $0 >> 16 & 0xFF == $0 & 0xFF && $0 >> 8 & 0xFF == $0 & 0xFF })
            let mean = Double(photo.reduce(0) { $0 + Int($1 & 0xFF) }) / Double(photo.count)
            #expect(abs(mean - 127.5) < 16, "mean grey \(mean)")
            #expect((0..<59).allSatisfy { x in frame[x, 100] & 0xFF_FFFF == 0 }, "black beside the photo")
        case .refused(let reason):
            // What the error page says: the pipeline's answer for the page.
            let output = PhotoDecoding.photo(
                path: photo, viewport: PixelSize(width: 320, height: 200), detail: 1, isPreview: false,
                colour: ColourManagement(displayProfile: nil), cancellation: DecodeCancellation())
            guard case .photo(.failure(let said)) = output else {
                Issue.record("not refused: \(output)")
                return
            }
            #expect(said == reason)
        }
    }

    /// The bombs are what they claim: small ones made the same way decode, by libpng and
    /// libjpeg, to the pictures their formulas give.
    @Test func smallBombsDecodeToTheirFormulas() throws {
        let scratch = try ScratchFolder()
        let png = try ImageDecoder.decodeFile(atPath: scratch.write(DecompressionBomb.rampPNG(width: 700, height: 5), to: "ramp.png")).pixels
        #expect(png.width == 700 && png.height == 5)
        for y in 0..<5 {
            for x in 0..<700 {
                let grey = UInt32((x + 1) % 256)
                #expect(png[x, y] == 0xFF00_0000 | grey << 16 | grey << 8 | grey, "(\(x), \(y))")
            }
        }
        // A stream of 1 to 20 copies and a few literals, each length checked by libpng's inflate.
        for width in [1, 85, 86, 87, 600, 1000, 1723] {
            let ramp = try ImageDecoder.decodeFile(atPath: scratch.write(DecompressionBomb.rampPNG(width: width, height: 3), to: "r\(width).png"))
            #expect(ramp.pixels.width == width && ramp.damage == nil, "\(width)")
        }
        for side in [8, 13, 64, 100] {
            let jpeg = try ImageDecoder.decodeFile(atPath: scratch.write(DecompressionBomb.greyJPEG(width: side, height: side), to: "g\(side).jpg"))
            #expect(jpeg.damage == nil)
            #expect(jpeg.pixels.width == side && (0..<side).allSatisfy { jpeg.pixels[$0, side / 2] == 0xFF80_8080 }, "\(side)")
        }
    }
}
