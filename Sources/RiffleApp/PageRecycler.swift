import RiffleGeometry
import RiffleRaster

/// A page on screen: the photo it shows and what it keeps between frames (when it started
/// waiting for pixels, its laid-out error text). Reused for another photo when recycled, as
/// UIKit reuses table cells.
final class PageView {
    /// The photo shown.
    fileprivate(set) var index: Int
    /// Clock time the page first showed with nothing decoded, nil once it has pixels.
    var waitingSince: Double?
    /// The error page of this photo, laid out for a width in a colour with its detail text.
    var message: (width: Double, color: Color, detail: String, layer: Layer)?
    /// The badge saying this photo's file is damaged (or still arriving), laid out, and its text.
    var damageBadge: (text: String, badge: (layer: Layer, size: Size))?

    fileprivate init(index: Int) { self.index = index }

    fileprivate func prepare(for index: Int) {
        self.index = index
        waitingSince = nil
        message = nil
        damageBadge = nil
    }
}

/// Apple's tilePages: a set of visible pages and a set of recycled ones. A page leaving the
/// screen is recycled and reused for the page coming in, so however many photos the library
/// holds, only as many page objects exist as are ever on screen at once (two while sliding)
/// plus the recycled spare.
final class PageRecycler {
    private var visible: [Int: PageView] = [:]
    private var recycled: [PageView] = []
    /// How many page objects were ever made.
    private(set) var created = 0

    /// Page objects alive now, visible or recycled.
    var pageObjects: Int { visible.count + recycled.count }

    /// Recycles every visible page: the photos were renumbered, so what a page keeps for its
    /// index (its error text, its badge) may belong to another photo now.
    func recycleAll() {
        recycled += visible.values
        visible.removeAll()
    }

    /// The page objects for `indices` (the photos on screen, in order): pages no longer on
    /// screen are recycled first, then each new index takes a recycled page or a new one.
    func tile(_ indices: [Int]) -> [PageView] {
        let wanted = Set(indices)
        for (index, page) in visible where !wanted.contains(index) {
            visible[index] = nil
            recycled.append(page)
        }
        return indices.map { index in
            if let page = visible[index] { return page }
            let page: PageView
            if let reused = recycled.popLast() {
                reused.prepare(for: index)
                page = reused
            } else {
                page = PageView(index: index)
                created += 1
            }
            visible[index] = page
            return page
        }
    }
}
