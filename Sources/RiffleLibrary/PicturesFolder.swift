import RiffleImageIO

/// The user's pictures folder, where `riffle` with no PATH opens the library: what
/// `xdg-user-dir PICTURES` prints (xdg-user-dirs, https://www.freedesktop.org/wiki/Software/xdg-user-dirs/).
/// That script reads `XDG_PICTURES_DIR` from `$XDG_CONFIG_HOME/user-dirs.dirs` (`~/.config`
/// without it), lines such as `XDG_PICTURES_DIR="$HOME/Pictures"` whose value is `$HOME/…` or an
/// absolute path, else takes the variable from the environment, else answers `$HOME`. A value
/// of `$HOME` itself is how xdg-user-dirs marks a folder the user turned off: then, as without
/// any value, `~/Pictures`.
package enum PicturesFolder {
    /// The pictures folder for the environment `environment` gives, the configuration file read
    /// by `readFile` (its text, nil when it cannot be read); nil without an absolute HOME.
    package static func path(
        environment: (String) -> String? = CacheHome.processEnvironment,
        readFile: (String) -> String? = { path in (try? FileBytes.read(atPath: path)).map { String(decoding: $0, as: UTF8.self) } }
    ) -> String? {
        guard let home = environment("HOME").map(trimmed), home.hasPrefix("/") else { return nil }
        let config = environment("XDG_CONFIG_HOME").flatMap { $0.hasPrefix("/") ? trimmed($0) : nil } ?? home + "/.config"
        let configured = readFile(config + "/user-dirs.dirs").flatMap { value(in: $0, home: home) }
            ?? environment("XDG_PICTURES_DIR").flatMap { $0.hasPrefix("/") ? trimmed($0) : nil }
        guard let configured, configured != home else { return home + "/Pictures" }
        return configured
    }

    /// XDG_PICTURES_DIR's value in a user-dirs.dirs text (the last one set), `$HOME` expanded;
    /// nil when it is not set there, or not in either form the file allows.
    static func value(in text: String, home: String) -> String? {
        var found: String?
        for line in text.split(separator: "\n") {
            let line = line.drop { $0 == " " || $0 == "\t" }
            guard line.hasPrefix("XDG_PICTURES_DIR=") else { continue }
            var value = line.dropFirst("XDG_PICTURES_DIR=".count)
            guard value.first == "\"", let close = value.dropFirst().firstIndex(of: "\"") else { continue }
            value = value[value.index(after: value.startIndex)..<close]
            if value == "$HOME" {
                found = home
            } else if value.hasPrefix("$HOME/") {
                found = home + value.dropFirst("$HOME".count)
            } else if value.hasPrefix("/") {
                found = String(value)
            }
        }
        return found.map(trimmed)
    }

    /// `path` without trailing slashes ("/" kept).
    private static func trimmed(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }
}
