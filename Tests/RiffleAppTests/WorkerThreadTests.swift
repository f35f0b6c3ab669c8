import Glibc
import Synchronization
import RiffleGeometry
import Testing

@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline

@Suite struct WorkerThreadTests {
    /// The calling thread's nice value.
    static var ownNiceness: Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }

    /// The nice value `start` gives a worker with `offset`, as the worker reads it.
    static func workerNiceness(offset: Int32?) -> Int32? {
        let seen = Mutex<Int32?>(nil)
        WorkerThread.start(stackBytes: 1 << 20, nicenessOffset: offset) { seen.withLock { $0 = ownNiceness } }
        // The worker reports within milliseconds; 5 s bounds a failure.
        for _ in 0..<5000 where seen.withLock({ $0 }) == nil { usleep(1000) }
        return seen.withLock { $0 }
    }

    /// A background worker runs its body below the app's priority, so a frame due while both
    /// cores decode is not late.
    @Test func aWorkerRunsBelowTheApp() {
        #expect(Self.workerNiceness(offset: WorkerThread.backgroundNicenessOffset)
            == WorkerThread.processNiceness + WorkerThread.backgroundNicenessOffset)
        #expect(Self.ownNiceness == WorkerThread.processNiceness, "the test's own thread is untouched")
    }

    /// A worker started at the app's priority (the dating's, for its recall) lowers itself to
    /// the background workers' nice value for the work that can wait.
    @Test func aWorkerLowersItselfAfterTheWorkTheAppWaitsOn() {
        let seen = Mutex<(before: Int32, after: Int32)?>(nil)
        WorkerThread.start(stackBytes: 1 << 20, nicenessOffset: nil) {
            let before = Self.ownNiceness
            WorkerThread.lowerCurrentThread()
            seen.withLock { $0 = (before, Self.ownNiceness) }
        }
        // The worker reports within milliseconds; 5 s bounds a failure.
        for _ in 0..<5000 where seen.withLock({ $0 }) == nil { usleep(1000) }
        let niceness = seen.withLock { $0 }
        #expect(niceness?.before == WorkerThread.processNiceness)
        #expect(niceness?.after == WorkerThread.processNiceness + WorkerThread.backgroundNicenessOffset)
        #expect(Self.ownNiceness == WorkerThread.processNiceness, "the test's own thread is untouched")
    }

    /// In a process started at nice 3 (as `nice -n 3 riffle` would be), a background worker runs
    /// at 3 + its offset, not at an absolute nice; an unlowered worker at 3; the decode service
    /// decodes what is on screen (urgent) at 3 and prefetch 5 levels down, at 8.
    @Test func workersAreLoweredRelativeToTheProcess() async {
        await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let which = __priority_which_t(PRIO_PROCESS.rawValue)
            // The main thread's nice (the process's) and this thread's, which starts the workers.
            guard setpriority(which, id_t(getpid()), 3) == 0, setpriority(which, 0, 3) == 0 else {
                print("cannot set the nice value")
                exit(1)
            }
            var wrong: [String] = []
            if WorkerThread.processNiceness != 3 { wrong.append("process at \(WorkerThread.processNiceness)") }
            let background = WorkerThreadTests.workerNiceness(offset: WorkerThread.backgroundNicenessOffset)
            if background != 3 + WorkerThread.backgroundNicenessOffset { wrong.append("background worker at \(String(describing: background))") }
            let unlowered = WorkerThreadTests.workerNiceness(offset: nil)
            if unlowered != 3 { wrong.append("unlowered worker at \(String(describing: unlowered))") }
            let service = DecodeService<Int32>(
                workers: 1, focusWorkers: 1, clock: { 0 }, decode: { _, _ in WorkerThreadTests.ownNiceness }, onResult: {})
            let onScreen = DecodeRequest(photo: PhotoID(1), path: "on screen", job: .fit(viewport: PixelSize(width: 8, height: 8)))
            let prefetch = DecodeRequest(photo: PhotoID(2), path: "prefetch", job: .fit(viewport: PixelSize(width: 8, height: 8)))
            service.want([onScreen, prefetch], for: .pager, urgent: 1)
            service.waitUntilIdle()
            let nice = Dictionary(uniqueKeysWithValues: service.takeResults(for: .pager).map { ($0.request.path, $0.output) })
            if nice["on screen"] != 3 { wrong.append("on-screen decode at \(String(describing: nice["on screen"]))") }
            if nice["prefetch"] != 3 + DecodeService<Int32>.prefetchNicenessOffset {
                wrong.append("prefetch decode at \(String(describing: nice["prefetch"]))")
            }
            service.shutdown()
            print(wrong.joined(separator: "; "))
            exit(wrong.isEmpty ? 0 : 1)
        }
    }
}
