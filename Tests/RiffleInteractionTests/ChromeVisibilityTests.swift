import RiffleInteraction
import Testing

/// `ChromeVisibility` queried at any time, in any order, on a virtual clock.
@Suite struct ChromeVisibilityTests {
    @Test func hiddenAtLaunchUntilThePointerMoves() {
        let v = ChromeVisibility()
        #expect(v.opacity(at: 0) == 0 && v.opacity(at: 100) == 0)
        #expect(!v.isAnimating(at: 0))
    }

    /// A motion at 1 s: 0.2 s linear fade in, shown until 3 s, 0.2 s fade out, gone at 3.2 s.
    @Test(arguments: [
        (0.9, 0.0), (1.0, 0.0), (1.1, 0.5), (1.2, 1.0), (2.0, 1.0), (3.0, 1.0), (3.05, 0.75), (3.1, 0.5), (3.2, 0.0), (9.0, 0.0),
    ])
    func motionShowsThenIdleHides(t: Double, opacity: Double) {
        var v = ChromeVisibility()
        v.pointerMoved(at: 1, onChrome: false)
        #expect(abs(v.opacity(at: t) - opacity) < 1e-9)
        #expect(v.isAnimating(at: t) == (t < 3.2))
    }

    /// Each motion restarts the 2 s; a motion during the fade out turns it back from where it is.
    @Test func motionRestartsTheTimerAndReversesAFade() {
        var v = ChromeVisibility()
        v.pointerMoved(at: 0, onChrome: false)
        v.pointerMoved(at: 1.5, onChrome: false)
        #expect(v.opacity(at: 3.4) == 1)
        #expect(abs(v.opacity(at: 3.6) - 0.5) < 1e-9)
        v.pointerMoved(at: 3.6, onChrome: false)
        #expect(abs(v.opacity(at: 3.65) - 0.75) < 1e-9)
        #expect(v.opacity(at: 3.7) == 1)
        #expect(v.opacity(at: 5.6) == 1 && v.opacity(at: 5.8) == 0)
    }

    /// Resting on the chrome: no timer; leaving it starts one.
    @Test func restingOnTheChromeKeepsIt() {
        var v = ChromeVisibility()
        v.pointerMoved(at: 0, onChrome: true)
        #expect(v.opacity(at: 60) == 1 && !v.isAnimating(at: 60))
        v.pointerMoved(at: 60, onChrome: false)
        #expect(v.opacity(at: 62) == 1 && v.opacity(at: 62.2) == 0)
    }

    /// Pinned (the bars mode): shown whatever the pointer does; unpinned: hidden at once.
    @Test func pinning() {
        var v = ChromeVisibility()
        v.setPinned(true, at: 1)
        v.pointerMoved(at: 2, onChrome: false)
        #expect(v.opacity(at: 100) == 1 && !v.isAnimating(at: 100))
        v.setPinned(false, at: 100)
        #expect(abs(v.opacity(at: 100.1) - 0.5) < 1e-9 && v.opacity(at: 100.2) == 0)
    }

    @Test func queriesChangeNothing() {
        var v = ChromeVisibility()
        v.pointerMoved(at: 1, onChrome: false)
        let before = v
        _ = (v.opacity(at: 5), v.opacity(at: 2), v.isAnimating(at: 3), v.isShown(at: 4))
        #expect(v == before)
    }

    /// Held from 1 s (a panel opened): fades in by 1.2 s and stays through motions that would
    /// start the timer; let go at 10 s it fades at 12–12.2 s. Unpinning while held keeps it.
    @Test func heldUntilLetGo() {
        var v = ChromeVisibility()
        v.setHeld(true, at: 1)
        #expect(abs(v.opacity(at: 1.1) - 0.5) < 1e-9)
        v.pointerMoved(at: 2, onChrome: false)
        v.setPinned(true, at: 3)
        v.setPinned(false, at: 4)
        #expect(v.opacity(at: 9.9) == 1 && !v.isAnimating(at: 9.9))
        v.setHeld(false, at: 10)
        #expect(v.opacity(at: 12) == 1)
        #expect(abs(v.opacity(at: 12.1) - 0.5) < 1e-9)
        #expect(v.opacity(at: 12.25) == 0 && !v.isAnimating(at: 12.25))
    }

    /// Let go while pinned, it stays.
    @Test func letGoWhilePinnedStays() {
        var v = ChromeVisibility(pinned: true)
        v.setHeld(true, at: 1)
        v.setHeld(false, at: 2)
        #expect(v.opacity(at: 60) == 1 && !v.isAnimating(at: 60))
    }
}
