import Foundation
import Glibc

/// A new, empty folder under /tmp for one test, removed with all it holds when the test lets it
/// go; paths inside it are absolute and canonical, as mkdtemp(3) makes them.
final class ScratchFolder {
    let path: String

    init() throws {
        var template = Array("/tmp/riffle-scratch-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw CocoaError(.fileWriteUnknown)
        }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The absolute path of `relative` inside the folder.
    func path(_ relative: String) -> String { path + "/" + relative }

    /// Creates the folder `relative` (and those above it) inside the scratch folder.
    @discardableResult
    func makeFolder(_ relative: String) throws -> String {
        try FileManager.default.createDirectory(atPath: path(relative), withIntermediateDirectories: true)
        return path(relative)
    }

    /// Writes `bytes` to the file `relative`, replacing it in place; returns its path.
    @discardableResult
    func write(_ bytes: [UInt8], to relative: String) throws -> String {
        try Data(bytes).write(to: URL(fileURLWithPath: path(relative)))
        return path(relative)
    }


    /// The permission bits of what is at `file`, e.g. 0o600.
    static func mode(of file: String) -> mode_t {
        var status = stat()
        precondition(stat(file, &status) == 0, "stat \(file)")
        return status.st_mode & 0o7777
    }

    /// What describes one entry of the folder, for comparing the folder before and after.
    struct Entry: Equatable {
        let isFolder: Bool
        let mode: mode_t
        let modificationTime: timespec
        let contents: [UInt8]

        static func == (a: Entry, b: Entry) -> Bool {
            a.isFolder == b.isFolder && a.mode == b.mode && a.contents == b.contents
                && a.modificationTime.tv_sec == b.modificationTime.tv_sec
                && a.modificationTime.tv_nsec == b.modificationTime.tv_nsec
        }
    }

    /// Every entry below the folder, by its path relative to it ("cache/thumbnails/normal"),
    /// with its kind, mode, modification time and, for a file, its bytes.
    func snapshot() -> [String: Entry] {
        var entries: [String: Entry] = [:]
        for case let relative as String in FileManager.default.enumerator(atPath: path)! {
            var status = stat()
            precondition(lstat(path(relative), &status) == 0, "lstat \(relative)")
            let isFolder = status.st_mode & S_IFMT == S_IFDIR
            let contents = isFolder ? [] : [UInt8](FileManager.default.contents(atPath: path(relative)) ?? Data())
            entries[relative] = Entry(
                isFolder: isFolder, mode: status.st_mode & 0o7777, modificationTime: status.st_mtim, contents: contents)
        }
        return entries
    }
}
