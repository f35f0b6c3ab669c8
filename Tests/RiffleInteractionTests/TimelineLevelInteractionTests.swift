import RiffleGeometry
@testable import RiffleInteraction
import Testing

/// The timeline's Years, Months and Days under the user's hands: clicks drill down or open,
/// Ctrl+wheel and pinches step one level at a time, the anchor photo lands under the point asked,
/// and the room for the bars is kept above and below the content.
///
/// The library (`TimelineLayoutTests.days`): 14 Jul 2019 (photos 0–2), 20 Jul 2019 (3–12),
/// 1 Aug 2019 (13), 5 Jan 2021 (14–15), in a window 432 × 600, the layout 400 wide (16 in from
/// each side).
@Suite struct TimelineLevelInteractionTests {
    static let viewport = Size(width: 432, height: 600)

    static func level(_ level: TimelineLayout.Level, insets: (top: Double, bottom: Double) = (0, 0), anchorPhoto: Int? = nil, anchor: Point? = nil)
        -> TimelineLevelInteraction
    {
        TimelineLevelInteraction(
            days: TimelineLayoutTests.days, level: level, viewport: viewport, scale: 1, insets: insets, anchorPhoto: anchorPhoto,
            anchor: anchor, time: 0)
    }

    static func click(_ level: inout TimelineLevelInteraction, _ point: Point, at t: Double) -> [TimelineLevelInteraction.Command] {
        _ = level.handle(.pointerDown(position: point, button: .left, modifiers: [], time: t))
        return level.handle(.pointerUp(position: point, button: .left, modifiers: [], time: t + 0.05))
    }

    @Test func aClickOnAYearShowsItsMonthsAtItsPhoto() throws {
        var years = Self.level(.years, anchorPhoto: 0)
        let tile = try #require(years.visibleCells.first)
        // 2019's tile shows the middle photo of its 14: photo 7.
        #expect(tile.content == .photo(7))
        let point = tile.frame.center
        #expect(Self.click(&years, point, at: 1) == [.showLevel(.months, photo: 7, anchor: point)])
    }

    @Test func aClickOnAMonthShowsItsDays() throws {
        var months = Self.level(.months, anchorPhoto: 0)
        let hero = try #require(months.visibleCells.first { $0.content == .photo(0) })
        #expect(Self.click(&months, hero.frame.center, at: 1) == [.showLevel(.days, photo: 0, anchor: hero.frame.center)])
    }

    /// 20 July's ten photos in eight cells: seven of its photos, then "+3" standing for 10–12.
    @Test func aDaysPhotoOpensAndItsMoreCellOpensAllPhotosThere() throws {
        var days = Self.level(.days, anchorPhoto: 3)
        let cells = days.visibleCells
        let photo = try #require(cells.first { $0.content == .photo(4) })
        #expect(Self.click(&days, photo.frame.center, at: 1) == [.open(photo: 4)])
        let more = try #require(cells.first { if case .more = $0.content { true } else { false } })
        #expect(more.content == .more(hidden: 3, first: 10))
        #expect(Self.click(&days, more.frame.center, at: 2) == [.showLevel(.allPhotos, photo: 10, anchor: more.frame.center)])
    }

    @Test func theAnchorPhotoLandsUnderThePoint() throws {
        let point = Point(x: 200, y: 250)
        let months = Self.level(.months, anchorPhoto: 14, anchor: point)
        // Where the anchor asks the scroll to be, worked from the layout, then held in its range.
        let content = try #require(months.layout.frame(ofPhoto: 14))
        let wanted = content.center.y - point.y
        let expected = min(max(wanted, 0), months.layout.contentHeight - Self.viewport.height)
        #expect(abs(months.scrollPosition - expected) < 1e-9)
        let frame = try #require(months.windowFrame(ofPhoto: 14))
        if wanted == expected { #expect(abs(frame.center.y - point.y) < 1e-9) }
        // A photo in the middle of the layout is placed exactly: 20 July's first photo, at y 300.
        let exact = Self.level(.months, anchorPhoto: 3, anchor: Point(x: 200, y: 300))
        let middle = try #require(exact.layout.frame(ofPhoto: 3))
        #expect(middle.center.y - 300 > 0 && middle.center.y - 300 < exact.layout.contentHeight - Self.viewport.height,
                "the case must lie inside the range to test the anchor itself")
        #expect(abs((exact.windowFrame(ofPhoto: 3)?.center.y ?? 0) - 300) < 1e-9)
        // Without an anchor photo, the end: the last content at the window's bottom.
        let end = Self.level(.days)
        #expect(abs(end.scrollPosition - (end.layout.contentHeight - Self.viewport.height)) < 1e-9)
    }

