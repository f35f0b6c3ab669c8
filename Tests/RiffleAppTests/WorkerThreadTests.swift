import Glibc
import Synchronization
import Testing

@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline

@Suite struct WorkerThreadTests {
    /// A worker runs its body at the workers' nice value, below the app's, so a frame due while
    /// both cores decode is not late.
    @Test func aWorkerRunsAtTheWorkersNiceness() {
        let seen = Mutex<Int32?>(nil)
        WorkerThread.start(stackBytes: 1 << 20) {
            let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            seen.withLock { $0 = nice }
        }
        // The worker reports within milliseconds; 5 s bounds a failure.
        for _ in 0..<5000 where seen.withLock({ $0 }) == nil { usleep(1000) }
        #expect(seen.withLock { $0 } == WorkerThread.niceness)
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == 0, "the test's own thread is untouched")
    }
}
