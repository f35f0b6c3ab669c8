import RealModule
import RiffleGeometry
import RiffleInteraction
import RiffleTestSupport
import Testing

/// Every edge and the background alpha follow a critically damped spring at ω = 19 rad/s: from
/// displacement x0 (position − target) at velocity v0,
/// x(t) = (x0 + (v0 + ω·x0)·t)·e^(−ω·t) and v(t) = (v0 − ω·(v0 + ω·x0)·t)·e^(−ω·t).
///
/// The scene: a 3:2 photo at fit fills a 1200 × 1000 window's width, (0, 100)–(1200, 900); its grid
/// cell is the 100 px square (900, 40)–(1000, 140).
@Suite struct PhotoTransitionTests {
    static let omega = 19.0
    static let fit = Rect(x: 0, y: 100, width: 1200, height: 800)
    static let cell = Rect(x: 900, y: 40, width: 100, height: 100)

    static func displacement(_ x0: Double, _ v0: Double, after t: Double) -> Double {
        (x0 + (v0 + omega * x0) * t) * Double.exp(-omega * t)
    }

    static func speed(_ x0: Double, _ v0: Double, after t: Double) -> Double {
        (v0 - omega * (v0 + omega * x0) * t) * Double.exp(-omega * t)
    }

    static func edges(_ r: Rect) -> [Double] { [r.minX, r.minY, r.maxX, r.maxY] }

    static func rates(_ v: PhotoTransition.FrameVelocity) -> [Double] { [v.minX, v.minY, v.maxX, v.maxY] }

    static func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

    @Test(arguments: [0.01, 0.05, 0.1, 0.2, 0.3, 0.4])
    func openingFollowsTheSpringFromRestInTheCell(t: Double) {
        let flight = PhotoTransition(openingFrom: Self.cell, to: Self.fit, at: 2)
        let state = flight.state(at: 2 + t)
        let from = Self.edges(Self.cell), to = Self.edges(Self.fit)
        let shown = Self.edges(state.frame), rates = Self.rates(state.frameVelocity)
        for i in 0..<4 {
            let x0 = from[i] - to[i]
            #expect(Self.close(shown[i], to[i] + Self.displacement(x0, 0, after: t)), "edge \(i) t \(t)")
            #expect(Self.close(rates[i], Self.speed(x0, 0, after: t), 1e-7), "edge \(i) t \(t)")
        }
        // Alpha from 0 to 1: x0 = −1.
        #expect(Self.close(state.backgroundAlpha, 1 + Self.displacement(-1, 0, after: t)))
        #expect(Self.close(flight.backgroundAlpha(at: 2 + t), state.backgroundAlpha))
        #expect(Self.close(state.backgroundAlphaVelocity, Self.speed(-1, 0, after: t)))
    }

    /// Closing from a moving state (velocities pointing away from the cell, or towards it slower
    /// than ω·distance, so none is capped).
    @Test(arguments: [0.02, 0.1, 0.25])
    func closingCarriesItsStartingVelocity(t: Double) {
        let start = PhotoTransition.State(
            frame: Rect(x: 150, y: 330, width: 960, height: 640),
            frameVelocity: PhotoTransition.FrameVelocity(minX: 1160, minY: 1840, maxX: -760, maxY: 560),
            backgroundAlpha: 0.5, backgroundAlphaVelocity: -4)
        let flight = PhotoTransition(closingFrom: start, to: Self.cell, fit: Self.fit, at: 1)
        #expect(flight.initial == start)
        let state = flight.state(at: 1 + t)
        let from = Self.edges(start.frame), to = Self.edges(Self.cell), v = Self.rates(start.frameVelocity)
        let shown = Self.edges(state.frame), rates = Self.rates(state.frameVelocity)
        for i in 0..<4 {
            #expect(Self.close(shown[i], to[i] + Self.displacement(from[i] - to[i], v[i], after: t)), "edge \(i) t \(t)")
            #expect(Self.close(rates[i], Self.speed(from[i] - to[i], v[i], after: t), 1e-7), "edge \(i) t \(t)")
        }
        #expect(Self.close(state.backgroundAlpha, Self.displacement(0.5, -4, after: t)))
    }

