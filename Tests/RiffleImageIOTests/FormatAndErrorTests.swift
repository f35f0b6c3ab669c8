import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Format detection and errors")
struct FormatAndErrorTests {
    @Test("Formats are detected from their signatures", arguments: [
        ([0xFF, 0xD8, 0xFF, 0xE0], ImageFormat.jpeg),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00], .png),
        ([0xFF, 0xD8], nil),
        ([0x89, 0x50, 0x4E, 0x47], nil),
        (Array("GIF89a".utf8), .gif),
        (Array("<html>".utf8), nil),
        ([], nil),
    ] as [([UInt8], ImageFormat?)])
    func detect(bytes: [UInt8], expected: ImageFormat?) {
        #expect(ImageFormat.detect(bytes) == expected)
    }

    @Test("A PNG named .jpg decodes as a PNG")
    func mislabelledPNG() throws {
        let image = try ImageIOFixtures.decode("png-named.jpg")
        #expect(image.format == .png)
        #expect(image.pixels.size == PixelSize(width: 64, height: 32))
        #expect(Channels(image.pixels[0, 0]) == Channels(straightRed: 255, green: 0, blue: 0, alpha: 255))
        #expect(Channels(image.pixels[63, 31]) == Channels(straightRed: 255, green: 255, blue: 0, alpha: 255))
    }

    @Test("Files that are not images are refused with a plain reason", arguments: [
        ("text-named.jpg", "The file is not an image in a format Riffle reads"),
        ("empty.jpg", "The file is empty"),
        ("make_fixtures.py", "The file is not an image in a format Riffle reads"),
    ])
    func notAnImage(name: String, reason: String) {
        #expect(ImageIOFixtures.decodeError(name)?.reason == reason)
        #expect(throws: ImageDecodeError(reason: reason)) { try ImageDecoder.probe(ImageIOFixtures.bytes(name)) }
    }

    @Test("A missing file gives the operating system's reason")
    func missingFile() {
        let path = ImageIOFixtures.path("no-such-photo.jpg")
        #expect(throws: ImageDecodeError(reason: "Cannot open \(path): No such file or directory")) {
            try ImageDecoder.decodeFile(atPath: path)
        }
    }

    @Test("A directory is not a file")
    func directory() {
        let path = ImageIOFixtures.directory
        #expect(throws: ImageDecodeError(reason: "Cannot read \(path): it is a directory, not a file")) {
            try ImageDecoder.decodeFile(atPath: path)
        }
    }

    // `mkfifo a.jpg` beside the photos: opening a pipe with no writer would wait for one forever.
    @Test("A named pipe is refused at once, by the whole read and by the streamed decode")
    func namedPipe() throws {
        let path = "/tmp/riffle-fifo-\(getpid()).jpg"
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let refusal = ImageDecodeError(reason: "Cannot read \(path): it is a named pipe, not a file")
        #expect(throws: refusal) { try FileBytes.read(atPath: path) }
        #expect(throws: refusal) {
            try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in PixelSize(width: 8, height: 8) })
        }
    }

    @Test("Probing reads formats, sizes and orientation from headers alone", arguments: [
        ("baseline.jpg", ImageFormat.jpeg, PixelSize(width: 64, height: 32)),
        ("progressive.jpg", .jpeg, PixelSize(width: 64, height: 32)),
        ("photo-400x300.jpg", .jpeg, PixelSize(width: 400, height: 300)),
        ("rgba16.png", .png, PixelSize(width: 13, height: 7)),
        ("png-named.jpg", .png, PixelSize(width: 64, height: 32)),
        // Probing stops at the header, so a file cut in its image data still probes.
        ("truncated.png", .png, PixelSize(width: 96, height: 64)),
    ])
    func probe(name: String, format: ImageFormat, size: PixelSize) throws {
        let info = try ImageDecoder.probe(ImageIOFixtures.bytes(name))
        #expect(info.format == format)
        #expect(info.storedSize == size)
        #expect(info.orientation == .topLeft)
        #expect(info.uprightSize == size)
    }
}
