import RiffleGeometry
import RiffleLibrary
import RiffleRaster

/// The visible cells' thumbnails drawn once at their cells' pixel size: a centre crop made the
/// first time a cell shows a thumbnail at a size, then drawn by a plain copy (`FastBilinear`'s
/// 1:1 path) every frame the cell keeps that size, instead of being scaled again.
///
/// A crop is the very pixels the compositor would draw from the thumbnail into a cell at whole
/// pixels (`GridView.centreCrop` rendered into a transparent buffer of the cell's size, then
/// drawn source-over at opacity 1: premultiplied, so the same result), so a grid drawn from
/// crops matches one drawn from the thumbnails. Only the cells of the last frame are kept:
/// memory is one screen of cells (60 cells of 190 px at 1920 × 1080: 8.7 MB).
final class GridCellImages {
    private struct Crop {
        /// The thumbnail it was made from.
        let source: ObjectIdentifier
        let turn: Rotation
        let size: PixelSize
        let image: ImageContent
    }

    /// Draws the crops; one thread, no bands (a cell is a few rows of one band).
    private let compositor: Compositor
    private var crops: [PhotoID: Crop] = [:]
    private var used: Set<PhotoID> = []

    /// Crops drawn with `path` (the reference path when the app forces it).
    init(path: RasterPath) {
        compositor = Compositor(path: path)
    }

    /// `photo`'s `thumbnail` turned by `turn` (whole quarter turns), cropped to its centre and
    /// scaled to `size`: the one made before when it was made from the same thumbnail, turn and
    /// size, else made now.
    func crop(of photo: PhotoID, thumbnail: ImageContent, turn: Rotation = .none, size: PixelSize) -> ImageContent {
        used.insert(photo)
        let source = ObjectIdentifier(thumbnail.pixels)
        if let crop = crops[photo], crop.source == source, crop.turn == turn, crop.size == size { return crop.image }
        let pixels = PixelBuffer(width: size.width, height: size.height)
        compositor.render(
            GridView.centreCrop(thumbnail, turn: turn, in: Rect(origin: .zero, size: Size(size)), opacity: 1), into: pixels)
        let image = ImageContent(pixels: pixels, isOpaque: thumbnail.isOpaque)
        crops[photo] = Crop(source: source, turn: turn, size: size, image: image)
        return image
    }

    /// A frame was built: the crops of cells it did not draw are let go.
    func frameDone() {
        crops = crops.filter { used.contains($0.key) }
        used = []
    }
}
