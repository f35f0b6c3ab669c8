import RealModule
import RiffleGeometry
import RiffleInteraction
import Testing

/// A 1000 × 800 window of 100 items unless said otherwise: 6 columns of 165 px at a pitch of
/// 167 px, 17 rows, content 17·167 − 2 = 2837 px, so the scroll position rests in [0, 2037].
///
/// Formulas the expected values come from, written out here rather than taken from the model:
/// - UIScrollView's `.normal` coast: x(t) = x0 + v0·(1 − e^(−k·t))/k, k = −1000·ln 0.998 per
///   second; it stops where the speed falls under 20 px/s, (|v0| − 20)/k from x0;
/// - the rubber band b(x) = x·c·d/(x·c + d), c = 0.55, d = 800 (the window's height);
/// - scroll springs critically damped at ω = 30 rad/s: from rest D px from the target, D·(1 + ω·t)·e^(−ω·t)
///   left to go; the column morph's progress at ω = 40 rad/s: p(t) = 1 − (1 + 40·t)·e^(−40·t);
/// - a wheel notch: H^(2/3) = 800^(2/3) ≈ 86.18 px.
@Suite struct GridInteractionTests {
    static let decay = -1000 * Double.log(0.998)
    static let omega = 30.0
    static let maximum = 2037.0
    static let notch = Double.pow(800, 2.0 / 3.0)

    static func rubberBand(_ excess: Double) -> Double { excess * 0.55 * 800 / (abs(excess) * 0.55 + 800) }

    static func coast(from x0: Double, velocity v0: Double, after t: Double) -> Double {
        x0 + v0 * (1 - Double.exp(-decay * t)) / decay
    }

    static func spring(from x0: Double, to target: Double, after t: Double) -> Double {
        target + (x0 - target) * (1 + omega * t) * Double.exp(-omega * t)
    }

    static func morphProgress(after t: Double) -> Double { 1 - (1 + 40 * t) * Double.exp(-40 * t) }

    static func close(_ a: Rect?, _ b: Rect, _ tolerance: Double = 1e-9) -> Bool {
        guard let a else { return false }
        return abs(a.minX - b.minX) < tolerance && abs(a.minY - b.minY) < tolerance
            && abs(a.width - b.width) < tolerance && abs(a.height - b.height) < tolerance
    }

    /// A grid resting at `position` (0 ... 2037, whole pixels), scrolled there by a still pan:
    /// press, 11 px up to lock the pan, then `position` px more, held 0.1 s (no velocity).
    static func harness(at position: Double, items: Int = 100) -> GridHarness {
        var h = GridHarness(items: items)
        guard position > 0 else { return h }
        h.press(Point(x: 500, y: 780))
        h.run(0.01)
        h.move(Point(x: 500, y: 769))
        h.run(0.01)
        h.move(Point(x: 500, y: 769 - position))
        h.run(0.1)
        h.release(Point(x: 500, y: 769 - position))
        h.settle()
        return h
    }

    // MARK: Drawing

    /// At the top, rows 0...4 (tops 0 ... 668 < 800) are drawn; at 500, row 2 ends at 499 and
    /// row 8 starts at 1336 ≥ 1300, so rows 3...7, row 3 at 501 − 500 = 1.
    @Test func theWindowShowsTheRowsItOverlaps() {
        let top = GridHarness()
        #expect(top.state.cells.map(\.index) == Array(0..<30))
        #expect(top.cell(13) == Rect(x: 167, y: 334, width: 165, height: 165))
        #expect(top.cell(29) == Rect(x: 835, y: 668, width: 165, height: 165))
        #expect(!top.state.isAnimating && top.state.focusIndex == nil && !top.state.isFocusRingVisible)
        #expect(top.state.viewport == Size(width: 1000, height: 800))

        let scrolled = Self.harness(at: 500)
        #expect(scrolled.grid.scrollPosition == 500)
        #expect(scrolled.state.cells.map(\.index) == Array(18..<48))
        #expect(scrolled.cell(18) == Rect(x: 0, y: 1, width: 165, height: 165))
        #expect(scrolled.cell(47) == Rect(x: 835, y: 669, width: 165, height: 165))
    }

    /// Window rects now; nil off screen (row 5 starts at 835 ≥ 800) or for no item.
    @Test func cellRectsForTransitions() {
        let h = GridHarness()
        #expect(h.grid.cellRect(7) == Rect(x: 167, y: 167, width: 165, height: 165))
        #expect(h.grid.cellRect(29) == Rect(x: 835, y: 668, width: 165, height: 165))
        #expect(h.grid.cellRect(30) == nil)
        #expect(h.grid.cellRect(100) == nil && h.grid.cellRect(-1) == nil)
    }

