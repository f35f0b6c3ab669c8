import RiffleApp
import RiffleDisplay
import RiffleGeometry
import RiffleInteraction
import RiffleLibrary
import RiffleRaster
import Testing

/// A display on a virtual clock that never blocks for long: a timed wait returns after at most
/// `wakeInterval` of virtual time (as if the X connection kept turning readable, e.g. with
/// MIT-SHM completion events queued), earlier when scheduled input falls due; an untimed wait
/// (the idle loop's) jumps to the next scheduled input. Waiting is the only thing that moves the
/// clock, so frames land at exact virtual times however fast the machine runs.
final class RestlessDisplay: Display {
    /// How long a timed wait lasts at most, in virtual seconds: 1 ms, about 17 wake-ups a frame.
    static let wakeInterval = 0.001

    let size = PixelSize(width: 320, height: 200)
    let pixelsPerPoint = 1.0
    /// The virtual clock, in seconds; the loop reads it as its `now`.
    private(set) var now = 0.0
    /// The virtual time of every `present()`.
    private(set) var presentTimes: [Double] = []
    /// A checksum of the pixels of every `present()`, in order.
    private(set) var presentedPixels: [UInt64] = []
    /// With a value, the display shows frames at vblanks every `vblankInterval` from 0 and
    /// says when the next one comes (as Present lets the X display say); nil: no vblanks known.
    private let vblankInterval: Double?
    /// With vblanks: they are made up (a server with no scanout), so a frame is shown at once.
    private let vblanksMadeUp: Bool
    /// The monitor's refresh interval, as RandR tells the X display; nil: unknown.
    let refreshInterval: Double?
    /// Every wait's timeout, in order (nil: the loop blocked until input).
    private(set) var waits: [Double?] = []
    /// Every pointer shape asked for, with the virtual time it was asked at.
    private(set) var cursors: [(shape: PointerCursor, time: Double)] = []
    /// Each input the loop said a presented frame answers, with when that frame is shown (its
    /// vblank, as Present's completion would tell the X display).
    private(set) var answeredInputs: [(input: Double, shown: Double)] = []
    /// When the frame presented last is shown.
    private var lastShown = 0.0
    private let buffer = PixelBuffer(width: 320, height: 200)
    private var schedule: [InputEvent]
    /// Timed waits in a row that moved the clock by nothing.
    private var stalledWaits = 0

    /// A display whose input is `schedule`: each event arrives at its own timestamp.
    init(schedule: [InputEvent], vblankInterval: Double? = nil, vblanksMadeUp: Bool = false, refreshInterval: Double? = nil) {
        self.schedule = schedule.sorted { ($0.time ?? 0) < ($1.time ?? 0) }
        self.vblankInterval = vblankInterval
        self.vblanksMadeUp = vblanksMadeUp
        self.refreshInterval = refreshInterval
    }

    func frameBuffer() -> PixelBuffer { buffer }
    func present() {
        presentTimes.append(now)
        lastShown = frameTiming(startedAt: now)?.shownAt ?? now
        var sum: UInt64 = 0
        for y in 0..<buffer.height {
            for x in 0..<buffer.width { sum = sum &* 31 &+ UInt64(buffer[x, y]) }
        }
        presentedPixels.append(sum)
    }
    func frameTiming(startedAt time: Double) -> FrameTiming? {
        vblankInterval.map { interval in
            // The first vblank strictly after `time` (on a vblank, time / interval may round below
            // its count, and the vblank found would be `time` itself).
            var vblank = ((time / interval).rounded(.down) + 1) * interval
            if vblank <= time { vblank += interval }
            return FrameTiming(shownAt: vblanksMadeUp ? time : vblank, nextFrameStart: vblank)
        }
    }
    func presentedFrameAnswers(inputAt time: Double) { answeredInputs.append((time, lastShown)) }
    func setTitle(_ title: String) {}
    func setFullscreen(_ on: Bool) {}
    func setCursor(_ cursor: PointerCursor) { cursors.append((cursor, now)) }
    func offerClipboard(_ offer: ClipboardOffer) {}
    func requestResize(_ size: PixelSize) {}
    func wake() {}
    func capture() throws -> PixelBuffer { buffer }

    func pollEvents() -> [InputEvent] {
        let due = schedule.prefix { ($0.time ?? 0) <= now }
        schedule.removeFirst(due.count)
        return Array(due)
    }

    func waitForEvents(timeout: Double?) {
        waits.append(timeout)
        let next = schedule.first?.time
        if let next, next <= now { return }
        if let timeout {
            let before = now
            now += min(timeout, Self.wakeInterval, (next ?? .infinity) - now)
            // A loop that keeps waiting for no time at all would spin for ever: end the run.
            stalledWaits = now > before ? 0 : stalledWaits + 1
            if stalledWaits == 100_000 {
                Issue.record("the loop waits for \(timeout) s again and again at \(now) s: the clock cannot move")
                schedule.insert(.key("q", modifiers: [], time: now), at: 0)
            }
        } else if let next {
            now = next
        } else {
            // A real display would block for ever: end the run instead of hanging the test.
            Issue.record("the loop waits for input at \(now) s with none left to come")
            schedule.append(.key("q", modifiers: [], time: now))
        }
    }
}

