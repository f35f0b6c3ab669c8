import RiffleInteraction
import Testing

@Suite struct SlideshowTests {
    /// `takeAdvance`, outside an expectation (which cannot mutate).
    static func take(_ show: inout Slideshow, at t: Double) -> Bool { show.takeAdvance(at: t) }

    /// Page turns fall at since + k·interval; a late frame takes its turn then, and the next one
    /// stays on the beat.
    @Test func turnsFallOnTheBeat() {
        var show = Slideshow(settings: Slideshow.Settings(interval: 2), startingAt: 10)
        #expect(show.nextAdvance == 12)
        #expect(!Self.take(&show, at: 11.999))
        #expect(Self.take(&show, at: 12))
        #expect(show.nextAdvance == 14)
        #expect(!Self.take(&show, at: 12.5))
        // Three tenths late: still due at 16 after it.
        #expect(Self.take(&show, at: 14.3))
        #expect(show.nextAdvance == 16)
        // A stall past several beats takes one turn and rejoins the beat.
        #expect(Self.take(&show, at: 21.1))
        #expect(show.nextAdvance == 22)
    }

    @Test func pausedOrEndedItWaitsForNothing() {
        var show = Slideshow(settings: Slideshow.Settings(interval: 3), startingAt: 0)
        show.pause()
        #expect(show.state == .paused && show.nextAdvance == nil)
        #expect(!Self.take(&show, at: 100))
        show = Slideshow(settings: Slideshow.Settings(interval: 3), startingAt: 50)
        #expect(show.isRunning && show.nextAdvance == 53)
        show.end()
        #expect(show.state == .ended && show.nextAdvance == nil)
        // Pausing what has ended leaves it ended.
        show.pause()
        #expect(show.state == .ended)
    }

    @Test func theDefaultIsEogsFiveSecondsWithoutLooping() {
        #expect(Slideshow.Settings() == Slideshow.Settings(interval: 5, loops: false))
    }
}

@Suite struct SlideshowLabelTests {
    @Test func opacityHoldsThenFades() {
        var label = SlideshowLabel()
        #expect(label.opacity(at: 1) == 0 && !label.isAnimating(at: 1) && label.message == nil)
        label.show(.paused, at: 10)
        #expect(label.opacity(at: 10) == 1 && label.opacity(at: 11.5) == 1)
        // Half-way through the fade: 10 + 1.5 + 0.15.
        #expect(abs(label.opacity(at: 11.65) - 0.5) < 1e-9)
        #expect(label.opacity(at: 11.8) == 0 && !label.isAnimating(at: 11.8) && label.isAnimating(at: 11.79))
    }

    @Test(arguments: [
        (SlideshowLabel.Message.started(interval: 5), "Slideshow, every 5\u{202F}s"),
        (.started(interval: 2.5), "Slideshow, every 2.5\u{202F}s"),
        (.paused, "Slideshow paused"), (.ended, "Slideshow ended"),
    ])
    func messages(message: SlideshowLabel.Message, text: String) {
        #expect(message.text == text)
    }
}
