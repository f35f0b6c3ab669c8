import Glibc

/// A mutex with one condition variable (POSIX `pthread_mutex_t` + `pthread_cond_t`): the monitor
/// the decode workers and the app's thread meet at. Lock, test the shared state, `wait()` while
/// it is not as wanted (the lock is released while waiting and held again on return, which may
/// be spurious: always re-test), change it, `broadcast()`, unlock.
package final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }

    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` with the lock held.
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Releases the lock until a broadcast (or a spurious wake-up), then holds it again.
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes every thread waiting on the condition.
    package func broadcast() { pthread_cond_broadcast(condition) }
}
