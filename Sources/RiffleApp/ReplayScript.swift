import RiffleDisplay
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
    /// A key, with the modifiers held (Control, Shift, Alt). The script names it by its X
    /// keysym name, read through `KeysymName`, as a key press in the window is.
    case key(Key, modifiers: Modifiers)
    /// The window gains (true) or loses (false) the keyboard focus.
    case focus(Bool)
    /// Resize the window.
    case resize(PixelSize)
    /// Write the frame on screen to DIR/NAME.png.
    case snapshot(String)
}

/// A parse error with the line it happened on.
public struct ReplayScriptError: Error, CustomStringConvertible, Sendable {
    /// The line of the script, from 1 (CRLF and LF each end one line).
    public let line: Int
    /// What is wrong with the line, quoting the offending word, e.g. "'resize' needs whole sizes
    /// from 1 to 16384, got '10.5'".
    public let message: String
    /// "replay script line N: message".
    public var description: String { "replay script line \(line): \(message)" }
}

/// A parsed replay script: commands with their line numbers.
public struct ReplayScript: Sendable {
    /// A command and the line it was read from.
    public struct Step: Hashable, Sendable {
        /// The line of the script, from 1.
        public let line: Int
        /// What the line says to do.
        public let command: ReplayCommand
    }

    /// The commands in script order; blank and comment lines have none.
    public let steps: [Step]

    /// Time between two clicks of a scripted double-click, in milliseconds (well inside
    /// `ClickRecognizer.doubleClickInterval`, 300 ms; docs/physics.md, "Single and double clicks").
    public static let doubleClickSpacing = 100.0

    /// The longest `wait` or `move` duration, in milliseconds: an hour of virtual time, 216 000
    /// frames at 60 Hz. A sanity bound: the runner steps every frame of a duration, and a
    /// duration past Int's range in frames would trap.
    package static let longestDuration = 3_600_000.0

    /// Pointer coordinates a script may use, in window pixels: X reports pointer positions as
    /// INT16 (event-x and event-y of ButtonPress and MotionNotify in the X Window System
    /// Protocol, https://www.x.org/releases/current/doc/xproto/x11protocol.html; XInput 2's
    /// FP1616 has the same whole range), so a point outside it cannot come from a real pointer,
    /// even one dragged past the window's edge.
    package static let coordinates = -32768.0...32767.0

    /// The most wheel notches one `wheel` or `hwheel` line may turn. A sanity bound: the runner
    /// queues one event per notch, as X sends one button press per detent.
    package static let mostWheelNotches = 1000.0

    /// The largest `resize` side in pixels: a 16384 × 16384 window is 1 GiB of BGRA.
    package static let largestWindowSide = 16384

    /// Parses `text`: one command per line, `#` starts a comment, blank lines are ignored.
    ///
    /// Lines end with LF or CRLF: a script saved on Windows parses exactly as the same script
    /// saved on Linux, with the same line numbers (a stray CR elsewhere is a space). A leading
    /// UTF-8 byte-order mark, which some Windows editors write, is ignored. Throws on an unknown
    /// command, a wrong number of arguments, or an argument that is not a number where one is
    /// expected, out of its range (a negative, non-finite or over-long duration; a coordinate
    /// outside X's 16-bit range; a size that is not a whole number from 1 to
    /// `largestWindowSide`), or a snapshot name that is not a plain file name; the error names
    /// the line.
    public init(parsing text: String) throws(ReplayScriptError) {
        var body = Substring(text)
        if body.unicodeScalars.first == "\u{FEFF}" { body = body.dropFirst() }
        // "\r\n" is a single Character in Swift: splitting on "\n" alone would make a CRLF script
        // one long line.
        let lines = body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        var steps: [Step] = []
        for (n, raw) in lines.enumerated() {
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
        // Every case checks the argument count before reading an argument.
        func number(_ i: Int) throws(ReplayScriptError) -> Double {
            guard let v = Double(args[i]), v.isFinite else {
                throw fail("'\(name)' expects a number as argument \(i + 1), got '\(args[i])'")
            }
            return v
        }
        func count(_ range: ClosedRange<Int>) throws(ReplayScriptError) {
            guard range.contains(args.count) else {
                let expected = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
                throw fail("'\(name)' takes \(expected) argument\(range.upperBound == 1 ? "" : "s"), got \(args.count)")
            }
        }
        func duration(_ i: Int) throws(ReplayScriptError) -> Double {
            let ms = try number(i)
            guard ms >= 0, ms <= longestDuration else {
                throw fail("'\(name)' needs a duration from 0 to \(Int(longestDuration)) ms, got '\(args[i])'")
            }
            return ms
        }
        func point(_ i: Int) throws(ReplayScriptError) -> Point {
            let x = try number(i), y = try number(i + 1)
            guard coordinates.contains(x), coordinates.contains(y) else {
                throw fail("'\(name)' needs coordinates from \(Int(coordinates.lowerBound)) to \(Int(coordinates.upperBound)), got '\(args[i]) \(args[i + 1])'")
            }
            return Point(x: x, y: y)
        }
        func side(_ i: Int) throws(ReplayScriptError) -> Int {
            let v = try number(i)
            guard v == v.rounded(), v >= 1, v <= Double(largestWindowSide) else {
                throw fail("'\(name)' needs whole sizes from 1 to \(largestWindowSide), got '\(args[i])'")
            }
            return Int(v)
        }
        // The modifiers a wheel turn or a key press is made with: ctrl, shift and alt, joined by +.
        func held(_ i: Int) throws(ReplayScriptError) -> Modifiers {
            var held: Modifiers = []
            for word in args[i].split(separator: "+", omittingEmptySubsequences: false) {
                switch word {
                case "ctrl": held.insert(.control)
                case "shift": held.insert(.shift)
                case "alt": held.insert(.alt)
                default: throw fail("unknown '\(name)' modifier '\(args[i])' (ctrl, shift and alt, joined by +)")
                }
            }
            return held
        }
        switch name {
        case "wait":
            try count(1...1)
            return .wait(milliseconds: try duration(0))
        case "down":
            try count(2...2)
            return .down(try point(0))
        case "move":
            try count(2...3)
            let p = try point(0)
            return .move(p, milliseconds: args.count == 3 ? try duration(2) : 0)
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
            let modifiers = args.count == 4 ? try held(3) : []
            let d = try number(0)
            guard d.magnitude <= mostWheelNotches else {
                throw fail("'\(name)' turns at most \(Int(mostWheelNotches)) notches either way, got '\(args[0])'")
            }
            let delta = name == "wheel" ? Point(x: 0, y: d) : Point(x: d, y: 0)
            return .wheel(delta: delta, at: try point(1), modifiers: modifiers)
        case "key":
            try count(1...2)
            guard let key = KeysymName.key(named: args[0]) else {
                throw fail("'key' takes a key Riffle reads by its X keysym name (Right, space, plus, Escape, q ...), got '\(args[0])'")
            }
            return .key(key, modifiers: args.count == 2 ? try held(1) : Modifiers())
        case "focus":
            try count(1...1)
            switch args[0] {
            case "in": return .focus(true)
            case "out": return .focus(false)
            default: throw ReplayScriptError(line: line, message: "'focus' takes 'in' or 'out', got '\(args[0])'")
            }
        case "resize":
            try count(2...2)
            return .resize(PixelSize(width: try side(0), height: try side(1)))
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