    @Test func theBarsRoomIsKeptAboveAndBelow() throws {
        var days = Self.level(.days, insets: (34, 44))
        // At the end the last section's bottom (less its gap) is just above the bottom bar.
        let last = try #require(days.layout.sections.last)
        let bottom = days.windowRect(Rect(x: 0, y: last.y, width: 1, height: last.height)).maxY
        #expect(abs(bottom - (Self.viewport.height - 44)) < 1e-9)
        days.scrollToStart()
        days.advance(to: 5)
        #expect(days.windowRect(Rect(x: 0, y: 0, width: 1, height: 1)).minY == 34, "the first header clear of the top bar")
    }

    @Test func aCtrlWheelBurstStepsOneLevel() {
        var months = Self.level(.months, anchorPhoto: 0)
        func notch(_ dy: Double, at t: Double) -> [TimelineLevelInteraction.Command] {
            months.handle(.scroll(delta: Point(x: 0, y: dy), position: Point(x: 200, y: 300), modifiers: .control, precise: false, time: t))
        }
        // The burst that brought the level (at time 0) goes on until it rests for 0.3 s.
        #expect(notch(1, at: 0.2).isEmpty)
        let finer = notch(1, at: 0.6)
        #expect(finer.count == 1)
        if case let .showLevel(level, _, _)? = finer.first { #expect(level == .days) }
        #expect(notch(1, at: 0.7).isEmpty, "the same burst")
        let coarser = notch(-1, at: 1.2)
        if case let .showLevel(level, _, _)? = coarser.first { #expect(level == .years) } else { Issue.record("no level change") }
        var years = Self.level(.years)
        #expect(years.handle(.scroll(delta: Point(x: 0, y: -1), position: Point(x: 200, y: 300), modifiers: .control, precise: false, time: 1)).isEmpty,
                "nothing is coarser than Years")
    }

    @Test func aPinchStepsOneLevelOnce() {
        var days = Self.level(.days, anchorPhoto: 3)
        func pinch(_ factor: Double, _ phase: GesturePhase, at t: Double) -> [TimelineLevelInteraction.Command] {
            days.handle(.pinch(scaleFactor: factor, center: Point(x: 200, y: 300), phase: phase, time: t))
        }
        #expect(pinch(0.9, .began, at: 1).isEmpty)
        #expect(pinch(0.9, .changed, at: 1.02).isEmpty, "0.81 is not yet past 1/1.35")
        let out = pinch(0.9, .changed, at: 1.04)
        if case let .showLevel(level, _, _)? = out.first { #expect(level == .months) } else { Issue.record("0.729 did not step out") }
        #expect(pinch(0.5, .changed, at: 1.06).isEmpty, "once a gesture")
        #expect(pinch(1, .ended, at: 1.08).isEmpty)
        _ = pinch(1.2, .began, at: 2)
        let inward = pinch(1.2, .changed, at: 2.02)
        if case let .showLevel(level, _, _)? = inward.first { #expect(level == .allPhotos) } else { Issue.record("1.44 did not step in") }
    }

    /// The scrubber's label names the month under the pointer: at Months scrolled to the top,
    /// July 2019 over its own section, August below it (the window y of August's header and on).
    @Test func theMonthUnderAWindowHeight() throws {
        var months = Self.level(.months, insets: (34, 44))
        months.scrollToStart()
        months.advance(to: 5)
        let august = try #require(months.layout.sections.dropFirst().first)
        let augustTop = months.windowRect(Rect(x: 0, y: august.y, width: 1, height: 1)).minY
        #expect(months.month(atWindowY: 40) == TimelineLayoutTests.july2019)
        #expect(months.month(atWindowY: augustTop - 1) == TimelineLayoutTests.july2019)
        #expect(months.month(atWindowY: augustTop + 1) == TimelineLayoutTests.august2019)
    }
}
