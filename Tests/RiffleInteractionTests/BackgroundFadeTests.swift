import RiffleInteraction
import Testing

/// Times and values are dyadic fractions, exact in binary, so they are compared with ==.
@Suite struct BackgroundFadeTests {
    @Test func restsWhiteWithChromeOrBlackWithout() {
        let shown = BackgroundFade()
        #expect(shown.chromeVisible && shown.blackness(at: 3) == 0 && !shown.isAnimating(at: 3))
        let hidden = BackgroundFade(chromeVisible: false)
        #expect(!hidden.chromeVisible && hidden.blackness(at: 3) == 1 && !hidden.isAnimating(at: 3))
    }

    /// A full fade takes 0.25 s along smoothstep u²·(3 − 2u): at u = 1/4, 1/16 · 5/2 = 5/32; at
    /// u = 1/2, 1/2; at u = 3/4, 9/16 · 3/2 = 27/32.
    @Test(arguments: [(0.0, 0.0), (0.0625, 5.0 / 32), (0.125, 0.5), (0.1875, 27.0 / 32), (0.25, 1.0), (1.0, 1.0)])
    func aFullFadeFollowsSmoothstep(elapsed: Double, blackness: Double) {
        var fade = BackgroundFade()
        fade.toggle(at: 1)
        #expect(!fade.chromeVisible)
        #expect(fade.blackness(at: 1 + elapsed) == blackness)
        // Back to white from black: the mirror image.
        var back = BackgroundFade(chromeVisible: false)
        back.toggle(at: 1)
        #expect(back.chromeVisible)
        #expect(back.blackness(at: 1 + elapsed) == 1 - blackness)
    }

    @Test func animatesExactlyForTheFadesLength() {
        var fade = BackgroundFade()
        fade.toggle(at: 1)
        #expect(fade.isAnimating(at: 1))
        #expect(fade.isAnimating(at: 1.2499))
        #expect(!fade.isAnimating(at: 1.25))
    }

    /// Reversed a quarter of the way in (u = 1/4, blackness 5/32) the fade turns back from 5/32
    /// without a jump, over 0.25 · 5/32 = 5/128 s, again along smoothstep.
    @Test func aReversalMidFadeTurnsBackFromWhereItIs() {
        var fade = BackgroundFade()
        fade.toggle(at: 1)
        let before = fade.blackness(at: 1.0625)
        #expect(before == 5.0 / 32)
        fade.toggle(at: 1.0625)
        #expect(fade.chromeVisible)
        #expect(fade.blackness(at: 1.0625) == before)
        // Halfway back (u = 1/2): 5/32 · (1 − 1/2).
        #expect(fade.blackness(at: 1.0625 + 5.0 / 256) == 5.0 / 64)
        #expect(fade.isAnimating(at: 1.0625 + 5.0 / 128 - 1e-9))
        #expect(!fade.isAnimating(at: 1.0625 + 5.0 / 128))
        #expect(fade.blackness(at: 1.0625 + 5.0 / 128) == 0)
        // Continuous just after the reversal too: within 1e-6 of 5/32 a microsecond later (the
        // smoothstep's slope starts at 0).
        #expect(abs(fade.blackness(at: 1.0625 + 1e-6) - before) < 1e-6)
    }
}
