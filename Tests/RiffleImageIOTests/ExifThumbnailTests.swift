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

    /// Quadrants of four colours, stored: red top-left, green top-right, blue bottom-left, white
    /// bottom-right; a wrong turn or mirror moves them.
    static func quadrants(_ width: Int, _ height: Int) -> PixelBuffer {
        let image = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image[x, y] = [[0xFFFF_0000, 0xFF00_FF00], [0xFF00_00FF, 0xFFFF_FFFF]][y < height / 2 ? 0 : 1][x < width / 2 ? 0 : 1]
            }
        }
        return image
    }

    /// The nearest of the four quadrant colours ("R", "G", "B", "W") to a decoded pixel.
    static func quadrantColour(_ pixel: UInt32) -> String {
        let r = Int(pixel >> 16 & 0xFF), g = Int(pixel >> 8 & 0xFF), b = Int(pixel & 0xFF)
        let colours = [("R", 255, 0, 0), ("G", 0, 255, 0), ("B", 0, 0, 255), ("W", 255, 255, 255)]
        return colours.min { a, c in
            abs(a.1 - r) + abs(a.2 - g) + abs(a.3 - b) < abs(c.1 - r) + abs(c.2 - g) + abs(c.3 - b)
        }!.0
    }

    /// Each orientation's upright quadrants (top-left, top-right, bottom-left, bottom-right),
    /// worked from TIFF 6.0's names: the first word is the visual side the stored 0th row lies
    /// along, the second the side of the stored 0th column. E.g. rightTop (6): stored row 0 runs
    /// down the right side from its top, so stored top-left (red) lands top-right, stored
    /// top-right (green) bottom-right, stored bottom-left (blue) top-left, white bottom-left.
    @Test("The thumbnail turns and mirrors with the photo's orientation", arguments: [
        (ImageOrientation.topLeft, "RGBW"), (.topRight, "GRWB"), (.bottomRight, "WBGR"), (.bottomLeft, "BWRG"),
        (.leftTop, "RBGW"), (.rightTop, "BRWG"), (.rightBottom, "WGBR"), (.leftBottom, "GWRB"),
    ])
    func orientation(orientation: ImageOrientation, quadrants: String) throws {
        let (file, _) = try Self.photo(thumbnail: Self.quadrants(150, 100), orientation: orientation)
        let info = try ImageDecoder.probe(file)
        let pixels = try #require(ExifThumbnail.decode(fromJPEGHead: file, info: info))
        let upright = orientation.swapsAxes ? PixelSize(width: 100, height: 150) : PixelSize(width: 150, height: 100)
        #expect(pixels.size == upright)
        let (w, h) = (pixels.width, pixels.height)
        let seen = [(w / 4, h / 4), (3 * w / 4, h / 4), (w / 4, 3 * h / 4), (3 * w / 4, 3 * h / 4)]
            .map { Self.quadrantColour(pixels[$0.0, $0.1]) }.joined()
        #expect(seen == quadrants, "\(orientation)")
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
