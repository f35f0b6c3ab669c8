import RiffleLibrary

extension ThumbnailCache {
    /// The thumbnails folder of the standard: `thumbnails` in the user's cache folder
    /// (`CacheHome`: `$XDG_CACHE_HOME`, or `$HOME/.cache` when XDG_CACHE_HOME is unset, empty or
    /// relative, as the XDG Base Directory Specification ignores a relative one:
    /// https://specifications.freedesktop.org/basedir-spec/latest/); nil when HOME is not an
    /// absolute path either. Trailing slashes are dropped.
    static func standardFolder(xdgCacheHome: String?, home: String?) -> String? {
        CacheHome.folder(xdgCacheHome: xdgCacheHome, home: home).map { $0 + "/thumbnails" }
    }

    /// `standardFolder(xdgCacheHome:home:)` for the XDG_CACHE_HOME and HOME that `environment`
    /// gives (by default, this process's).
    package static func standardFolder(environment: (String) -> String? = CacheHome.processEnvironment) -> String? {
        standardFolder(xdgCacheHome: environment("XDG_CACHE_HOME"), home: environment("HOME"))
    }
}