    // MARK: Taps

    @Test func aTapOnACellOpensIt() {
        var h = GridHarness()
        #expect(h.click(Point(x: 177, y: 177)) == [.open(7)])
        #expect(h.click(Point(x: 999, y: 799)) == [.open(29)])
        var scrolled = Self.harness(at: 500)
        // Window y 10 is content y 510: row 3.
        #expect(scrolled.click(Point(x: 10, y: 10)) == [.open(18)])
        #expect(!scrolled.grid.isAnimating && scrolled.grid.scrollPosition == 500)
    }

    /// Cells span [167k, 167k + 165): x 166 and y 166 are in the gaps. At the bottom (2037) the
    /// last row (2672 → window 635) holds items 96...99 in columns 0...3: column 4 is empty.
    @Test(arguments: [Point(x: 166, y: 100), Point(x: 100, y: 166), Point(x: 165, y: 165)])
    func aTapInAGapOpensNothing(point: Point) {
        var h = GridHarness()
        #expect(h.click(point).isEmpty)
    }

    @Test func aTapPastTheLastItemOpensNothing() {
        var h = Self.harness(at: 2037)
        #expect(h.click(Point(x: 700, y: 700)).isEmpty)
        #expect(h.click(Point(x: 600, y: 700)) == [.open(99)])
    }

    @Test func aDragOpensNothing() {
        var h = GridHarness()
        #expect(h.drag(from: Point(x: 177, y: 300), to: Point(x: 177, y: 250), duration: 0.2).isEmpty)
        #expect(h.drag(from: Point(x: 177, y: 300), to: Point(x: 240, y: 300), duration: 0.2).isEmpty)
    }

    /// A press during a coast holds the grid where it is; its tap opens nothing.
    @Test func aTapDuringACoastOnlyStopsIt() {
        var h = GridHarness()
        h.drag(from: Point(x: 500, y: 700), to: Point(x: 500, y: 400), duration: 0.1, steps: 10)
        h.run(0.2)
        #expect(h.grid.isAnimating)
        h.press(Point(x: 177, y: 177))
        let held = h.grid.scrollPosition
        h.run(0.03)
        #expect(h.release(Point(x: 177, y: 177)).isEmpty)
        #expect(!h.grid.isAnimating)
        h.run(0.5)
        #expect(h.grid.scrollPosition == held)
        // At rest, the next tap opens.
        let cell = h.state.cells[10]
        #expect(h.click(cell.rect.center) == [.open(cell.index)])
    }

    // MARK: Dragging and momentum

    /// A pan locked at y 680 then moved up 20 px every 10 ms to 480: the content follows
    /// (position 200) and coasts on at 2000 px/s, x(t) = 200 + 2000·(1 − e^(−k·t))/k, stopping
    /// 1980/k ≈ 989 px further (within one 60 Hz frame of travel under 20 px/s: 1/3 px).
    @Test func aFlickCoastsAtTheNormalRate() {
        var h = GridHarness()
        h.press(Point(x: 500, y: 700))
        for k in 1...11 {
            h.t = 0.01 * Double(k)
            h.move(Point(x: 500, y: 700 - 20 * Double(k)))
        }
        #expect(abs(h.grid.scrollPosition - 200) < 1e-9)
        h.release(Point(x: 500, y: 480))
        let released = h.t
        for t in [0.0, 0.1, 0.3, 1] {
            h.grid.step(to: released + t)
            #expect(abs(h.grid.scrollPosition - Self.coast(from: 200, velocity: 2000, after: t)) < 1e-6, "t \(t)")
        }
        h.t = released + 1
        h.settle(limit: 10)
        #expect(abs(h.grid.scrollPosition - (200 + 1980 / Self.decay)) < 20.0 / 60)
    }

