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
///
/// A crop is made the second frame running a cell shows at a size (`cell(of:thumbnail:turn:in:opacity:)`):
/// its first frame draws the thumbnail scaled straight into the cell, banded across the
/// compositor's threads. A cell that shows for one frame only (a scrubber's jump, a fast
/// fling, a level's first frame) then costs one scaled draw, not a crop made on this thread and
/// let go, and a screen of new cells is not cropped one after another on the frame's thread.
final class GridCellImages {
    private struct Crop {
        /// The thumbnail, turn and size it was made from.
        let sighting: Sighting
        let image: ImageContent
    }

    /// What a cell shows: its thumbnail (by identity), turned, at a size.
    private struct Sighting: Equatable {
        let source: ObjectIdentifier
        let turn: Rotation
        let size: PixelSize
    }

    /// Draws the crops; one thread, no bands (a cell is a few rows of one band).
    private let compositor: Compositor
    private var crops: [PhotoID: Crop] = [:]
    private var used: Set<PhotoID> = []
    /// What each cell drawn scaled showed in the last frame and in this one.
    private var shownBefore: [PhotoID: Sighting] = [:]
    private var shownNow: [PhotoID: Sighting] = [:]

    /// Crops drawn with `path` (the reference path when the app forces it).
    init(path: RasterPath) {
        compositor = Compositor(path: path)
    }

    /// `photo`'s `thumbnail` turned by `turn` (whole quarter turns), cropped to its centre and
    /// scaled to `size`: the one made before when it was made from the same thumbnail, turn and
    /// size, else made now.
    func crop(of photo: PhotoID, thumbnail: ImageContent, turn: Rotation = .none, size: PixelSize) -> ImageContent {
        used.insert(photo)
        let sighting = Sighting(source: ObjectIdentifier(thumbnail.pixels), turn: turn, size: size)
        if let crop = crops[photo], crop.sighting == sighting { return crop.image }
        let pixels = PixelBuffer(width: size.width, height: size.height)
        compositor.render(
            GridView.centreCrop(thumbnail, turn: turn, in: Rect(origin: .zero, size: Size(size)), opacity: 1), into: pixels)
        let image = ImageContent(pixels: pixels, isOpaque: thumbnail.isOpaque)
        crops[photo] = Crop(sighting: sighting, image: image)
        return image
    }

    /// `photo`'s `thumbnail` turned by `turn` in the cell `rect` (whole pixels) at `opacity`:
    /// its crop drawn by a plain copy when the crop exists or the cell showed the same
    /// thumbnail at the same size in the last frame, else the thumbnail scaled into the cell
    /// (`GridView.centreCrop`), the same pixels.
    func cell(of photo: PhotoID, thumbnail: ImageContent, turn: Rotation = .none, in rect: Rect, opacity: Double) -> Layer {
        let size = PixelSize(width: Int(rect.width), height: Int(rect.height))
        let sighting = Sighting(source: ObjectIdentifier(thumbnail.pixels), turn: turn, size: size)
        guard size.width > 0, size.height > 0, crops[photo]?.sighting == sighting || shownBefore[photo] == sighting else {
            shownNow[photo] = sighting
            return GridView.centreCrop(thumbnail, turn: turn, in: rect, opacity: opacity)
        }
        return Layer(
            transform: ScaleTranslate(offset: rect.origin), opacity: opacity,
            content: .image(crop(of: photo, thumbnail: thumbnail, turn: turn, size: size)))
    }

    /// `rect`, a cell of a view scrolled to `scroll` (its content y minus the window's), with
    /// its edges on whole pixels: the content rect's edges rounded, moved by the scroll
    /// rounded, so a cell keeps its size, and its crop, while the view scrolls (no edge
    /// shimmers): rect.minY = content y − scroll, so content y − round(scroll) = rect.minY + shift.
    static func onPixels(_ rect: Rect, scroll: Double) -> Rect {
        let shift = scroll - scroll.rounded()
        let x0 = rect.minX.rounded(), x1 = rect.maxX.rounded()
        let y0 = (rect.minY + shift).rounded(), y1 = (rect.maxY + shift).rounded()
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// A frame was built: the crops of cells it did not draw are let go, and the cells it drew
    /// scaled are the ones the next frame crops if they stay.
    func frameDone() {
        crops = crops.filter { used.contains($0.key) }
        used = []
        shownBefore = shownNow
        shownNow = [:]
    }
}
