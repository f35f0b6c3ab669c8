/// Which library a replay script runs on, the same for the headless goldens and the real window:
/// a script named `grid-…` opens the test photos' folder (the library grid shows first); one
/// named `animation-…` opens the first animated picture of `Tests/Animations`, beside the test
/// photos; one named `timeline-…` opens `Tests/Timeline`, a tree of dated photos, as one
/// timeline; any other opens the first photo (the pager shows first, the grid behind it).
public enum ScriptLibrary {
    /// The first of the test photos, in natural order.
    public static let firstPhoto = "1 coffee.png"

    /// The first of the animated test pictures, in natural order.
    public static let firstAnimation = "1 bounce.gif"

    /// The path a replay of `script` opens, inside the test photos folder `photos`, or (an
    /// `animation-…` or `timeline-…` script) inside the `Animations` or `Timeline` folder beside it.
    public static func path(forScript script: String, photos: String) -> String {
        let tests = photos.lastIndex(of: "/").map { String(photos[..<$0]) } ?? "."
        if script.hasPrefix("animation") { return tests + "/Animations/" + firstAnimation }
        if script.hasPrefix("timeline") { return tests + "/Timeline" }
        return script.hasPrefix("grid") ? photos : photos + "/" + firstPhoto
    }

    /// Pixels per point a replay of `script` runs at: 2 for a script named `…-2x`, else 1.
    public static func scale(forScript script: String) -> Int { script.hasSuffix("-2x") ? 2 : 1 }

    /// The window a replay of `script` opens: 320×200 points at its scale.
    public static func windowSize(forScript script: String) -> (width: Int, height: Int) {
        (320 * scale(forScript: script), 200 * scale(forScript: script))
    }
}
