import Glibc
import RiffleImageIO

/// The few path and folder operations the library needs, on POSIX paths as strings
/// (`FileSystemPath`: a name that is not UTF-8 keeps its bytes): '/'-separated, as given (never
/// made absolute or resolved), so a photo's path reads the way the user typed its folder.
package enum FilePaths {
    /// What a path names, learned with stat(2) (following symbolic links).
    enum Kind {
        case file
        case directory
    }

    /// The part after the last '/' ("b.jpg" for "a/b.jpg"; the whole path when it has none).
    /// Makes `folder` and every folder above it that is missing, each private to the user (0700,
    /// as the XDG Base Directory Specification asks of the folders under `$XDG_CACHE_HOME` and
    /// `$XDG_STATE_HOME`); nil when it exists after, else the folder that could not be made and
    /// strerror(3)'s reason.
    package static func makeFolders(_ folder: String) -> (folder: String, reason: String)? {
        var made = ""
        for part in folder.split(separator: "/") {
            made += "/" + part
            if mkdir(made, 0o700) != 0 && errno != EEXIST { return (made, String(cString: strerror(errno))) }
        }
        return nil
    }

    package static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// The folder holding `path`: "a" for "a/b.jpg", "/" for "/b.jpg", "." for "b.jpg".
    package static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `name` inside `folder`, with one '/' between them.
    package static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The extension of a file name, lower-cased, without the dot; "" when there is none
    /// (a leading dot starts a hidden name, not an extension).
    static func pathExtension(of name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }

    /// Whether `path` is a file or a folder; nil when it does not exist or cannot be reached.
    /// Anything that is not a folder (a device, a socket) counts as a file: opening it as a
    /// photo gives the error page that says what it is not.
    static func kind(of path: String) -> Kind? {
        var status = stat()
        guard FileSystemPath.withSystemPath(path, { stat($0, &status) }) == 0 else { return nil }
        return status.st_mode & S_IFMT == S_IFDIR ? .directory : .file
    }

    /// One name in a folder, with its kind when the listing tells it.
    struct Entry {
        let name: String
        /// From the entry's d_type: nil for a symbolic link (its target's kind is asked with
        /// `kind(of:)`) or a file system that does not say (DT_UNKNOWN).
        let kind: Kind?
    }

    /// The names in `folder` ("." and ".." left out), in the order the file system gives them;
    /// throws the OS's reason when the folder cannot be read.
    static func names(inFolder folder: String) throws(FolderError) -> [String] {
        try entries(inFolder: folder).map(\.name)
    }

    /// The entries of `folder` ("." and ".." left out), in the order the file system gives them,
    /// their kinds read from readdir(3)'s d_type where it tells them, so that listing a folder of
    /// 100,000 photos stats none of them; throws the OS's reason when the folder cannot be read.
    static func entries(inFolder folder: String) throws(FolderError) -> [Entry] {
        guard let directory = FileSystemPath.withSystemPath(folder, { opendir($0) }) else {
            throw FolderError(reason: String(cString: strerror(errno)))
        }
        defer { closedir(directory) }
        var entries: [Entry] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                FileSystemPath.string(fromBytes: UnsafeRawBufferPointer(rebasing: raw[..<strnlen(raw.baseAddress!, raw.count)]))
            }
            guard name != "." && name != ".." else { continue }
            // As `kind(of:)` tells them: a folder, or anything else (a FIFO is refused on opening).
            let type = Int(entry.pointee.d_type)
            let kind: Kind? = type == Int(DT_DIR) ? .directory : type == Int(DT_LNK) || type == Int(DT_UNKNOWN) ? nil : .file
            entries.append(Entry(name: name, kind: kind))
        }
        return entries
    }

    /// Why a folder could not be listed, in the OS's words.
    struct FolderError: Error {
        let reason: String
    }
}
