import RiffleGeometry
import RiffleInteraction
import Testing

/// Scripted scroll events with explicit timestamps. Figures: ×1.3 zoom per notch, 60 px per pan
/// notch, a zoom gesture and a burst of horizontal notches end after 0.15 s idle, a trackpad pan
/// after 0.05 s.
@Suite struct WheelRecognizerTests {
    static let pointer = Point(x: 320, y: 240)

    static func notch(
        _ wheel: inout WheelRecognizer, _ delta: Point, _ modifiers: Modifiers = [], precise: Bool = false, at time: Double,
        zoomed: Bool = false
    ) -> [WheelRecognizer.Action] {
        wheel.scroll(delta: delta, position: pointer, modifiers: modifiers, precise: precise, time: time, photoIsZoomed: zoomed)
    }

    /// Vertical deltas zoom by 1.3^dy at the pointer: √1.3 for half a notch, 1/1.3 for a notch
    /// towards the user, 1.3^(−1/4) for a quarter; Ctrl makes any vertical delta (trackpad ones
    /// too) a zoom.
    @Test(arguments: [
        // delta y, modifiers, precise, factor
        (1.0, Modifiers(), false, 1.3), (-1, Modifiers(), false, 1 / 1.3), (0.5, Modifiers(), false, 1.140_175_425_099_138), (3, Modifiers(), false, 2.197),
        (1, .control, true, 1.3), (-0.25, .control, true, 0.936_513_758_204_880_4), (1, [.control, .shift], false, 1.3),
    ] as [(Double, Modifiers, Bool, Double)])
    func verticalDeltasZoomAtThePointer(dy: Double, modifiers: Modifiers, precise: Bool, factor: Double) throws {
        var wheel = WheelRecognizer()
        let actions = Self.notch(&wheel, Point(x: 0, y: dy), modifiers, precise: precise, at: 1)
        #expect(actions.count == 1)
        guard case let .zoom(shown, anchor)? = actions.first else {
            Issue.record("not a zoom: \(actions)")
            return
        }
        #expect(abs(shown - factor) < 1e-12)
        #expect(anchor == Self.pointer)
    }

    @Test func aZoomGestureEndsAfterAnIdleWheel() {
        var wheel = WheelRecognizer()
        #expect(wheel.deadline == nil)
        _ = Self.notch(&wheel, Point(x: 0, y: 1), at: 1)
        _ = Self.notch(&wheel, Point(x: 0, y: 1), at: 1.1)
        #expect(wheel.deadline == 1.25)
        #expect(wheel.step(to: 1.2).isEmpty)
        #expect(wheel.step(to: 1.249).isEmpty)
        #expect(wheel.step(to: 1.25) == [.endZoom])
        #expect(wheel.deadline == nil)
        #expect(wheel.step(to: 2).isEmpty)
    }

    /// On a zoomed photo a horizontal notch pans 60 px the other way (scrolling right shows more
    /// of the right side); Shift turns a vertical delta into a horizontal one, down (−y) = right.
    @Test(arguments: [
        (Point(x: 1, y: 0), Modifiers(), Point(x: -60, y: 0)),
        (Point(x: -0.5, y: 0), Modifiers(), Point(x: 30, y: 0)),
        (Point(x: 0, y: -1), .shift, Point(x: -60, y: 0)),
        (Point(x: 0, y: 2), .shift, Point(x: 120, y: 0)),
        (Point(x: 1, y: 0), .control, Point(x: -60, y: 0)),
    ] as [(Point, Modifiers, Point)])
    func horizontalNotchesPanAZoomedPhoto(delta: Point, modifiers: Modifiers, translation: Point) {
        var wheel = WheelRecognizer()
        #expect(Self.notch(&wheel, delta, modifiers, at: 1, zoomed: true) == [.panStep(translation: translation)])
        #expect(wheel.deadline == nil)
    }

    /// At fit a burst of horizontal notches, each less than 0.15 s after the last, turns one page;
    /// a gap of 0.15 s or more starts a new burst.
    @Test func horizontalBurstsTurnOnePageEach() {
        var wheel = WheelRecognizer()
        #expect(Self.notch(&wheel, Point(x: 1, y: 0), at: 0) == [.page(direction: 1)])
        #expect(Self.notch(&wheel, Point(x: 1, y: 0), at: 0.1).isEmpty)
        #expect(Self.notch(&wheel, Point(x: 1, y: 0), at: 0.2).isEmpty)
        #expect(Self.notch(&wheel, Point(x: 1, y: 0), at: 0.34).isEmpty)
        // 0.16 s after the last notch.
        #expect(Self.notch(&wheel, Point(x: -1, y: 0), at: 0.5) == [.page(direction: -1)])
        #expect(Self.notch(&wheel, Point(x: 0, y: 1), .shift, at: 0.6).isEmpty)
        #expect(Self.notch(&wheel, Point(x: 0, y: -1), .shift, at: 1) == [.page(direction: 1)])
    }

    @Test func aGapOfExactlyTheIdleTimeStartsANewBurst() {
        var wheel = WheelRecognizer()
        #expect(Self.notch(&wheel, Point(x: 1, y: 0), at: 0) == [.page(direction: 1)])
        #expect(Self.notch(&wheel, Point(x: 1, y: 0), at: 0.15) == [.page(direction: 1)])
    }

    /// A diagonal notch zooms and turns a page.
    @Test func aDiagonalNotchDoesBoth() {
        var wheel = WheelRecognizer()
        #expect(Self.notch(&wheel, Point(x: 1, y: 1), at: 0) == [.zoom(factor: 1.3, anchor: Self.pointer), .page(direction: 1)])
    }

    /// Trackpad deltas pan 60 px per unit with the fingers, x reversed as for notches; ten deltas
    /// of 0.1 every 10 ms move 6 px each, 600 px/s. After 0.05 s without one the pan ends with
    /// that velocity (a steady motion: the tracker's quadratic fit is exact on it).
    @Test func trackpadDeltasPanAndEndWithTheirVelocity() {
        var wheel = WheelRecognizer()
        for k in 0..<20 {
            let t = 1 + Double(k) / 100
            #expect(Self.notch(&wheel, Point(x: 0.1, y: -0.05), precise: true, at: t) == [.precisePan(delta: Point(x: -6, y: -3))])
        }
        #expect(wheel.deadline == 1 + 19.0 / 100 + 0.05)
        #expect(wheel.step(to: 1.2).isEmpty)
        let ended = wheel.step(to: 1.25)
        guard case let .endPrecisePan(velocity)? = ended.first, ended.count == 1 else {
            Issue.record("no end: \(ended)")
            return
        }
        #expect(abs(velocity.x + 600) < 1e-6 && abs(velocity.y + 300) < 1e-6)
        #expect(wheel.deadline == nil)
    }

    /// Pan and zoom timers run side by side; the deadline is the earlier one.
    @Test func theDeadlineIsTheEarliestTimer() {
        var wheel = WheelRecognizer()
        _ = Self.notch(&wheel, Point(x: 0, y: 1), at: 1)
        _ = Self.notch(&wheel, Point(x: 0.1, y: 0), precise: true, at: 1.02)
        #expect(wheel.deadline == 1.02 + 0.05)
        #expect(wheel.step(to: 1.1) == [.endPrecisePan(velocity: .zero)])
        #expect(wheel.deadline == 1.15)
        #expect(wheel.step(to: 1.15) == [.endZoom])
    }
}
