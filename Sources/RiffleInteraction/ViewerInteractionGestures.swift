import RiffleGeometry
import RifflePhysics

/// Clicks, the wheel and pinches: double-click zoom, wheel paging and zoom, pinch zoom, and the
/// zooms they animate.
extension ViewerInteraction {
    mutating func perform(_ click: ClickRecognizer.Click) {
        switch click {
        case let .single(_, time):
            fade.toggle(at: time)
            chrome.setPinned(fade.chromeVisible, at: time)
        case let .double(position, _):
            let page = currentPage
            var zoom = zoomModel(page)
            let bounds = zoom.bounds
            if bounds.isZoomed(zoom.restingTransform(at: now)) {
                zoom.animate(to: bounds.fitTransform, at: now)
            } else {
                // Zoom to 2.5 × fit with the clicked image point centred as far as bounds allow.
                let point = zoom.transform(at: now).invert(pagePoint(position, page: page))
                let scale = bounds.doubleClickScale
                zoom.animate(
                    to: ScaleTranslate(scale: scale, offset: bounds.clampOffset(viewportCentre - point * scale, scale: scale)),
                    at: now)
            }
            zooms[page] = zoom
            showZoomLabel(page)
        }
    }

    mutating func perform(_ action: WheelRecognizer.Action) {
        switch action {
        case let .zoom(factor, anchor):
            guard drag == nil else { return }
            let page = currentPage
            var zoom = zoomModel(page)
            if wheelZoomPage != page { zoomOut = ZoomOutDismissal(bounds: zoom.bounds, startScale: zoom.transform(at: now).scale) }
            zoom.zoom(by: factor, anchor: pagePoint(anchor, page: page), at: now)
            zoomOut?.zoomed(to: zoom.transform(at: now).scale)
            zooms[page] = zoom
            wheelZoomPage = page
            showZoomLabel(page)
        case .endZoom:
            guard let page = wheelZoomPage else { return }
            wheelZoomPage = nil
            if case let .photo(dragged, _)? = drag?.route, dragged == page { return }
            if pinchPage == page { return }
            endZoomGesture(page)
        case let .panStep(translation):
            guard drag == nil else { return }
            panZoomedPhoto(by: translation)
        case let .page(direction):
            guard drag == nil else { return }
            paging.scroll(toPage: currentPage + direction, at: now)
        case let .precisePan(delta):
            if drag?.source == .pointer { return }
            if drag == nil { beginDrag(axis: nil, lock: nil, source: .precise) }
            dragChanged(by: delta)
        case let .endPrecisePan(velocity):
            if drag?.source == .precise { endDrag(velocity: velocity) }
        }
    }

    mutating func pinch(factor: Double, center: Point, phase: GesturePhase) {
        guard drag == nil else { return }
        let page = pinchPage ?? currentPage
        var zoom = zoomModel(page)
        if phase == .began || pinchPage == nil {
            zoomOut = ZoomOutDismissal(bounds: zoom.bounds, startScale: zoom.transform(at: now).scale)
        }
        zoom.zoom(by: factor, anchor: pagePoint(center, page: page), at: now)
        zoomOut?.zoomed(to: zoom.transform(at: now).scale)
        showZoomLabel(page)
        zooms[page] = zoom
        if phase == .ended {
            pinchPage = nil
            endZoomGesture(page)
        } else {
            pinchPage = page
        }
    }

    // A zoom gesture on `page` ended: below 0.7 × fit (having begun at fit) it closes the photo
    // into the library, from where it is shown; else the zoom bounces back into its limits.
    mutating func endZoomGesture(_ page: Int) {
        let shown = zooms[page]?.transform(at: now)
        if libraryBehind, let shown, zoomOut?.dismisses(endingAt: shown.scale) == true {
            let frame = shown.apply(Rect(origin: .zero, size: zoomBounds(forPage: page).content))
            commands.append(.dismiss(from: PhotoTransition.State(frame: frame, backgroundAlpha: 1)))
            zooms[page] = nil
        } else {
            zooms[page]?.release(velocity: .zero, at: now)
        }
        zoomOut = nil
    }

    /// True when `zoom`'s photo will rest with its top edge in view (its offset at the top of
    /// its range), within a pixel.
    func isShowingTopEdge(_ zoom: ZoomScrollModel) -> Bool {
        let resting = zoom.restingTransform(at: now)
        return resting.offset.y >= zoom.bounds.offsetRange(.vertical, scale: resting.scale).upperBound - Tolerance.pixels.distance
    }

    /// Page `page`'s photo frame at fit in window pixels (the current page rests at x = 0).
    func photoFrame(_ page: Int) -> Rect {
        let bounds = zoomBounds(forPage: page)
        return bounds.fitTransform.apply(Rect(origin: .zero, size: bounds.content))
    }

    // Animates the current page from where it will rest to the scale `scale(restingScale)`
    // (clamped to the limits), keeping the image point at the window centre there as far as
    // bounds allow; repeated presses compose on the previous target.
    mutating func zoomAboutCentre(to scale: (Double) -> Double) {
        let page = currentPage
        var zoom = zoomModel(page)
        let target = zoom.restingTransform(at: now)
        let bounds = zoom.bounds
        let newScale = bounds.clampScale(scale(target.scale))
        let point = target.invert(viewportCentre)
        zoom.animate(
            to: ScaleTranslate(scale: newScale, offset: bounds.clampOffset(viewportCentre - point * newScale, scale: newScale)),
            at: now)
        zooms[page] = zoom
        showZoomLabel(page)
    }

    mutating func showZoomLabel(_ page: Int) {
        zoomLabel.zoomChanged(at: now)
        zoomLabelPage = page
    }

    // Animates a zoomed current page's resting offset by `translation`, within bounds.
    mutating func panZoomedPhoto(by translation: Point) {
        let page = currentPage
        var zoom = zoomModel(page)
        let target = zoom.restingTransform(at: now)
        guard zoom.bounds.isZoomed(target) else { return }
        zoom.animate(
            to: ScaleTranslate(scale: target.scale, offset: zoom.bounds.clampOffset(target.offset + translation, scale: target.scale)),
            at: now)
        zooms[page] = zoom
    }
}
