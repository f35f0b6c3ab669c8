import Foundation
import Glibc
import RiffleTestSupport
import Testing

/// Browsing never changes what the user owns: the real binary, run headless on a folder with
/// every key and gesture it answers (the grid's and the pager's, zoom, pan, turns, info, help,
/// slideshow, fullscreen, both copies), in a home of its own, under strace. Afterwards every file
/// and folder that was there has its bytes, mode and modification time, and every system call
/// that creates, writes, renames, removes or changes the attributes of a file, anywhere on the
/// machine, named a path inside `$HOME/.cache/thumbnails` (or made `$HOME/.cache` itself, which
/// the thumbnail standard lets a viewer create).
@Suite struct UserFilesUntouchedTests {
    /// Every key the grid and the pager take (README, "Using it"), with the gestures between
    /// them, on a 320×200 window; the waits let slides, zooms and fades finish.
    static let script = """
        wait 500
        key Right
        key Down
        key Left
        key Up
        wheel -2 160 100
        wheel 1 160 100 ctrl
        wheel -1 160 100 ctrl
        key Home
        key Return
        wait 600
        key Right
        wait 400
        key space
        wait 400
        key Next
        wait 400
        key Prior
        wait 400
        key Left
        wait 400
        key BackSpace
        wait 400
        key End
        wait 400
        key Home
        wait 600
        key plus
        wait 300
        key Up
        key Down
        key Left
        key Right
        wait 300
        key minus
        wait 300
        key 1
        wait 600
        key 0
        wait 400
        wheel 3 160 100
        wait 300
        down 160 100
        move 100 60 150
        up
        wait 600
        doubleclick 160 100
        wait 600
        doubleclick 160 100
        wait 600
        key r
        wait 500
        key R shift
        wait 500
        key i
        wait 300
        key i
        wait 300
        key question
        wait 300
        key question
        wait 300
        key F1
        wait 300
        key F1
        wait 300
        key s
        wait 3500
        key s
        key f
        wait 300
        key F11
        wait 300
        key c ctrl
        wait 300
        key C ctrl+shift
        wait 300
        click 160 100
        wait 600
        click 160 100
        wait 600
        key Up alt
        wait 800
        key Return
        wait 800
        down 160 60
        move 160 190 200
        up
        wait 800
        key End
        key Return
        wait 800
        key Escape
        wait 800
        key q
        """

    /// The system calls that create, write, rename, remove or change a file or its attributes
    /// (open and creat only with a flag that writes: O_WRONLY, O_RDWR, O_CREAT, O_TRUNC).
    static let writingCalls = [
        "open", "openat", "openat2", "creat", "mkdir", "mkdirat", "mknod", "mknodat", "rename", "renameat", "renameat2",
        "link", "linkat", "symlink", "symlinkat", "unlink", "unlinkat", "rmdir", "truncate", "ftruncate", "chmod", "fchmod",
        "fchmodat", "chown", "fchown", "fchownat", "lchown", "utime", "utimes", "utimensat", "futimesat", "setxattr",
        "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr",
    ]

    @Test func browsingWritesNothingButThumbnailsAndTheIndex() throws {
        let strace = try #require(
            ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "strace is needed (Debian's strace package; make test installs it)")
        let scratch = try ScratchFolder()
        let home = try scratch.makeFolder("home"), tmp = try scratch.makeFolder("tmp"), cwd = try scratch.makeFolder("cwd")
        let photos = try scratch.makeFolder("photos")
        for name in try FileManager.default.contentsOfDirectory(atPath: TestPaths.photos) where !name.hasSuffix(".md") {
            try FileManager.default.copyItem(atPath: TestPaths.photos + "/" + name, toPath: photos + "/" + name)
        }
        try FileManager.default.copyItem(atPath: TestPaths.testsFolder.appendingPathComponent("Animations/1 bounce.gif").path, toPath: photos + "/5 bounce.gif")
        try scratch.makeFolder("photos/an album")
        // A photo the user cannot write to, and one in an album below.
        try FileManager.default.copyItem(atPath: photos + "/2 friends.jpg", toPath: photos + "/an album/7 friends.jpg")
        try FileManager.default.copyItem(atPath: photos + "/2 friends.jpg", toPath: photos + "/6 read-only.jpg")
        chmod(photos + "/6 read-only.jpg", 0o444)
        for file in try FileManager.default.subpathsOfDirectory(atPath: photos) {
            setModificationTime(1_600_000_000, ofFileAt: photos + "/" + file)
        }
        try scratch.write(Array(Self.script.utf8), to: "cwd/every-key.replay")
        let before = scratch.snapshot()

