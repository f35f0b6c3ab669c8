import Testing
@testable import RiffleX11

struct ServerTimelineTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String, stamps: [UInt32], seconds: [Double]
        var testDescription: String { name }
    }

    static let wrap = 4_294_967.296  // 2^32 ms in seconds

    static let cases: [Case] = [
        Case(name: "ordinary", stamps: [1000, 1016, 1033], seconds: [1, 1.016, 1.033]),
        Case(name: "reordered", stamps: [5000, 5010, 5004, 5020], seconds: [5, 5.01, 5.004, 5.02]),
        Case(name: "across the wrap", stamps: [0xFFFF_FFF0, 0xFFFF_FFFF, 0, 9],
             seconds: [wrap - 0.016, wrap - 0.001, wrap, wrap + 0.009]),
        Case(name: "reordered across the wrap", stamps: [0xFFFF_FFFE, 3, 0xFFFF_FFFF, 4],
             seconds: [wrap - 0.002, wrap + 0.003, wrap - 0.001, wrap + 0.004]),
        Case(name: "a day's gap", stamps: [100, 86_400_100], seconds: [0.1, 86_400.1]),
        Case(name: "two wraps in long steps",
             stamps: [0, 0x4000_0000, 0x8000_0000, 0xC000_0000, 0, 0x4000_0000, 0x8000_0000, 0xC000_0000, 0],
             seconds: (0...8).map { Double($0) * wrap / 4 }),
    ]

    @Test("server milliseconds become continuous seconds", arguments: cases)
    func timeline(_ c: Case) {
        var timeline = ServerTimeline()
        let seconds = c.stamps.map { timeline.seconds(for: $0) }
        for (got, expected) in zip(seconds, c.seconds) {
            #expect(abs(got - expected) <= 1e-9 + 1e-15 * max(abs(got), abs(expected)), "\(c.name): \(seconds)")
        }
    }

    @Test("a step of exactly one millisecond over the wrap")
    func oneMillisecond() {
        var timeline = ServerTimeline()
        let before = timeline.seconds(for: UInt32.max)
        let after = timeline.seconds(for: 0)
        #expect(abs((after - before) - 0.001) <= 1e-9)
    }
}
