import RiffleDisplay
import RiffleGeometry
import RiffleInteraction
import RiffleRaster

/// How a replay's clock relates to the wall clock.
public enum ReplayTiming: Sendable {
    /// Virtual time only, as fast as the machine goes; decodes finish before every frame.
    case deterministic
    /// The same frames as `.deterministic`, each shown no earlier than its virtual time (a
    /// person watching a window sees the script at its real speed).
    case paced
    /// The clock is the wall clock: frames are stepped when their time comes (dropped when the
    /// machine is late) and decodes are never waited for, so figures show what a user would see.
    case realTime
}

/// Drives a `Scene` from a replay script on a virtual clock stepped at exactly `frameRate` Hz
/// (60 unless asked: `--hz 144` steps a 144 Hz display's frames; the physics are functions of
/// time, so only the in-between frames differ, never where things come to rest).
///
/// Script events are injected at the app's input layer (straight into `Scene.handle`) with
/// virtual timestamps; the display contributes only its own window events (expose, resize,
/// close). A frame is stepped at every 1/`frameRate` s boundary the clock passes. Before each frame (and
/// so before each `snapshot`) every decode requested so far is let finish without moving the
/// clock: what a gesture sees (a photo's size, its pixels) never depends on how fast this
/// machine decodes, so a script gives the same pictures on any machine, headless or in a window.
/// `ReplayTiming.realTime` gives that up to measure what a user would see.
public final class ReplayRunner {
    /// Frames per second of the virtual clock unless the script is run at another rate.
    public static let defaultFrameRate = 60.0

    /// Frames per second of this run's virtual clock.
    public let frameRate: Double

    private let script: ReplayScript
    /// The scene driven; a script has no drop, so it is never replaced.
    private var scene: Scene
    private let display: Display
    private let writeSnapshot: (String, PixelBuffer) throws -> Void
    private let timing: ReplayTiming
    /// The runtime's monotonic clock: the wall time a paced or real-time replay keeps up with.
    private let wallClock: () -> Double
    private var wallStart = 0.0
    private var now = 0.0
    private var nextFrame = 0
    private var pointer = Point.zero
    /// Set once the scene asked to quit: the script ends there.
    private var quit = false
    private var queued: [InputEvent] = []
    private let performer: AppCommandPerformer

    /// - Parameter writeSnapshot: receives a snapshot's name and the captured frame.
    public init(
        script: ReplayScript, scene: Scene, display: Display, timing: ReplayTiming = .deterministic,
        frameRate: Double = ReplayRunner.defaultFrameRate, wallClock: @escaping () -> Double,
        writeSnapshot: @escaping (String, PixelBuffer) throws -> Void
    ) {
        self.script = script
        self.scene = scene
        self.display = display
        self.wallClock = wallClock
        self.timing = timing
        self.frameRate = frameRate
        self.writeSnapshot = writeSnapshot
        performer = AppCommandPerformer(display: display)
    }

    /// Runs the script to its end (or until the scene asks to quit). Throws what `writeSnapshot` or the
    /// display's capture throws.
    public func run() throws {
        wallStart = wallClock()
        stepFrame()
        for step in script.steps {
            if quit { return }
            try perform(step.command)
        }
    }

