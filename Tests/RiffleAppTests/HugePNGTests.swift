import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

/// A 70-megapixel PNG (over the 64 MP a decode may hold, and twice the tiling threshold) opens
/// at fit without being held whole, and zooms to 1:1 through the tiles cut from it in one pass.
/// It runs in the real binary, a child process, so that the peak of memory read from its VmHWM
/// is the decode's alone and not this test process's (which holds the picture to encode it).
@Suite struct HugePNGTests {
    static let size = PixelSize(width: 10240, height: 6840)

    /// Opaque, cheap to deflate (smooth in x, the same along most of y) and telling where it is:
    /// blue is x mod 256, green y mod 256, red (x / 256 + 7 · (y / 256)) mod 256.
    static func pixel(x: Int, y: Int) -> UInt32 {
        let red = UInt32((x / 256 + 7 * (y / 256)) % 256), green = UInt32(y % 256), blue = UInt32(x % 256)
        return 0xFF00_0000 | red << 16 | green << 8 | blue
    }

    /// The places in the picture that look like `pixel`: blue and green say where in its
    /// 256-pixel block, red narrows down which block.
    static func places(of pixel: UInt32) -> [(x: Int, y: Int)] {
        let blocks = (0..<(size.height + 255) / 256).flatMap { by in (0..<(size.width + 255) / 256).map { bx in (bx, by) } }
        return blocks.map { (x: $0.0 * 256 + Int(pixel & 0xFF), y: $0.1 * 256 + Int((pixel >> 8) & 0xFF)) }
            .filter { $0.x < size.width && $0.y < size.height && Self.pixel(x: $0.x, y: $0.y) == pixel }
    }

    @Test func opensAtFitWithinBoundedMemoryAndZoomsToOneToOne() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-huge-png-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let photo = dir.appendingPathComponent("huge.png").path
        do {
            let picture = PixelBuffer(width: Self.size.width, height: Self.size.height)
            for y in 0..<Self.size.height {
                let row = picture.row(y)
                for x in 0..<Self.size.width { row[x] = Self.pixel(x: x, y: y) }
            }
            try PNGEncoder.write(picture, toPath: photo)
        }
        let script = dir.appendingPathComponent("zoom.replay")
        // 2 s after the zoom the zoom label ("100 %") has faded: the frame is the picture alone.
        try "wait 100\nsnapshot fit\nkey 1\nwait 2000\nsnapshot one-to-one\n".write(to: script, atomically: true, encoding: .utf8)
        let snapshots = dir.appendingPathComponent("snapshots").path
        let run = try RiffleBinary.run([
            "--headless", "--stats", "--size", "320x200", "--replay", script.path, "--snapshots", snapshots, photo,
        ])
        let stats = run.output, lines = stats.split(separator: "\n")
        let peak = try run.peakResidentMiB()
        // The picture alone is 267 MiB of BGRA. The process runs in ~25 MiB; the decode at fit
        // holds a 16-row buffer and two rows of sums, the tile cut a few MiB of zlib state and
        // the tiles' deflated rows so far.
        #expect(peak < 64, "peak RSS \(peak) MiB")
        #expect(lines.contains { $0.hasPrefix("tile sources opened (a JPEG's scan indexed, a PNG's tiles cut): 1,") }, "\(stats)")

        // At fit (0.0292: 299.4 × 200 in the 320 × 200 window) red counts 256-pixel columns and
        // rows: it rises left to right and top to bottom.
        let fit = try ImageDecoder.decodeFile(atPath: snapshots + "/fit.png").pixels
        func red(_ x: Int, _ y: Int) -> UInt32 { (fit[x, y] >> 16) & 0xFF }
        #expect(red(20, 100) < red(300, 100) && red(160, 10) < red(160, 190))

        // At 1:1 the window shows full-resolution pixels, exactly: some place in the picture
        // matches every pixel of the frame.
        let frame = try ImageDecoder.decodeFile(atPath: snapshots + "/one-to-one.png").pixels
        let matches = Self.places(of: frame[0, 0]).filter { origin in
            origin.x + frame.width <= Self.size.width && origin.y + frame.height <= Self.size.height
                && (0..<frame.height).allSatisfy { y in
                    (0..<frame.width).allSatisfy { x in frame[x, y] == Self.pixel(x: origin.x + x, y: origin.y + y) }
                }
        }
        // The pattern repeats, so the frame matches a few places; one is where the zoom went,
        // around the middle of the picture.
        let middle = (x: Self.size.width / 2 - frame.width / 2, y: Self.size.height / 2 - frame.height / 2)
        #expect(matches.contains { abs($0.x - middle.x) <= 256 && abs($0.y - middle.y) <= 256 }, "frame at \(matches)")
    }
}