    /// Pulled down 300 px past the top the grid shows b(300) = 132 000/965 px of empty space, and
    /// springs back from there when let go: −b·(1 + ω·t)·e^(−ω·t).
    @Test func aDragPastTheTopRubberBandsAndSpringsBack() {
        var h = GridHarness()
        h.press(Point(x: 500, y: 100))
        h.run(0.01)
        h.move(Point(x: 500, y: 111))
        h.run(0.1)
        h.move(Point(x: 500, y: 411))
        h.run(0.1)
        let stretched = Self.rubberBand(300)
        #expect(abs(stretched - 132_000.0 / 965) < 1e-9)
        #expect(abs(h.grid.scrollPosition + stretched) < 1e-9)
        #expect(Self.close(h.cell(0), Rect(x: 0, y: stretched, width: 165, height: 165)))
        h.release(Point(x: 500, y: 411))
        let released = h.t
        for t in [0.0, 0.05, 0.1] {
            h.grid.step(to: released + t)
            #expect(abs(h.grid.scrollPosition - Self.spring(from: -stretched, to: 0, after: t)) < 1e-9, "t \(t)")
        }
        h.t = released + 0.1
        h.settle()
        #expect(h.grid.scrollPosition == 0 && !h.grid.isAnimating)
    }

    /// From 1900, a 3000 px/s flick reaches the end (2037) at v = 3000 − k·(2037 − 1990) after
    /// the 90 px drag; it goes at most v/(ω·e) past it, never back across it, and rests on it.
    @Test func aFlickAtTheBottomBouncesOnTheEnd() {
        var h = Self.harness(at: 1900)
        let start = h.t
        h.press(Point(x: 500, y: 600))
        for k in 1...4 {
            h.t = start + 0.01 * Double(k)
            h.move(Point(x: 500, y: 600 - 30 * Double(k)))
        }
        h.release(Point(x: 500, y: 480))
        #expect(abs(h.grid.scrollPosition - 1990) < 1e-9)
        let arrival = 3000 - Self.decay * (Self.maximum - 1990)
        var furthest = 0.0
        while h.grid.isAnimating, h.t < start + 3 {
            h.run(0.001)
            furthest = max(furthest, h.grid.scrollPosition - Self.maximum)
            #expect(h.grid.scrollPosition > 1990)
        }
        // The fitted release velocity is 3000 px/s up to rounding: 0.1 % of slack.
        #expect(furthest > 0 && furthest <= arrival * 1.001 / (Self.omega * Double.exp(1)))
        #expect(furthest >= arrival * 0.99 / (Self.omega * Double.exp(1)))
        #expect(h.grid.scrollPosition == Self.maximum)
    }

    // MARK: Wheel

    /// Two notches 50 ms apart: the first spring (0 → s, s = 800^(2/3)) is at s − s·2.5·e^(−1.5)
    /// when the second moves its target to 2s, where the grid rests.
    @Test func wheelNotchesCompose() {
        #expect(abs(Self.notch - 86.177) < 1e-3)
        var h = GridHarness()
        h.wheel(-1)
        h.run(0.05)
        #expect(abs(h.grid.scrollPosition - (Self.notch - Self.notch * 2.5 * Double.exp(-1.5))) < 1e-9)
        h.wheel(-1)
        h.settle()
        #expect(h.grid.scrollPosition == 2 * Self.notch)
        h.wheel(0.5)
        h.settle()
        #expect(abs(h.grid.scrollPosition - 1.5 * Self.notch) < 1e-9)
    }

    @Test func aNotchUpAtTheTopOrSidewaysDoesNothing() {
        var h = GridHarness()
        h.wheel(1)
        #expect(!h.grid.isAnimating && h.grid.scrollPosition == 0)
        h.wheel(-1, [.shift])
        h.grid.handle(.scroll(delta: Point(x: 1, y: 0), position: Point(x: 500, y: 400), modifiers: [], precise: false, time: h.t))
        #expect(!h.grid.isAnimating && h.grid.scrollPosition == 0)
    }

    /// Precise deltas of −0.5 every 10 ms move the content 1:1 at 60 px per unit (30 px each);
    /// 50 ms after the last the grid coasts on at the .normal rate with the trackpad's velocity
    /// (about 3000 px/s): x(t) = 150 + v0·(1 − e^(−k·t))/k, v0 read from x(0.1).
    @Test func preciseScrollingFollowsTheFingersThenCoasts() {
        var h = GridHarness()
        for k in 0..<5 {
            h.t = 0.01 * Double(k)
            h.wheel(-0.5, precise: true)
        }
        #expect(abs(h.grid.scrollPosition - 150) < 1e-9)
        #expect(h.grid.isAnimating)  // the idle timer is outstanding
        let released = 0.04 + 0.05
        h.grid.step(to: released)
        h.grid.step(to: released + 0.1)
        let v0 = (h.grid.scrollPosition - 150) * Self.decay / (1 - Double.exp(-Self.decay * 0.1))
        #expect(abs(v0 - 3000) < 300, "v0 \(v0)")
        h.grid.step(to: released + 0.4)
        #expect(abs(h.grid.scrollPosition - Self.coast(from: 150, velocity: v0, after: 0.4)) < 1e-6)
    }