    private func perform(_ command: ReplayCommand) throws {
        switch command {
        case .wait(let ms):
            advanceClock(to: now + ms / 1000)
        case .down(let p):
            pointer = p
            queued.append(.pointerDown(position: p, button: .left, modifiers: [], time: now))
        case .move(let p, let ms):
            let start = pointer, t0 = now
            let steps = max(1, Int((ms / 1000 * frameRate).rounded()))
            for k in 1...steps {
                let f = Double(k) / Double(steps)
                pointer = start + (p - start) * f
                let t = t0 + ms / 1000 * f
                advanceClock(to: t)
                queued.append(.pointerMove(position: pointer, modifiers: [], time: t))
            }
            pointer = p
        case .up:
            queued.append(.pointerUp(position: pointer, button: .left, modifiers: [], time: now))
        case .click(let p):
            click(at: p)
        case .doubleClick(let p):
            click(at: p)
            advanceClock(to: now + ReplayScript.doubleClickSpacing / 1000)
            click(at: p)
        case .wheel(let delta, let p, let modifiers):
            pointer = p
            // One event per notch, as the X server sends one button press per detent.
            for axis in Axis.allCases {
                let notches = Int(delta[axis].magnitude.rounded(.up))
                var left = delta[axis].magnitude
                for _ in 0..<notches {
                    var d = Point.zero
                    d[axis] = min(1, left) * (delta[axis] < 0 ? -1 : 1)
                    left -= 1
                    queued.append(.scroll(delta: d, position: p, modifiers: modifiers, precise: false, time: now))
                }
            }
        case let .key(key, modifiers):
            queued.append(.key(key, modifiers: modifiers, time: now))
        case .focus(let gained):
            queued.append(.focus(gained))
        case .resize(let size):
            display.requestResize(size)
            awaitResize(to: size)
        case .snapshot(let name):
            if timing != .realTime { scene.settleDecodes() }
            deliverQueued()
            // A quit among the events just delivered ends the script before this snapshot.
            if quit { return }
            scene.renderIfNeeded()
            try writeSnapshot(name, try display.capture())
        }
    }

    private func click(at p: Point) {
        pointer = p
        queued.append(.pointerDown(position: p, button: .left, modifiers: [], time: now))
        queued.append(.pointerUp(position: p, button: .left, modifiers: [], time: now))
    }

    /// Moves the virtual clock to `t`, stepping a frame at every 1/`frameRate` s boundary on the way
    /// (in real time: waiting for each boundary, and skipping those already past).
    private func advanceClock(to t: Double) {
        let lastFrame = Int((t * frameRate + 1e-9).rounded(.down))
        while nextFrame <= lastFrame {
            if timing == .realTime {
                let elapsed = wallClock() - wallStart
                let due = Double(nextFrame) / frameRate
                if elapsed < due {
                    MonotonicClock.sleep(due - elapsed)
                } else {
                    nextFrame = min(lastFrame, Int((elapsed * frameRate).rounded(.down)))
                }
            }
            now = Double(nextFrame) / frameRate
            stepFrame()
        }
        now = t
    }

    /// How long a window may take to report a requested size, in 50 ms waits (2 s); a window
    /// manager may refuse, and the script then goes on at the size it got.
    private static let resizeWaits = 40

    /// Waits (without moving the virtual clock) until the display reports `size`.
    private func awaitResize(to size: PixelSize) {
        for _ in 0..<Self.resizeWaits {
            if deliverWindowEvents().contains(.resize(size)) { return }
            display.waitForEvents(timeout: 0.05)
        }
    }

    /// Hands the display's own window events to the scene and returns them; a person's input
    /// must not disturb a scripted run, so pointer and key events are dropped.
    @discardableResult
    private func deliverWindowEvents() -> [InputEvent] {
        let events = display.pollEvents().filter {
            switch $0 {
            case .resize, .expose, .close: return true
            default: return false
            }
        }
        for event in events { perform(scene.handle(event, now: now)) }
        return events
    }

    private func deliverQueued() {
        deliverWindowEvents()
        for event in queued where !quit { perform(scene.handle(event, now: event.time ?? now)) }
        queued.removeAll()
    }

    /// Carries out the scene's commands (`AppCommandPerformer`, with no drop to open: only a
    /// drag from another program opens paths); quit ends the script.
    private func perform(_ commands: [AppCommand]) {
        if performer.perform(commands, on: &scene) { quit = true }
    }

    private func stepFrame() {
        let t = Double(nextFrame) / frameRate
        nextFrame += 1
        if timing != .realTime { scene.settleDecodes() }
        deliverQueued()
        perform(scene.advance(to: t))
        scene.renderIfNeeded()
        if timing == .paced {
            let ahead = t - (wallClock() - wallStart)
            if ahead > 0 { MonotonicClock.sleep(ahead) }
        }
    }
}
