import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

@Suite("EXIF orientation")
struct OrientationTests {
    /// The upright picture of the stored 3×2 buffer  a b c / d e f  for each orientation, written
    /// out by hand from the TIFF 6.0 definitions (which visual side the stored 0th row and 0th
    /// column are).
    static let uprightOfABCDEF: [(ImageOrientation, [String])] = [
        (.topLeft, ["abc", "def"]),
        (.topRight, ["cba", "fed"]),
        (.bottomRight, ["fed", "cba"]),
        (.bottomLeft, ["def", "abc"]),
        (.leftTop, ["ad", "be", "cf"]),
        (.rightTop, ["da", "eb", "fc"]),
        (.rightBottom, ["fc", "eb", "da"]),
        (.leftBottom, ["cf", "be", "ad"]),
    ]

    @Test("Each orientation moves every pixel to its upright place", arguments: uprightOfABCDEF)
    func uprightPixels(orientation: ImageOrientation, expectedRows: [String]) {
        let stored = PixelBuffer(width: 3, height: 2)
        for (i, letter) in "abcdef".unicodeScalars.enumerated() {
            stored[i % 3, i / 3] = letter.value
        }
        let upright = orientation.upright(stored)
        #expect(upright.size == orientation.uprightSize(ofStored: stored.size))
        let rows = (0..<upright.height).map { y in
            String(String.UnicodeScalarView((0..<upright.width).map { Unicode.Scalar(upright[$0, y])! }))
        }
        #expect(rows == expectedRows)
        #expect(orientation.storedSize(ofUpright: upright.size) == stored.size)
    }

    @Test("The upright orientation returns the stored buffer itself")
    func identityShares() {
        let stored = PixelBuffer(width: 4, height: 2)
        #expect(ImageOrientation.topLeft.upright(stored) === stored)
    }

    @Test("Orientations 5 to 8 swap width and height", arguments: ImageOrientation.allCases)
    func uprightSize(orientation: ImageOrientation) {
        let stored = PixelSize(width: 64, height: 32)
        let expected = orientation.rawValue >= 5 ? PixelSize(width: 32, height: 64) : stored
        #expect(orientation.uprightSize(ofStored: stored) == expected)
        #expect(orientation.swapsAxes == (orientation.rawValue >= 5))
    }

    @Test("JPEGs of every EXIF orientation decode upright with the corners in place", arguments: 1...8)
    func jpegOrientation(value: Int) throws {
        let name = "orientation-\(value).jpg"
        let info = try ImageDecoder.probe(ImageIOFixtures.bytes(name))
        #expect(info.orientation.rawValue == value)
        #expect(info.storedSize == (value >= 5 ? PixelSize(width: 32, height: 64) : PixelSize(width: 64, height: 32)))
        #expect(info.uprightSize == PixelSize(width: 64, height: 32))

        let image = try ImageIOFixtures.decode(name)
        #expect(image.pixels.size == PixelSize(width: 64, height: 32))
        #expect(image.fullSize == PixelSize(width: 64, height: 32))
        for sample in ImageIOFixtures.quadrantSamples(image.pixels.size) {
            let pixel = Channels(image.pixels[sample.x, sample.y])
            // Same JPEG tolerance as JPEGDecodeTests: flat 4:4:4 quadrants at quality 95.
            #expect(pixel.distance(toOpaque: sample.rgb) <= 12, "\(name) at (\(sample.x), \(sample.y)): \(pixel)")
        }
    }

    @Test("A JPEG without EXIF is upright as stored")
    func noExif() throws {
        #expect(try ImageDecoder.probe(ImageIOFixtures.bytes("baseline.jpg")).orientation == .topLeft)
    }
}
