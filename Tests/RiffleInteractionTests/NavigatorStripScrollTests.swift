import RiffleInteraction
import Testing

/// `NavigatorStripScroll`: ten photos 30 px apart in a 1000 px window.
@Suite struct NavigatorStripScrollTests {
    static func strip(at f: Double = 2) -> NavigatorStripScroll {
        NavigatorStripScroll(count: 10, pitch: 30, viewportWidth: 1000, position: f)
    }

    /// Runs the clock on at 60 Hz from `t` until the strip rests; returns the time.
    static func run(_ strip: inout NavigatorStripScroll, from t: Double) -> Double {
        var t = t
        while !strip.isAtRest && t < 10 {
            t += 1.0 / 60
            strip.settle(at: t)
        }
        return t
    }

    /// A drag left by 40 px shows 40/30 of a photo later: f = 2 + 4/3, photo 3.
    @Test func dragScrubs() {
        var s = Self.strip()
        s.grab(at: 0)
        s.drag(by: -40, at: 0.1)
        #expect(abs(s.position(at: 0.1) - (2 + 4.0 / 3)) < 1e-12)
        #expect(s.photo(at: 0.1) == 3)
        #expect(s.isDragging)
    }

    /// A slow let-go springs back onto the nearest photo and rests exactly there.
    @Test func slowReleaseSnapsToNearest() {
        var s = Self.strip()
        s.grab(at: 0)
        s.drag(by: -40, at: 0.1)
        s.release(velocityX: 0, at: 0.1)
        let t = Self.run(&s, from: 0.1)
        #expect(s.isAtRest)
        #expect(s.position(at: t) == 3)
        #expect(t < 0.6)
    }

    /// A flick left at 300 px/s from f = 2 projects 300/k ≈ 149.85 px = 4.995 photos on: it
    /// decelerates onto photo 7 exactly, never past it.
    @Test func flickDeceleratesOntoACell() {
        var s = Self.strip()
        s.grab(at: 0)
        s.release(velocityX: -300, at: 0)
        var t = 0.0, farthest = 2.0
        while !s.isAtRest && t < 10 {
            t += 1.0 / 60
            s.settle(at: t)
            farthest = max(farthest, s.position(at: t))
        }
        #expect(s.position(at: t) == 7)
        #expect(farthest <= 7 + 1e-9)
    }

    /// A flick past the end rests on the last photo.
    @Test func flickStopsAtTheEnd() {
        var s = Self.strip()
        s.grab(at: 0)
        s.release(velocityX: -5000, at: 0)
        let t = Self.run(&s, from: 0)
        #expect(s.position(at: t) == 9)
    }

    /// Wheel notches add up on the animation's target; clicks go to a photo.
    @Test func wheelAndClick() {
        var s = Self.strip()
        s.scroll(byPhotos: 1, at: 0)
        s.scroll(byPhotos: 1, at: 0.02)
        var t = Self.run(&s, from: 0.02)
        #expect(s.position(at: t) == 4)
        s.scroll(toPhoto: 0, at: t)
        t = Self.run(&s, from: t)
        #expect(s.position(at: t) == 0)
        s.scroll(byPhotos: -1, at: t)
        t = Self.run(&s, from: t)
        #expect(s.position(at: t) == 0)
    }
}
