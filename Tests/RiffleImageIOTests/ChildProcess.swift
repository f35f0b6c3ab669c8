import Foundation
import Glibc

/// What an exit test's child process does to itself to meet a failure for real and
/// deterministically: run out of address space, lose the right to write, see other fonts. None of
/// it may run in the test process itself, which other tests share.
enum ChildProcess {
    /// Caps the address space (RLIMIT_AS) at what the process maps now plus `headroom` bytes,
    /// so that any allocation bigger than that fails at once, and nothing smaller does. Returns
    /// false when the cap is not in force (and the caller must not go on to allocate).
    static func capAddressSpace(headroom: Int) -> Bool {
        // /proc/self/statm: the first field is the mapped size in pages (proc(5)).
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let pages = statm.split(separator: " ").first.flatMap({ Int($0) })
        else { return false }
        let cap = rlim_t(pages * sysconf(Int32(_SC_PAGESIZE)) + headroom)
        var limit = rlimit(rlim_cur: cap, rlim_max: cap)
        guard setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0 else { return false }
        return getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit) == 0 && limit.rlim_cur == cap
    }

    /// Gives up root's power to write anywhere by becoming `nobody` (65534); a process that is
    /// not root has no such power and stays who it is. Returns false when still root.
    static func dropRoot() -> Bool {
        guard geteuid() == 0 else { return true }
        return setgid(65534) == 0 && setuid(65534) == 0 && geteuid() != 0
    }

    /// Prints `text` on a line of its own, for the parent to read from the child's standard
    /// output, and ends the child successfully.
    static func report(_ text: String) -> Never {
        print(text)
        exit(0)
    }
}

/// A fresh folder under /tmp, removed (with everything in it) by `remove()`.
struct TemporaryFolder {
    /// The folder's absolute path, without a trailing slash.
    let path: String

    init() {
        var template = Array("/tmp/riffle-imageio-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    /// Makes everything writable again and removes the folder.
    func remove() {
        _ = chmod(path, 0o755)
        try? FileManager.default.removeItem(atPath: path)
    }
}
