import Foundation
import Testing

/// The binary as a command-line user meets it: `--version`, `--help`, and the exit status of a path that
/// is not there. None of these opens a window (DISPLAY is removed, so one would fail loudly).
@Suite(.timeLimit(.minutes(3))) struct CommandLineTests {
    static var noDisplay: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "DISPLAY")
        return env
    }

    @Test func versionIsPrinted() throws {
        let exit = try RealWindowTests.runRiffle(["--version"], environment: Self.noDisplay)
        #expect(exit.status == 0)
        #expect(exit.stdout.wholeMatch(of: #/[0-9]+(\.[0-9]+)+\n/#) != nil, "stdout: \(exit.stdout)")
    }

    /// `--help` says a folder opens with every format Riffle reads, not only JPEG and PNG.
    @Test func helpNamesEveryFormatAFolderOpensWith() throws {
        let exit = try RealWindowTests.runRiffle(["--help"], environment: Self.noDisplay)
        #expect(exit.status == 0)
        // The parser wraps its text to the terminal: words are compared with the lines joined.
        let text = exit.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(!text.contains("JPEG and PNG files"), "stdout: \(exit.stdout)")
        for format in ["JPEG", "PNG", "GIF", "WebP", "TIFF", "HEIF", "AVIF", "JPEG XL", "camera RAW"] {
            #expect(text.contains(format), "--help does not name \(format): \(exit.stdout)")
        }
    }

    /// HEIF/AVIF, JPEG XL and RAW's libraries are loaded when a file of theirs is first opened
    /// (lazy_codecs.h), not at every exec: the binary needs none of them, nor what they pull in
    /// (docs/startup.md). Their decodes are tested in-process, through the same loading.
    @Test func codecLibrariesAreNotLoadedAtExec() throws {
        let ldd = try ExternalCommand("ldd", package: "libc-bin").run([RealWindowTests.riffle])
        #expect(ldd.status == 0, "ldd: \(ldd.output)")
        #expect(ldd.stdout.contains("libjpeg.so"), "ldd lists what the binary loads: \(ldd.stdout)")
        for library in ["libheif.so", "libde265.so", "libjxl.so", "libjxl_threads.so", "libraw_r.so", "libx265.so", "libaom.so", "libdav1d.so", "libhwy.so"] {
            #expect(!ldd.stdout.contains(library), "\(library) is loaded at exec")
        }
    }

    @Test(arguments: [["/nowhere/riffle-typo.jpg"], ["/nowhere/a", "/nowhere/b.png"]])
    func onlyMissingPathsExitWithStatus2(paths: [String]) throws {
        let exit = try RealWindowTests.runRiffle(paths, environment: Self.noDisplay)
        #expect(exit.status == 2, "stderr: \(exit.stderr)")
        for path in paths {
            #expect(exit.stderr.contains("riffle: \(path): no such file or folder"), "stderr: \(exit.stderr)")
        }
        #expect(!exit.stderr.contains("X display"), "it must fail before opening a window: \(exit.stderr)")
    }

    // A missing path beside real photos names it and browses the rest: here a headless replay
    // that ends at once (status 0), which a missing path would otherwise have stopped.
    @Test func aMissingPathBesideRealOnesIsOnlyReported() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-mixed-\(getpid()).replay")
        try Data("wait 10\n".utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }
        let exit = try RealWindowTests.runRiffle(
            ["--headless", "--replay", script.path, "/nowhere/riffle-typo.jpg", RealWindowTests.photos],
            environment: Self.noDisplay)
        #expect(exit.status == 0, "stderr: \(exit.stderr)")
        #expect(exit.stderr.contains("riffle: /nowhere/riffle-typo.jpg: no such file or folder"), "stderr: \(exit.stderr)")
    }

    /// A slideshow's interval out of range is an invalid option (status 64), named.
    @Test(arguments: ["0.1", "0", "0.49", "7200"])
    func aSlideshowIntervalOutOfRangeIsRefused(seconds: String) throws {
        let exit = try RealWindowTests.runRiffle(["--slideshow", seconds, RealWindowTests.photos], environment: Self.noDisplay)
        #expect(exit.status == 64, "stderr: \(exit.stderr)")
        #expect(exit.stderr.contains("--slideshow must be from 0.5 to 3600 seconds"), "stderr: \(exit.stderr)")
    }
}
