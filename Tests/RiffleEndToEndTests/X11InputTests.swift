import Foundation
import RiffleGeometry
import RiffleInteraction
import RiffleX11
import Testing

/// The input path itself: real X events, sent through the XTest extension by `xdotool` (as a
/// person's mouse would arrive), read by an `X11Display` in this process on Xvfb, and fed to the
/// pure viewer model. Replays inject events above this layer, so only these tests see the server's
/// timestamps, its event order and the shim's translation.
///
/// With no window manager the window sits at the screen's top-left, so screen and window
/// coordinates agree.
///
/// Serialized although each case has a server of its own: the flicks are timed by xdotool's
/// 16 ms sleeps, which cases running beside each other on two cores would stretch.
@Suite(.serialized, .timeLimit(.minutes(3))) struct X11InputTests {
    static let windowSize = PixelSize(width: 640, height: 400)

    /// An Xvfb with one Riffle window on it, and `xdotool` aimed at that server.
    final class Session {
        // Declared before the server so it is released first: the connection must close before
        // Xvfb goes, or Xlib's IO error handler ends the test process.
        let display: X11Display
        let server: VirtualXServer
        let xdotool: String

        init() throws {
            guard let xdotool = VirtualXServer.findExecutable("xdotool") else {
                throw EndToEndError("xdotool is not installed (Debian package xdotool; `make test` installs it)")
            }
            self.xdotool = xdotool
            server = try VirtualXServer(sharedMemory: true)
            // The server named, never set in DISPLAY: other suites' threads read the environment.
            display = try X11Display(displayName: server.display, size: X11InputTests.windowSize, title: "Riffle input test") {
                ProcessInfo.processInfo.systemUptime
            }
            // The first Expose (and any configure) of mapping the window.
            _ = events(until: { _ in false }, timeout: 0.2)
        }

        /// Runs one `xdotool` command chain (its `sleep` items included) and waits for it to end.
        func send(_ arguments: [String]) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: xdotool)
            process.arguments = arguments
            process.environment = ["DISPLAY": server.display]
            // `getmouselocation`, a round trip some chains make, prints where the pointer is.
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw EndToEndError("xdotool \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
            }
        }

        /// The events that arrive until one satisfies `done` (included) or `timeout` seconds
        /// pass; a timeout with a condition that can be met is recorded as a test issue.
        func events(until done: (InputEvent) -> Bool, timeout: Double = 10) -> [InputEvent] {
            var received: [InputEvent] = []
            let deadline = ProcessInfo.processInfo.systemUptime + timeout
            while ProcessInfo.processInfo.systemUptime < deadline {
                for event in display.pollEvents() {
                    received.append(event)
                    if done(event) { return received }
                }
                display.waitForEvents(timeout: 0.05)
            }
            return received
        }

        /// The events up to and including the next left-button release.
        func eventsUntilRelease() -> [InputEvent] {
            let events = events { if case .pointerUp = $0 { true } else { false } }
            if !events.contains(where: { if case .pointerUp = $0 { true } else { false } }) {
                Issue.record("no button release arrived within 10 s; got \(events)")
            }
            return events
        }
    }

    /// The `xdotool` chain of a flick as the defect report scripted it: press (after a pause, as
    /// a person settles the pointer), `moves` steps of 50 px 16 ms apart, release 16 ms after the
    /// last. The press is 100 px in from the window's edge behind the flick, so 8 moves (400 px)
    /// stay on the 1024 px screen: a pointer stopped by the screen's edge really stops. (One
    /// chain, not one process a step: starting xdotool takes ~35 ms, which would make every gap
    /// a pause.)
    static func flick(moves: Int, direction: Int) -> [String] {
        let start = direction > 0 ? 100 : Int(windowSize.width) - 100
        var chain = ["mousemove", "\(start)", "200", "sleep", "0.3", "mousedown", "1"]
        for _ in 0..<moves { chain += ["mousemove_relative", "--", "\(50 * direction)", "0", "sleep", "0.016"] }
        return chain + ["mouseup", "1"]
    }

    /// A five-page viewer of `content`-sized photos (the window's size when nil) on page 2 that
    /// has taken `events` in, then stepped at 60 Hz for `seconds` after the last of them.
    static func viewer(after events: [InputEvent], content: Size? = nil, steppedFor seconds: Double = 2) -> ViewerInteraction {
        let times = events.compactMap(\.time)
        let start = (times.min() ?? 0) - 1
        var viewer = ViewerInteraction(
            pageCount: 5, viewport: Size(width: Double(windowSize.width), height: Double(windowSize.height)),
            page: 2, time: start)
        if let content { for page in 0..<5 { viewer.setContentSize(content, forPage: page, at: start) } }
        for event in events { viewer.handle(event) }
        let end = (times.max() ?? start)
        var t = end
        while t + 1.0 / 60 <= end + seconds {
            t += 1.0 / 60
            viewer.step(to: t)
        }
        return viewer
    }

    // A flick to the right shows the previous photo, to the left the next: with 2 and 3 motion
    // events the release sample once bent the velocity fit backwards and paged the wrong way.
    // xdotool sleeps 16 ms between the steps; on a machine busy with other work a sleep can run
    // several times over (a finger held still that long before lifting has stopped flicking),
    // or a starved X server stamps the whole chain with one time (a move of no duration has no
    // velocity). So the flick is sent again (up to three times) until it arrives as sent. The
    // gesture as it arrived must turn the page when it arrived as sent, and never the wrong way
    // otherwise; and the events that arrived (the server's order, positions and translation),
    // stamped at the times they were sent, must turn it exactly one page the way it went on any
    // machine, however the server timed them.
    @Test(arguments: [2, 3, 4, 8], [1, -1])
    func aFlickTurnsOnePageTheWayItWent(moves: Int, direction: Int) throws {
        let session = try Session()
        var events: [InputEvent] = []
        for _ in 0..<3 {
            try session.send(Self.flick(moves: moves, direction: direction))
            events = session.eventsUntilRelease()
            if !Self.isStretched(events) { break }
        }
        let motions = events.filter { if case .pointerMove = $0 { true } else { false } }
        // The pointer move to the start is reported too (the pointer enters the window).
        #expect(motions.count >= moves, "every motion reaches the app: \(events)")
        let viewer = Self.viewer(after: events)
        if Self.isStretched(events) {
            #expect([2, 2 - direction].contains(viewer.currentPage), "\(moves) moves, direction \(direction): \(events)")
        } else {
            #expect(viewer.currentPage == 2 - direction, "\(moves) moves, direction \(direction): \(events)")
        }
        #expect(!viewer.isAnimating)
        let asSent = Self.viewer(after: Self.stampedAsSent(events))
        #expect(asSent.currentPage == 2 - direction, "as sent, \(moves) moves, direction \(direction): \(events)")
        #expect(!asSent.isAnimating)
    }

    /// `events` with everything after the press restamped as `flick` sends it: the first move
    /// with the press, each later move and the release 16 ms after the one before. Events before
    /// the press keep their times.
    static func stampedAsSent(_ events: [InputEvent]) -> [InputEvent] {
        guard let press = events.firstIndex(where: { if case .pointerDown = $0 { true } else { false } }),
              let pressTime = events[press].time
        else { return events }
        var t = pressTime, timedAfterPress = 0, restamped: [InputEvent] = []
        for (index, event) in events.enumerated() {
            if index > press, event.time != nil {
                if timedAfterPress > 0 { t += 0.016 }
                timedAfterPress += 1
            }
            switch event {
            case let .pointerMove(position, modifiers, time):
                restamped.append(.pointerMove(position: position, modifiers: modifiers, time: index < press ? time : t))
            case let .pointerUp(position, button, modifiers, _) where index > press:
                restamped.append(.pointerUp(position: position, button: button, modifiers: modifiers, time: t))
            default:
                restamped.append(event)
            }
        }
        return restamped
    }

    /// The times between two steps of a flick as sent (16 ms sleeps), with room for a loaded
    /// machine's scheduling.
    static let flickGaps = 0.008...0.04

    /// True when, after the press and the first move (sent together), two events up to the
    /// release of `events` are further apart or closer together than `flickGaps`: the flick did
    /// not arrive as it was sent.
    static func isStretched(_ events: [InputEvent]) -> Bool {
        guard let press = events.firstIndex(where: { if case .pointerDown = $0 { true } else { false } }) else { return false }
        let times = events[press...].compactMap(\.time).dropFirst()
        return zip(times, times.dropFirst()).contains { !flickGaps.contains($1 - $0) }
    }

    /// The events of one chain are read together, after it ends, so their arrival times are all
    /// equal; their times must keep the server's spacing. Each step is followed by a round trip
    /// (`getmouselocation`: the server has stamped it before it replies) and then a 0.3 s sleep,
    /// so on any machine, however loaded, the server stamps each next step at least 0.3 s later
    /// (its clock counts whole milliseconds: 299 ms at the least). No upper bound: a loaded
    /// machine may sleep longer.
    @Test func eventTimesAreTheServersNotTheirArrival() throws {
        let session = try Session()
        let pause = ["getmouselocation", "sleep", "0.3"]
        try session.send(["mousemove", "100", "200"] + pause + ["mousedown", "1"] + pause + ["mousemove", "200", "200"] + pause
            + ["mousemove", "300", "200"] + pause + ["mouseup", "1"])
        let events = session.eventsUntilRelease()
        guard let down = events.firstIndex(where: { if case .pointerDown = $0 { true } else { false } }) else {
            Issue.record("no press in \(events)")
            return
        }
        let times = events[down...].compactMap(\.time)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(gaps.count == 3, "\(events)")
        #expect(gaps.allSatisfy { $0 >= 0.299 }, "\(gaps)")
    }

    // A zoomed photo flicked with three motion events once drifted back against the flick.
    @Test(arguments: [1, -1])
    func aZoomedFlickCoastsOn(direction: Int) throws {
        let session = try Session()
        // Three zoom steps of 1.3 from fit 640/3200 = 0.2: 0.44, so the photo is 1406 px wide and
        // can pan 383 px either way; the 150 px drag stays clear of the edge (no hand-over to
        // paging), the coast reaches it.
        try session.send(["mousemove", "320", "200", "key", "plus", "plus", "plus", "sleep", "0.5"] + Self.flick(moves: 3, direction: direction))
        let events = session.eventsUntilRelease()
        #expect(events.contains { if case .key("+", _, _, _) = $0 { true } else { false } })
        let content = Size(width: 3200, height: 2000)
        let atRelease = Self.viewer(after: events, content: content, steppedFor: 0)
        let settled = Self.viewer(after: events, content: content)
        guard let released = atRelease.renderState.pages.first(where: { $0.index == 2 })?.transform,
              let rested = settled.renderState.pages.first(where: { $0.index == 2 })?.transform
        else {
            Issue.record("page 2 is not on screen")
            return
        }
        #expect(settled.currentPage == 2, "a zoomed photo pans; it does not page from its middle")
        #expect(abs(released.scale - 0.2 * 1.3 * 1.3 * 1.3) < 1e-6 && abs(rested.scale - released.scale) < 1e-9, "\(released) → \(rested)")
        let coast = (rested.offset.x - released.offset.x) * Double(direction)
        #expect(coast > 20, "coasted \(coast) px the flick's way")
    }

    // xdotool presses Shift for "plus" as a keyboard would; the modifier keys' own presses
    // (Shift_L, Control_L) are no events at all (`KeysymName`): only the keys arrive, as `Key`s.
    @Test func keysArriveAsKeysWithModifiers() throws {
        let session = try Session()
        try session.send(["mousemove", "320", "200", "key", "Right", "key", "plus", "key", "ctrl+Left", "key", "shift+Home", "key", "q"])
        let keys = session.events { if case .key("q", _, _, _) = $0 { true } else { false } }
            .compactMap { event -> String? in
                guard case let .key(key, modifiers, _, _) = event else { return nil }
                return (modifiers.contains(.control) ? "ctrl+" : "") + (modifiers.contains(.shift) ? "shift+" : "") + key.name
            }
        #expect(keys == ["Right", "shift++", "ctrl+Left", "shift+Home", "q"])
    }

    // A key held past the server's auto-repeat delay (660 ms by default) repeats every 40 ms:
    // the repeats arrive marked as such (detectable auto-repeat, no release between them); the
    // press before them and a press after the release are not repeats.
    @Test func aHeldKeysRepeatsArriveMarked() throws {
        let session = try Session()
        try session.send(["mousemove", "320", "200", "keydown", "Right", "sleep", "1", "keyup", "Right", "key", "Right", "key", "q"])
        let rights = session.events { if case .key("q", _, _, _) = $0 { true } else { false } }
            .compactMap { event -> Bool? in
                guard case let .key(key, _, _, isRepeat) = event, key == .right else { return nil }
                return isRepeat
            }
        #expect(rights.count >= 4, "pressed, repeated, pressed: \(rights)")
        #expect(rights.first == false && rights.last == false, "\(rights)")
        #expect(rights.dropFirst().dropLast().allSatisfy { $0 }, "\(rights)")
    }

    // Button 4 is the wheel turned away from the user (zoom in), 5 towards; 6 and 7 are the
    // horizontal wheel, left and right. Each click is one notch.
    @Test func wheelButtonsAreNotchesWithDirectionsAndModifiers() throws {
        let session = try Session()
        try session.send(["mousemove", "100", "50", "click", "4", "click", "5", "click", "6", "click", "7",
                          "keydown", "ctrl", "click", "4", "keyup", "ctrl", "key", "q"])
        let scrolls = session.events { if case .key("q", _, _, _) = $0 { true } else { false } }
            .compactMap { event -> String? in
                guard case let .scroll(delta, position, modifiers, _, _) = event else { return nil }
                #expect(position == Point(x: 100, y: 50))
                return "\(modifiers.contains(.control) ? "ctrl " : "")\(delta.x) \(delta.y)"
            }
        #expect(scrolls == ["0.0 1.0", "0.0 -1.0", "-1.0 0.0", "1.0 0.0", "ctrl 0.0 1.0"])
    }

    // The side buttons arrive as presses of their own; the wheel's 4-7 never do.
    @Test func backAndForwardButtonsArrive() throws {
        let session = try Session()
        try session.send(["mousemove", "300", "100", "click", "8", "click", "9", "key", "q"])
        let buttons = session.events { if case .key("q", _, _, _) = $0 { true } else { false } }
            .compactMap { event -> String? in
                switch event {
                case let .pointerDown(_, button, _, _): "down \(button)"
                case let .pointerUp(_, button, _, _): "up \(button)"
                default: nil
                }
            }
        #expect(buttons == ["down back", "up back", "down forward", "up forward"])
    }

    // Focus given to the window by a client (as a window manager does on a click) arrives as
    // focus(true); the pointer merely entering the window under pointer-root focus does not.
    @Test func focusGivenToTheWindowArrives() throws {
        let session = try Session()
        try session.send(["search", "--name", "Riffle input test", "windowfocus", "--sync", "%1", "key", "q"])
        let events = session.events { if case .key("q", _, _, _) = $0 { true } else { false } }
        #expect(events.contains(.focus(true)), "\(events)")
    }

    // Three resizes read in one drain are one `.resize`, to the last size: the app lays out once.
    // (Pointer moves are never coalesced: the flick tests count them.)
    @Test func resizesReadTogetherAreOne() throws {
        let session = try Session()
        try session.send([
            "search", "--name", "Riffle input test", "windowsize", "%1", "500", "300", "windowsize", "%1", "520", "320",
            "windowsize", "%1", "540", "340", "sleep", "0.3",
        ])
        let resizes = session.display.pollEvents().filter { if case .resize = $0 { true } else { false } }
        #expect(resizes == [.resize(PixelSize(width: 540, height: 340))])
        #expect(session.display.size == PixelSize(width: 540, height: 340))
    }

    @Test func aDisplayWithNoServerIsAClearError() {
        #expect {
            _ = try X11Display(displayName: ":4999", size: Self.windowSize, title: "none") { 0 }
        } throws: { error in
            let message = "\(error)"
            return message.contains("cannot open X display") && message.contains(":4999")
        }
    }
}