    /// A velocity towards the cell faster than ω·distance would carry an edge past it: it is
    /// capped at ω·distance, where x(t) = x0·e^(−ω·t) never reaches 0. minY is 290 px below the
    /// cell's top moving up at 9000 px/s > 19·290 = 5510 px/s; the alpha 0.2 falls at 5/s > 3.8/s.
    /// minX moves away from the cell and keeps its velocity.
    @Test func closingCapsVelocitiesThatWouldPassTheCell() {
        let start = PhotoTransition.State(
            frame: Rect(x: 150, y: 330, width: 960, height: 640),
            frameVelocity: PhotoTransition.FrameVelocity(minX: -300, minY: -9000, maxX: 0, maxY: 0),
            backgroundAlpha: 0.2, backgroundAlphaVelocity: -5)
        let flight = PhotoTransition(closingFrom: start, to: Self.cell, fit: Self.fit, at: 0)
        #expect(flight.initial.frameVelocity == PhotoTransition.FrameVelocity(minX: -300, minY: -5510, maxX: 0, maxY: 0))
        #expect(Self.close(flight.initial.backgroundAlphaVelocity, -3.8, 1e-15))
        for t in stride(from: 0.0, through: 1, by: 0.01) {
            let state = flight.state(at: t)
            #expect(state.frame.minY >= Self.cell.minY, "t \(t)")
            #expect(state.backgroundAlpha >= 0, "t \(t)")
            if !flight.isDone(at: t) {
                #expect(Self.close(state.frame.minY, 40 + 290 * Double.exp(-Self.omega * t), 1e-9), "t \(t)")
                #expect(Self.close(state.frame.minX, 900 + Self.displacement(-750, -300, after: t)), "t \(t)")
            }
        }
    }

    /// ω = 19 rad/s is chosen so that from rest every coordinate has 99 % of its way behind it at
    /// 0.35 s: (1 + 19·0.35)·e^(−19·0.35) = 0.0099; at 0.3 s, 0.0224 is still left.
    @Test func ninetyNinePercentOfTheWayAt035Seconds() {
        let flight = PhotoTransition(openingFrom: Self.cell, to: Self.fit, at: 0)
        let from = Self.edges(Self.cell), to = Self.edges(Self.fit)
        for (t, settled) in [(0.35, true), (0.3, false)] {
            let shown = Self.edges(flight.frame(at: t))
            for i in 0..<4 {
                #expect((abs(shown[i] - to[i]) < 0.01 * abs(from[i] - to[i])) == settled, "edge \(i) t \(t)")
            }
            #expect((abs(flight.backgroundAlpha(at: t) - 1) < 0.01) == settled, "alpha t \(t)")
        }
    }

    /// Done when every edge is within 0.5 px and slower than 20 px/s. The longest travel is minX's,
    /// 900 px: 900·(1 + 19t)·e^(−19t) is 0.510 px at t = 0.519 s and 0.493 px at 0.521 s (its speed
    /// 900·19²·t·e^(−19t) is then 8.6 px/s, under 20).
    @Test func openingIsDoneWhenTheLongestEdgeIsWithinHalfAPixel() {
        let flight = PhotoTransition(openingFrom: Self.cell, to: Self.fit, at: 3)
        #expect(!flight.isDone(at: 3.519))
        #expect(flight.isDone(at: 3.521))
        #expect(flight.isDone(at: 100))
    }

    /// Only the alpha moves (the photo already in its cell, background opaque): done within half an
    /// 8-bit level and slower than 20 levels/s. (1 + 19t)·e^(−19t)·255 is 0.513 levels at 0.445 s
    /// and 0.488 at 0.448 s (speed 255·19²·t·e^(−19t) = 8.3 levels/s).
    @Test func theFadeIsDoneWithinHalfAnEightBitLevel() {
        let flight = PhotoTransition(closingFrom: .init(frame: Self.cell, backgroundAlpha: 1), to: Self.cell, fit: Self.fit, at: 0)
        #expect(!flight.isDone(at: 0.445))
        #expect(flight.isDone(at: 0.448))
    }

    /// At the start the cell shows the photo's centre square: the 3:2 image scaled by
    /// max(100/1200, 100/800) = 1/8 is 150 × 100, centred on the cell, 25 px over each side.
    @Test func theStartIsTheCellCropExactly() {
        let flight = PhotoTransition(openingFrom: Self.cell, to: Self.fit, at: 5)
        for t in [4.0, 5] {
            #expect(flight.frame(at: t) == Self.cell)
            #expect(flight.imageRect(at: t) == Rect(x: 875, y: 40, width: 150, height: 100))
            #expect(flight.backgroundAlpha(at: t) == 0)
        }
    }

    @Test func theEndsAreExact() {
        let opening = PhotoTransition(openingFrom: Self.cell, to: Self.fit, at: 0)
        #expect(opening.frame(at: 0.6) == Self.fit)
        #expect(opening.imageRect(at: 0.6) == Self.fit)
        #expect(opening.backgroundAlpha(at: 0.6) == 1)
        #expect(opening.state(at: 0.6) == PhotoTransition.State(frame: Self.fit, backgroundAlpha: 1))
        let closing = PhotoTransition(closingFrom: .init(frame: Self.fit, backgroundAlpha: 1), to: Self.cell, fit: Self.fit, at: 1)
        #expect(closing.frame(at: 1) == Self.fit && closing.imageRect(at: 1) == Self.fit)
        #expect(closing.frame(at: 1.6) == Self.cell)
        #expect(closing.imageRect(at: 1.6) == Rect(x: 875, y: 40, width: 150, height: 100))
        #expect(closing.backgroundAlpha(at: 1.6) == 0)
    }

