import RiffleGeometry
import RifflePhysics

/// Keys, the chrome's buttons and the arrows: each a command of the key map (`KeyMap`) or a
/// button released over itself.
extension ViewerInteraction {
    mutating func perform(_ command: KeyCommand) {
        switch command {
        case .quit:
            commands.append(.app(.quit))
            return
        case .escape:
            // Fullscreen is the scene's: its Escape leaves it before the pager's is asked.
            if chrome.closePanel(at: now) { return }
            if libraryBehind {
                commands.append(.dismiss(from: nil))
            } else {
                commands.append(.app(.quit))
            }
            return
        case .backToLibrary:
            if libraryBehind { commands.append(.dismiss(from: nil)) }
            return
        case .toggleInfo:
            chrome.toggle(.info, at: now)
            return
        case .toggleHelp:
            chrome.toggle(.help, at: now)
            return
        case .toggleSlideshow:
            toggleSlideshow()
            return
        default:
            break
        }
        guard drag == nil else { return }
        switch command {
        case .previousPage: paging.scroll(toPage: currentPage - 1, at: now)
        case .nextPage: paging.scroll(toPage: currentPage + 1, at: now)
        case .firstPage: paging.scroll(toPage: 0, fromNeighbour: true, at: now)
        case .lastPage: paging.scroll(toPage: pageCount - 1, fromNeighbour: true, at: now)
        case let .arrow(direction): arrow(direction)
        case .zoomIn: zoomAboutCentre(to: { $0 * WheelRecognizer.zoomPerNotch })
        case .zoomOut: zoomAboutCentre(to: { $0 / WheelRecognizer.zoomPerNotch })
        case .zoomToFit: zoomAboutCentre(to: { _ in 0 })
        case .zoomToActualSize: zoomAboutCentre(to: { _ in 1 })
        case .rotateClockwise: turnCurrentPage(by: 1)
        case .rotateAnticlockwise: turnCurrentPage(by: -1)
        case .quit, .escape, .backToLibrary, .toggleInfo, .toggleHelp, .toggleSlideshow: break
        }
    }


    // A chrome button released over itself.
    mutating func perform(_ button: ChromeButton) {
        switch button {
        case .back:
            if libraryBehind { commands.append(.dismiss(from: nil)) }
        case .info:
            chrome.toggle(.info, at: now)
        case .zoom:
            guard drag == nil else { return }
            let page = currentPage
            let zoom = zoomModel(page)
            let zoomed = zoom.bounds.isZoomed(zoom.restingTransform(at: now))
            zoomAboutCentre(to: { _ in zoomed ? 0 : 1 })
        case .fullscreen:
            commands.append(.toggleFullscreen)
        }
    }

    // An arrow pans a zoomed photo a third of the window the arrow's way (Right shows more of
    // its right side: the photo moves left) through the pan animation, stopping at the edge;
    // Left and Right at that edge, or at fit, turn the page instead, as a drag hands over.
    mutating func arrow(_ direction: ArrowDirection) {
        let axis: Axis = direction == .left || direction == .right ? .horizontal : .vertical
        let sign: Double = direction == .left || direction == .up ? 1 : -1
        let page = currentPage
        let zoom = zoomModel(page)
        let target = zoom.restingTransform(at: now)
        let range = zoom.bounds.offsetRange(axis, scale: target.scale)
        let atEdge = sign > 0
            ? target.offset[axis] >= range.upperBound - Tolerance.pixels.distance
            : target.offset[axis] <= range.lowerBound + Tolerance.pixels.distance
        if zoom.bounds.isZoomed(target), !atEdge {
            let step = viewport[axis] * Self.arrowPanFraction * sign
            panZoomedPhoto(by: axis == .horizontal ? Point(x: step, y: 0) : Point(x: 0, y: step))
        } else if axis == .horizontal {
            paging.scroll(toPage: page - Int(sign), at: now)
        }
    }
}
