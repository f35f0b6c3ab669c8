import Glibc

/// The user's cache folder, where Riffle keeps what it can always make again (the thumbnails,
/// the library's index) and nothing else (XDG Base Directory Specification 0.8:
/// `$XDG_CACHE_HOME`, else `$HOME/.cache`; a relative value is invalid and ignored).
package enum CacheHome {
    /// The cache folder for these values of XDG_CACHE_HOME and HOME, without a trailing '/';
    /// nil when neither is an absolute path.
    package static func folder(xdgCacheHome: String?, home: String?) -> String? {
        func absolute(_ path: String?) -> String? {
            guard let path, path.hasPrefix("/") else { return nil }
            return String(path.reversed().drop { $0 == "/" }.reversed())
        }
        if let cache = absolute(xdgCacheHome) { return cache }
        return absolute(home).map { $0 + "/.cache" }
    }

    /// `folder(xdgCacheHome:home:)` for the XDG_CACHE_HOME and HOME that `environment` gives (by
    /// default, this process's).
    package static func folder(environment: (String) -> String? = processEnvironment) -> String? {
        folder(xdgCacheHome: environment("XDG_CACHE_HOME"), home: environment("HOME"))
    }

    /// The value of the process's environment variable `name`; nil when it is unset.
    package static func processEnvironment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
