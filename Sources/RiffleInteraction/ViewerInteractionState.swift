import RiffleGeometry
import RifflePhysics

/// What the model shows: whether it moves, whether it rests, and the frame to draw.
extension ViewerInteraction {
    /// True while anything moves with time alone or a timer is outstanding: frames are needed.
    public var isAnimating: Bool {
        !isSettled || zoomLabel.isAnimating(at: now) || slideshowLabel.isAnimating(at: now) || chrome.isAnimating(at: now)
    }

    /// True when the pages, their zooms, the background and the gesture timers will not change
    /// with time alone (the zoom label may still fade): what is shown is where it rests, so a
    /// sharper decode of it is worth asking for.
    public var isSettled: Bool {
        !(paging.isAnimating || stripScroll != nil || zooms.values.contains { $0.isAnimating } || !turnAnimations.isEmpty
            || dismiss.isAnimating
            || fade.isAnimating(at: now) || clicks.isPending || wheel.deadline != nil || stripWheel.deadline != nil)
    }

    /// The frame to draw, as of `now`.
    public var renderState: ViewerRenderState {
        let offset = paging.position(at: now)
        let current = currentPage
        let pages = visiblePages(at: offset).map { index in
            let shown = pagePlacement(index)
            return ViewerRenderState.Page(
                index: index, originX: Double(index) * paging.pageWidth - offset, transform: shown.transform,
                rotation: shown.rotation)
        }
        return ViewerRenderState(
            viewport: viewport, pageWidth: paging.pageWidth, pagingOffset: offset, currentPage: currentPage,
            pages: pages, backgroundBlackness: fade.blackness(at: now), chromeVisible: fade.chromeVisible,
            dismissOffset: dismiss.offset(at: now),
            dismissTransform: dismiss.transform(at: now, viewportHeight: viewport.height),
            dismissBackgroundAlpha: dismiss.backgroundAlpha(at: now, viewportHeight: viewport.height),
            isAnimating: isAnimating,
            chrome: chrome.renderState(at: now),
            zoomLabel: ViewerRenderState.ZoomLabel(
                scale: (zooms[current]?.transform(at: now) ?? zoomBounds(forPage: current).fitTransform).scale,
                opacity: zoomLabel.opacity(at: now)),
            strip: ViewerRenderState.Strip(
                layout: stripLayout, position: stripPosition, cells: stripLayout.cells(at: stripPosition, aspect: aspect)),
            slideshowLabel: ViewerRenderState.SlideshowLabel(
                text: slideshowLabel.message?.text ?? "", opacity: slideshowLabel.opacity(at: now)))
    }

    /// How page `page` is shown now: the transform of its photo's turned bounding box into the
    /// page, and the turn (its zoom in its turned frame at rest; the turn's placement while it
    /// turns).
    func pagePlacement(_ page: Int) -> (transform: ScaleTranslate, rotation: Rotation) {
        let zoom = zooms[page]?.transform(at: now) ?? zoomBounds(forPage: page).fitTransform
        guard let animation = turnAnimations[page] else { return (zoom, rotation(ofPage: page)) }
        let content = content(ofPage: page)
        let resting = TurnAnimation.Placement(transform: zoom, rotation: rotation(ofPage: page), content: content)
        let shown = animation.placement(at: now, toward: resting)
        return (shown.boxTransform(content: content), shown.rotation)
    }
}
