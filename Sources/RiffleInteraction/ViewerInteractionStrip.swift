import RiffleGeometry
import RifflePhysics

/// The navigator strip driven by the user: drags, flicks, clicks and the wheel on its band, the
/// pager following the photo under its centre.
extension ViewerInteraction {
    // The strip's own model, starting where the strip shows now (it followed the pager).
    func newStripScroll() -> NavigatorStripScroll {
        NavigatorStripScroll(count: pageCount, pitch: stripLayout.pitch, viewportWidth: viewport.width, position: stripPosition)
    }

    mutating func performStrip(_ output: PanRecognizer.Output) {
        guard drag == nil else { return }
        switch output {
        case .began:
            var strip = stripScroll ?? newStripScroll()
            strip.grab(at: now)
            stripScroll = strip
        case let .changed(delta, _):
            stripScroll?.drag(by: delta.x, at: now)
        case let .ended(velocity, _):
            stripScroll?.release(velocityX: velocity.x, at: now)
        case let .tap(position, _):
            guard let index = stripLayout.index(at: position, position: stripPosition, aspect: aspect) else { return }
            var strip = stripScroll ?? newStripScroll()
            strip.scroll(toPhoto: index, at: now)
            stripScroll = strip
        }
        scrub()
    }

    // A trackpad's continuous pan over the strip drags it like a pointer: the fingers' motion
    // along either axis, up or left being towards earlier photos (as a notch); its end lets go
    // with the fingers' velocity.
    mutating func performStrip(_ action: WheelRecognizer.Action) {
        switch action {
        case let .precisePan(delta):
            var strip = stripScroll ?? newStripScroll()
            if !strip.isDragging { strip.grab(at: now) }
            strip.drag(by: delta.x + delta.y, at: now)
            stripScroll = strip
        case let .endPrecisePan(velocity):
            stripScroll?.release(velocityX: velocity.x + velocity.y, at: now)
        case .zoom, .endZoom, .panStep, .page:
            return
        }
        scrub()
    }

    // Shows the photo under the strip's centre at once, without the page slide.
    mutating func scrub() {
        guard let strip = stripScroll else { return }
        let photo = strip.photo(at: now)
        if photo != paging.currentPage(at: now) || paging.isAnimating || paging.isDragging {
            paging = PagingScrollModel(pageCount: paging.pageCount, viewportWidth: viewport.width, page: photo)
        }
    }
}
