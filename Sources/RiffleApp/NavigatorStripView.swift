import RiffleGeometry
import RiffleInteraction
import RiffleLibrary
import RifflePipeline
import RiffleRaster

/// Draws the pager's navigator strip from `ViewerRenderState.Strip`: a translucent plate along
/// the bottom (as the top bar's), one centre-cropped thumbnail per cell on screen (a grey
/// plate while it is on its way), at the chrome's opacity.
///
/// The thumbnails come from the strip's own `ThumbnailStore` (`DecodeClient.strip`), asked only
/// for the cells on screen and `aheadCells` either side; each is cropped once per cell size
/// (`GridCellImages`) and drawn by a plain copy, so only the (at most two) opening cells, whose
/// size changes every frame, are drawn scaled while the pager slides.
final class NavigatorStripView {
    /// Cells either side of those on screen whose thumbnails are asked for too, so a scrub of a
    /// few photos finds them ready (Riffle's choice: about a quarter of a 1280 px strip).
    static let aheadCells = 12
    /// A cell waiting for its thumbnail: iOS's systemGray (#8E8E93), readable on black and white.
    static let placeholder = Color(red: 0x8E, green: 0x8E, blue: 0x93)

    private let thumbnails: ThumbnailStore
    private let crops: GridCellImages
    private var shown: Range<Int> = 0..<0

    /// A strip drawing `thumbnails`, cropping with `path`.
    init(thumbnails: ThumbnailStore, path: RasterPath) {
        self.thumbnails = thumbnails
        crops = GridCellImages(path: path)
    }

    /// Asks for the thumbnails of `strip`'s cells (places in `photos`) when it shows
    /// (`visible`), nothing otherwise; takes in those that arrived at `now` and returns true when
    /// one of them is on screen.
    func update(_ strip: ViewerRenderState.Strip, of photos: PhotoOrder, visible: Bool, now: Double) -> Bool {
        thumbnails.resize(cellSize: Int(strip.layout.cellHeight))
        if visible, let first = strip.cells.first?.index, let last = strip.cells.last?.index {
            shown = first..<(last + 1)
            thumbnails.show(visible: shown, ahead: (first - Self.aheadCells)..<(last + 1 + Self.aheadCells))
        } else {
            shown = 0..<0
            thumbnails.show(visible: 0..<0, ahead: 0..<0)
        }
        return thumbnails.absorbResults(at: now).contains { photos.index(of: $0).map(shown.contains) ?? false }
    }

    /// The strip's layers at `opacity` on black (`dark`) or white, its cells the photos at their
    /// places in `photos`, each turned by `turnOfPhoto` as the pager shows it; empty when hidden.
    func layers(
        _ strip: ViewerRenderState.Strip, of photos: PhotoOrder, opacity: Double, dark: Bool, turnOfPhoto: (Int) -> Rotation
    ) -> [Layer] {
        defer { crops.frameDone() }
        guard opacity > 0 else { return [] }
        var layers = [Layer(
            opacity: dark ? ChromeView.darkPlateOpacity : ChromeView.lightPlateOpacity,
            content: .fill(strip.layout.band, dark ? .black : .white))]
        for cell in strip.cells {
            // Whole pixels, as pages move: the crop is then drawn by a plain copy.
            let left = cell.frame.minX.rounded(), right = cell.frame.maxX.rounded()
            let rect = Rect(x: left, y: cell.frame.minY.rounded(), width: right - left, height: cell.frame.height.rounded())
            guard rect.width >= 1, rect.height >= 1 else { continue }
            if let photo = photos.photo(at: cell.index), case let .thumbnail(image, _, _) = thumbnails.state(of: photo.id) {
                let picture = crops.cell(of: photo.id, thumbnail: image, turn: turnOfPhoto(cell.index), in: rect, opacity: 1)
                layers.append(image.isOpaque ? picture : Layer(sublayers: [Layer(content: .fill(rect, Self.placeholder)), picture]))
            } else {
                layers.append(Layer(content: .fill(rect, Self.placeholder)))
            }
        }
        return [Layer(opacity: opacity, sublayers: layers)]
    }
}
