import Glibc
import RiffleImageIO

/// Watches folders for files made, deleted, moved and written with Linux inotify(7), on a
/// thread of its own that blocks in poll(2) and queues what it reads; the app's thread takes
/// the queue (`takeEvents()`). The thread calls `wake` after each read, so the app's loop,
/// asleep in `Display.waitForEvents`, takes them at once.
///
/// Thin on purpose: it reports what the kernel said, and `FolderEvents` makes sense of it.
final class FolderWatcher: @unchecked Sendable {
    /// One inotify event, decoded.
    struct Event: Equatable, Sendable {
        /// The watched folder it happened in (as given to `init`).
        let folder: String
        /// The file's name inside `folder`; "" for an event about the folder itself.
        let name: String
        let kind: Kind
    }

    enum Kind: Equatable, Sendable {
        /// IN_CREATE: a name appeared (the file may still be being written).
        case created
        /// IN_MODIFY: bytes were written to a file still open: it is being written (a copy under
        /// way); more may follow until its `written`.
        case modified
        /// IN_CLOSE_WRITE: a file open for writing was closed: its contents are final for now.
        case written
        /// IN_DELETE: a name went.
        case deleted
        /// IN_MOVED_FROM: a name was moved away; `cookie` pairs it with its `movedIn`.
        case movedOut(cookie: UInt32)
        /// IN_MOVED_TO: a name was moved in (over any file of that name).
        case movedIn(cookie: UInt32)
        /// IN_DELETE_SELF, IN_MOVE_SELF, IN_Q_OVERFLOW: events were lost or the folder itself went;
        /// only a new listing says what it holds.
        case relist
        /// IN_CREATE or IN_MOVED_TO of a folder (IN_ISDIR): a folder made or moved in, `name`
        /// inside `folder` (a tree's library takes its photos in and watches it).
        case folderArrived
    }