    /// In flight the image keeps the photo's 3:2 proportions, covers the frame and matches it on
    /// one axis, centred on it.
    @Test(arguments: [0.02, 0.05, 0.1, 0.2])
    func inFlightTheImageCoversTheFrame(t: Double) {
        let flight = PhotoTransition(openingFrom: Self.cell, to: Self.fit, at: 0)
        let frame = flight.frame(at: t), image = flight.imageRect(at: t)
        #expect(Self.close(image.width / image.height, 1.5))
        #expect(image.width >= frame.width - 1e-9 && image.height >= frame.height - 1e-9)
        #expect(Self.close(image.width, frame.width) || Self.close(image.height, frame.height))
        #expect(Self.close(image.center.x, frame.center.x) && Self.close(image.center.y, frame.center.y))
    }

    /// Turned round at 0.08 s, the closing flight starts from exactly the opening's state there
    /// (position and velocity), then follows the formula from it towards the cell.
    @Test func reversingMidFlightKeepsPositionAndVelocity() {
        let opening = PhotoTransition(openingFrom: Self.cell, to: Self.fit, at: 0)
        let turn = 0.08
        let closing = opening.reversed(at: turn)
        #expect(closing.direction == .closing && closing.start == turn)
        let at = opening.state(at: turn)
        #expect(closing.state(at: turn) == at)
        // Just after the turn: positions move by v·dt + O(dt²), velocities by a·dt (|a| is about
        // 3.6e5 px/s² for minX: 0.036 px/s in 1e-7 s, where a jump would be thousands).
        let dt = 1e-7
        let before = Self.edges(at.frame), after = Self.edges(closing.frame(at: turn + dt))
        let v = Self.rates(at.frameVelocity), vAfter = Self.rates(closing.state(at: turn + dt).frameVelocity)
        for i in 0..<4 {
            #expect(abs(after[i] - (before[i] + v[i] * dt)) < 1e-6, "edge \(i)")
            #expect(abs(vAfter[i] - v[i]) < 0.1, "edge \(i): \(vAfter[i]) vs \(v[i])")
        }
        #expect(abs(closing.backgroundAlpha(at: turn + dt) - (at.backgroundAlpha + at.backgroundAlphaVelocity * dt)) < 1e-8)
        for t in [0.01, 0.1, 0.2] {
            let shown = Self.edges(closing.frame(at: turn + t)), to = Self.edges(Self.cell)
            for i in 0..<4 {
                #expect(Self.close(shown[i], to[i] + Self.displacement(before[i] - to[i], v[i], after: t)), "edge \(i) t \(t)")
            }
        }
        #expect(closing.frame(at: 2) == Self.cell && closing.backgroundAlpha(at: 2) == 0)
        // Turned round again, it heads back to fit from where the closing flight is.
        let again = closing.reversed(at: 0.1)
        #expect(again.direction == .opening && again.state(at: 0.1) == closing.state(at: 0.1))
        #expect(again.frame(at: 2) == Self.fit)
    }

    /// A flight is a value: querying times in any order, before the start and after the end
    /// included, gives the same answers.
    @Test(arguments: [7 as UInt64, 1234])
    func queriesInAnyOrderAgree(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let flight = PhotoTransition(openingFrom: Self.cell, to: Self.fit, at: 1).reversed(at: 1.1)
        let times = (0...160).map { Double($0) / 100 }
        let inOrder = times.map { (flight.state(at: $0), flight.imageRect(at: $0), flight.isDone(at: $0)) }
        for i in Array(times.indices).shuffled(using: &generator) {
            let t = times[i]
            #expect(flight.state(at: t) == inOrder[i].0, "t \(t) seed \(seed)")
            #expect(flight.imageRect(at: t) == inOrder[i].1, "t \(t) seed \(seed)")
            #expect(flight.isDone(at: t) == inOrder[i].2, "t \(t) seed \(seed)")
        }
    }

    /// A finished flight turned round starts from rest at its end.
    @Test func reversingAFinishedFlightStartsFromRest() {
        let opening = PhotoTransition(openingFrom: Self.cell, to: Self.fit, at: 0)
        let closing = opening.reversed(at: 1)
        #expect(closing.initial == PhotoTransition.State(frame: Self.fit, backgroundAlpha: 1))
        let t = 0.1, x0 = Self.fit.minX - Self.cell.minX
        #expect(Self.close(closing.frame(at: 1 + t).minX, Self.cell.minX + Self.displacement(x0, 0, after: t)))
    }
}
