import Glibc

/// Sets the modification (and access) time of the file at `file` to `seconds` since 1970.
public func setModificationTime(_ seconds: Int, ofFileAt file: String) {
    let time = timespec(tv_sec: seconds, tv_nsec: 0)
    precondition(utimensat(AT_FDCWD, file, [time, time], 0) == 0, "utimensat \(file)")
}
