import RiffleGeometry
import RiffleInteraction

/// One line of a replay script (see the README for the format).
public enum ReplayCommand: Hashable, Sendable {
    /// Advance the clock by this many milliseconds.
    case wait(milliseconds: Double)
    /// Press the left button at a point.
    case down(Point)
    /// Move the pointer to a point, interpolated over `milliseconds` at 60 Hz (0: at once).
    case move(Point, milliseconds: Double)
    /// Release the left button where the pointer is.
    case up
    /// Press and release the left button at a point.
    case click(Point)
    /// Two clicks at a point, 100 ms apart.
    case doubleClick(Point)
    /// Wheel notches at a point: `delta.y` > 0 away from the user (zooms in), `delta.x` > 0 right.
    case wheel(delta: Point, at: Point, modifiers: Modifiers)
    /// A key by its X keysym name.
    case key(String)
    /// Resize the window.
    case resize(PixelSize)
    /// Write the frame on screen to DIR/NAME.png.
    case snapshot(String)
}

/// A parse error with the line it happened on.
public struct ReplayScriptError: Error, CustomStringConvertible, Sendable {
    public let line: Int
    public let message: String
    public var description: String { "replay script line \(line): \(message)" }
}

/// A parsed replay script: commands with their line numbers.
public struct ReplayScript: Sendable {
    public struct Step: Hashable, Sendable {
        public let line: Int
        public let command: ReplayCommand
    }

    public let steps: [Step]

    /// Time between two clicks of a scripted double-click, in milliseconds (well inside the
    /// 300 ms double-click window of PHYSICS.md).
    public static let doubleClickSpacing = 100.0

    /// Parses `text`: one command per line, `#` starts a comment, blank lines are ignored.
    /// Throws on an unknown command or malformed arguments, naming the line.
    public init(parsing text: String) throws(ReplayScriptError) {
        var steps: [Step] = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = n + 1
            let code = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = code.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard let name = words.first else { continue }
            let args = Array(words.dropFirst())
            steps.append(Step(line: line, command: try Self.command(name, args, line: line)))
        }
        self.steps = steps
    }

    private static func command(_ name: String, _ args: [String], line: Int) throws(ReplayScriptError) -> ReplayCommand {
        func fail(_ message: String) -> ReplayScriptError { ReplayScriptError(line: line, message: message) }
        func number(_ i: Int) throws(ReplayScriptError) -> Double {
            guard i < args.count, let v = Double(args[i]), v.isFinite else {
                throw fail("'\(name)' expects a number as argument \(i + 1)")
            }
            return v
        }
        func count(_ range: ClosedRange<Int>) throws(ReplayScriptError) {
            guard range.contains(args.count) else {
                throw fail("'\(name)' takes \(range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)") arguments, got \(args.count)")
            }
        }
        func point(_ i: Int) throws(ReplayScriptError) -> Point { Point(x: try number(i), y: try number(i + 1)) }
        switch name {
        case "wait":
            try count(1...1)
            let ms = try number(0)
            guard ms >= 0 else { throw fail("'wait' needs a duration ≥ 0") }
            return .wait(milliseconds: ms)
        case "down":
            try count(2...2)
            return .down(try point(0))
        case "move":
            try count(2...3)
            let ms = args.count == 3 ? try number(2) : 0
            guard ms >= 0 else { throw fail("'move' needs a duration ≥ 0") }
            return .move(try point(0), milliseconds: ms)
        case "up":
            try count(0...0)
            return .up
        case "click":
            try count(2...2)
            return .click(try point(0))
        case "doubleclick":
            try count(2...2)
            return .doubleClick(try point(0))
        case "wheel", "hwheel":
            try count(3...4)
            var modifiers: Modifiers = []
            if args.count == 4 {
                switch args[3] {
                case "ctrl": modifiers = .control
                case "shift": modifiers = .shift
                default: throw fail("unknown wheel modifier '\(args[3])' (ctrl or shift)")
                }
            }
            let d = try number(0)
            let delta = name == "wheel" ? Point(x: 0, y: d) : Point(x: d, y: 0)
            return .wheel(delta: delta, at: try point(1), modifiers: modifiers)
        case "key":
            try count(1...1)
            return .key(args[0])
        case "resize":
            try count(2...2)
            let w = try number(0), h = try number(1)
            guard w >= 1, h >= 1, w == w.rounded(), h == h.rounded(), w <= 16384, h <= 16384 else {
                throw fail("'resize' needs whole sizes from 1 to 16384")
            }
            return .resize(PixelSize(width: Int(w), height: Int(h)))
        case "snapshot":
            try count(1...1)
            guard !args[0].contains("/"), args[0] != "..", args[0] != "." else {
                throw fail("snapshot names are plain file names, got '\(args[0])'")
            }
            return .snapshot(args[0])
        default:
            throw fail("unknown command '\(name)'")
        }
    }
}
