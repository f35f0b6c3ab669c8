import RiffleGeometry
@testable import RiffleImageIO
import RiffleRaster
import Testing

@Suite("EXIF thumbnails")
struct ExifThumbnailTests {
    static func solid(_ width: Int, _ height: Int, _ color: UInt32) -> PixelBuffer {
        let buffer = PixelBuffer(width: width, height: height)
        for y in 0..<height { buffer.row(y).update(repeating: color, count: width) }
        return buffer
    }

    /// A 600×400 blue photo carrying `thumbnail` in its EXIF block, as a camera writes it.
    static func photo(thumbnail: PixelBuffer, orientation: ImageOrientation = .topLeft) throws -> (file: [UInt8], thumbnail: [UInt8]) {
        let thumbnailBytes = try JPEGEncoder.encode(thumbnail, quality: 90)
        let main = try JPEGEncoder.encode(solid(600, 400, 0xFF00_00FF), quality: 90)
        return (try ExifThumbnail.inserting(thumbnail: thumbnailBytes, orientation: orientation, into: main), thumbnailBytes)
    }

    /// A camera's 160×120 thumbnail of a 3:2 photo: 107 rows of red between black bars of 6
    /// and 7 rows.
    static func letterboxed() -> PixelBuffer {
        let buffer = solid(160, 120, 0xFF00_0000)
        for y in 6..<113 { buffer.row(y).update(repeating: 0xFFFF_0000, count: 160) }
        return buffer
    }

    @Test("The thumbnail written into the EXIF block is found again, byte for byte, and the photo still decodes")
    func roundTrip() throws {
        let (file, thumbnail) = try Self.photo(thumbnail: Self.solid(160, 107, 0xFFFF_0000), orientation: .bottomRight)
        #expect(ExifThumbnail.bytes(inJPEGHead: file) == thumbnail)
        let info = try ImageDecoder.probe(file)
        #expect(info.orientation == .bottomRight && info.storedSize == PixelSize(width: 600, height: 400))
        #expect(try ImageDecoder.decode(file).pixels.size == PixelSize(width: 600, height: 400))
    }

    @Test("Black bars are cut so the thumbnail has the photo's aspect")
    func letterboxCropped() throws {
        let (file, _) = try Self.photo(thumbnail: Self.letterboxed())
        let pixels = try #require(ExifThumbnail.decode(fromJPEGHead: file, info: try ImageDecoder.probe(file)))
        #expect(pixels.size == PixelSize(width: 160, height: 107))
        for y in [0, 53, 106] {
            let red = (pixels[80, y] >> 16) & 0xFF
            // Red, not a bar (the edge rows a little less: JPEG blends chroma across them).
            #expect(red > 150, "row \(y)")
        }
    }

    @Test("The thumbnail turns with the photo's orientation")
    func orientation() throws {
        let (file, _) = try Self.photo(thumbnail: Self.solid(150, 100, 0xFFFF_0000), orientation: .rightTop)
        let info = try ImageDecoder.probe(file)
        let pixels = try #require(ExifThumbnail.decode(fromJPEGHead: file, info: info))
        #expect(pixels.size == PixelSize(width: 100, height: 150))
        #expect(info.uprightSize == PixelSize(width: 400, height: 600))
    }

    @Test("No EXIF, EXIF without a thumbnail, or a head cut inside the EXIF block: no thumbnail")
    func absent() throws {
        let plain = try JPEGEncoder.encode(Self.solid(64, 32, 0xFF80_8080), quality: 90)
        #expect(ExifThumbnail.bytes(inJPEGHead: plain) == nil)
        let orientationOnly = try ExifThumbnail.inserting(thumbnail: [], orientation: .leftBottom, into: plain)
        #expect(try ImageDecoder.probe(orientationOnly).orientation == .leftBottom)
        #expect(ExifThumbnail.bytes(inJPEGHead: orientationOnly) == nil)
        let (file, _) = try Self.photo(thumbnail: Self.solid(160, 107, 0xFFFF_0000))
        #expect(ExifThumbnail.bytes(inJPEGHead: Array(file[0..<400])) == nil)
        #expect(ExifThumbnail.bytes(inJPEGHead: try ImageIOFixtures.bytes("rgb8.png")) == nil)
    }
}