    // MARK: Keys

    /// Page Down scrolls a viewport less one row: 800 − 167 = 633.
    @Test func pageUpAndDown() {
        var h = GridHarness()
        h.key(.pageDown)
        h.run(0.05)
        #expect(abs(h.grid.scrollPosition - Self.spring(from: 0, to: 633, after: 0.05)) < 1e-9)
        h.key(.pageDown)
        h.settle()
        #expect(h.grid.scrollPosition == 1266)
        h.key(.pageUp)
        h.settle()
        #expect(h.grid.scrollPosition == 633)
        h.key(.pageUp)
        h.key(.pageUp)
        h.settle()
        #expect(h.grid.scrollPosition == 0)
        #expect(h.state.focusIndex == nil && !h.state.isFocusRingVisible)
    }

    @Test func homeAndEndGoToTheEndsAndFocusTheirItems() {
        var h = GridHarness()
        h.key(.end)
        h.settle()
        #expect(h.grid.scrollPosition == Self.maximum)
        #expect(h.state.focusIndex == 99 && h.state.isFocusRingVisible)
        h.key(.pageDown)
        h.settle()
        #expect(h.grid.scrollPosition == Self.maximum)
        h.key(.home)
        h.run(0.1)
        #expect(abs(h.grid.scrollPosition - Self.spring(from: Self.maximum, to: 0, after: 0.1)) < 1e-9)
        h.settle()
        #expect(h.grid.scrollPosition == 0 && h.state.focusIndex == 0)
    }

    /// The first arrow shows the ring on the first item wholly in view; then Left/Right ±1,
    /// Up/Down ±6, clamped into 0...99.
    @Test func arrowsMoveTheFocusRing() {
        var h = GridHarness()
        let moves: [(Key, Int)] = [
            (.right, 0), (.right, 1), (.down, 7), (.left, 6), (.up, 0), (.up, 0), (.left, 0),
        ]
        for (key, focus) in moves {
            h.key(key)
            #expect(h.state.focusIndex == focus && h.state.isFocusRingVisible, "\(key)")
        }
        h.key(.end)
        h.settle()
        for (key, focus) in [(Key.left, 98), (.down, 99), (.right, 99), (.up, 93)] {
            h.key(key)
            #expect(h.state.focusIndex == focus, "\(key)")
        }
    }

    /// At 100 row 0 (0...165) is cut off, so the ring starts on row 1's item 6. Five rows down,
    /// item 36's row (1002...1167) is below the window (100...900): revealed with the least
    /// motion, its bottom at the window's bottom, 1167 − 800 = 367. Back up to row 0: its top
    /// at the top.
    @Test func theFocusedCellIsRevealed() {
        var h = Self.harness(at: 100)
        h.key(.down)
        #expect(h.state.focusIndex == 6 && !h.grid.isAnimating)
        for _ in 0..<5 { h.key(.down) }
        #expect(h.state.focusIndex == 36)
        h.settle()
        #expect(h.grid.scrollPosition == 367)
        #expect(h.cell(36)?.maxY == 800)
        for _ in 0..<6 { h.key(.up) }
        h.settle()
        #expect(h.state.focusIndex == 0 && h.grid.scrollPosition == 0)
    }

    @Test func enterOpensTheFocusedItemWhileTheRingShows() {
        var h = GridHarness()
        #expect(h.key(.enter).isEmpty)
        h.key(.right)
        h.key(.right)
        #expect(h.key(.enter) == [.open(1)])
        #expect(h.key(.enter) == [.open(1)])
        // A pointer press hides the ring (the focus stays): Enter then opens nothing.
        h.click(Point(x: 166, y: 100))
        #expect(!h.state.isFocusRingVisible && h.state.focusIndex == 1)
        #expect(h.key(.enter).isEmpty)
    }

    @Test func quitting() {
        var h = GridHarness()
        #expect(h.key("q") == [.quit])
        #expect(h.key(.escape) == [.quit])
        #expect(h.grid.handle(.close) == [.quit])
        #expect(h.key("x").isEmpty)
    }

    // MARK: Columns

