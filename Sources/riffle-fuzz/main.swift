import Glibc
import RiffleApp
import RiffleGeometry
import RiffleImageIO
import RifflePipeline

// riffle-fuzz HARNESS [libFuzzer options] [CORPUS...]: the parsers Riffle writes in Swift, on
// arbitrary bytes. Built with RIFFLE_FUZZ (`make fuzz`: address sanitizer and coverage), libFuzzer
// drives the harness; built plainly (as `swift build` builds every product), it runs each file
// given once through the harness, to replay what the fuzzer kept. A harness must never trap:
// a Swift precondition, bounds or overflow failure on a hostile file is a crash of the app.

/// The harnesses by name, each one input in and nothing out.
let harnesses: [String: ([UInt8]) -> Void] = [
    // The header probe and a whole decode through the Swift wrapper (orientation, limits),
    // streamed from memory and Lanczos-shrunk to 64 px, at most 1 MP decoded.
    "decode": { bytes in
        guard let info = try? ImageDecoder.probe(bytes) else { return }
        _ = info.uprightSize
        _ = try? ImageDecoder.decode(bytes, atLeast: PixelSize(width: 64, height: 64), pixelLimit: 1 << 20)
    },
    // The JPEG marker walk and scan index (Riffle's own Huffman walker), then the tile decoder
    // over it: the tiles a zoomed view of a huge photo asks for.
    "scan-index": { bytes in
        _ = try? JPEGScanIndex(bytes)
        guard let decoder = try? TileDecoder(bytes: bytes, tileSize: 64, baseLongSide: 128, pixelLimit: 1 << 20) else { return }
        let pyramid = decoder.pyramid
        let grid = pyramid.gridSize(0)
        _ = try? decoder.decode(TileKey(level: 0, column: grid.width / 2, row: grid.height / 2))
    },
    // The thumbnail cache's reader: a PNG another program may have written, decoded within
    // the large class's 256 x 256 pixels, and its Thumb:: keys checked against a photo's stamp
    // (the one the seeds and dictionary spell, so that valid records are reached).
    "thumbnail-cache": { bytes in
        let stamp = ThumbnailStamp(uri: "file:///photos/a.jpg", modificationTime: 1_700_000_000, byteCount: 12345)
        _ = ThumbnailCache.recordedImage(in: bytes, of: stamp, pixelLimit: 256 * 256)
    },
    // The replay-script parser, on any text (invalid UTF-8 repaired as a file read would be).
    "replay": { bytes in
        _ = try? ReplayScript(parsing: String(decoding: bytes, as: UTF8.self))
    },
    // The EXIF segment walk and its thumbnail, with the details the info panel reads.
    "exif": { bytes in
        if let info = try? ImageDecoder.probe(bytes) { _ = ExifThumbnail.decode(fromJPEGHead: bytes, info: info) }
        _ = ExifDetails.read(fromJPEGHead: bytes)
    },
]

/// Writes `text` to standard error.
func complain(_ text: String) {
    _ = Array(text.utf8).withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// The environment variable that names the harness to the processes libFuzzer starts of this
/// program (a merge's and -fork's children), which get its own options but not the name.
let harnessVariable = "RIFFLE_FUZZ_HARNESS"

let arguments = CommandLine.arguments
let named = arguments.count >= 2 ? harnesses[arguments[1]] : nil
let inherited = getenv(harnessVariable).flatMap { harnesses[String(cString: $0)] }
guard let harness = named ?? inherited else {
    complain("usage: riffle-fuzz \(harnesses.keys.sorted().joined(separator: "|")) [libFuzzer options or files]\n")
    exit(2)
}

#if RIFFLE_FUZZ
/// libFuzzer's entry for a program with a main of its own (libclang_rt.fuzzer_no_main).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// The chosen harness, for the C callback (which cannot capture it).
nonisolated(unsafe) var chosen = harness
// libFuzzer sees the program name and its own options: the harness name is taken out, and put
// in the environment for the children libFuzzer starts with those options.
var argc = CommandLine.argc
var shifted = CommandLine.unsafeArgv
if named != nil {
    setenv(harnessVariable, arguments[1], 1)
    argc -= 1
    shifted[1] = shifted[0]
    shifted += 1
}
exit(LLVMFuzzerRunDriver(&argc, &shifted) { data, size in
    chosen(size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : [])
    return 0
})
#else
for path in arguments.dropFirst(named != nil ? 2 : 1) {
    guard let bytes = try? FileBytes.read(atPath: path) else {
        complain("riffle-fuzz: cannot read \(path)\n")
        exit(1)
    }
    harness(bytes)
    print("\(path): done")
}
#endif
