@testable import RiffleX11
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

    // Three moves 16 ms apart read in one drain 5 ms after the last: mapped one by one, each
    // lowered the offset to its own arrival and all three landed on `now`.
    @Test func eventsReadTogetherKeepTheirSpacing() {
        var m = ServerTimeMapping()
        let times = m.appTimes(serverMilliseconds: [2_000, 2_016, 2_032], now: 7.037)
        #expect(times.count == 3)
        #expect(abs(times[0] - 7.005) < 1e-9 && abs(times[1] - 7.021) < 1e-9 && abs(times[2] - 7.037) < 1e-9)
        // A later batch read 8 ms after its newest event (the first was read after 5): the
        // offset 7.037 − 2.032 = 5.005 holds, so it maps to 2.048 + 5.005 and 2.064 + 5.005.
        let later = m.appTimes(serverMilliseconds: [2_048, 2_064], now: 7.072)
        #expect(abs(later[0] - 7.053) < 1e-9 && abs(later[1] - 7.069) < 1e-9)
        #expect(m.appTimes(serverMilliseconds: [], now: 9).isEmpty)
    }
}
