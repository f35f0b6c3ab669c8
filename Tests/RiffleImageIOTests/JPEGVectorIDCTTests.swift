import CRiffleImaging
import Foundation
import RiffleGeometry
@testable import RiffleImageIO
import RiffleRaster
import Testing

/// Riffle's AVX2 scaled IDCTs (`jpeg_scaled_idct.c`) stand in for libjpeg-turbo's scalar
/// `jpeg_idct_5x5` and `jpeg_idct_10x10` in a 5/8 decode, the fit of a large photo; they must
/// give libjpeg's samples bit for bit, for every layout, for real photos, and for damaged files
/// whose garbage coefficients are past what their 16-bit arithmetic takes (those blocks go back
/// to libjpeg's function).
@Suite("Vector IDCTs of a 5/8 JPEG decode")
struct JPEGVectorIDCTTests {
    /// What a 5/8 decode through `JPEGRowReader` gave: its pixels, or the error it stopped at.
    struct Outcome: Equatable {
        var size = PixelSize(width: 0, height: 0)
        var pixels: [UInt32] = []
        var warning: String?
        var failure: String?
        var vectorComponents = 0
    }

    /// The file at `path` decoded at 5/8 of its size, with the vector IDCTs on or off.
    static func decode(_ path: String, vector: Bool) -> Outcome {
        var outcome = Outcome()
        do {
            let reader = try JPEGRowReader(path: path, vectorIDCT: vector)
            outcome.size = try reader.start(eighths: 5, pixelLimit: ImageDecoder.defaultPixelLimit)
            outcome.vectorComponents = reader.vectorIDCTComponents
            let rows = UnsafeMutablePointer<UInt32>.allocate(capacity: outcome.size.width * outcome.size.height)
            defer { rows.deallocate() }
            var done = 0
            while done < outcome.size.height {
                let read = try reader.read(into: rows + done * outcome.size.width, rowPixels: outcome.size.width, maxRows: outcome.size.height - done)
                if read == 0 { break }
                done += read
            }
            outcome.pixels = Array(UnsafeBufferPointer(start: rows, count: done * outcome.size.width))
            outcome.warning = reader.finish()
        } catch {
            outcome.failure = "\(error)"
        }
        return outcome
    }

    /// The vector decode of `path` is libjpeg's, and `components` of its components took it.
    static func expectLibjpegSamples(_ path: String, components: Int, _ label: String) {
        let scalar = decode(path, vector: false), vector = decode(path, vector: true)
        #expect(scalar.vectorComponents == 0, "\(label)")
        #expect(vector.vectorComponents == (available ? components : 0), "\(label)")
        #expect(vector.size == scalar.size && vector.warning == scalar.warning && vector.failure == scalar.failure, "\(label)")
        let differing = zip(vector.pixels, scalar.pixels).filter { $0 != $1 }.count
        #expect(vector.pixels.count == scalar.pixels.count && differing == 0, "\(label): \(differing) pixels differ")
    }

    static let available = rfi_jpeg_vector_idct_available() != 0

    @Test("Available exactly where the CPU has AVX2 (and the kernel saves its registers)")
    func availableWithAVX2() throws {
        #if arch(x86_64)
        let flags = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
            .split(separator: "\n").first { $0.hasPrefix("flags") } ?? ""
        #expect(Self.available == flags.split(separator: " ").contains("avx2"))
        #else
        #expect(!Self.available)
        #endif
    }

    @Test("libjpeg's samples for every layout, quality and edge", arguments: JPEGEncoder.Sampling.allCases)
    func everyLayout(sampling: JPEGEncoder.Sampling) throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        // Odd sizes end in partial blocks at the right and bottom; quality 100 keeps the largest coefficients.
        for (width, height) in [(1001, 667), (64, 48), (3, 5)] {
            for quality in [40, 90, 100] {
                let path = try JPEGPipelinedDecodeTests.texturedFile(
                    "t-\(width)-\(quality).jpg", width: width, height: height, quality: quality, sampling: sampling, in: folder)
                Self.expectLibjpegSamples(path, components: sampling == .grayscale ? 1 : 3, "\(sampling) \(width)x\(height) q\(quality)")
            }
        }
    }

    @Test("libjpeg's samples for real photos and the fixtures", arguments: [
        "Photos/2 friends.jpg", "Photos/10 hubble.jpg", "fixture:photo-400x300.jpg", "fixture:progressive.jpg", "fixture:cmyk-adobe.jpg",
    ])
    func realFiles(name: String) {
        let path = name.hasPrefix("fixture:")
            ? ImageIOFixtures.path(String(name.dropFirst("fixture:".count)))
            : FitQualityTests.photos.deletingLastPathComponent().appendingPathComponent(name).path
        // CMYK's four components take the vector IDCT as the others do (they are 1×1 sampled).
        Self.expectLibjpegSamples(path, components: name.contains("cmyk") ? 4 : 3, name)
    }

    /// `jpeg` with every 8-bit quantisation value multiplied by `factor` (at most 255): the same
    /// coefficients, dequantised `factor` times larger.
    static func scalingQuantisation(_ jpeg: [UInt8], by factor: Int) -> [UInt8] {
        var scaled = jpeg, offset = 2
        while offset + 4 <= scaled.count, scaled[offset] == 0xFF, scaled[offset + 1] != 0xDA {
            let length = Int(scaled[offset + 2]) << 8 | Int(scaled[offset + 3])
            if scaled[offset + 1] == 0xDB {
                // Tables of a precision/index byte (8-bit precision: high nibble 0), then 64 values.
                var table = offset + 4
                while table + 65 <= offset + 2 + length {
                    precondition(scaled[table] >> 4 == 0, "a 16-bit table")
                    for i in 1...64 { scaled[table + i] = UInt8(min(255, Int(scaled[table + i]) * factor)) }
                    table += 65
                }
            }
            offset += 2 + length
        }
        return scaled
    }

    @Test("libjpeg's samples where coefficients are past 14 bits (a quantisation table scaled 100×): those blocks go back to libjpeg's IDCT")
    func coefficientsPastTheVectorRange() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        for sampling in [JPEGEncoder.Sampling.yuv420, .yuv444] {
            // At quality 100 every quantisation value is 1, so the texture's coefficients reach the hundreds.
            let jpeg = try JPEGEncoder.encode(JPEGPipelinedDecodeTests.textured(width: 320, height: 240), quality: 100, sampling: sampling)
            let path = folder.path + "/amplified-\(sampling).jpg"
            try FileBytes.write(Self.scalingQuantisation(jpeg, by: 100), toPath: path)
            Self.expectLibjpegSamples(path, components: 3, "\(sampling), amplified")
        }
    }

    @Test("libjpeg's samples and words for damaged scans")
    func damagedScans() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let jpeg = try JPEGEncoder.encode(JPEGPipelinedDecodeTests.textured(width: 320, height: 240), quality: 95)
        let scan = FileDamage.jpegFirstScan(jpeg)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for case_ in 0..<20 {
            var damaged = jpeg
            for _ in 0..<(1 + case_ % 8) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let at = scan.lowerBound + Int((state >> 33) % UInt64(scan.count - 2))
                damaged[at] = UInt8(truncatingIfNeeded: state >> 17)
            }
            let path = folder.path + "/damaged-\(case_).jpg"
            try FileBytes.write(damaged, toPath: path)
            Self.expectLibjpegSamples(path, components: 3, "damage \(case_)")
        }
    }
}
