import RiffleInteraction

/// The help overlay's text: every mouse gesture of the pager, grouped as the README's tables group
/// them, and its keys as the key map (`KeyMap`) lists them.
enum HelpText {
    struct Group {
        var title: String
        var entries: [(input: String, action: String)]
    }

    static let groups = [
        Group(title: "Mouse and trackpad", entries: [
            ("Drag, flick", "previous / next photo"),
            ("Wheel, pinch", "zoom at the pointer"),
            ("Shift+wheel", "pan a zoomed photo"),
            ("Two-finger scroll", "pan"),
            ("Double-click", "zoom in, again: fit"),
            ("Drag a zoomed photo", "pan it"),
            ("Drag down", "back to the photos"),
            ("Pinch out", "back to the photos"),
            ("Click", "bars on white / photo alone"),
            ("Move the pointer", "show the bars a moment"),
            ("Side buttons", "previous / next photo"),
            ("Drag, wheel the strip", "scrub through the photos"),
            ("Click the strip", "go to that photo"),
            ("Drop files, a folder", "open them"),
        ]),
        // Generated from the key map: every binding the pager answers, and nothing else.
        Group(title: "Keys", entries: KeyMap.helpLines(shownIn: .pager).map { ($0.keys, $0.action) }),
        Group(title: "In the photos (a tree's timeline)", entries: [
            ("Ctrl+wheel, pinch", "cell size; past the smallest, Days"),
            ("Ctrl+wheel, pinch in a level", "Years ⇄ Months ⇄ Days ⇄ All Photos"),
            ("Click a year, a month", "its months, its days"),
            ("Click +N, a day's date", "All Photos there"),
            ("Drag the right edge", "scrub through the years"),
        ]),
        // The grid's own keys (the window's are listed with the pager's above).
        Group(title: "Keys in the photos", entries: KeyMap.helpLines(shownIn: .grid).filter { line in
            line.bindings.allSatisfy { $0.context == .grid }
        }.map { ($0.keys, $0.action) }),
    ]
}