@Suite struct LiveLoopTests {
    /// Three small photos, decoded before the loop starts: each is within ±2 of both pages the
    /// tests visit, so no decode finishes on the wall clock while the virtual one runs.
    static func settledSession(on display: Display, options: SessionOptions = SessionOptions()) -> RiffleSession {
        var problems: [String] = []
        let names = ["1 coffee.png", "2 friends.jpg", "3 notes.jpg"]
        var library = PhotoLibrary.collect(paths: names.map { TestPaths.photos + "/" + $0 }, problems: &problems)
        #expect(problems.isEmpty && library.photos.count == 3, "\(problems)")
        // The pager first (several files would open the grid).
        library.opensOnPhoto = true
        let session = RiffleSession(library: library, display: display, options: options)
        session.viewer.settleDecodes()
        return session
    }

    static func key(_ name: Key, at time: Double) -> InputEvent { .key(name, modifiers: [], time: time) }

    /// Early wake-ups while animating are collected, not drawn: the slide after a key press is
    /// drawn at exactly 60 Hz of virtual time (N frames in N/60 s) though the display wakes the
    /// loop every millisecond, and once the slide rests the loop blocks and draws nothing.
    @Test func framesArePacedAtSixtyHertzWhateverWakesTheLoop() {
        let press = 0.1, quit = 2.0
        let display = RestlessDisplay(schedule: [Self.key(.right, at: press), Self.key("q", at: quit)])
        let session = Self.settledSession(on: display)
        LiveLoop(scene: session.scene, display: display, now: { display.now }).run()

        #expect(session.viewer.current == 1)
        // The quit changes what a frame shows (the state carries it), so the loop draws once
        // more as it ends: that frame is not the slide's.
        let times = display.presentTimes.filter { $0 < quit }
        #expect(times.first == 0, "the first frame is drawn at once: \(times)")
        let slide = times.filter { $0 >= press }
        // The slide is a spring settling within a pixel in about a third of a second: some 20
        // frames, done long before the quit.
        #expect(slide.count >= 10, "\(slide.count) frames in the slide")
        // Frame k of the slide (the press's own frame is frame 0) at press + k/60, to rounding
        // (1e-9 s: each deadline is the last plus 1/60, exact but for a few ulps): exactly N
        // frames in N/60 s, and none between the slide's end and the quit.
        let offBeat = slide.enumerated().filter { k, time in abs(time - (press + Double(k) * LiveLoop.frameInterval)) >= 1e-9 }
        #expect(offBeat.isEmpty, "frames off the 60 Hz beat (frame, time): \(offBeat.prefix(5))")
        #expect((slide.last ?? .infinity) < 1.0, "the slide rests within a second: \(slide)")
        let timed = display.waits.compactMap { $0 }
        #expect(timed.count >= 10 * slide.count, "the loop was woken early often: \(timed.count) waits for \(slide.count) frames")
        // Blocked twice: before the press, and at rest after the slide until the quit.
        #expect(display.waits.filter { $0 == nil }.count == 2)
    }

    /// With vblanks known (Present), the frame drawn at a key press is drawn as the slide will
    /// be at the vblank that shows it: its pixels already differ from the frame before, and it
    /// reaches the screen within one refresh of the press. Without them the same frame is
    /// drawn at the press's own instant, the slide not yet moved: the same pixels as before.
    @Test func theFrameAnsweringAKeyShowsTheSlideAlreadyMoving() throws {
        let press = 0.104, quit = 2.0, refresh = 1.0 / 60
        var firstChanged: [Bool] = []
        for vblanks in [refresh, nil] {
            let display = RestlessDisplay(schedule: [Self.key(.right, at: press), Self.key("q", at: quit)], vblankInterval: vblanks)
            let session = Self.settledSession(on: display)
            LiveLoop(scene: session.scene, display: display, now: { display.now }).run()
            let answering = try #require(display.presentTimes.firstIndex { $0 >= press })
            #expect(answering > 0 && display.presentTimes[answering] == press, "drawn as the key arrives")
            firstChanged.append(display.presentedPixels[answering] != display.presentedPixels[answering - 1])
            if let vblanks {
                let shown = try #require(display.frameTiming(startedAt: display.presentTimes[answering])?.shownAt)
                #expect(shown - press <= vblanks, "on screen \(shown - press) s after the press")
            }
        }
        #expect(firstChanged == [true, false], "the frame answering the key moved, with vblanks and without: \(firstChanged)")
    }

