import Foundation
@testable import RiffleLibrary
import Testing

/// `riffle` with no PATH: the pictures folder as `xdg-user-dir PICTURES` names it (the
/// user-dirs.dirs file, then the environment, a folder turned off or unnamed being ~/Pictures),
/// opened when it exists; else the bundled photos; else a page that says why.
@Suite struct PicturesFolderTests {
    static func environment(_ values: [String: String]) -> (String) -> String? { { values[$0] } }

    @Test(arguments: [
        // The file's forms: $HOME/…, an absolute path, a trailing slash; the last line wins.
        ("XDG_PICTURES_DIR=\"$HOME/Bilder\"\n", "/home/u/Bilder"),
        ("# written by xdg-user-dirs-update\nXDG_DESKTOP_DIR=\"$HOME/Desktop\"\nXDG_PICTURES_DIR=\"/data/photos/\"\n", "/data/photos"),
        ("XDG_PICTURES_DIR=\"$HOME/A\"\nXDG_PICTURES_DIR=\"$HOME/B\"\n", "/home/u/B"),
        // Turned off ($HOME itself), or in no form the file allows: ~/Pictures.
        ("XDG_PICTURES_DIR=\"$HOME\"\n", "/home/u/Pictures"),
        ("XDG_PICTURES_DIR=relative/path\n", "/home/u/Pictures"),
        ("", "/home/u/Pictures"),
    ])
    func theConfigurationFileNamesIt(text: String, expected: String) {
        let path = PicturesFolder.path(environment: Self.environment(["HOME": "/home/u"]), readFile: { path in
            path == "/home/u/.config/user-dirs.dirs" ? text : nil
        })
        #expect(path == expected)
    }

    @Test func theEnvironmentNamesItWhenTheFileDoesNot() {
        let environment = Self.environment(["HOME": "/home/u", "XDG_CONFIG_HOME": "/cfg", "XDG_PICTURES_DIR": "/pics"])
        #expect(PicturesFolder.path(environment: environment, readFile: { $0 == "/cfg/user-dirs.dirs" ? "XDG_MUSIC_DIR=\"$HOME/M\"\n" : nil }) == "/pics")
        #expect(PicturesFolder.path(environment: environment, readFile: { $0 == "/cfg/user-dirs.dirs" ? "XDG_PICTURES_DIR=\"$HOME/P\"\n" : nil }) == "/home/u/P")
        #expect(PicturesFolder.path(environment: Self.environment(["HOME": "relative"]), readFile: { _ in nil }) == nil)
    }

    @Test func withNoPathThePicturesFolderOpensElseTheBundledPhotosElseAPageSaysWhy() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-home-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let environment = Self.environment(["HOME": home])
        var problems: [String] = []
        let bundled = PhotoLibrary.collectDefault(bundled: TestPaths.photos, problems: &problems, environment: environment)
        #expect(bundled.description == TestPaths.photos && !bundled.photos.isEmpty)
        let nothing = PhotoLibrary.collectDefault(bundled: nil, problems: &problems, environment: environment)
        #expect(nothing.photos.isEmpty && !nothing.everyPathIsMissing)
        #expect(nothing.emptyExplanation.contains("\(home)/Pictures does not exist"))
        try FileManager.default.createDirectory(atPath: home + "/Pictures", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestPaths.photos + "/2 friends.jpg", toPath: home + "/Pictures/mine.jpg")
        let pictures = PhotoLibrary.collectDefault(bundled: TestPaths.photos, problems: &problems, environment: environment)
        #expect(pictures.photos.map(\.name) == ["mine.jpg"])
        #expect(problems.isEmpty)
    }
}
