import Foundation
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing

/// The grid answers real input with a frame: arrow keys and a slow drag sent through XTest
/// (`xdotool`) to the real binary under Xvfb, the window read back after each step and compared
/// with what a headless replay of the same input draws. A replay draws after every step, so a
/// frame that real input forgets to ask for is seen only here: the focus ring that moved
/// without being drawn, the grid that scrolled under a slow drag and stayed still on screen.
///
/// The replay is no oracle on its own: it draws only the frames the scene asks for, as the
/// window does, so a frame both forget looks the same in both. Beside each comparison stands an
/// independent check of what the step must show, read off the window: where the focus ring is
/// (iOS's systemBlue, `GridView.ringColor`), and how far the rows moved (the white gap between two
/// rows, found in the picture, moved by the drag less the pan's slop).
///
/// A step's frame is waited for (up to `settle` seconds, polling), never timed: the test fails only
/// when the window never shows what the step must show.
@Suite(.timeLimit(.minutes(3))) struct GridRedrawTests {
    /// Seconds the window has to show a step's frame; the frame comes within one refresh when the
    /// grid asks for it, so this only bounds how long a missing frame is waited for.
    static let settle = 5.0
    /// A 40-photo folder in the 640×400 window `RunningWindow` opens: 8 rows of 5 columns, about
    /// three screens, so a drag has room to scroll both ways.
    static let photoCount = 40

    /// What a step must show, independently of the replay.
    enum Expected {
        /// The focus ring around the cell in `column` and `row` of the window (both from 0).
        case ring(column: Int, row: Int)
        /// No ring, and the first gap between rows `moved` pixels from where it was at the start
        /// (negative: up).
        case rowsMoved(Int)
    }

    /// One input step: the `xdotool` chain a person's keyboard and mouse would send, the replay
    /// lines that say the same, the name of the frame that follows it and what that frame shows.
    struct Step {
        let xdotool: [String]
        let replay: [String]
        let snapshot: String
        let expected: Expected
    }

    /// A slow drag of `steps` 10-px steps from (320, `fromY`), `dy` (±10) each, 100 ms apart:
    /// slower than any flick (a person scrolling with care), held still before the release. The
    /// replay moves through the same points at the same times. The pan locks at the first point
    /// more than `PanRecognizer.slop` (10 px) from the press, the second step's 20 px, and the
    /// content follows the pointer from there: it moves (steps − 2) · dy, plus `before` (where the
    /// rows were moved to by the steps before this one).
    static func slowDrag(from fromY: Int, steps: Int, dy: Int, before: Int, name: String) -> [Step] {
        let moved = before + (steps - 2) * dy
        var chain = ["mousemove", "320", "\(fromY)", "sleep", "0.2", "mousedown", "1"]
        var lines = ["move 320 \(fromY)", "wait 200", "down 320 \(fromY)"]
        for step in 1...steps {
            chain += ["sleep", "0.1", "mousemove", "320", "\(fromY + step * dy)"]
            lines += ["wait 100", "move 320 \(fromY + step * dy)"]
        }
        chain += ["sleep", "0.5"]
        lines += ["wait 500"]
        return [
            Step(xdotool: chain, replay: lines, snapshot: "\(name)-held", expected: .rowsMoved(moved)),
            // Held still before the release: no velocity, no coast; the rows stay.
            Step(xdotool: ["mouseup", "1", "sleep", "0.5"], replay: ["up", "wait 500"], snapshot: "\(name)-released",
                 expected: .rowsMoved(moved)),
        ]
    }

    // The first arrow shows the ring on the first item wholly in view; the next move it. The
    // drag's press hides the ring (`GridInteraction`: pointer focus is not shown).
    static let steps: [Step] = [
        Step(xdotool: ["key", "Right"], replay: ["key Right", "wait 300"], snapshot: "1-right", expected: .ring(column: 0, row: 0)),
        Step(xdotool: ["key", "Right"], replay: ["key Right", "wait 300"], snapshot: "2-right", expected: .ring(column: 1, row: 0)),
        Step(xdotool: ["key", "Down"], replay: ["key Down", "wait 300"], snapshot: "3-down", expected: .ring(column: 1, row: 1)),
    ] + slowDrag(from: 300, steps: 15, dy: -10, before: 0, name: "4-drag-up")
        + slowDrag(from: 100, steps: 8, dy: 10, before: -130, name: "5-drag-down")

    @Test func keysAndSlowDragsAreDrawnAsTheReplayDrawsThem() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let headless = try Self.replay(Self.steps, folder: folder)
        defer { try? FileManager.default.removeItem(at: headless) }

        let app = try RunningWindow(paths: [folder], server: try VirtualXServer(sharedMemory: true))
        var shot = try app.shot()
        let start = try Self.snapshot("0-start", in: headless)
        #expect(try eventually(within: Self.settle) { shot = try app.shot(); return Self.differing(shot, start) == 0 },
                "the first screen of thumbnails: \(Self.differing(shot, start)) pixels differ")
        let columns = Self.columnEdges(in: shot), gap = Self.firstRowGap(in: shot)
        try #require(columns.count == Self.columns && gap != nil, "the start frame is no grid of \(Self.columns) columns")
        let rowPitch = Double(RunningWindow.size.width) / Double(Self.columns)
        // The keys go to the window: give it the focus once, as a click or the window manager would.
        try app.xdotool(["windowfocus", "--sync", app.window])
        for step in Self.steps {
            try app.xdotool(step.xdotool)
            let replayed = try Self.snapshot(step.snapshot, in: headless)
            var problem: String?
            let shown = try eventually(within: Self.settle) {
                shot = try app.shot()
                problem = Self.problem(with: shot, expected: step.expected, columns: columns, gap: gap!, rowPitch: rowPitch)
                return problem == nil
            }
            #expect(shown, "after \(step.snapshot): \(problem ?? "")")
            let differing = Self.differing(shot, replayed)
            #expect(differing == 0, "after \(step.snapshot) the window differs from the replay in \(differing) pixels")
            if !shown || differing != 0 { try Self.keep(shot, replayed, name: step.snapshot) }
        }
        try app.press("q")
        #expect(app.ended(within: 10), "q did not quit")
    }

    /// The automatic columns of a 640 px wide grid (`GridLayout`).
    static let columns = 4

    /// What is wrong with `shot` for `expected`, nil when nothing: `columns` are the cells' left
    /// edges, `gap` the first white row between two rows of cells at the start.
    static func problem(with shot: PixelBuffer, expected: Expected, columns: [Int], gap: Int, rowPitch: Double) -> String? {
        let ring = ringBounds(in: shot)
        switch expected {
        case let .ring(column, row):
            guard let ring else { return "no focus ring is drawn" }
            let centreX = (ring.minX + ring.maxX) / 2, centreY = (ring.minY + ring.maxY) / 2
            let atColumn = columns.lastIndex { $0 <= centreX } ?? -1
            let atRow = Int((Double(centreY) / rowPitch).rounded(.down))
            return (atColumn, atRow) == (column, row) ? nil : "the ring is around column \(atColumn), row \(atRow)"
        case let .rowsMoved(moved):
            if ring != nil { return "the focus ring still shows" }
            guard let now = firstRowGap(in: shot) else { return "no gap between rows is seen" }
            // The gap's first white row may round a pixel either way as the rows move on whole pixels.
            return abs(now - (gap + moved)) <= 1 ? nil : "the first gap between rows is at y \(now), not \(gap + moved)"
        }
    }

    /// The bounding box of the focus ring's pixels (`GridView.ringColor`, #007AFF), nil when none.
    static func ringBounds(in shot: PixelBuffer) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var box: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
        for y in 0..<shot.height {
            for x in 0..<shot.width where shot[x, y] & 0xFF_FFFF == 0x00_7AFF {
                box = (min(box?.minX ?? x, x), min(box?.minY ?? y, y), max(box?.maxX ?? x, x), max(box?.maxY ?? y, y))
            }
        }
        return box
    }

    /// The x of each cell's left edge: the first column after each run of white columns (and 0).
    static func columnEdges(in shot: PixelBuffer) -> [Int] {
        let white = (0..<shot.width).map { x in (0..<shot.height).allSatisfy { shot[x, $0] & 0xFF_FFFF == 0xFF_FFFF } }
        return (0..<shot.width).filter { x in !white[x] && (x == 0 || white[x - 1]) }
    }

    /// The first white row that follows a row of cells (a gap between two rows), nil when none.
    static func firstRowGap(in shot: PixelBuffer) -> Int? {
        let white = (0..<shot.height).map { y in (0..<shot.width).allSatisfy { shot[$0, y] & 0xFF_FFFF == 0xFF_FFFF } }
        return (1..<shot.height).first { white[$0] && !white[$0 - 1] }
    }

    /// A folder of `photoCount` 64×48 JPEGs, each one flat colour of its own, so every cell (and
    /// every scroll position) looks different.
    static func makeFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-grid-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        for index in 0..<photoCount {
            let red = UInt32(40 + index * 5), green = UInt32((index * 67) % 200 + 30), blue = UInt32(230 - index * 4)
            let colour: UInt32 = 0xFF00_0000 | red << 16 | green << 8 | blue
            let name = String(format: "photo %02d.jpg", index + 1)
            try Data(try LiveFolderWindowTests.flatJPEG(colour)).write(to: URL(fileURLWithPath: "\(folder)/\(name)"))
        }
        return folder
    }

    /// Replays `steps` headless on `folder` in a window of `RunningWindow.size`, a snapshot after each
    /// (and `0-start` before them); the folder of snapshots.
    static func replay(_ steps: [Step], folder: String) throws -> URL {
        let snapshots = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-grid-replay-\(UUID().uuidString)")
        let script = snapshots.appendingPathExtension("replay")
        defer { try? FileManager.default.removeItem(at: script) }
        var lines = ["wait 500", "snapshot 0-start"]
        for step in steps { lines += step.replay + ["snapshot \(step.snapshot)"] }
        try Data(lines.joined(separator: "\n").utf8).write(to: script)
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "DISPLAY")
        let run = try RealWindowTests.runRiffle(
            ["--headless", "--size", "\(RunningWindow.size.width)x\(RunningWindow.size.height)", "--replay", script.path, "--snapshots", snapshots.path, folder], environment: env)
        guard run.status == 0 else { throw EndToEndError("the headless replay exited \(run.status): \(run.stderr)") }
        return snapshots
    }

    static func snapshot(_ name: String, in folder: URL) throws -> PixelBuffer {
        try ImageDecoder.decodeFile(atPath: folder.appendingPathComponent("\(name).png").path).pixels
    }

    /// Pixels that differ at all (tolerance 0: both frames are composited from the same
    /// thumbnails by the same code, and the X server stores them unchanged); every pixel when
    /// the sizes differ.
    static func differing(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        guard a.size == b.size else { return max(a.width * a.height, b.width * b.height) }
        return ImageDifference(a, b, tolerance: 0).pixelsOverTolerance
    }

    /// Writes a failed step's window and replay frames to Tests/Failures, for a person to look at.
    static func keep(_ shown: PixelBuffer, _ expected: PixelBuffer, name: String) throws {
        let folder = RealWindowTests.testsFolder.appendingPathComponent("Failures/GridRedraw")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(try PNGEncoder.encode(shown)).write(to: folder.appendingPathComponent("\(name)-window.png"))
        try Data(try PNGEncoder.encode(expected)).write(to: folder.appendingPathComponent("\(name)-replay.png"))
    }
}
