import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing

@Suite("PNG text chunks")
struct PNGTextTests {
    static func picture() -> PixelBuffer {
        let buffer = PixelBuffer(width: 7, height: 5)
        for y in 0..<5 {
            for x in 0..<7 { buffer[x, y] = 0xFF00_0000 | UInt32(x * 30) << 16 | UInt32(y * 50) }
        }
        return buffer
    }

    static let chunks = [
        PNGTextChunk(key: "Thumb::URI", value: "file:///home/jens/a%20b.jpg"),
        PNGTextChunk(key: "Thumb::MTime", value: "1700000000"),
        PNGTextChunk(key: "Description", value: "Größe: 3×2"),
        PNGTextChunk(key: "X-Test::Place", value: "東京 タワー"),
        PNGTextChunk(key: "Empty", value: ""),
    ]

    /// Where `tag` ("tEXt", "IDAT" ...) first occurs in `bytes`.
    static func offset(of tag: String, in bytes: [UInt8]) -> Int? {
        let needle = Array(tag.utf8)
        return bytes.indices.dropLast(needle.count - 1).first { Array(bytes[$0..<($0 + needle.count)]) == needle }
    }

    @Test("Text chunks come back with their keys, values and order, and the pixels are untouched")
    func roundTrip() throws {
        let bytes = try PNGEncoder.encode(Self.picture(), text: Self.chunks)
        let decoded = try ImageDecoder.decodeWithText(bytes)
        #expect(decoded.text == Self.chunks)
        #expect(decoded.image.pixels.packedPixels == Self.picture().packedPixels)
        #expect(decoded.text.value(forKey: "Thumb::MTime") == "1700000000")
        #expect(decoded.text.value(forKey: "Thumb::Size") == nil)
    }

    @Test("Latin-1 text is written as tEXt, other text as iTXt, both before the image data")
    func chunkKinds() throws {
        let latin1 = try PNGEncoder.encode(Self.picture(), text: [PNGTextChunk(key: "Description", value: "Größe")])
        let latin1Text = try #require(Self.offset(of: "tEXt", in: latin1))
        #expect(Self.offset(of: "iTXt", in: latin1) == nil)
        // "Größe" in Latin-1 is 47 72 F6 DF 65: one byte a letter.
        #expect(Array(latin1[(latin1Text + 4)...].prefix(17)) == Array("Description".utf8) + [0, 0x47, 0x72, 0xF6, 0xDF, 0x65])
        #expect(latin1Text < Self.offset(of: "IDAT", in: latin1)!)

        let unicode = try PNGEncoder.encode(Self.picture(), text: [PNGTextChunk(key: "Description", value: "東京")])
        #expect(Self.offset(of: "tEXt", in: unicode) == nil)
        #expect(try #require(Self.offset(of: "iTXt", in: unicode)) < Self.offset(of: "IDAT", in: unicode)!)
    }

    @Test("Text after the image data is read too, from a PNG made by hand (RGB, stored deflate)")
    func textAfterImageData() throws {
        let bytes = HandMadePNG.rgb(
            width: 3, height: 2, red: 10, green: 200, blue: 30,
            text: [("Thumb::URI", "file:///x.jpg"), ("Thumb::MTime", "42")], textAfterImageData: true)
        let decoded = try ImageDecoder.decodeWithText(bytes)
        #expect(decoded.text == [PNGTextChunk(key: "Thumb::URI", value: "file:///x.jpg"), PNGTextChunk(key: "Thumb::MTime", value: "42")])
        #expect(decoded.image.pixels.size == PixelSize(width: 3, height: 2))
        #expect(decoded.image.pixels[2, 1] == 0xFF0A_C81E)
    }

    @Test("Reading the text needs the whole file; the plain decode still takes a PNG cut after its rows")
    func cutOffAfterImageData() throws {
        let bytes = try PNGEncoder.encode(Self.picture(), text: Self.chunks)
        let withoutEnd = Array(bytes.dropLast(12))  // IEND: length, type, CRC
        #expect(throws: ImageDecodeError.self) { try ImageDecoder.decodeWithText(withoutEnd) }
        #expect(try ImageDecoder.decode(withoutEnd).pixels.packedPixels == Self.picture().packedPixels)
    }

    @Test("A JPEG decodes with no text")
    func jpegHasNone() throws {
        let decoded = try ImageDecoder.decodeWithText(JPEGEncoder.encode(Self.picture(), quality: 90))
        #expect(decoded.text.isEmpty && decoded.image.pixels.size == PixelSize(width: 7, height: 5))
    }

    @Test("Keys that are not PNG keywords and text with a NUL are errors, not mended files", arguments: [
        PNGTextChunk(key: "", value: "x"),
        PNGTextChunk(key: String(repeating: "k", count: 80), value: "x"),
        PNGTextChunk(key: "東京", value: "x"),
        PNGTextChunk(key: " Lead", value: "x"),
        PNGTextChunk(key: "Trail ", value: "x"),
        PNGTextChunk(key: "Two  spaces", value: "x"),
        PNGTextChunk(key: "Tab\there", value: "x"),
        PNGTextChunk(key: "Thumb::URI", value: "a\0b"),
    ])
    func refusedChunks(chunk: PNGTextChunk) {
        #expect(throws: ImageEncodeError.self) { try PNGEncoder.encode(Self.picture(), text: [chunk]) }
    }

    @Test("The longest keyword, Latin-1 letters and single inner spaces are fine")
    func acceptedKeys() throws {
        let chunks = [
            PNGTextChunk(key: String(repeating: "k", count: 79), value: "x"),
            PNGTextChunk(key: "Größe des Bildes", value: "x"),
        ]
        #expect(try ImageDecoder.decodeWithText(PNGEncoder.encode(Self.picture(), text: chunks)).text == chunks)
    }
}
