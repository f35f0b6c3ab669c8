import Glibc
import RiffleImageIO

/// The view options a person chose, kept between runs: whether All Photos is the aspect-ratio
/// grid. They live in `$XDG_STATE_HOME/riffle/view` (`~/.local/state` without it): the XDG Base
/// Directory Specification 0.8 names that folder for "state data that should persist between
/// (application) restarts, but that is not important or portable enough" for the data folder,
/// its example being "view, layout". One `name=value` line an option; a file that cannot be
/// read is the defaults, a line not understood is skipped.
package struct ViewSettings: Equatable, Sendable {
    /// All Photos shows photos whole in justified rows, not cropped square.
    package var aspectGrid = false

    package init(aspectGrid: Bool = false) { self.aspectGrid = aspectGrid }

    /// `riffle/view` in the state folder for `environment`'s XDG_STATE_HOME and HOME; nil when
    /// neither is an absolute path.
    package static func standardPath(environment: (String) -> String? = CacheHome.processEnvironment) -> String? {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") { return state + "/riffle/view" }
        guard let home = environment("HOME"), home.hasPrefix("/") else { return nil }
        return home + "/.local/state/riffle/view"
    }

    /// The settings kept at `path` (the defaults when there are none, or no path).
    package static func load(from path: String?) -> ViewSettings {
        guard let path, let bytes = try? FileBytes.read(atPath: path) else { return ViewSettings() }
        var settings = ViewSettings()
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            // Names and values hold no spaces: any around them are dropped.
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.filter { $0 != " " } }
            guard parts.count == 2 else { continue }
            if parts[0] == "aspect-grid" { settings.aspectGrid = parts[1] == "1" }
        }
        return settings
    }

    /// Keeps these settings at `path`, its folders made (0700) when missing, the file replaced
    /// whole (written beside it, then renamed over it); false when it could not be written.
    @discardableResult
    package func save(to path: String) -> Bool {
        guard FilePaths.makeFolders(FilePaths.folder(of: path)) == nil else { return false }
        let text = "aspect-grid=\(aspectGrid ? 1 : 0)\n"
        let temporary = path + ".new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        let written = text.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
        close(descriptor)
        guard written == text.utf8.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }
}
