import RiffleGeometry
import RiffleLibrary
import RiffleRaster

/// A page on screen: the photo it shows and what it keeps between frames (when it started
/// waiting for pixels, its laid-out error text). Reused for another photo when recycled, as
/// UIKit reuses table cells.
final class PageView {
    /// The photo shown.
    fileprivate(set) var photo: PhotoID
    /// Clock time the page first showed with nothing decoded, nil once it has pixels.
    var waitingSince: Double?
    /// The error page of this photo, laid out for a width in a colour with its detail text.
    var message: (width: Double, color: Color, detail: String, layer: Layer)?
    /// The badge saying this photo's file is damaged (or still arriving), laid out, and its text.
    var damageBadge: (text: String, badge: (layer: Layer, size: Size))?
    /// The photo's upright size read from its header for its placeholder (`PagePlaceholder`),
    /// nil when the header could not be read; meaningful once `isShapeRead`.
    var shape: PixelSize?
    /// True once the header was read for `shape` (read once per photo shown, not every frame).
    var isShapeRead = false

    fileprivate init(photo: PhotoID) { self.photo = photo }

    fileprivate func prepare(for photo: PhotoID) {
        self.photo = photo
        waitingSince = nil
        message = nil
        damageBadge = nil
        shape = nil
        isShapeRead = false
    }
}

/// Apple's tilePages: a set of visible pages and a set of recycled ones. A page leaving the
/// screen is recycled and reused for the page coming in, so however many photos the library
/// holds, only as many page objects exist as are ever on screen at once (two while sliding)
/// plus the recycled spare. Pages belong to photos (`PhotoID`), not to places: a photo that
/// moves to another place as the folders change keeps its page and what it holds.
final class PageRecycler {
    private var visible: [PhotoID: PageView] = [:]
    private var recycled: [PageView] = []
    /// How many page objects were ever made.
    private(set) var created = 0

    /// Page objects alive now, visible or recycled.
    var pageObjects: Int { visible.count + recycled.count }

    /// The page objects for `photos` (those on screen, in order): pages no longer on screen are
    /// recycled first, then each new photo takes a recycled page or a new one.
    func tile(_ photos: [PhotoID]) -> [PageView] {
        let wanted = Set(photos)
        for (photo, page) in visible where !wanted.contains(photo) {
            visible[photo] = nil
            recycled.append(page)
        }
        return photos.map { photo in
            if let page = visible[photo] { return page }
            let page: PageView
            if let reused = recycled.popLast() {
                reused.prepare(for: photo)
                page = reused
            } else {
                page = PageView(photo: photo)
                created += 1
            }
            visible[photo] = page
            return page
        }
    }
}