    /// At 500, the pointer at (40, 400) is over item 30 (row 5: window 335...500), at u = 65/165
    /// of its height. Ctrl+wheel up: 5 columns, a = 992/5 = 198.4, pitch 200.4; item 30 in row 6
    /// (1202.4) keeps u at the pointer: position 1202.4 + u·198.4 − 400. Every cell moves from its
    /// old rect to its new one by the morph's progress; item 30's u stays at y 400 throughout,
    /// and as its column (0) spans x 40 in both layouts, it stays under the pointer.
    @Test func aCtrlNotchMorphsToFewerColumnsAboutThePointer() {
        var h = Self.harness(at: 500)
        let pointer = Point(x: 40, y: 400), u = 65.0 / 165
        let final = 6 * 200.4 + u * 198.4 - 400
        let start = h.t
        h.wheel(1, at: pointer, [.control])
        #expect(h.grid.layout.columns == 5 && h.grid.isAnimating)
        #expect(abs(h.grid.scrollPosition - final) < 1e-9)
        var frames = 0
        while h.grid.isAnimating, h.t < start + 2 {
            h.run(GridHarness.frame)
            frames += 1
            let cell = h.cell(30)
            #expect(cell.map { $0.contains(pointer) } == true, "t \(h.t - start)")
            if let cell { #expect(abs((pointer.y - cell.minY) / cell.height - u) < 1e-9, "t \(h.t - start)") }
            if abs(h.t - start - 0.05) < 1e-9 {
                // Every item from (167·(i mod 6), 167·⌊i/6⌋ − 500, 165) to
                // (200.4·(i mod 5), 200.4·⌊i/5⌋ − final, 198.4) by p(0.05); drawn if it overlaps
                // the window, whichever layout it was or will be visible in.
                let p = Self.morphProgress(after: 0.05)
                let expected = (0..<100).compactMap { i -> (Int, Rect)? in
                    let x0 = 167 * Double(i % 6), y0 = 167 * Double(i / 6) - 500
                    let x1 = 200.4 * Double(i % 5), y1 = 200.4 * Double(i / 5) - final
                    let rect = Rect(
                        x: x0 + (x1 - x0) * p, y: y0 + (y1 - y0) * p, width: 165 + 33.4 * p, height: 165 + 33.4 * p)
                    return rect.maxY > 0 && rect.minY < 800 ? (i, rect) : nil
                }
                #expect(h.state.cells.map(\.index) == expected.map(\.0))
                for (index, rect) in expected { #expect(Self.close(h.cell(index), rect, 1e-6), "item \(index)") }
            }
            // Cells shown at the ends travel up to about 500 px (item 47: from (835, 669) to
            // (400.8, 923)): 0.5 px of it is a progress within 1e-3, not before 0.2 s.
            if h.t - start < 0.2 { #expect(h.grid.isAnimating, "t \(h.t - start)") }
        }
        #expect(frames > 3 && h.t - start < 0.5)
        #expect(Self.close(h.cell(30), Rect(x: 0, y: 400 - u * 198.4, width: 198.4, height: 198.4)))
        #expect(abs(h.grid.scrollPosition - final) < 1e-9)
    }

    /// Item 35 is in column 5 of 6 but column 0 of 5: its row keeps u at the pointer's height
    /// at every frame, while it moves sideways from x 835 to 0 (a reflow cannot keep it under
    /// the pointer's x).
    @Test func theAnchorKeepsItsHeightWhileItsColumnChanges() {
        var h = Self.harness(at: 500)
        let pointer = Point(x: 900, y: 400), u = 65.0 / 165
        h.wheel(1, at: pointer, [.control])
        let start = h.t
        while h.grid.isAnimating, h.t < start + 2 {
            h.run(GridHarness.frame)
            if let cell = h.cell(35) {
                #expect(abs((pointer.y - cell.minY) / cell.height - u) < 1e-9, "t \(h.t - start)")
            } else {
                Issue.record("item 35 off screen at t \(h.t - start)")
            }
        }
        #expect(Self.close(h.cell(35), Rect(x: 0, y: 400 - u * 198.4, width: 198.4, height: 198.4)))
        #expect(abs(h.grid.scrollPosition - (7 * 200.4 + u * 198.4 - 400)) < 1e-9)
    }

    /// A pinch spread by 1.05 twice (F = 1.1025: round(6/F) = round(5.44) = 5), then by 1.25
    /// mid-morph (F = 1.378: round(4.35) = 4): the second morph starts from the first's frame.
    /// Item 0 under the pointer at u = 100/165 keeps it through both: at rest 4 columns,
    /// a = 994/4 = 248.5, position u·248.5 − 100.
    @Test func aPinchChainsColumnChangesKeepingTheAnchor() {
        var h = GridHarness()
        let pointer = Point(x: 40, y: 100), u = 100.0 / 165
        func check() {
            guard let cell = h.cell(0) else {
                Issue.record("item 0 off screen at t \(h.t)")
                return
            }
            #expect(cell.contains(pointer), "t \(h.t)")
            #expect(abs((pointer.y - cell.minY) / cell.height - u) < 1e-9, "t \(h.t)")
        }
        h.pinch(1, at: pointer, .began)
        h.run(0.016)
        h.pinch(1.05, at: pointer, .changed)
        #expect(h.grid.layout.columns == 6 && !h.grid.isAnimating)
        h.run(0.016)
        h.pinch(1.05, at: pointer, .changed)
        #expect(h.grid.layout.columns == 5)
        for _ in 0..<3 {
            h.run(GridHarness.frame)
            check()
        }
        // The second morph starts from the frame the first one drew: nothing jumps.
        let before = h.state.cells
        h.pinch(1.25, at: pointer, .changed)
        #expect(h.grid.layout.columns == 4)
        #expect(h.state.cells.map(\.index) == before.map(\.index))
        for (now, then) in zip(h.state.cells, before) { #expect(Self.close(now.rect, then.rect), "item \(now.index)") }
        check()
        h.pinch(1, at: pointer, .ended)
        while h.grid.isAnimating {
            h.run(GridHarness.frame)
            check()
        }
        #expect(abs(h.grid.scrollPosition - (u * 248.5 - 100)) < 1e-9)
        #expect(Self.close(h.cell(0), Rect(x: 0, y: 100 - u * 248.5, width: 248.5, height: 248.5)))
    }

    /// Precise Ctrl+scroll zooms by 1.3^Δ: 6/1.3^0.5 = 5.26 → 5; 6/1.3 = 4.6 → 5;
    /// 6/1.3^1.5 = 4.05 → 4. After the wheel's 0.15 s idle a new gesture starts from 4:
    /// 4/1.3^−0.5 = 4.56 → 5.
    @Test func preciseCtrlScrollZoomsByItsAccumulatedFactor() {
        var h = GridHarness()
        for columns in [5, 5, 4] {
            h.wheel(0.5, at: Point(x: 40, y: 100), [.control], precise: true)
            #expect(h.grid.layout.columns == columns)
            h.run(0.02)
        }
        h.run(0.2)
        h.wheel(-0.5, at: Point(x: 40, y: 100), [.control], precise: true)
        #expect(h.grid.layout.columns == 5)
    }

    /// A wheel notch 50 ms into the morph of `aCtrlNotchMorphsToFewerColumnsAboutThePointer`
    /// scrolls the morphing cells with it: the scroll spring from the morph's position P to
    /// P + s has moved Δ = s − s·(1 + 30·t)·e^(−30·t) after t, and item 30's u then sits Δ above
    /// the pointer at every frame of the morph; at rest the grid is the 5-column layout at P + s.
    @Test func scrollingDuringAColumnChangeMovesTheMorphingCells() {
        var h = Self.harness(at: 500)
        let pointer = Point(x: 40, y: 400), u = 65.0 / 165
        let final = 6 * 200.4 + u * 198.4 - 400
        h.wheel(1, at: pointer, [.control])
        h.run(0.05)
        h.wheel(-1)
        let notched = h.t
        while h.grid.isAnimating, h.t < notched + 2 {
            h.run(GridHarness.frame)
            let t = h.t - notched
            // The spring's distance, until it settles exactly on its target (within 0.5 px).
            let spring = Self.notch - Self.notch * (1 + Self.omega * t) * Double.exp(-Self.omega * t)
            let shift = h.grid.scrollPosition - final
            #expect(abs(shift - spring) < 1e-9 || (abs(shift - Self.notch) < 1e-9 && abs(shift - spring) < 0.5), "t \(t)")
            guard let cell = h.cell(30) else {
                Issue.record("item 30 off screen at t \(t)")
                continue
            }
            #expect(abs((pointer.y - shift - cell.minY) / cell.height - u) < 1e-9, "t \(t)")
        }
        #expect(abs(h.grid.scrollPosition - (final + Self.notch)) < 1e-9)
        #expect(Self.close(h.cell(30), Rect(x: 0, y: 400 - u * 198.4 - Self.notch, width: 198.4, height: 198.4)))
    }

    /// Mid-morph a tap opens the item drawn under it: the centre of item 31's blended cell
    /// (from (167, 335, 165) towards (200.4, 1202.4 − P, 198.4)) 50 ms into the change.
    @Test func aTapDuringAColumnChangeOpensTheCellDrawnThere() {
        var h = Self.harness(at: 500)
        h.wheel(1, at: Point(x: 40, y: 400), [.control])
        h.run(0.05)
        #expect(h.grid.isAnimating)
        guard let cell = h.cell(31) else {
            Issue.record("item 31 off screen")
            return
        }
        #expect(!Self.close(cell, Rect(x: 167, y: 335, width: 165, height: 165), 1))
        h.press(cell.center)
        #expect(h.release(cell.center) == [.open(31)])
    }

    /// Out from the top with the pointer at item 0's u = 100/165: 7 columns of 988/7 px want
    /// position u·988/7 − 100 < 0, so the grid rests at 0: the anchor kept as far as the range
    /// allows.
    @Test func aChangeThatWouldScrollPastTheTopRestsAtIt() {
        var h = GridHarness()
        h.wheel(-1, at: Point(x: 40, y: 100), [.control])
        #expect(h.grid.layout.columns == 7)
        h.settle()
        #expect(h.grid.scrollPosition == 0)
        #expect(Self.close(h.cell(0), Rect(x: 0, y: 0, width: 988.0 / 7, height: 988.0 / 7)))
    }

    /// From 6 columns: five notches in reach 1, the sixth does nothing; out, the limit at
    /// W = 1000 is ⌊1002/82⌋ = 12.
    @Test func columnChangesStopAtTheLimits() {
        var h = GridHarness()
        for _ in 0..<6 {
            h.wheel(1, at: Point(x: 40, y: 100), [.control])
            h.run(0.05)
        }
        #expect(h.grid.layout.columns == 1)
        h.settle()
        h.wheel(1, at: Point(x: 40, y: 100), [.control])
        #expect(!h.grid.isAnimating)
        for _ in 0..<12 {
            h.wheel(-1, at: Point(x: 40, y: 100), [.control])
            h.run(0.05)
        }
        h.settle()
        #expect(h.grid.layout.columns == 12 && !h.grid.isAnimating)
    }

    @Test func noColumnChangeDuringADrag() {
        var h = GridHarness()
        h.drag(from: Point(x: 500, y: 500), to: Point(x: 500, y: 400), duration: 0.1, release: false)
        h.wheel(1, at: Point(x: 40, y: 100), [.control])
        h.pinch(2, at: Point(x: 40, y: 100), .began)
        #expect(h.grid.layout.columns == 6)
    }

    // MARK: Resize, item count, reveal

    /// At 550 the top item is 18 (row 3, 501...666), 49 px above the window. At 1280 px wide
    /// (7 columns, pitch 1282/7) its row 2 is at 2·1282/7: the position becomes that + 49, so
    /// row 2 (items 14...20) is drawn at y −49 again.
    @Test func aResizeKeepsTheTopItem() {
        var h = Self.harness(at: 550)
        #expect(h.cell(18)?.minY == -49)
        h.grid.resize(viewport: Size(width: 1280, height: 800), at: h.t)
        #expect(h.grid.layout.columns == 7)
        #expect(abs(h.grid.scrollPosition - (2 * 1282.0 / 7 + 49)) < 1e-9)
        #expect(h.state.cells.first?.index == 14)
        #expect(Self.close(h.cell(14), Rect(x: 0, y: -49, width: 1268.0 / 7, height: 1268.0 / 7)))
        #expect(!h.grid.isAnimating)
    }

    /// A column count asked for stays across resizes, clamped into the new limits (1...3 at
    /// 300 px) and back when the window widens again.
    @Test func aResizeKeepsTheRequestedColumns() {
        var h = GridHarness()
        h.wheel(1, at: Point(x: 40, y: 100), [.control])
        h.settle()
        h.grid.handle(.resize(PixelSize(width: 1280, height: 800)))
        #expect(h.grid.layout.columns == 5)
        h.grid.resize(viewport: Size(width: 300, height: 800), at: h.t)
        #expect(h.grid.layout.columns == 3)
        h.grid.resize(viewport: Size(width: 1920, height: 1080), at: h.t)
        #expect(h.grid.layout.columns == 5)
    }

    /// At the bottom (2037), down to 50 items: 9 rows, 1501 px, the range ends at 701; the
    /// focus on 99 moves onto 49. Up to 200 items at 500: the position stays.
    @Test func itemCountChanges() {
        var h = GridHarness()
        h.key(.end)
        h.settle()
        h.grid.setItemCount(50, at: h.t)
        #expect(h.grid.scrollPosition == 701 && h.state.focusIndex == 49 && h.state.isFocusRingVisible)
        var grown = Self.harness(at: 500)
        grown.grid.setItemCount(200, at: grown.t)
        #expect(grown.grid.scrollPosition == 500 && grown.grid.itemCount == 200)
        #expect(grown.state.cells.map(\.index) == Array(18..<48))
    }

    /// Item 50 (row 8, 1336...1501) revealed from the top: its bottom at the window's bottom,
    /// 701; it takes the focus (the ring stays hidden).
    @Test func revealScrollsACellIntoView() {
        var h = GridHarness()
        h.grid.reveal(index: 50, animated: false, at: h.t)
        #expect(h.grid.scrollPosition == 701 && !h.grid.isAnimating)
        #expect(h.grid.cellRect(50) == Rect(x: 334, y: 635, width: 165, height: 165))
        #expect(h.grid.cellRect(0) == nil)
        #expect(h.state.focusIndex == 50 && !h.state.isFocusRingVisible)
        h.grid.reveal(index: 0, at: h.t)
        h.run(0.1)
        #expect(abs(h.grid.scrollPosition - Self.spring(from: 701, to: 0, after: 0.1)) < 1e-9)
        h.grid.reveal(index: 100, at: h.t)
        #expect(h.state.focusIndex == 0)
    }

    /// Nothing to draw, open or focus; a drag still rubber-bands and returns; columns change.
    @Test func noItems() {
        var h = GridHarness(items: 0)
        #expect(h.state.cells.isEmpty)
        #expect(h.click(Point(x: 10, y: 10)).isEmpty)
        for key: Key in [.right, .down, .home, .end, .pageDown, .enter] { #expect(h.key(key).isEmpty) }
        #expect(h.state.focusIndex == nil && !h.state.isFocusRingVisible)
        h.drag(from: Point(x: 500, y: 100), to: Point(x: 500, y: 400), duration: 0.2)
        h.settle()
        #expect(h.grid.scrollPosition == 0 && !h.grid.isAnimating)
        h.wheel(1, at: Point(x: 40, y: 100), [.control])
        #expect(h.grid.layout.columns == 5)
        #expect(h.grid.cellRect(0) == nil)

        var emptied = GridHarness()
        emptied.key(.down)
        emptied.grid.setItemCount(0, at: emptied.t)
        #expect(emptied.state.focusIndex == nil && !emptied.state.isFocusRingVisible && emptied.state.cells.isEmpty)
    }

    /// Ten items arrive before the window's first row and five leave from it (items 18...22,
    /// the row at 501 − 500 = 1 px below the window's top at scroll 500): the first item shown
    /// that stayed, 23 (now 28), keeps its distance from the window's top; the focus follows
    /// its item.
    @Test func renumberingKeepsTheScrollAnchoredOnWhatIsShown() {
        var h = Self.harness(at: 500)
        h.grid.reveal(index: 30, animated: false, at: h.t)
        let position = h.grid.scrollPosition
        let top = h.grid.cellRect(23)!.minY
        h.grid.renumberItems(count: 105, newItem: { $0 < 18 ? $0 + 10 : $0 < 23 ? nil : $0 + 5 }, at: h.t)
        #expect(h.grid.itemCount == 105)
        #expect(h.grid.cellRect(28)!.minY == top)
        #expect(h.grid.scrollPosition != position)
        #expect(h.state.focusIndex == 35)
    }

    /// A timeline's grid (`holdsEnd`) opens at its end; renumbered while it rests there (the
    /// index reordering it, photos arriving) its end stays in view; scrolled away from the end, a
    /// renumbering anchors on what it shows as any grid does.
    @Test func aGridHoldingItsEndOpensThereAndStaysThere() {
        var h = GridHarness(items: 100)
        h.grid.holdsEnd = true
        let end = { h.grid.layout.contentHeight - h.grid.renderState.viewport.height }
        #expect(end() > 0 && h.grid.scrollPosition == end(), "opens on the newest")
        h.grid.renumberItems(count: 130, newItem: { $0 + 30 }, at: h.t)
        #expect(abs(h.grid.scrollPosition - end()) < 1e-9, "thirty more: the end still in view")
        h.grid.renumberItems(count: 130, newItem: { 129 - $0 }, at: h.t)
        #expect(abs(h.grid.scrollPosition - end()) < 1e-9, "reordered: the end still in view")
        // Away from the end: anchored on the first cell shown, as before.
        _ = h.key(.home)
        _ = h.settle()
        #expect(h.grid.scrollPosition == 0)
        h.grid.renumberItems(count: 160, newItem: { $0 }, at: h.t)
        #expect(h.grid.scrollPosition == 0)
    }
}
