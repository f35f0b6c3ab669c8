import Foundation
import RiffleGeometry
@testable import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing

/// GIFs made by ImageMagick (compared with its own decode) and by hand (`HandMadeGIF`: frames
/// whose every pixel is known), through Riffle's GIF codec: stills, frames composited with each
/// disposal, transparency, interlacing, delays with browsers' rule, loop counts, and damage.
@Suite("GIF decoding")
struct GIFDecodeTests {
    /// The hand-made GIFs' colours, by index: black, red, green, blue, white.
    static let palette = [
        HandMadeGIF.RGB(0, 0, 0), HandMadeGIF.RGB(255, 0, 0), HandMadeGIF.RGB(0, 255, 0), HandMadeGIF.RGB(0, 0, 255),
        HandMadeGIF.RGB(255, 255, 255),
    ]

    /// A canvas drawn as text, one character a pixel, a string a row: K, R, G, B, W the
    /// palette's colours, "." transparent.
    static func canvas(_ rows: [String]) -> PixelBuffer {
        let picture = PixelBuffer(width: rows[0].count, height: rows.count)
        let colours: [Character: UInt32] = ["K": 0xFF00_0000, "R": 0xFFFF_0000, "G": 0xFF00_FF00, "B": 0xFF00_00FF, "W": 0xFFFF_FFFF, ".": 0]
        for (y, row) in rows.enumerated() { for (x, c) in row.enumerated() { picture[x, y] = colours[c]! } }
        return picture
    }

    /// Every frame of the GIF `bytes` at its full size, in order.
    static func frames(_ bytes: [UInt8], count: Int) throws -> [PixelBuffer] {
        let frames = try GIFCodec.frames(bytes, pixelLimit: 1 << 20)
        return try (0..<count).map { _ in try frames.nextFrame().canvas }
    }

    /// Writes `bytes` to a file in `folder` and returns its path.
    static func file(_ bytes: [UInt8], in folder: TemporaryFolder, name: String = "hand.gif") throws -> String {
        let path = folder.path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    // MARK: made by ImageMagick

    /// A still GIF (ImageMagick's dithered 256 colours) decodes to exactly ImageMagick's pixels.
    @Test func aStillMatchesImageMagick() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let png = folder.path + "/picture.png", gif = folder.path + "/picture.gif"
        try FormatTools.writePNG(FormatTools.testPicture(width: 80, height: 48), to: png)
        try FormatTools.run("convert", [png, gif])
        let decoded = try ImageDecoder.decodeFile(atPath: gif)
        #expect(decoded.format == .gif)
        #expect(!decoded.info.isAnimated)
        let reference = try #require(try FormatTools.imageMagickFrames(gif, size: decoded.pixels.size).first)
        #expect(ImageDifference(decoded.pixels, reference, tolerance: 0).pixelsOverTolerance == 0)
    }

