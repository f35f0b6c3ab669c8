import RiffleDisplay
import RiffleGeometry
import RiffleInteraction
import RiffleLibrary
import RifflePipeline
import RiffleRaster

/// A timeline's bars and scrubber in the scene: the presses they take, the scroll the scrubber
/// moves, and their layers over the grid or the level shown.
extension NavigationScene {
    /// Takes `event` when it is the bars': a press on a bar, and what follows it until its
    /// release, which shows the level of the segment it is released on. False for the rest.
    func routeToBars(_ event: InputEvent, _ bars: TimelineBars) -> Bool {
        switch event {
        case let .pointerDown(position, _, _, _) where bars.contains(position):
            pressOnBar = true
            return true
        case .pointerMove where pressOnBar:
            return true
        case let .pointerUp(position, _, _, _) where pressOnBar:
            pressOnBar = false
            if bars.aspectSwitch.contains(position) {
                toggleAspectGrid()
            } else if let level = bars.level(at: position) {
                let photo = levelView?.interaction.photoAtMiddle ?? grid.itemNearMiddle
                showLevel(level, photo: photo, anchor: nil)
            }
            return true
        default:
            return false
        }
    }

    /// The scrubber of a timeline whose scroll is long enough for one, nil otherwise.
    func scrubber(_ bars: TimelineBars) -> TimelineScrubber? {
        let scrubber = TimelineScrubber(viewport: bars.viewport, scale: bars.scale, insets: bars.insets)
        let length = levelView?.interaction.scrollLength ?? grid.scrollLength
        return scrubber.isShown(contentLength: length) ? scrubber : nil
    }

    /// Takes `event` when it is the scrubber's: a press in its strip, the moves that drag the
    /// thumb, and the release. The scroll goes where the pointer's height says, at once.
    func routeToScrubber(_ event: InputEvent, _ bars: TimelineBars) -> Bool {
        switch event {
        case let .pointerDown(position, .left, _, _):
            guard let scrubber = scrubber(bars), scrubber.strip.contains(position) else { return false }
            scrubbing = true
            scrub(to: scrubber.fraction(atY: position.y))
            return true
        case let .pointerMove(position, _, _) where scrubbing:
            if let scrubber = scrubber(bars) { scrub(to: scrubber.fraction(atY: position.y)) }
            return true
        case .pointerUp where scrubbing:
            scrubbing = false
            needsDisplay = true
            return true
        default:
            return false
        }
    }

    /// The grid's or the level's scroll as a fraction of its range (0 the top, 1 the end).
    var shownScrollFraction: Double { levelView?.interaction.scrollFraction ?? grid.scrollFraction }

    /// Puts the grid or the level shown at `fraction` of its scroll.
    func scrub(to fraction: Double) {
        if let levelView { levelView.scroll { $0.scroll(toFraction: fraction) } } else { grid.scroll(toFraction: fraction) }
        needsDisplay = true
    }

    /// The month shown at window height `y` ("June 2021"): the scrubber's label beside its
    /// thumb, so the month named is the one under the pointer.
    func monthShown(atWindowY y: Double) -> String? {
        let month: Int?
        if let levelView {
            month = levelView.interaction.month(atWindowY: y)
        } else {
            month = grid.visibleCells.min { abs($0.rect.center.y - y) < abs($1.rect.center.y - y) }
                .flatMap { library.photos.indices.contains($0.photo) ? library.dates[library.photos[$0.photo].id] : nil }
                .map { CivilCalendar.monthNumber(ofDay: $0.dayNumber) }
        }
        return month.map { "\(TimelineDates.monthNames[$0 % 12]) \($0 / 12)" }
    }

    /// The scrubber's thumb, and while it is dragged the month it has reached beside it.
    func scrubberLayer(_ bars: TimelineBars) -> Layer? {
        guard let scrubber = scrubber(bars) else { return nil }
        let fraction = shownScrollFraction
        let thumb = scrubber.thumb(atFraction: fraction, dragged: scrubbing)
        var layers = [Layer(opacity: scrubbing ? 0.75 : 0.45, content: .fill(thumb, .black))]
        if scrubbing, let month = monthShown(atWindowY: thumb.center.y) {
            let badge = labels.badge(month)
            let origin = Point(x: (thumb.minX - 8 * bars.scale - badge.size.width).rounded(), y: (thumb.center.y - badge.size.height / 2).rounded())
            layers.append(Layer(transform: ScaleTranslate(offset: origin), sublayers: [badge.layer]))
        }
        return Layer(sublayers: layers)
    }

    /// Pixels per point of the window's chrome (the bars' and the levels' text).
    var chromeScale: Double { pager.renderState.chrome.layout.scale }

    /// The timeline's bars over the grid or its level, with the title and the level shown.
    func barsLayer(_ bars: TimelineBars) -> Layer {
        barsView.layer(bars, title: barsTitle, level: levelView?.level ?? .allPhotos, aspectGrid: viewSettings.aspectGrid)
    }

    /// What the top bar says now.
    var barsTitle: String {
        // At All Photos the title leads with the month of the row under the bar: the quiet date
        // over the rows that Photos shows as they scroll.
        let month = (levelView?.level ?? .allPhotos) == .allPhotos ? bars.flatMap { monthShown(atWindowY: $0.top.maxY + 1) } : nil
        return TimelineTitle.text(library: library, progress: dating.map { $0.progress }, month: month)
    }

    /// `content` (the grid, a level, or the change between levels) with the timeline's bars
    /// over it, for a library that has them.
    func withBars(_ content: Layer) -> Layer {
        guard let bars else { return content }
        return Layer(sublayers: [content, barsLayer(bars)] + (scrubberLayer(bars).map { [$0] } ?? []))
    }
}
