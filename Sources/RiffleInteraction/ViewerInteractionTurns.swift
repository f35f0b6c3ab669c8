import RiffleGeometry
import RifflePhysics

/// Quarter turns of the current photo and the slideshow, paused by any input the pager acts on.
extension ViewerInteraction {
    // Turns the current page by `quarters` quarter turns from where its turn is going: at fit it
    // comes to rest at the turned fit; zoomed, it keeps its scale (clamped into the turned
    // limits) and the picture point under the window's centre, as far as bounds allow. The
    // photo moves there along `TurnAnimation` from where it is shown now.
    mutating func turnCurrentPage(by quarters: Int) {
        guard pinchPage == nil, wheelZoomPage == nil else { return }
        let page = currentPage
        let content = content(ofPage: page)
        let oldTurn = rotation(ofPage: page), oldBounds = zoomBounds(forPage: page)
        let shown = pagePlacement(page)
        let from = TurnAnimation.Placement(transform: shown.transform, rotation: shown.rotation, content: content)
        let resting = zoomModel(page).restingTransform(at: now)
        let target = Rotation(quarterTurns: (turnAnimations[page]?.to ?? oldTurn).quarterTurns + Double(quarters))
        turns[page] = target.wholeQuarters
        let bounds = zoomBounds(forPage: page)
        var transform = bounds.fitTransform
        if oldBounds.isZoomed(resting) {
            let picturePoint = oldTurn.unturn(resting.invert(viewportCentre), inPictureOf: content)
            let point = rotation(ofPage: page).turn(picturePoint, inPictureOf: content)
            let scale = bounds.clampScale(resting.scale)
            transform = ScaleTranslate(scale: scale, offset: bounds.clampOffset(viewportCentre - point * scale, scale: scale))
        }
        zooms[page] = ZoomScrollModel(bounds: bounds, resting: transform)
        let end = TurnAnimation.Placement(transform: transform, rotation: target, content: content)
        turnAnimations[page] = TurnAnimation(from: from, to: end, content: content, start: now)
    }

    // s: a running slideshow pauses; otherwise one starts (again) from now, its beat with it.
    mutating func toggleSlideshow() {
        if slideshow?.isRunning == true {
            slideshow?.pause()
            slideshowLabel.show(.paused, at: now)
        } else {
            startSlideshow(at: now)
        }
    }

    // The slideshow's page turn, as Space does; past the last photo it goes back to the first as
    // Home does when it loops, and ends otherwise.
    mutating func slideshowTurnsPage() {
        let page = currentPage
        if page < pageCount - 1 {
            paging.scroll(toPage: page + 1, at: now)
        } else if slideshowSettings.loops, pageCount > 1 {
            paging.scroll(toPage: 0, fromNeighbour: true, at: now)
        } else {
            slideshow?.end()
            slideshowLabel.show(.ended, at: now)
        }
    }


    // Any input the pager acts on pauses a running slideshow (docs/physics.md, "Slideshow"): a
    // press (a click, the start of a drag), the wheel, a pinch, any key but s (which toggles
    // it). The pointer merely moving (the bars showing) does not.
    mutating func pauseSlideshow(on event: InputEvent) {
        guard slideshow?.isRunning == true else { return }
        switch event {
        case .pointerDown, .scroll, .pinch:
            break
        case let .key(key, modifiers, _, _):
            if KeyMap.command(for: key, modifiers: modifiers, in: .pager) == .pager(.toggleSlideshow) { return }
        default:
            return
        }
        slideshow?.pause()
        slideshowLabel.show(.paused, at: now)
    }
}
