import RiffleGeometry
import RiffleRaster
import RiffleTestSupport
import Testing

@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline

/// A cell's crop is the picture the compositor draws from the thumbnail, made once per
/// thumbnail and size, and kept only while its cell is drawn.
@Suite struct GridCellImagesTests {
    /// A 256 × 171 thumbnail with detail in both directions, so any shift or scale shows.
    static func thumbnail(seed: UInt64 = 7) -> ImageContent {
        var random = SeededGenerator(seed: seed)
        let pixels = PixelBuffer(width: 256, height: 171)
        for y in 0..<pixels.height {
            for x in 0..<pixels.width { pixels[x, y] = 0xFF00_0000 | (UInt32(truncatingIfNeeded: random.next()) & 0x00FF_FFFF) }
        }
        return ImageContent(pixels: pixels, isOpaque: true)
    }

    @Test(arguments: [RasterPath.fast, .reference])
    func aCropDrawnAtACellMatchesTheThumbnailDrawnThere(path: RasterPath) {
        let image = Self.thumbnail()
        let cell = Rect(x: 107, y: 40, width: 106, height: 105)
        let direct = PixelBuffer(width: 320, height: 200), fromCrop = PixelBuffer(width: 320, height: 200)
        let compositor = Compositor(path: path)
        compositor.render(GridView.centreCrop(image, in: cell, opacity: 1), into: direct)
        let crop = GridCellImages(path: path).crop(of: PhotoID(4), thumbnail: image, size: PixelSize(width: 106, height: 105))
        compositor.render(Layer(transform: ScaleTranslate(offset: cell.origin), content: .image(crop)), into: fromCrop)
        #expect(ImageDifference(direct, fromCrop, tolerance: 0).maxChannel == 0)
        #expect(crop.isOpaque)
    }

    /// A photo turned in the pager shows turned in its cell: the crop of a thumbnail turned by
    /// whole quarter turns is the crop of the thumbnail's pixels turned the same way, worked
    /// out pixel by pixel (turned clockwise a quarter, the turned picture's pixel (u, v) is the
    /// thumbnail's (v, H − 1 − u)), within one level: the compositor turns about the pixel
    /// corner nearest the cell's centre, which samples the shrink half a pixel apart when the
    /// centre is not on a corner. Random pixels turned any other way would differ by far more.
    @Test(arguments: [1, 2, 3])
    func aTurnedPhotosCropIsItsThumbnailTurned(quarters: Int) {
        let image = Self.thumbnail()
        let w = image.pixels.width, h = image.pixels.height
        let odd = quarters % 2 == 1
        let turned = PixelBuffer(width: odd ? h : w, height: odd ? w : h)
        for v in 0..<turned.height {
            for u in 0..<turned.width {
                turned[u, v] = switch quarters {
                case 1: image.pixels[v, h - 1 - u]
                case 2: image.pixels[w - 1 - u, h - 1 - v]
                default: image.pixels[w - 1 - v, u]
                }
            }
        }
        let size = PixelSize(width: 106, height: 105)
        let crops = GridCellImages(path: .fast)
        let crop = crops.crop(of: PhotoID(4), thumbnail: image, turn: Rotation(quarterTurns: Double(quarters)), size: size)
        let want = GridCellImages(path: .fast).crop(of: PhotoID(4), thumbnail: ImageContent(pixels: turned, isOpaque: true), size: size)
        #expect(ImageDifference(crop.pixels, want.pixels, tolerance: 0).maxChannel <= 1, "\(quarters) quarter turns")
        #expect(crops.crop(of: PhotoID(4), thumbnail: image, size: size).pixels !== crop.pixels, "turned back, a new crop")
    }

    @Test func aCropIsMadeOncePerThumbnailAndSizeAndLetGoWhenItsCellIsNotDrawn() {
        let crops = GridCellImages(path: .fast)
        let image = Self.thumbnail(), other = Self.thumbnail(seed: 8)
        let size = PixelSize(width: 106, height: 105)
        let first = crops.crop(of: PhotoID(4), thumbnail: image, size: size).pixels
        #expect(crops.crop(of: PhotoID(4), thumbnail: image, size: size).pixels === first)
        crops.frameDone()
        #expect(crops.crop(of: PhotoID(4), thumbnail: image, size: size).pixels === first, "kept: drawn in the last frame")
        #expect(crops.crop(of: PhotoID(4), thumbnail: image, size: PixelSize(width: 105, height: 105)).pixels !== first)
        let second = crops.crop(of: PhotoID(4), thumbnail: other, size: size).pixels
        #expect(second !== first, "a new thumbnail (the real one after a stand-in) makes a new crop")
        crops.frameDone()
        crops.frameDone()
        #expect(crops.crop(of: PhotoID(4), thumbnail: other, size: size).pixels !== second, "let go after a frame without its cell")
    }

    /// The crop a cell's layer draws by a plain copy, nil when the layer draws the thumbnail
    /// scaled.
    static func copiedCrop(_ layer: Layer) -> PixelBuffer? {
        guard case .image(let content) = layer.content else { return nil }
        return content.pixels
    }

    /// A cell is drawn scaled the first frame it shows at a size and from its crop from the
    /// second frame running on, the same pixels either way; a cell that changes size every
    /// frame (a scrubber's jump, an opening strip cell) is never cropped.
    @Test func aCellIsCroppedTheSecondFrameRunningItShowsAtASize() {
        let crops = GridCellImages(path: .fast)
        let image = Self.thumbnail()
        let cell = Rect(x: 107, y: 40, width: 106, height: 105)
        let first = crops.cell(of: PhotoID(4), thumbnail: image, in: cell, opacity: 1)
        #expect(Self.copiedCrop(first) == nil, "first frame: scaled")
        crops.frameDone()
        let second = crops.cell(of: PhotoID(4), thumbnail: image, in: cell, opacity: 1)
        let crop = Self.copiedCrop(second)
        #expect(crop?.width == 106 && crop?.height == 105, "second frame: the crop")
        crops.frameDone()
        #expect(Self.copiedCrop(crops.cell(of: PhotoID(4), thumbnail: image, in: cell, opacity: 1)) === crop, "kept")

        let compositor = Compositor(path: .fast)
        let scaled = PixelBuffer(width: 320, height: 200), copied = PixelBuffer(width: 320, height: 200)
        compositor.render(first, into: scaled)
        compositor.render(second, into: copied)
        #expect(ImageDifference(scaled, copied, tolerance: 0).maxChannel == 0)

        crops.frameDone()
        for width in 90..<95 {
            let growing = crops.cell(of: PhotoID(5), thumbnail: image, in: Rect(x: 0, y: 0, width: Double(width), height: 80), opacity: 1)
            #expect(Self.copiedCrop(growing) == nil, "a new size each frame: scaled at \(width)")
            crops.frameDone()
        }
    }
}
