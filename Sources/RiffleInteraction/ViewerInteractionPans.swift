import RiffleGeometry
import RifflePhysics

/// Pans (pointer drags and trackpad scrolls) routed between the zoomed photo, the paging strip
/// and the dismiss drag, as the type's documentation describes.
extension ViewerInteraction {
    // `lock`: where a pointer pan locked its axis (nil for a trackpad's, which has no axis).
    mutating func beginDrag(axis: Axis?, lock: Point?, source: Source) {
        paging.grab(at: now)
        let page = paging.dragStartPage ?? currentPage
        var zoom = zoomModel(page)
        zoom.grab(at: now)
        let zoomed = zoom.bounds.isZoomed(zoom.transform(at: now))
        // A zoomed photo dismisses only when pulled down from its top edge, where it rests (or
        // bounces) showing its top: Photos' rule, so that panning a zoomed photo never closes it.
        let pulledDownFromTop = lock.map { libraryBehind && $0.y > pressPosition.y && isShowingTopEdge(zoom) } ?? false
        if axis == .vertical, let lock, !zoomed || pulledDownFromTop, abs(paging.dragDisplacement) < Tolerance.pixels.distance {
            paging.release(velocity: 0, at: now)
            zoom.release(velocity: .zero, at: now)
            dismiss.grab(at: now, anchor: lock)
            drag = Drag(route: .dismiss, source: source)
        } else {
            drag = Drag(route: .photo(page: page, bothAxes: zoomed), source: source)
        }
        zooms[page] = zoom
    }

    mutating func dragChanged(by delta: Point) {
        guard let drag else { return }
        switch drag.route {
        case .dismiss:
            dismiss.drag(by: delta)
        case let .photo(page, bothAxes):
            // Finger motion right moves the strip's position left: position change = −dx.
            var change = paging.dragTowardsStartPage(by: -delta.x)
            if paging.dragDisplacement != 0 {
                paging.drag(by: change)
                change = 0
            }
            var zoom = zoomModel(page)
            let leftover = zoom.pan(by: Point(x: -change, y: bothAxes ? delta.y : 0), at: now)
            paging.drag(by: -leftover)
            zooms[page] = zoom
        }
    }

    mutating func endDrag(velocity: Point) {
        guard let ended = drag else { return }
        drag = nil
        switch ended.route {
        case .dismiss:
            if libraryBehind, dismiss.dismisses(releasedWith: velocity, viewportHeight: viewport.height) {
                let page = currentPage
                let shown = zoomModel(page).transform(at: now).apply(Rect(origin: .zero, size: zoomBounds(forPage: page).content))
                let state = dismiss.dismiss(velocity: velocity, photoFrame: shown, viewportHeight: viewport.height, at: now)
                commands.append(.dismiss(from: state))
            } else {
                dismiss.release(velocity: velocity, at: now)
            }
        case let .photo(page, bothAxes):
            var zoom = zoomModel(page)
            if paging.dragDisplacement != 0 {
                paging.release(velocity: -velocity.x, at: now)
                zoom.release(velocity: Point(x: 0, y: bothAxes ? velocity.y : 0), at: now)
            } else {
                paging.release(velocity: 0, at: now)
                zoom.release(velocity: bothAxes ? velocity : .zero, at: now)
            }
            zooms[page] = zoom
        }
    }

    mutating func perform(_ output: PanRecognizer.Output) {
        switch output {
        case let .began(axis, position, time):
            if let click = clicks.cancelSecondPress(time: time) { perform(click) }
            if drag?.source == .precise { endDrag(velocity: .zero) }
            beginDrag(axis: axis, lock: position, source: .pointer)
        case let .changed(delta, _):
            if drag?.source == .pointer { dragChanged(by: delta) }
        case let .ended(velocity, _):
            if drag?.source == .pointer { endDrag(velocity: velocity) }
        case let .tap(position, time):
            if pressOnlyFocuses { break }
            if let click = clicks.tap(at: position, time: time) { perform(click) }
        }
    }
}
