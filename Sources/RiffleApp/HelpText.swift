/// The help overlay's text: every mouse gesture and key of the pager, grouped as the README's
/// tables group them.
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
        Group(title: "Keys", entries: [
            ("Right / Left", "next / previous, or pan"),
            ("Up / Down", "pan a zoomed photo"),
            ("Space / BackSpace", "next / previous photo"),
            ("Home / End", "first / last photo"),
            ("+ / -", "zoom in / out"),
            ("0 / 1", "fit / one to one"),
            ("r / Shift+R", "turn right / left"),
            ("s", "slideshow: start, pause"),
            ("i", "photo info"),
            ("? or F1", "this help"),
            ("f, F11", "fullscreen"),
            ("Escape", "close, leave fullscreen, back"),
            ("Alt+Up", "back to the photos"),
            ("Ctrl+C", "copy the photo"),
            ("Ctrl+Shift+C", "copy its path"),
            ("q", "quit"),
        ]),
    ]
}