    /// The input-to-photon figure `--stats` prints, bounded in refreshes: every key press is
    /// answered by exactly one frame, which the loop reports to the display, and that frame is
    /// on screen within one refresh of the press whatever the press's phase against the vblanks.
    @Test func everyKeyIsOnScreenWithinOneRefresh() {
        let refresh = 1.0 / 60, quit = 4.0
        let presses = [0.104, 0.9, 1.7091, 2.5001]
        let display = RestlessDisplay(
            schedule: presses.enumerated().map { Self.key($0.offset % 2 == 0 ? .right : .left, at: $0.element) } + [Self.key("q", at: quit)],
            vblankInterval: refresh)
        let session = Self.settledSession(on: display)
        LiveLoop(scene: session.scene, display: display, now: { display.now }).run()
        #expect(display.answeredInputs.map(\.input) == presses, "each press answered once: \(display.answeredInputs)")
        for (input, shown) in display.answeredInputs {
            #expect(shown > input && shown - input <= refresh + 1e-9, "the press at \(input) s on screen \(shown - input) s later")
        }
    }

    /// Where the vblanks are made up (a server with no scanout shows a frame as it is presented),
    /// the frame answering a key is drawn for the press's own instant, as it is seen, and the
    /// frames after it start on the vblanks: frame k ≥ 1 of the slide at the k-th vblank after
    /// the press, each drawn for its own start, so the second already shows the slide moving.
    @Test func onMadeUpVBlanksFramesAreDrawnForTheirOwnInstantOnTheVBlankBeat() throws {
        let press = 0.104, quit = 2.0, refresh = 1.0 / 60
        let display = RestlessDisplay(
            schedule: [Self.key(.right, at: press), Self.key("q", at: quit)], vblankInterval: refresh, vblanksMadeUp: true)
        let session = Self.settledSession(on: display)
        LiveLoop(scene: session.scene, display: display, now: { display.now }).run()
        let answering = try #require(display.presentTimes.firstIndex { $0 >= press })
        #expect(display.presentTimes[answering] == press, "drawn as the key arrives")
        #expect(display.presentedPixels[answering] == display.presentedPixels[answering - 1], "the slide has not moved at the press")
        #expect(display.presentedPixels[answering + 1] != display.presentedPixels[answering], "the next frame shows it moving")
        let slide = display.presentTimes.filter { $0 > press && $0 < quit }
        #expect(slide.count >= 10, "\(slide.count) frames in the slide")
        let firstVBlank = ((press / refresh).rounded(.down) + 1) * refresh
        let offBeat = slide.enumerated().filter { k, time in abs(time - (firstVBlank + Double(k) * refresh)) >= 1e-9 }
        #expect(offBeat.isEmpty, "frames off the vblanks (frame, time): \(offBeat.prefix(5))")
    }

    /// Where the display knows its monitor's rate (RandR) but no vblanks, the slide is drawn at
    /// that rate: at 144 Hz, frame k of the slide at press + k/144 of virtual time.
    @Test func framesArePacedAtTheMonitorsRate() {
        let press = 0.1, quit = 2.0, interval = 1.0 / 144
        let display = RestlessDisplay(
            schedule: [Self.key(.right, at: press), Self.key("q", at: quit)], refreshInterval: interval)
        let session = Self.settledSession(on: display)
        LiveLoop(scene: session.scene, display: display, now: { display.now }).run()
        let slide = display.presentTimes.filter { $0 >= press && $0 < quit }
        #expect(slide.count >= 24, "\(slide.count) frames in the slide")
        let offBeat = slide.enumerated().filter { k, time in abs(time - (press + Double(k) * interval)) >= 1e-9 }
        #expect(offBeat.isEmpty, "frames off the 144 Hz beat (frame, time): \(offBeat.prefix(5))")
    }

    /// An idle viewer draws its first frame, then blocks until input: no frame, no timed wait.
    @Test func idleLoopDrawsOnceAndBlocks() {
        let quit = 10.0
        let display = RestlessDisplay(schedule: [Self.key("q", at: quit)])
        let session = Self.settledSession(on: display)
        LiveLoop(scene: session.scene, display: display, now: { display.now }).run()
        #expect(display.presentTimes.filter { $0 < quit } == [0])
        #expect(display.waits == [nil])
    }

    /// A slideshow (`--slideshow 3`) sleeps between its page turns: once its label has faded
    /// (1.8 s), the loop draws only the slides at 3 s and 6 s after its first frame (each within
    /// a third of a second), and waits in between for the next turn, not for the next frame.
    @Test func aSlideshowSleepsBetweenItsTurns() {
        let quit = 7.9
        let display = RestlessDisplay(schedule: [Self.key("q", at: quit)])
        var options = SessionOptions()
        options.slideshowInterval = 3
        options.startsSlideshow = true
        let session = Self.settledSession(on: display, options: options)
        LiveLoop(scene: session.scene, display: display, now: { display.now }).run()

        #expect(session.viewer.current == 2)
        let times = display.presentTimes.filter { $0 < quit }
        #expect(times.first == 0)
        for turn in [3.0, 6.0] {
            #expect(times.contains { abs($0 - turn) < 1e-9 }, "no frame as the slide at \(turn) s starts: \(times)")
        }
        let idle = times.filter { (1.9..<3).contains($0) || (3.5..<6).contains($0) || (6.5..<quit).contains($0) }
        #expect(idle.isEmpty, "frames drawn while the slideshow waits: \(idle)")
        // Asleep, the loop waits until the next turn: waits far longer than a frame.
        #expect(display.waits.contains { ($0 ?? 0) > 2 })
    }
}
