import Glibc

extension ThumbnailCache {
    /// The thumbnails folder of the standard: `$XDG_CACHE_HOME/thumbnails`, or
    /// `$HOME/.cache/thumbnails` when XDG_CACHE_HOME is unset, empty or relative (the XDG Base
    /// Directory Specification ignores a relative one:
    /// https://specifications.freedesktop.org/basedir-spec/latest/); nil when HOME is not an
    /// absolute path either. Trailing slashes are dropped.
    static func standardFolder(xdgCacheHome: String?, home: String?) -> String? {
        func absolute(_ path: String?) -> String? {
            guard let path, path.hasPrefix("/") else { return nil }
            let trimmed = path.reversed().drop { $0 == "/" }.reversed()
            return String(trimmed)
        }
        if let cache = absolute(xdgCacheHome) { return cache + "/thumbnails" }
        if let home = absolute(home) { return home + "/.cache/thumbnails" }
        return nil
    }

    /// `standardFolder(xdgCacheHome:home:)` for the XDG_CACHE_HOME and HOME that `environment`
    /// gives (by default, this process's).
    package static func standardFolder(environment: (String) -> String? = processEnvironment) -> String? {
        standardFolder(xdgCacheHome: environment("XDG_CACHE_HOME"), home: environment("HOME"))
    }

    /// The value of the process's environment variable `name`; nil when it is unset.
    static func processEnvironment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