        let trace = scratch.path("strace.log")
        // -f: every thread; -y: the path behind each file descriptor; -qq: no attach messages.
        // A home of its own, with nothing else of this machine's in the environment that names a
        // place to write: the thumbnails go to $HOME/.cache/thumbnails. Built under
        // AddressSanitizer (`make test-sanitize`), riffle runs without LeakSanitizer here, which
        // cannot work under ptrace; the rest of that suite and the soak look for leaks.
        _ = try RiffleBinary.run(
            ["--headless", "--size", "320x200", "--replay", cwd + "/every-key.replay", photos],
            wrapper: [strace, "-f", "-y", "-qq", "-o", trace, "-e", "trace=" + Self.writingCalls.joined(separator: ",")],
            environment: [
                "HOME": home, "TMPDIR": tmp, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC",
                "ASAN_OPTIONS": "detect_leaks=0",
            ],
            directory: cwd)

        // What the user had is as it was: bytes, mode and modification time.
        let after = scratch.snapshot()
        let cache = "home/.cache"
        for (path, entry) in before where path != "home" {
            #expect(after[path] == entry, "\(path) changed")
        }
        // The home folder itself gained .cache, which moves its modification time.
        #expect(after["home"]?.mode == before["home"]?.mode)
        let added = Set(after.keys).subtracting(before.keys).subtracting(["strace.log"])
        // The folder holds an album, so it opened as a timeline: its index is the other thing
        // Riffle keeps in the cache ($XDG_CACHE_HOME/riffle/library.sqlite and SQLite's files
        // beside it).
        let index = cache + "/riffle"
        func isCache(_ path: String) -> Bool {
            path == cache || path.hasPrefix(cache + "/thumbnails") || path == index || path.hasPrefix(index + "/library.sqlite")
        }
        #expect(added.allSatisfy(isCache), "\(added.sorted())")
        #expect(added.contains(index + "/library.sqlite"), "the timeline kept no index: \(added.sorted())")
        // The run did browse: every photo of the folder got a thumbnail in the cache.
        let thumbnails = added.filter { $0.hasSuffix(".png") }
        #expect(thumbnails.count >= 6, "\(added.sorted())")

        // Nothing was written anywhere else on the machine.
        let log = try String(contentsOfFile: trace, encoding: .utf8)
        let writes = try Self.writtenPaths(inTrace: log, cwd: cwd)
        #expect(!writes.isEmpty, "strace saw no write at all, so it saw nothing: \(log.prefix(2000))")
        let elsewhere = writes.filter { !($0.hasPrefix(scratch.path + "/") && isCache(String($0.dropFirst(scratch.path.count + 1)))) }
        #expect(elsewhere.isEmpty, "written outside the thumbnail cache and the index: \(elsewhere)")
    }

    /// The paths that the successful writing calls of an `strace -f -y` log named: for open and
    /// creat with a writing flag, the file the call returned; for a call on a descriptor
    /// (fchmod, ftruncate, ...), the file behind it; for the others, every quoted path argument,
    /// relative ones taken from `cwd`.
    static func writtenPaths(inTrace trace: String, cwd: String) throws -> [String] {
        var paths: [String] = []
        for line in trace.split(separator: "\n") {
            // "PID call(args) = result", the result a number, for -y with the path behind it.
            guard let open = line.firstIndex(of: "("), let equals = line.range(of: ") = ", options: .backwards) else { continue }
            let call = String(line[line.index(after: line.firstIndex(of: " ") ?? line.startIndex)..<open])
                .trimmingCharacters(in: .whitespaces)
            let arguments = line[line.index(after: open)..<equals.lowerBound]
            let result = line[equals.upperBound...]
            guard Self.writingCalls.contains(call), !result.hasPrefix("-1"), !result.hasPrefix("?") else { continue }
            if ["open", "openat", "openat2", "creat"].contains(call) {
                let writes = call == "creat" || ["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC"].contains { arguments.contains($0) }
                if writes, let path = Self.bracketed(result) { paths.append(path) }
            } else if call.hasPrefix("f") && !call.hasSuffix("at") {
                if let path = Self.bracketed(arguments) { paths.append(path) }
            } else {
                for quoted in Self.quoted(arguments) { paths.append(quoted.hasPrefix("/") ? quoted : cwd + "/" + quoted) }
            }
        }
        return paths
    }

    /// The first `<…>` in `text`: the path strace -y prints after a file descriptor.
    static func bracketed(_ text: Substring) -> String? {
        guard let start = text.firstIndex(of: "<"), let end = text[start...].firstIndex(of: ">") else { return nil }
        return String(text[text.index(after: start)..<end])
    }

    /// The double-quoted strings of `text` (strace prints a path argument quoted).
    static func quoted(_ text: Substring) -> [String] {
        text.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}
