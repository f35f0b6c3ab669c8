import Glibc
import RiffleGeometry
import RiffleImageIO
import Testing

/// Decodes whose memory cannot be had. Each runs in a child process (an exit test) whose address
/// space is capped a little above what it already maps, so the decode's big allocation fails
/// there, every time, and nothing else does; the child prints the error it got.
@Suite("Out of memory")
struct OutOfMemoryTests {
    /// Room left for everything but the big allocation (the test runtime's threads among it); each
    /// case's big allocation is more than 1 GB.
    static let headroom = 512 << 20

    /// The error a decode of `name` throws in a child process with its address space capped, or
    /// what went wrong instead.
    static func childDecodeError(_ name: String, pixelLimit: Int, streamed: Bool) async -> String? {
        let path = ImageIOFixtures.path(name)
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            [path = path as String, pixelLimit = pixelLimit as Int, streamed = streamed as Bool, headroom = Self.headroom as Int] in
            guard ChildProcess.capAddressSpace(headroom: headroom) else { ChildProcess.report("no address-space cap") }
            do {
                if streamed {
                    _ = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { $0.uprightSize }, pixelLimit: pixelLimit)
                } else {
                    _ = try ImageDecoder.decodeFile(atPath: path, pixelLimit: pixelLimit)
                }
                ChildProcess.report("decoded")
            } catch {
                ChildProcess.report("\(error)")
            }
        }
        return result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) }
    }

    @Test("A decode that cannot have its memory fails with a plain reason, without crashing", arguments: [
        // libjpeg's whole-image coefficient buffers (2.7 GB; the limit lets libjpeg ask for them):
        // its allocation fails inside libjpeg, which longjmps out of the shim.
        ("huge-progressive.jpg", 900_000_000, false, "There is not enough memory to decode this 30000×30000 JPEG image"),
        ("huge-progressive.jpg", 900_000_000, true, "There is not enough memory to decode this 30000×30000 JPEG image"),
        // The shim's pixel buffer (14.4 GB).
        ("huge-header.jpg", 3_600_000_000, false, "There is not enough memory to decode this 60000×60000 JPEG image"),
        ("huge-header.png", 3_600_000_000, false, "There is not enough memory to decode this 60000×60000 PNG image"),
    ])
    func decode(name: String, pixelLimit: Int, streamed: Bool, reason: String) async {
        #expect(await Self.childDecodeError(name, pixelLimit: pixelLimit, streamed: streamed) == reason + "\n")
    }

    @Test("libpng's own allocation failing is out of memory, not damaged data")
    func libpngAllocation() async {
        // IHDR of a 2^30 × 1 RGBA image: libpng allocates a 4 GiB row buffer before any pixel
        // memory of the shim's. Its error text, "Out of memory", used to read as damage.
        let wide = FileDamage.png(chunks: [
            ("IHDR", FileDamage.bigEndian(1 << 30) + FileDamage.bigEndian(1) + [8, 6, 0, 0, 0]),
            ("IDAT", [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]),  // zlib of one 0 byte
            ("IEND", []),
        ])
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            [wide = wide as [UInt8], headroom = Self.headroom as Int] in
            guard ChildProcess.capAddressSpace(headroom: headroom) else { ChildProcess.report("no address-space cap") }
            do {
                _ = try ImageDecoder.decode(wide, pixelLimit: 1 << 30)
                ChildProcess.report("decoded")
            } catch {
                ChildProcess.report("\(error)")
            }
        }
        #expect(result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) }
            == "There is not enough memory to decode this 1073741824×1 PNG image\n")
    }

    // Found by Fuzz/png_fuzzer.c: 217 bytes whose iTXt chunk claims 1.6 GB. libpng allocated
    // and cleared that much before reading it; the shim now refuses any block over 16 MiB, the
    // chunk is skipped, and the file is what it is: cut short. Under a cap of 256 MiB the old
    // code failed as out of memory, and without one it took 1.6 GB for a moment.
    @Test("A PNG chunk longer than memory allows is refused, not allocated")
    func hugeChunkIsNotAllocated() async {
        let path = ImageIOFixtures.path("fuzz-huge-itxt.png")
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            [path = path as String] in
            guard ChildProcess.capAddressSpace(headroom: 256 << 20) else { ChildProcess.report("no address-space cap") }
            do {
                _ = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { $0.uprightSize })
                ChildProcess.report("decoded")
            } catch {
                ChildProcess.report("\(error)")
            }
        }
        #expect(result.map { String(decoding: $0.standardOutputContent, as: UTF8.self) }
            == "The PNG data ends early (the file is truncated)\n")
    }
}