    /// An animated GIF's frames equal ImageMagick's coalesced frames (each canvas as shown).
    @Test func anAnimationMatchesImageMagick() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        var arguments = ["-delay", "10", "-loop", "0"]
        for i in 0..<3 {
            let png = folder.path + "/frame\(i).png"
            let picture = FormatTools.testPicture(width: 48, height: 32)
            for y in 0..<32 { for x in 0..<48 where (x / 8 + y / 8 + i) % 3 == 0 { picture[x, y] = 0xFF00_0000 } }
            try FormatTools.writePNG(picture, to: png)
            arguments.append(png)
        }
        let gif = folder.path + "/animation.gif"
        try FormatTools.run("convert", arguments + [gif])
        let size = PixelSize(width: 48, height: 32)
        let references = try FormatTools.imageMagickFrames(gif, size: size, coalesced: true)
        #expect(references.count == 3)
        let animation = try #require(try GIFCodec().animation(atPath: gif, fitting: size, pixelLimit: 1 << 20))
        #expect(animation.frameCount == 3)
        for (i, reference) in references.enumerated() {
            let frame = try animation.nextFrame()
            #expect(ImageDifference(frame.pixels, reference, tolerance: 0).pixelsOverTolerance == 0, "frame \(i)")
        }
    }

    // MARK: made by hand

    /// GIF89a disposal: a red screen, a green square over it with the disposal under test, then
    /// a blue pixel: "none" and "unspecified" leave the square, "background" clears it to
    /// transparent (as browsers do, not to the background colour), "previous" restores the red.
    @Test("Disposal methods", arguments: [
        (0, ["BRRR", "RGGR", "RGGR", "RRRR"]),
        (1, ["BRRR", "RGGR", "RGGR", "RRRR"]),
        (2, ["BRRR", "R..R", "R..R", "RRRR"]),
        (3, ["BRRR", "RRRR", "RRRR", "RRRR"]),
    ])
    func disposal(method: Int, expected: [String]) throws {
        let gif = HandMadeGIF.file(width: 4, height: 4, palette: Self.palette, frames: [
            .solid(1, width: 4, height: 4),
            .solid(2, x: 1, y: 1, width: 2, height: 2, disposal: method),
            .solid(3, width: 1, height: 1),
        ])
        let frames = try Self.frames(gif, count: 3)
        #expect(frames[1].packedPixels == Self.canvas(["RRRR", "RGGR", "RGGR", "RRRR"]).packedPixels)
        #expect(frames[2].packedPixels == Self.canvas(expected).packedPixels)
    }

    /// A first frame disposed to background leaves the screen transparent around the next.
    @Test func theFirstFrameDisposedToBackground() throws {
        let gif = HandMadeGIF.file(width: 3, height: 3, palette: Self.palette, frames: [
            .solid(1, width: 3, height: 3, disposal: 2), .solid(2, x: 1, y: 1, width: 1, height: 1),
        ])
        let frames = try Self.frames(gif, count: 2)
        #expect(frames[1].packedPixels == Self.canvas(["...", ".G.", "..."]).packedPixels)
        #expect(try ImageDecoder.probe(gif).hasAlpha)
    }

    /// The transparent index shows what is under it.
    @Test func transparencyShowsTheFrameBelow() throws {
        let over = HandMadeGIF.Frame(width: 4, height: 2, indices: [4, 4, 2, 2, 4, 2, 2, 4], transparent: 4)
        let gif = HandMadeGIF.file(width: 4, height: 2, palette: Self.palette, frames: [.solid(1, width: 4, height: 2), over])
        let frames = try Self.frames(gif, count: 2)
        #expect(frames[1].packedPixels == Self.canvas(["RRGG", "RGGR"]).packedPixels)
    }

    /// An index past the colour table (two colours here, 3 written) is transparent, as in Wuffs.
    @Test func anIndexPastTheTableIsTransparent() throws {
        let gif = HandMadeGIF.file(width: 2, height: 1, palette: [HandMadeGIF.RGB(255, 0, 0), HandMadeGIF.RGB(0, 255, 0)], frames: [
            .solid(0, width: 2, height: 1), HandMadeGIF.Frame(width: 2, height: 1, indices: [3, 1]),
        ])
        let frames = try Self.frames(gif, count: 2)
        #expect(frames[1].packedPixels == Self.canvas(["RG"]).packedPixels)
    }

    /// An interlaced frame's rows, stored in pass order, land where they belong.
    @Test(arguments: [1, 2, 5, 8, 11, 17])
    func interlacedRowsLandInPlace(height: Int) throws {
        let indices = (0..<height).flatMap { y in [UInt8](repeating: UInt8(y % 4), count: 3) }
        let gif = HandMadeGIF.file(width: 3, height: height, palette: Self.palette, frames: [
            HandMadeGIF.Frame(width: 3, height: height, indices: indices, interlaced: true),
        ])
        let rows = (0..<height).map { String(repeating: ["K", "R", "G", "B"][$0 % 4], count: 3) }
        #expect(try ImageDecoder.decode(gif).pixels.packedPixels == Self.canvas(rows).packedPixels)
    }

    /// A local colour table replaces the global one for its frame only.
    @Test func aLocalColourTable() throws {
        var local = HandMadeGIF.Frame.solid(0, width: 2, height: 1)
        local.palette = [HandMadeGIF.RGB(0, 0, 255)]
        let gif = HandMadeGIF.file(width: 2, height: 1, palette: Self.palette, frames: [local, .solid(0, width: 2, height: 1)])
        let frames = try Self.frames(gif, count: 2)
        #expect(frames[0].packedPixels == Self.canvas(["BB"]).packedPixels)
        #expect(frames[1].packedPixels == Self.canvas(["KK"]).packedPixels)
    }

    /// A screen of 0×0 grows to hold the first frame (Wuffs's rule): the GIF still shows.
    @Test func anEmptyScreenGrowsToTheFirstFrame() throws {
        let gif = HandMadeGIF.file(width: 0, height: 0, palette: Self.palette, frames: [.solid(2, x: 1, y: 1, width: 3, height: 2)])
        let info = try ImageDecoder.probe(gif)
        #expect(info.storedSize == PixelSize(width: 4, height: 3))
        #expect(try ImageDecoder.decode(gif).pixels.packedPixels == Self.canvas(["....", ".GGG", ".GGG"]).packedPixels)
    }

    /// Delays in centiseconds, with browsers' rule: 10 ms or less shows for 100 ms; 20 ms and
    /// more as written.
    @Test("Delays", arguments: [(0, 0.1), (1, 0.1), (2, 0.02), (5, 0.05), (10, 0.1), (150, 1.5)])
    func delay(centiseconds: Int, seconds: Double) throws {
        let gif = HandMadeGIF.file(width: 1, height: 1, palette: Self.palette, frames: [
            .solid(1, width: 1, height: 1, delay: centiseconds), .solid(2, width: 1, height: 1),
        ])
        let frames = try GIFCodec.frames(gif, pixelLimit: 1 << 20)
        #expect(try frames.nextFrame().duration == seconds)
    }

    /// Loop counts: no NETSCAPE2.0 extension plays once; its count N repeats N times after the
    /// first play (Wuffs: N + 1 plays); 0 loops for ever.
    @Test("Loop counts", arguments: [(nil, 1), (0, 0), (1, 2), (4, 5)] as [(Int?, Int)])
    func loopCount(wire: Int?, plays: Int) throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let gif = HandMadeGIF.file(width: 1, height: 1, palette: Self.palette, frames: [
            .solid(1, width: 1, height: 1), .solid(2, width: 1, height: 1),
        ], loops: wire)
        let animation = try #require(try GIFCodec().animation(
            atPath: Self.file(gif, in: folder), fitting: PixelSize(width: 1, height: 1), pixelLimit: 1 << 20))
        #expect(animation.loopCount == plays)
    }

    /// The header says how big, whether it moves and whether it may be transparent, without
    /// decoding a pixel.
    @Test func probing() throws {
        let still = HandMadeGIF.file(width: 5, height: 3, palette: Self.palette, frames: [.solid(1, width: 5, height: 3)])
        let info = try ImageDecoder.probe(still)
        #expect(info.format == .gif)
        #expect(info.storedSize == PixelSize(width: 5, height: 3))
        #expect(!info.isAnimated && !info.hasAlpha)
        let moving = HandMadeGIF.file(width: 5, height: 3, palette: Self.palette, frames: [
            .solid(1, width: 5, height: 3), .solid(2, width: 2, height: 2, transparent: 0),
        ])
        let animated = try ImageDecoder.probe(moving)
        #expect(animated.isAnimated && animated.hasAlpha)
    }

    // MARK: damage

    /// A 64×64 red frame whose LZW data spans many sub-blocks.
    static let big = HandMadeGIF.file(width: 64, height: 64, palette: palette, frames: [.solid(1, width: 64, height: 64)])

    /// A first frame cut short keeps the rows that arrived, grey below, with the warning.
    @Test func aFirstFrameCutShortShowsWhatArrived() throws {
        let cut = Array(Self.big.prefix(Self.big.count / 2))
        let decoded = try ImageDecoder.decode(cut)
        #expect(decoded.warning == "The GIF data ends early (the file is truncated); the missing part is grey")
        #expect(decoded.damage == .truncated(missing: nil))
        #expect(Channels(decoded.pixels[10, 0]) == Channels(straightRed: 255, green: 0, blue: 0, alpha: 255))
        #expect(Channels(decoded.pixels[10, 63]) == Channels(straightRed: 128, green: 128, blue: 128, alpha: 255))
    }

    /// A file cut in its third frame plays the two that arrived; the still says the rest is lost.
    @Test func framesThatArrivedPlay() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let gif = HandMadeGIF.file(width: 64, height: 64, palette: Self.palette, frames: [
            .solid(1, width: 64, height: 64), .solid(2, width: 64, height: 64), .solid(3, width: 64, height: 64),
        ])
        let cut = try Self.file(Array(gif.prefix(gif.count - 100)), in: folder)
        let still = try ImageDecoder.decodeFile(atPath: cut)
        #expect(still.warning == "The GIF data ends early (the file is truncated); only its first 2 frames arrived")
        let animation = try #require(try GIFCodec().animation(atPath: cut, fitting: PixelSize(width: 64, height: 64), pixelLimit: 1 << 20))
        #expect(animation.frameCount == 2)
    }

    /// Damaged LZW codes keep the rows before them, grey after, with giflib's words; an
    /// animation stops at a damaged frame.
    @Test func damagedCodes() throws {
        var damaged = Self.big
        // Codes of all ones where the table has no such entry yet.
        for i in (damaged.count / 2)..<(damaged.count / 2 + 8) { damaged[i] = 0xFF }
        let decoded = try ImageDecoder.decode(damaged)
        let warning = try #require(decoded.warning)
        #expect(warning.hasPrefix("The GIF data is damaged ("))
        #expect(decoded.damage == .damagedData)
        #expect(Channels(decoded.pixels[10, 0]) == Channels(straightRed: 255, green: 0, blue: 0, alpha: 255))
    }

    /// A 104-byte GIF found by `Fuzz/animation_fuzzer.c`, whose image descriptor giflib refuses
    /// without an error code (0, for which GifErrorString has no words): the shim once passed
    /// that NULL on as the message. It is refused with a reason.
    @Test func aGIFGiflibRefusesWithoutWordsIsRefusedWithAReason() {
        #expect(throws: ImageDecodeError(reason: "The GIF data is damaged: giflib cannot read an image descriptor")) {
            try ImageIOFixtures.decode("fuzz-gif-unknown-error.gif")
        }
    }

    static let signature: [UInt8] = Array("GIF89a".utf8)

    /// What is no GIF, or no picture, is refused with a reason: a screen descriptor cut short, a
    /// trailer with no image before it, data that ends before the first image.
    @Test("Broken GIFs give a reason", arguments: [
        ([4, 0], "The GIF data ends early (the file is truncated)"),
        ([4, 0, 4, 0, 0, 0, 0, 0x3B], "The GIF data is damaged: the GIF has no image in it"),
        ([4, 0, 4, 0, 0, 0, 0], "The GIF data ends early (the file is truncated)"),
    ] as [([UInt8], String)])
    func brokenFiles(afterSignature bytes: [UInt8], reason: String) {
        #expect(throws: ImageDecodeError(reason: reason)) { try ImageDecoder.decode(Self.signature + bytes) }
    }
}
