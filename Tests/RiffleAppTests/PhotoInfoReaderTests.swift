import Dispatch
@testable import RiffleApp
@testable import RiffleLibrary
import Synchronization
import Testing

/// The shown photo's details are read on the reader's thread: asking never waits for the file,
/// the answer comes once it is read (and the loop is woken), only the latest photo asked for is
/// read, and a photo written anew is read again.
@Suite(.timeLimit(.minutes(3))) struct PhotoInfoReaderTests {
    /// A read that waits until the test lets it through, counting the paths it read.
    final class GatedRead: Sendable {
        let gate = DispatchSemaphore(value: 0)
        /// Signalled as each read begins (and waits at the gate).
        let entered = DispatchSemaphore(value: 0)
        let reads = Mutex<[String]>([])
        let wakes = Atomic<Int>(0)

        func read(_ path: String) -> PhotoInfo {
            entered.signal()
            gate.wait()
            reads.withLock { $0.append(path) }
            return PhotoInfo.unread(path: path + " (read)")
        }
    }

    @Test func askingNeverWaitsForTheFile() {
        let gated = GatedRead()
        let reader = PhotoInfoReader(wake: { gated.wakes.add(1, ordering: .sequentiallyConsistent) }, read: gated.read)
        // Asked while the file cannot be read: no answer, and no wait.
        #expect(reader.info(of: PhotoID(0), at: "/a.jpg") == nil)
        gated.entered.wait()
        #expect(reader.info(of: PhotoID(0), at: "/a.jpg") == nil)
        // Two more asked while the first is being read: only the latest is read after it.
        #expect(reader.info(of: PhotoID(1), at: "/b.jpg") == nil)
        #expect(reader.info(of: PhotoID(2), at: "/c.jpg") == nil)
        gated.gate.signal()
        gated.gate.signal()
        reader.settle()
        #expect(gated.reads.withLock { $0 } == ["/a.jpg", "/c.jpg"])
        #expect(gated.wakes.load(ordering: .sequentiallyConsistent) == 2)
        #expect(reader.info(of: PhotoID(2), at: "/c.jpg")?.value("Name") == "c.jpg (read)")
        #expect(reader.info(of: PhotoID(0), at: "/a.jpg") == nil, "a photo passed is asked for again")
        gated.gate.signal()
        reader.settle()
        // Written anew: read again when next asked for.
        reader.forget(PhotoID(0))
        #expect(reader.info(of: PhotoID(0), at: "/a.jpg") == nil)
        gated.gate.signal()
        reader.settle()
        #expect(reader.info(of: PhotoID(0), at: "/a.jpg") != nil)
        #expect(gated.reads.withLock { $0 } == ["/a.jpg", "/c.jpg", "/a.jpg", "/a.jpg"])
    }
}
