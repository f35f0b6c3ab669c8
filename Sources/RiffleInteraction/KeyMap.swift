/// Every key Riffle answers, in one table: binding (key and modifiers, per context) → command →
/// help line. The scene, the grid and the pager look their keys up here, and the help overlay's
/// keys are this table's lines, so a binding cannot go missing from the help or the help list a
/// key that does nothing.
public enum KeyMap {
    /// A line of the help: what its keys do, and the bindings that do it.
    public struct HelpLine: Hashable, Sendable {
        /// The keys, spelled as the help writes them: groups of chords joined by " / " (the
        /// action's alternatives, "next / previous"), chords within a group by ", ".
        public let keys: String
        /// What they do: "next / previous, or pan".
        public let action: String
        /// The bindings the line stands for; every binding in the map is in exactly one line.
        public let bindings: [KeyBinding]

        /// A line for `groups` of bindings, one group per alternative of `action`.
        init(_ action: String, _ groups: [KeyBinding]...) {
            self.action = action
            bindings = groups.flatMap { $0 }
            keys = groups.map { group in
                var chords: [String] = []
                for chord in group.map(\.chord) where !chords.contains(chord) { chords.append(chord) }
                return chords.joined(separator: ", ")
            }.joined(separator: " / ")
        }
    }

    /// The command for a press of `key` with `modifiers` held in `context`, or nil when nothing
    /// there is bound to it. Of the bindings that match, the one needing the most modifiers wins
    /// (Alt+Up over Up).
    public static func command(for key: Key, modifiers: Modifiers, in context: KeyContext) -> BoundCommand? {
        bindings.filter { $0.context == context && $0.matches(key, held: modifiers) }
            .max { $0.modifiers.count < $1.modifiers.count }?.command
    }

    /// Every binding, in the help's order.
    public static let bindings: [KeyBinding] = lines.flatMap(\.bindings)

    /// The help lines of the bindings that answer in `context`: its own and the window's
    /// (`everywhere`), in the order the help shows them.
    public static func helpLines(shownIn context: KeyContext) -> [HelpLine] {
        lines.filter { line in line.bindings.allSatisfy { $0.context == context || $0.context == .everywhere } }
    }

    /// Binding helpers, to keep the table one line a row.
    private static func pager(_ key: Key, with modifiers: Modifiers = [], refusing refused: Modifiers = [], _ command: KeyCommand) -> KeyBinding {
        KeyBinding(key, modifiers, refusing: refused, in: .pager, .pager(command))
    }
    private static func grid(_ key: Key, _ command: GridKeyCommand) -> KeyBinding {
        KeyBinding(key, in: .grid, .grid(command))
    }
    private static func window(_ key: Key, with modifiers: Modifiers = [], refusing refused: Modifiers = [], _ command: WindowKeyCommand) -> KeyBinding {
        KeyBinding(key, modifiers, refusing: refused, in: .everywhere, .window(command))
    }

    // The pager's lines first, in the order of the README's key table; then the grid's, which
    // take any modifiers. Ctrl turns the pager's Left and Right into page turns (they pan a
    // zoomed photo without it) and Ctrl+Up/Down mean nothing.
    private static let lines: [HelpLine] = [
        HelpLine(
            "next / previous, or pan",
            [pager(.right, refusing: .control, .arrow(.right))], [pager(.left, refusing: .control, .arrow(.left))]),
        HelpLine(
            "pan a zoomed photo",
            [pager(.up, refusing: .control, .arrow(.up))], [pager(.down, refusing: .control, .arrow(.down))]),
        HelpLine("next / previous photo", [pager(.space, .nextPage)], [pager(.backspace, .previousPage)]),
        HelpLine("next / previous photo", [pager(.pageDown, .nextPage)], [pager(.pageUp, .previousPage)]),
        HelpLine(
            "next / previous photo", [pager(.right, with: .control, .nextPage)], [pager(.left, with: .control, .previousPage)]),
        HelpLine("first / last photo", [pager(.home, .firstPage)], [pager(.end, .lastPage)]),
        HelpLine("zoom in / out", [pager("+", .zoomIn), pager("=", .zoomIn)], [pager("-", .zoomOut)]),
        HelpLine("fit / one to one", [pager("0", .zoomToFit)], [pager("1", .zoomToActualSize)]),
        HelpLine("turn right / left", [pager("r", .rotateClockwise)], [pager("R", .rotateAnticlockwise)]),
        HelpLine("slideshow: start, pause", [pager("s", .toggleSlideshow)]),
        HelpLine("photo info", [pager("i", .toggleInfo)]),
        HelpLine("this help", [pager("?", .toggleHelp), pager(.function(1), .toggleHelp)]),
        // Fullscreen is the window's (the scene owns it), with any modifiers held.
        HelpLine("fullscreen", [window("f", .toggleFullscreen), window("F", .toggleFullscreen), window(.function(11), .toggleFullscreen)]),
        // The window's Escape leaves fullscreen first (not with a panel open over the photo:
        // that closes first); without fullscreen the grid's and the pager's own Escape answer.
        HelpLine("close, leave fullscreen, back", [window(.escape, .leaveFullscreen), pager(.escape, .escape)]),
        HelpLine("back to the photos", [pager(.up, with: .alt, .backToLibrary)]),
        // Shift, not the letter's case, tells the two apart: with Caps Lock on, Ctrl+c arrives as
        // "C" and Ctrl+Shift+c as "c".
        HelpLine(
            "copy the photo",
            [window("c", with: .control, refusing: [.alt, .shift], .copyPhoto), window("C", with: .control, refusing: [.alt, .shift], .copyPhoto)]),
        HelpLine(
            "copy its path",
            [window("C", with: [.control, .shift], refusing: .alt, .copyPath), window("c", with: [.control, .shift], refusing: .alt, .copyPath)]),
        HelpLine("quit", [pager("q", .quit)]),

        HelpLine(
            "move the focus",
            [grid(.right, .arrow(.right))], [grid(.left, .arrow(.left))], [grid(.up, .arrow(.up))], [grid(.down, .arrow(.down))]),
        HelpLine("a screen down / up", [grid(.pageDown, .pageDown)], [grid(.pageUp, .pageUp)]),
        HelpLine("top / bottom", [grid(.home, .home)], [grid(.end, .end)]),
        HelpLine("open the photo", [grid(.enter, .open)]),
        HelpLine(
            "a tree's Years / Months / Days / All Photos",
            [grid("y", .showLevel(.years))], [grid("m", .showLevel(.months))], [grid("d", .showLevel(.days))],
            [grid("a", .showLevel(.allPhotos))]),
        HelpLine("a tree's All Photos whole, in rows / square", [grid("g", .toggleAspectGrid)]),
        HelpLine("quit", [grid("q", .quit), grid(.escape, .quit)]),
        HelpLine("quit", [KeyBinding("q", in: .flight, .window(.quit))]),
    ]
}
