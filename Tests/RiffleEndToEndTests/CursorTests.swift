import CRiffleX11TestClients
import Foundation
import Testing

/// The pointer's shape over the real window, read back from the server as a screen recorder
/// reads it (XFixesGetCursorImage, from a client of the test's own): the theme's arrow, its open
/// hand over a zoomed photo and closed hand while a press holds it, the arrow again at fit; in
/// fullscreen no visible pixel once the pointer has rested, until it moves. Without a cursor
/// theme the shapes come from the core cursor font, still distinct.
@Suite(.timeLimit(.minutes(2))) struct CursorTests {
    static let photo = RealWindowTests.photos + "/2 friends.jpg"
    /// The window's middle, over the photo and clear of the bars and the navigator strip.
    static let middle = ["320", "200"]

    /// What the server shows as the pointer now.
    struct Shown: Equatable, CustomStringConvertible {
        let name: String
        let visiblePixels: Int
        let hash: UInt64
        var description: String { "\"\(name)\" (\(visiblePixels) visible pixels, hash \(String(hash, radix: 16)))" }
    }

    static func shown(on window: RunningWindow) throws -> Shown {
        var cursor = rfx_test_cursor()
        guard rfx_test_cursor_read(window.server.display, &cursor) != 0 else {
            throw EndToEndError("cannot read the cursor of \(window.server.display) (XFixes)")
        }
        let name = withUnsafeBytes(of: cursor.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return Shown(name: name, visiblePixels: Int(cursor.visible_pixels), hash: cursor.hash)
    }

    /// Waits up to 10 s for the cursor shown to satisfy `condition`; the last one seen.
    static func awaitCursor(on window: RunningWindow, _ condition: (Shown) -> Bool) throws -> Shown {
        var last = try shown(on: window)
        _ = try eventually(within: 10) {
            last = try shown(on: window)
            return condition(last)
        }
        return last
    }

    /// With the theme Debian's adwaita-icon-theme installs (`make test` installs it): each shape
    /// is the theme's cursor of that name (libXcursor names the cursors it loads, and XFixes
    /// reports the name).
    @Test func theThemesHandsFollowTheZoomAndThePress() throws {
        guard FileManager.default.fileExists(atPath: "/usr/share/icons/Adwaita/cursors/grab") else {
            throw EndToEndError("the Adwaita cursor theme is not installed (Debian package adwaita-icon-theme; `make test` installs it)")
        }
        let server = try VirtualXServer(sharedMemory: true)
        let window = try RunningWindow(paths: [Self.photo], server: server, environment: ["XCURSOR_THEME": "Adwaita"])
        #expect(try eventually(within: 10) { try window.title().hasPrefix("2 friends.jpg") })
        try window.xdotool(["mousemove"] + Self.middle)
        let arrow = try Self.awaitCursor(on: window) { $0.name == "default" }
        #expect(arrow.name == "default", "at fit: \(arrow)")
        // Two wheel notches towards the screen zoom in at the pointer.
        try window.xdotool(["click", "4", "click", "4"])
        let open = try Self.awaitCursor(on: window) { $0.name == "grab" }
        #expect(open.name == "grab", "zoomed: \(open)")
        try window.xdotool(["mousedown", "1"])
        let closed = try Self.awaitCursor(on: window) { $0.name == "grabbing" }
        #expect(closed.name == "grabbing", "held: \(closed)")
        try window.xdotool(["mouseup", "1"])
        #expect(try Self.awaitCursor(on: window) { $0.name == "grab" }.name == "grab", "let go")
        #expect(Set([arrow.hash, open.hash, closed.hash]).count == 3, "three pictures: \(arrow), \(open), \(closed)")
        #expect([arrow, open, closed].allSatisfy { $0.visiblePixels > 0 })
        // "0": back to fit, and to the arrow.
        try window.press("0")
        #expect(try Self.awaitCursor(on: window) { $0.name == "default" }.name == "default", "at fit again")
    }

    /// No theme at all (XCURSOR_PATH names an empty folder): the core cursor font's shapes, which
    /// carry no name, still tell the arrow from the hands.
    @Test func withoutAThemeTheCoreCursorsStandIn() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-no-cursors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let server = try VirtualXServer(sharedMemory: true)
        let window = try RunningWindow(paths: [Self.photo], server: server, environment: ["XCURSOR_PATH": empty.path])
        #expect(try eventually(within: 10) { try window.title().hasPrefix("2 friends.jpg") })
        // The root window's cursor (the server's X), off the window; then the window's arrow.
        try window.xdotool(["mousemove", "900", "700"])
        usleep(200_000)
        let root = try Self.shown(on: window)
        try window.xdotool(["mousemove"] + Self.middle)
        let arrow = try Self.awaitCursor(on: window) { $0 != root }
        try window.xdotool(["click", "4", "click", "4"])
        let open = try Self.awaitCursor(on: window) { $0 != arrow }
        try window.xdotool(["mousedown", "1"])
        let closed = try Self.awaitCursor(on: window) { $0 != open }
        try window.xdotool(["mouseup", "1"])
        #expect([arrow, open, closed].allSatisfy { $0.name.isEmpty && $0.visiblePixels > 0 }, "\(arrow), \(open), \(closed)")
        #expect(Set([root.hash, arrow.hash, open.hash, closed.hash]).count == 4, "\(root), \(arrow), \(open), \(closed)")
    }

    /// In fullscreen a resting pointer hides (every pixel of the cursor transparent) and a move
    /// brings it back. Without a window manager the window covers the screen (it opens the
    /// screen's size, `rfx_open`), and Riffle is in its fullscreen mode all the same.
    @Test func inFullscreenTheRestingPointerHidesUntilItMoves() throws {
        let server = try VirtualXServer(sharedMemory: true)
        let window = try RunningWindow(paths: [Self.photo], server: server, options: ["--fullscreen"])
        #expect(try eventually(within: 10) { try window.title().hasPrefix("2 friends.jpg") })
        try window.xdotool(["mousemove"] + Self.middle)
        #expect(try Self.awaitCursor(on: window) { $0.visiblePixels > 0 }.visiblePixels > 0, "shown after moving")
        let hidden = try Self.awaitCursor(on: window) { $0.visiblePixels == 0 }
        #expect(hidden.visiblePixels == 0, "still shown 10 s after resting: \(hidden)")
        try window.xdotool(["mousemove", "330", "210"])
        let back = try Self.awaitCursor(on: window) { $0.visiblePixels > 0 }
        #expect(back.visiblePixels > 0, "still hidden after a move: \(back)")
    }
}
