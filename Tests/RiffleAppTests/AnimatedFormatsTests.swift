import Foundation
@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing

/// GIF, WebP and APNG files through the app's decoding: the page the pager shows for broken
/// ones (an error page with the reason, or the picture with a damage badge), the grid's
/// thumbnail of an animation (its first frame), files found by content whatever their name.
@Suite struct AnimatedFormatsTests {
    static let palette = [HandMadeGIF.RGB(255, 0, 0), HandMadeGIF.RGB(0, 255, 0)]
    /// A 40×40 GIF: red, then green.
    static let moving = HandMadeGIF.file(width: 40, height: 40, palette: palette, frames: [
        .solid(0, width: 40, height: 40), .solid(1, width: 40, height: 40),
    ])
    static let viewport = PixelSize(width: 320, height: 200)

    /// The pager's decode of `bytes` saved as `name`.
    static func page(_ bytes: [UInt8], named name: String) throws -> PhotoContent? {
        let folder = try ScratchFolder()
        let path = try folder.write(bytes, to: name)
        guard case .photo(let content) = standaloneDecoding().perform(DecodeRequest(photo: PhotoID(0), path: path, job: .fit(viewport: viewport)))
        else { return nil }
        return content
    }

    /// Files with no picture in them show an error page that says why.
    @Test("Broken files show an error page with the reason", arguments: [
        ("empty.gif", Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B], "The GIF data is damaged: the GIF has no image in it"),
        ("noise.webp", Array("RIFF".utf8) + [40, 0, 0, 0] + Array("WEBPVP8 ".utf8) + [28, 0, 0, 0] + [UInt8](repeating: 0x55, count: 28),
         "The WebP data is damaged: libwebp found a bitstream error"),
        ("cut.webp", Array("RIFF".utf8) + [100, 0, 0, 0] + Array("WEBP".utf8), "The WebP data ends early (the file is truncated)"),
    ] as [(String, [UInt8], String)])
    func brokenFilesShowTheirReason(name: String, bytes: [UInt8], reason: String) throws {
        guard case .failure(let shown)? = try Self.page(bytes, named: name) else {
            Issue.record("\(name) shows a picture")
            return
        }
        #expect(shown == reason)
    }

    /// Files that lost part of their data show what arrived, with the damage badge.
    @Test func damagedAnimationsShowWithABadge() throws {
        // A GIF cut in its second frame: the first frame shows, the file says the rest is lost.
        guard case .image(let gif)? = try Self.page(Array(Self.moving.prefix(Self.moving.count - 20)), named: "cut.gif") else {
            Issue.record("the cut GIF shows no picture")
            return
        }
        #expect(gif.damageText == "Incomplete file: parts of the picture are missing")
        #expect(!gif.isAnimated)
        // An APNG whose second frame fails its CRC: the IDAT image shows, still.
        var apng = HandMadeAPNG.file(width: 4, height: 4, frames: [
            .solid([255, 0, 0, 255], width: 4, height: 4), .solid([0, 255, 0, 255], width: 4, height: 4),
        ])
        let fdAT = apng.count - 12 - 4
        apng[fdAT] ^= 0xFF
        guard case .image(let png)? = try Self.page(apng, named: "broken.png") else {
            Issue.record("the APNG shows no picture")
            return
        }
        #expect(png.isAnimated)
        #expect(png.pixels[0, 0] == 0xFFFF_0000)
    }

    /// A moving GIF's decode for the pager is its first frame, marked as moving.
    @Test func thePagerShowsTheFirstFrameUntilItPlays() throws {
        guard case .image(let photo)? = try Self.page(Self.moving, named: "moving.gif") else {
            Issue.record("no picture")
            return
        }
        #expect(photo.isAnimated)
        #expect(photo.pixels[20, 20] == 0xFFFF_0000)
    }

    /// An animation's frames come in the display's colours, as its still does: on a Display P3
    /// screen a GIF's sRGB red is converted, frame and still alike.
    @Test func framesAreBroughtIntoTheDisplaysColours() throws {
        let folder = try ScratchFolder()
        let path = try folder.write(Self.moving, to: "moving.gif")
        let colour = ColourManagement(displayProfile: ColourProfiles.displayP3)
        let decoding = PhotoDecoding(tileSources: TileSources(), thumbnailCache: nil, colour: colour)
        guard case .photo(.image(let still)) = decoding.perform(DecodeRequest(photo: PhotoID(0), path: path, job: .fit(viewport: Self.viewport))),
              case .frames(.success(let decoded)) = decoding.perform(
                DecodeRequest(photo: PhotoID(0), path: path, job: .frames(viewport: Self.viewport, first: 0, count: 1)))
        else {
            Issue.record("no still or no frame")
            return
        }
        let frame = try #require(decoded.frames.first).pixels
        #expect(still.pixels[20, 20] != 0xFFFF_0000, "the still is converted")
        #expect(frame[20, 20] == still.pixels[20, 20])
    }

    /// The grid's thumbnail of an animation is its first frame.
    @Test func theThumbnailIsTheFirstFrame() throws {
        let folder = try ScratchFolder()
        let path = try folder.write(Self.moving, to: "moving.gif")
        let thumbnail = try ThumbnailCache.make(path: path, size: .normal, colour: ColourManagement(displayProfile: nil)).pixels
        #expect(thumbnail[thumbnail.width / 2, thumbnail.height / 2] == 0xFFFF_0000)
    }

    /// Found by content whatever its name: a GIF named .jpg, a WebP named .data in a folder.
    @Test func formatsAreFoundByContent() throws {
        let folder = try ScratchFolder()
        try folder.write(Self.moving, to: "a.jpg")
        let webp = try FormatToolsForApp.webp(in: folder)
        try FileManager.default.moveItem(atPath: webp, toPath: folder.path("b.data"))
        var problems: [String] = []
        let library = PhotoLibrary.collect(paths: [folder.path], problems: &problems)
        #expect(library.photos.map(\.name) == ["a.jpg", "b.data"])
        #expect(try ImageDecoder.probeFile(atPath: folder.path("a.jpg")).format == .gif)
        #expect(try ImageDecoder.probeFile(atPath: folder.path("b.data")).format == .webp)
    }
}

/// A WebP for the app's tests, made by libwebp's `cwebp` from a PNG Riffle writes.
enum FormatToolsForApp {
    static func webp(in folder: ScratchFolder) throws -> String {
        let picture = PixelBuffer(width: 16, height: 16)
        picture.fill(.white)
        let png = folder.path("source.png"), webp = folder.path("source.webp")
        try PNGEncoder.write(picture, toPath: png)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cwebp", "-quiet", "-lossless", png, "-o", webp]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "cwebp failed")
        try FileManager.default.removeItem(atPath: png)
        return webp
    }
}