    /// What each folder is watched for (inotify(7)).
    static let mask = UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM) | UInt32(IN_MOVED_TO)
        | UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)

    private let descriptor: Int32
    /// Written to stop the thread: poll(2) wakes on it.
    private let stopPipe: (read: Int32, write: Int32)
    /// Watch descriptor → folder, under `lock` (`watch` adds to it while the thread reads).
    private var folders: [Int32: String]
    /// Adds a watch (inotify_add_watch(2) by default): the watch descriptor, else −1 and errno.
    private let addWatch: @Sendable (Int32, String) -> (watch: Int32, error: Int32)
    private let lock = ConditionLock()
    private var queued: [Event] = []
    private var isStopped = false

    /// The folders that could not be watched because the user's inotify watches ran out
    /// (ENOSPC: `/proc/sys/fs/inotify/max_user_watches`), in the order asked.
    var beyondTheLimit: [String] { lock.withLock { leftOut } }
    private var leftOut: [String] = []

    /// inotify_add_watch(2) for `path` on `descriptor`, with errno when it fails.
    static let inotifyAddWatch: @Sendable (Int32, String) -> (watch: Int32, error: Int32) = { descriptor, path in
        let watch = FileSystemPath.withSystemPath(path) { inotify_add_watch(descriptor, $0, FolderWatcher.mask) }
        return (watch, watch < 0 ? errno : 0)
    }

    /// Watches `folders` (with `addWatch`, by default inotify's own); nil when inotify cannot
    /// be had at all: the library then stays as it was listed. A folder that cannot be watched
    /// is left out; those left out for want of watches are `beyondTheLimit`.
    init?(
        folders paths: [String], addWatch: @escaping @Sendable (Int32, String) -> (watch: Int32, error: Int32) = FolderWatcher.inotifyAddWatch,
        wake: @escaping @Sendable () -> Void
    ) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        var ends: [Int32] = [0, 0]
        // pipe(2), then close-on-exec (pipe2 is a GNU extension Glibc's module leaves out).
        guard pipe(&ends) == 0 else {
            close(descriptor)
            return nil
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        self.descriptor = descriptor
        self.addWatch = addWatch
        folders = [:]
        stopPipe = (ends[0], ends[1])
        _ = watch(paths)
        WorkerThread.start(stackBytes: 256 << 10) { [self] in self.run(wake: wake) }
    }

    /// Watches `paths` too (folders that arrived in a watched tree); returns those left out for
    /// want of watches (also added to `beyondTheLimit`).
    @discardableResult
    func watch(_ paths: [String]) -> [String] {
        var beyond: [String] = []
        for path in paths {
            let (watch, error) = addWatch(descriptor, path)
            if watch >= 0 {
                lock.withLock { folders[watch] = path }
            } else if error == ENOSPC {
                beyond.append(path)
            }
        }
        lock.withLock { leftOut += beyond }
        return beyond
    }

    /// The events read since the last call, in the kernel's order.
    func takeEvents() -> [Event] {
        lock.withLock {
            defer { queued.removeAll() }
            return queued
        }
    }

    /// Ends the thread and closes the inotify descriptor; no event is queued after.
    func stop() {
        let first = lock.withLock {
            defer { isStopped = true }
            return !isStopped
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
    }

    /// The thread: poll, read, decode, queue, wake; until `stop()`.
    private func run(wake: @Sendable () -> Void) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 8)
        defer {
            buffer.deallocate()
            close(descriptor)
            close(stopPipe.read)
            close(stopPipe.write)
        }
        var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = poll(&fds, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 || fds[1].revents != 0 { return }
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            guard count > 0 else { return }
            let events = decode(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            let stopped = lock.withLock {
                if !isStopped { queued += events }
                return isStopped
            }
            if stopped { return }
            if !events.isEmpty { wake() }
        }
    }

    /// The events in `bytes`, a read(2) of whole `struct inotify_event`s: wd (Int32), mask,
    /// cookie, len (UInt32 each), then `len` bytes of NUL-padded name.
    private func decode(_ bytes: UnsafeRawBufferPointer) -> [Event] {
        var events: [Event] = []
        var offset = 0
        let header = 16
        let folders = lock.withLock { self.folders }
        while offset + header <= bytes.count {
            let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let cookie = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let nameBytes = UnsafeRawBufferPointer(rebasing: bytes[(offset + header)..<min(bytes.count, offset + header + length)])
            let name = FileSystemPath.string(fromBytes: UnsafeRawBufferPointer(rebasing: nameBytes[..<(nameBytes.firstIndex(of: 0) ?? nameBytes.count)]))
            offset += header + length
            let overflow = mask & UInt32(IN_Q_OVERFLOW) != 0
            guard let folder = folders[watch] ?? (overflow ? "" : nil) else { continue }
            let kind: Kind
            if overflow || mask & (UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)) != 0 {
                kind = .relist
            } else if mask & UInt32(IN_ISDIR) != 0 {
                guard mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0 else { continue }
                kind = .folderArrived
            } else if mask & UInt32(IN_CREATE) != 0 {
                kind = .created
            } else if mask & UInt32(IN_CLOSE_WRITE) != 0 {
                kind = .written
            } else if mask & UInt32(IN_MODIFY) != 0 {
                kind = .modified
            } else if mask & UInt32(IN_DELETE) != 0 {
                kind = .deleted
            } else if mask & UInt32(IN_MOVED_FROM) != 0 {
                kind = .movedOut(cookie: cookie)
            } else if mask & UInt32(IN_MOVED_TO) != 0 {
                kind = .movedIn(cookie: cookie)
            } else {
                continue
            }
            if overflow {
                // The queue overflowed (wd −1): every folder may have lost events.
                events += folders.values.sorted().map { Event(folder: $0, name: "", kind: .relist) }
            } else {
                events.append(Event(folder: folder, name: name, kind: kind))
            }
        }
        return events
    }
}
