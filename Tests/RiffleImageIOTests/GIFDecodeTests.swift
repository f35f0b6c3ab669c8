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

    // MARK: a deferred clear code

    /// GIFs of seeded noise over 256 colours whose LZW data fills the code table (4,096 codes)
    /// and goes on in 12-bit codes without a clear code: the GIF89a specification's "deferred
    /// clear code" (Appendix F: "the encoder ... may choose to defer the clear code"), which
    /// browsers, Pillow and ImageMagick decode. Every pixel is known; ImageMagick decodes the
    /// same. 128 a side, and 640, whose file (over 400 KB) is longer than the head the header
    /// is read from.
    @Test(arguments: [128, 640])
    func aTableFilledWithoutAClearCodeDecodes(side: Int) throws {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        let indices = (0..<(side * side)).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let (data, filled) = Self.lzwDeferringClear(indices)
        #expect(filled, "the noise did not fill the code table")
        let colour = { (i: Int) -> [UInt8] in [UInt8(i), UInt8(i * 7 & 0xFF), UInt8(i * 13 & 0xFF)] }
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        // GIF89a sections 17, 18, 20: header, screen with a 256-colour global table, image.
        var gif = Array("GIF89a".utf8) + u16(side) + u16(side) + [0xF7, 0, 0]
        gif += (0..<256).flatMap(colour)
        gif += [0x2C] + u16(0) + u16(0) + u16(side) + u16(side) + [0, 8]
        for start in stride(from: 0, to: data.count, by: 255) {
            let block = data[start..<min(start + 255, data.count)]
            gif += [UInt8(block.count)] + block
        }
        gif += [0, 0x3B]
        let expected = PixelBuffer(width: side, height: side)
        for (i, index) in indices.enumerated() {
            let c = colour(Int(index)).map(UInt32.init)
            expected[i % side, i / side] = 0xFF00_0000 | c[0] << 16 | c[1] << 8 | c[2]
        }
        let decoded = try ImageDecoder.decode(gif)
        #expect(ImageDifference(decoded.pixels, expected, tolerance: 0).pixelsOverTolerance == 0)
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = try Self.file(gif, in: folder, name: "deferred-clear.gif")
        let fromFile = try ImageDecoder.decodeFile(atPath: path)
        #expect(fromFile.warning == nil)
        #expect(ImageDifference(fromFile.pixels, expected, tolerance: 0).pixelsOverTolerance == 0)
        let reference = try #require(try FormatTools.imageMagickFrames(path, size: PixelSize(width: side, height: side)).first)
        #expect(ImageDifference(reference, expected, tolerance: 0).pixelsOverTolerance == 0)
    }

    /// `indices` LZW-coded with 8-bit roots (GIF89a Appendix F): a clear code first, then codes
    /// that widen as the table grows and, once it holds 4,096 codes, stay 12 bits wide with no
    /// clear code and no new entry; the end-of-information code last. Also whether the table
    /// filled.
    static func lzwDeferringClear(_ indices: [UInt8]) -> (data: [UInt8], filled: Bool) {
        let clear = 256, end = 257
        var table: [[UInt8]: Int] = [:]
        for i in 0..<256 { table[[UInt8(i)]] = i }
        var next = end + 1, width = 9
        var out: [UInt8] = [], bits = 0, count = 0
        func emit(_ code: Int) {
            bits |= code << count
            count += width
            while count >= 8 {
                out.append(UInt8(bits & 0xFF))
                bits >>= 8
                count -= 8
            }
        }
        emit(clear)
        var current = [indices[0]]
        for index in indices.dropFirst() {
            let longer = current + [index]
            if table[longer] != nil {
                current = longer
                continue
            }
            emit(table[current]!)
            if next < 4096 {
                table[longer] = next
                next += 1
                // The decoder, one entry behind, widens its codes once the next code it would
                // assign no longer fits.
                if next > 1 << width && width < 12 { width += 1 }
            }
            current = [index]
        }
        emit(table[current]!)
        emit(end)
        if count > 0 { out.append(UInt8(bits & 0xFF)) }
        return (out, next == 4096)
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
