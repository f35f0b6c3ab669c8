import RifflePhysics
import Testing

@Suite struct ServerTimeMappingTests {
    @Test func firstEventAnchorsTheOffset() {
        var m = ServerTimeMapping()
        #expect(m.appTime(serverMilliseconds: 5_000, now: 100) == 100)
        // 16 ms later on the server, delivered 2 ms late: the server's spacing is kept.
        #expect(abs(m.appTime(serverMilliseconds: 5_016, now: 100.018) - 100.016) < 1e-9)
    }

    @Test func anEarlyArrivalLowersTheOffsetSoTimesNeverRunAhead() {
        var m = ServerTimeMapping()
        _ = m.appTime(serverMilliseconds: 1_000, now: 50.010)  // first event delivered 10 ms late
        let t = m.appTime(serverMilliseconds: 1_100, now: 50.100)  // this one at once
        #expect(abs(t - 50.100) < 1e-9)
        #expect(abs(m.offset! - 49.0) < 1e-9)
    }

    @Test func aLateArrivalBeyondTheDriftReanchors() {
        var m = ServerTimeMapping(maxDrift: 1)
        _ = m.appTime(serverMilliseconds: 0, now: 10)
        // Server clock stood still for 5 s (e.g. a suspend): re-anchored to the arrival.
        #expect(m.appTime(serverMilliseconds: 100, now: 15.1) == 15.1)
        // Within the drift, lateness is not learnt: spacing from the new anchor is kept.
        #expect(abs(m.appTime(serverMilliseconds: 200, now: 15.5) - 15.2) < 1e-9)
    }

    @Test func theCounterWrapKeepsTimeContinuous() {
        var m = ServerTimeMapping()
        let before = m.appTime(serverMilliseconds: UInt32.max - 9, now: 1_000)
        let after = m.appTime(serverMilliseconds: 10, now: 1_000.020)
        #expect(abs(after - before - 0.020) < 1e-9)
        // An event from just before the wrap delivered after it lands before, not 49 days later.
        let reordered = m.appTime(serverMilliseconds: UInt32.max, now: 1_000.021)
        #expect(reordered < after && reordered > before)
    }
}
