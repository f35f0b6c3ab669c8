import Foundation
import RiffleImageIO
import Testing

/// `make install` checked the way a distribution checks a package: staged into a temporary
/// DESTDIR, its desktop entry and AppStream metadata validated by their own validators, its manual
/// page rendered by man, its MIME association read back by xdg-mime, and `xdg-open photo.jpg`
/// opening a Riffle window on that photo under Xvfb; then `make uninstall` leaves no file behind.
///
/// The binary installed is the one built beside this test bundle (a release build would take
/// minutes), and the manual page the one `make test` generates from it first with the argument
/// parser's plugin; everything else is exactly what `make install` does.
@Suite(.serialized, .timeLimit(.minutes(5))) struct InstallTests {
    static let repository = RealWindowTests.testsFolder.deletingLastPathComponent().path
    static let appID = "io.github.riffle.Riffle"
    static let iconSizes = [16, 24, 32, 48, 64, 128, 256, 512]
    /// Installed as a user installs for themself (`make install PREFIX=~/.local`), so its share/
    /// folder is the XDG_DATA_HOME of the desktop tools below.
    static let prefix = "/home/user/.local"
    /// The shared MIME database (shared-mime-info), which every desktop's type detection reads.
    static let systemMIMEDatabase = "/usr/share/mime"

    /// A file manager offers Riffle for a file only by the MIME types its desktop entry lists:
    /// every format Riffle reads must be there, and in the AppStream metadata (its main type).
    @Test func theDesktopEntryOffersEveryFormatRiffleReads() throws {
        let entry = try String(contentsOfFile: "\(Self.repository)/data/\(Self.appID).desktop", encoding: .utf8)
        let line = try #require(entry.split(separator: "\n").first { $0.hasPrefix("MimeType=") })
        let offered = Set(line.dropFirst("MimeType=".count).split(separator: ";").map(String.init))
        let metainfo = try String(contentsOfFile: "\(Self.repository)/data/\(Self.appID).metainfo.xml", encoding: .utf8)
        for format in ImageFormat.allCases {
            for type in format.mimeTypes {
                #expect(offered.contains(type), "the desktop entry does not offer \(type) (\(format.displayName))")
            }
            #expect(metainfo.contains("<mediatype>\(format.mimeTypes[0])</mediatype>"), "the metainfo lacks \(format.mimeTypes[0])")
        }
    }

    @Test func aStagedInstallIsWhatADesktopExpects() throws {
        let make = try ExternalCommand("make", package: "make")
        let manual = try ManualPage.generated()
        let staging = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-install-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: staging) }
        let variables = ["DESTDIR=\(staging)", "PREFIX=\(Self.prefix)", "RIFFLE_BINARY=\(RealWindowTests.riffle)",
                         "RIFFLE_MANUAL=\(manual)"]
        let install = try make.run(["-C", Self.repository, "install"] + variables, timeLimit: 120)
        try #require(install.status == 0, "make install: \(install.output)")

        let root = staging + Self.prefix
        let share = root + "/share"
        let desktopEntry = "\(share)/applications/\(Self.appID).desktop"
        let metainfo = "\(share)/metainfo/\(Self.appID).metainfo.xml"
        let page = "\(share)/man/man1/riffle.1"
        for file in ["\(root)/bin/riffle", desktopEntry, metainfo, page, "\(share)/riffle/assets/LICENSES.md",
                     "\(share)/icons/hicolor/scalable/apps/\(Self.appID).svg"] {
            #expect(FileManager.default.fileExists(atPath: file), "\(file) is not installed")
        }
        for size in Self.iconSizes {
            let icon = "\(share)/icons/hicolor/\(size)x\(size)/apps/\(Self.appID).png"
            let pixels = try ImageDecoder.decodeFile(atPath: icon).pixels
            #expect(pixels.size.width == size && pixels.size.height == size, "\(icon)")
        }

        let desktopValidation = try ExternalCommand("desktop-file-validate", package: "desktop-file-utils").run([desktopEntry])
        #expect(desktopValidation.status == 0 && desktopValidation.output.isEmpty, "\(desktopValidation.output)")
        let appstream = try ExternalCommand("appstreamcli", package: "appstream").run(["validate", "--no-net", metainfo])
        #expect(appstream.status == 0, "\(appstream.output)")

        // The page renders without groff's warnings and documents the options.
        var plain = ProcessInfo.processInfo.environment
        plain["LANG"] = "C.UTF-8"
        plain["MANWIDTH"] = "100"
        let rendered = try ExternalCommand("man", package: "man-db").run(["--warnings", "-P", "cat", "-l", page], environment: plain)
        #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
        for option in ["--fullscreen", "--size", "--version", "--memory-budget", "--slideshow", "--loop"] {
            #expect(rendered.stdout.contains(option), "the manual page does not mention \(option)")
        }

        try Self.installedBinaryFindsItsPhotos(root: root)
        try Self.theDesktopOpensPhotosWithIt(staging: staging, share: share, root: root)

        let uninstall = try make.run(["-C", Self.repository, "uninstall"] + variables, timeLimit: 60)
        #expect(uninstall.status == 0, "make uninstall: \(uninstall.output)")
        let left = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter { name in
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isFolder)
            // update-desktop-database's cache is the test's own, not the install's.
            return exists && !isFolder.boolValue && !name.hasSuffix("mimeinfo.cache")
        } ?? []
        #expect(left.isEmpty, "make uninstall left \(left)")
    }

    /// With no PATH and no pictures folder, the installed binary opens the photos installed beside
    /// it (share/riffle/assets), far from the source tree: a headless replay that snapshots the
    /// grid of them.
    static func installedBinaryFindsItsPhotos(root: String) throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-installed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let script = work.appendingPathComponent("grid.replay")
        try Data("wait 100\nsnapshot grid\n".utf8).write(to: script)
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "RIFFLE_ASSETS")
        env.removeValue(forKey: "DISPLAY")
        env["XDG_CACHE_HOME"] = work.appendingPathComponent("cache").path
        // A home with no pictures folder, which `riffle` would open before the bundled photos.
        env["HOME"] = work.path
        env.removeValue(forKey: "XDG_CONFIG_HOME")
        env.removeValue(forKey: "XDG_PICTURES_DIR")
        let run = try ExternalCommand(path: "\(root)/bin/riffle")
            .run(["--headless", "--size", "320x200", "--replay", script.path, "--snapshots", work.path], environment: env, directory: "/")
        #expect(run.status == 0, "\(run.output)")
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("grid.png").path))
    }

    /// The desktop's view: after update-desktop-database, xdg-mime names Riffle the handler of
    /// JPEG, and `xdg-open photo.jpg` runs the entry's `Exec=riffle %F`, which opens a window on
    /// that photo (its title names it).
    static func theDesktopOpensPhotosWithIt(staging: String, share: String, root: String) throws {
        let server = try VirtualXServer(sharedMemory: true)
        var env = ProcessInfo.processInfo.environment
        for desktop in ["XDG_CURRENT_DESKTOP", "DESKTOP_SESSION", "KDE_FULL_SESSION", "GNOME_DESKTOP_SESSION_ID",
                        "XDG_SESSION_DESKTOP", "BROWSER", "RIFFLE_ASSETS"] {
            env.removeValue(forKey: desktop)
        }
        // The system's data folders as the desktop's tools see them, less every other program's
        // desktop entry (an image viewer installed beside Riffle would otherwise be a candidate):
        // the shared MIME database alone. Without it, `xdg-mime query filetype` through
        // File::MimeInfo's `mimetype` (which apt installs as a recommend of xdg-utils) knows no
        // type, and xdg-open falls back to web browsers; through `file` it needs none.
        let systemData = staging + "/system-share", config = staging + "/config"
        for folder in [systemData, config] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(atPath: systemData + "/mime", withDestinationPath: Self.systemMIMEDatabase)
        env["XDG_DATA_HOME"] = share
        env["XDG_DATA_DIRS"] = systemData
        env["XDG_CONFIG_HOME"] = config
        env["XDG_CONFIG_DIRS"] = config
        env["XDG_CACHE_HOME"] = staging + "/cache"
        env["PATH"] = "\(root)/bin:" + (env["PATH"] ?? "/usr/bin:/bin")
        env["DISPLAY"] = server.display

        let database = try ExternalCommand("update-desktop-database", package: "desktop-file-utils")
            .run([share + "/applications"], environment: env)
        #expect(database.status == 0, "\(database.output)")
        let query = try ExternalCommand("xdg-mime", package: "xdg-utils").run(["query", "default", "image/jpeg"], environment: env)
        #expect(query.stdout == "\(appID).desktop\n", "xdg-mime: \(query.output)")

        let photo = staging + "/holiday.jpg"
        try FileManager.default.copyItem(atPath: RealWindowTests.photos + "/2 friends.jpg", toPath: photo)
        let xdgOpen = Process()
        xdgOpen.executableURL = URL(fileURLWithPath: try ExternalCommand("xdg-open", package: "xdg-utils").path)
        xdgOpen.arguments = [photo]
        xdgOpen.environment = env
        xdgOpen.standardOutput = FileHandle.nullDevice
        xdgOpen.standardError = FileHandle.nullDevice
        try xdgOpen.run()
        let xdotool = try ExternalCommand("xdotool", package: "xdotool")
        var window = ""
        var title = ""
        let opened = try eventually(within: 20) {
            window = try xdotool.run(["search", "--classname", "riffle"], environment: env).stdout
                .split(separator: "\n").first.map(String.init) ?? ""
            guard !window.isEmpty else { return false }
            title = try xdotool.run(["getwindowname", window], environment: env).stdout
            return title.hasPrefix("holiday.jpg")
        }
        #expect(opened, "no Riffle window on holiday.jpg (title: \(title))")
        if !window.isEmpty {
            _ = try xdotool.run(["windowfocus", "--sync", window, "key", "q"], environment: env)
        }
        // xdg-open waits for the program it ran; q ends both.
        let ended = eventually(within: 10) { !xdgOpen.isRunning }
        #expect(ended, "xdg-open (or the Riffle it ran) did not end after q")
        if !ended {
            // The window's own _NET_WM_PID names the Riffle to end; then xdg-open.
            if !window.isEmpty, let pid = Int32(try xdotool.run(["getwindowpid", window], environment: env).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)) {
                kill(pid, SIGKILL)
            }
            kill(xdgOpen.processIdentifier, SIGKILL)
        }
        xdgOpen.waitUntilExit()
    }
}

/// The manual page swift-argument-parser's GenerateManual plugin writes from the `riffle` beside
/// this test bundle. A test cannot run the plugin itself (`swift test` holds the build folder's
/// lock for its whole run), so `make test` runs it between building and testing.
enum ManualPage {
    static let path = InstallTests.repository + "/.build/plugins/GenerateManual/outputs/riffle/riffle.1"

    /// The page's path; throws when it is missing or older than the binary it documents.
    static func generated() throws -> String {
        let generate = "run `make test`, or `swift package generate-manual --configuration debug` before `swift test`"
        let files = FileManager.default
        guard let page = try? files.attributesOfItem(atPath: path)[.modificationDate] as? Date else {
            throw EndToEndError("no manual page at \(path): \(generate)")
        }
        let binary = try files.attributesOfItem(atPath: RealWindowTests.riffle)[.modificationDate] as? Date ?? .distantFuture
        guard page >= binary else { throw EndToEndError("the manual page is older than \(RealWindowTests.riffle): \(generate)") }
        return path
    }
}
