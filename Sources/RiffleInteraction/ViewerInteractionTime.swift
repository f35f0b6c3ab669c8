import RiffleGeometry
import RifflePhysics

/// Time: timers fired and finished motions ended as the clock advances, pages tidied, and the
/// geometry of pages and the window that every concern reads.
extension ViewerInteraction {
    mutating func advance(to t: Double) {
        now = max(now, t)
        if let click = clicks.step(to: now) { perform(click) }
        for action in wheel.step(to: now) { perform(action) }
        for action in stripWheel.step(to: now) { performStrip(action) }
        paging.settle(at: now)
        if var strip = stripScroll {
            strip.settle(at: now)
            stripScroll = strip
            scrub()
            // At rest on a whole photo, which the pager shows: the strip follows the pager again.
            if strip.isAtRest, !stripPan.isPressed { stripScroll = nil }
        }
        dismiss.settle(at: now)
        for page in zooms.keys { zooms[page]?.settle(at: now) }
        for (page, animation) in turnAnimations where animation.isDone(at: now) { turnAnimations[page] = nil }
        if slideshow?.takeAdvance(at: now) == true { slideshowTurnsPage() }
        // A zoom still moving (an animation, a bounce, a pinch) keeps its label up.
        if zoomLabel.isAnimating(at: now), let page = zoomLabelPage, let zoom = zooms[page], zoom.isAnimating || zoom.isTracking {
            zoomLabel.zoomChanged(at: now)
        }
        tidy()
    }

    // Forgets zoom models that rest at fit, and resets pages the user has left: off screen and
    // not current, or not current once the strip has settled.
    mutating func tidy() {
        // The pager set moving by anything but the strip (a key, a drag on the photo): the strip
        // lets go and follows it.
        if stripScroll != nil, paging.isAnimating || paging.isDragging { stripScroll = nil }
        let current = paging.currentPage(at: now)
        if let page = zoomLabelPage, page != current {
            zoomLabel = ZoomLabel()
            zoomLabelPage = nil
        }
        let settled = !paging.isAnimating && !paging.isDragging
        let visible = visiblePages(at: paging.position(at: now))
        for (page, model) in zooms {
            let left = page != current && (settled || !visible.contains(page))
            // A page a gesture still holds is kept while it is on screen.
            if model.isRestingAtFit || (left && !(model.isTracking && visible.contains(page))) {
                zooms[page] = nil
            }
        }
        // A page left while it turns shows its turn at rest when seen again.
        for page in turnAnimations.keys where page != current && (settled || !visible.contains(page)) {
            turnAnimations[page] = nil
        }
    }

    // Pages whose span [i·pw − offset, i·pw − offset + vw) overlaps the window (0, vw).
    func visiblePages(at offset: Double) -> [Int] {
        let pw = paging.pageWidth, vw = viewport.width
        guard pw > 0 else { return [currentPage] }
        let low = max(Int(((offset - vw) / pw).rounded(.down)), 0)
        let high = min(Int(((offset + vw) / pw).rounded(.up)), pageCount - 1)
        guard low <= high else { return [] }
        return (low...high).filter { index in
            let left = Double(index) * pw - offset
            return left < vw && left + vw > 0
        }
    }

    func zoomModel(_ page: Int) -> ZoomScrollModel {
        zooms[page] ?? ZoomScrollModel(bounds: zoomBounds(forPage: page))
    }

    // A window point in page `page`'s coordinates.
    func pagePoint(_ window: Point, page: Int) -> Point {
        Point(x: window.x - (Double(page) * paging.pageWidth - paging.position(at: now)), y: window.y)
    }

    var viewportCentre: Point { Point(x: viewport.width / 2, y: viewport.height / 2) }
}
