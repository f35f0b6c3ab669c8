import Glibc
@testable import RiffleX11
import Synchronization
import Testing

/// A clipboard target's bytes made off the caller's thread: once, with a wake when they are
/// ready, and never seen (nor woken for) once cancelled.
struct BackgroundConversionTests {
    /// A value the producing thread and the test share.
    final class Shared<Value: Sendable>: Sendable {
        private let mutex: Mutex<Value>
        init(_ value: Value) { mutex = Mutex(value) }
        var value: Value { mutex.withLock { $0 } }
        func update(_ change: @Sendable (inout Value) -> Void) { mutex.withLock { change(&$0) } }
    }

    /// A gate the producing thread waits at until the test opens it, so that what the test
    /// checks "while producing" really is while.
    final class Gate: Sendable {
        private let isOpen = Shared(false)
        func pass() { while !isOpen.value { usleep(1_000) } }
        func open() { isOpen.update { $0 = true } }
    }

    /// Polls `condition` every millisecond for up to 10 s.
    static func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<10_000 {
            if condition() { return true }
            usleep(1_000)
        }
        return condition()
    }

    @Test func theBytesComeOffTheCallersThreadOnceWithOneWake() {
        let gate = Gate()
        let runs = Shared(0), wakes = Shared(0), ranElsewhere = Shared(false)
        let caller = pthread_self()
        let conversion = BackgroundConversion { _ in
            runs.update { $0 += 1 }
            let elsewhere = pthread_equal(pthread_self(), caller) == 0
            ranElsewhere.update { $0 = elsewhere }
            gate.pass()
            return [1, 2, 3]
        }
        #expect(conversion.result == nil, "not started")
        conversion.start { wakes.update { $0 += 1 } }
        conversion.start { wakes.update { $0 += 100 } }
        // `start` returned while the bytes are still being made: the caller was not held up.
        #expect(conversion.result == nil)
        gate.open()
        #expect(Self.eventually { wakes.value > 0 })
        #expect(conversion.result == .some([1, 2, 3]))
        usleep(50_000)
        #expect(runs.value == 1)
        #expect(wakes.value == 1)
        #expect(ranElsewhere.value)
    }

    @Test func bytesThatCannotBeMadeAreAnAnswerToo() {
        let wakes = Shared(0)
        let conversion = BackgroundConversion { _ in nil }
        conversion.start { wakes.update { $0 += 1 } }
        #expect(Self.eventually { wakes.value == 1 })
        #expect(conversion.result == .some(nil))
    }

    @Test func aCancelledConversionGivesUpAndNeverWakes() {
        let gate = Gate()
        let wakes = Shared(0), sawCancel = Shared(false), finished = Shared(false)
        let conversion = BackgroundConversion { isCancelled in
            gate.pass()
            let cancelled = isCancelled()
            sawCancel.update { $0 = cancelled }
            finished.update { $0 = true }
            return [9]
        }
        conversion.start { wakes.update { $0 += 1 } }
        conversion.cancel()
        gate.open()
        #expect(Self.eventually { finished.value })
        usleep(50_000)
        #expect(sawCancel.value, "the producer was told to give up")
        #expect(conversion.result == nil)
        #expect(wakes.value == 0)
        conversion.start { wakes.update { $0 += 1 } }
        usleep(50_000)
        #expect(wakes.value == 0, "a cancelled conversion does not start again")
    }
}
