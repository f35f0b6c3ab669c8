import Testing
@testable import RifflePhysics

struct RubberBandTests {
    static let dimensions: [Double] = [320, 1080, 1920, 3840]

    @Test("b(x) = (1 − 1/(x·c/d + 1))·d", arguments: [(0.0, 1080.0), (10, 1080), (100, 1920), (1000, 1080), (50_000, 320), (-250, 1920)])
    func formula(x: Double, d: Double) {
        let c = 0.55
        let expected = (1 - 1 / (abs(x) * c / d + 1)) * d * (x < 0 ? -1 : 1)
        #expect(isClose(RubberBand.stretched(x, dimension: d), expected, relative: 1e-14))
    }

    @Test("b(0) = 0, b'(0) = c, increasing, always less than d", arguments: dimensions)
    func shape(d: Double) {
        #expect(RubberBand.stretched(0, dimension: d) == 0)
        let h = 1e-6 * d
        #expect(isClose(RubberBand.stretched(h, dimension: d) / h, RubberBand.coefficient, relative: 1e-5))
        var previous = 0.0
        for x in stride(from: 1.0, through: 100 * d, by: d / 50) {
            let b = RubberBand.stretched(x, dimension: d)
            #expect(b > previous && b < d, "x \(x)")
            previous = b
        }
        #expect(RubberBand.stretched(1e12, dimension: d) < d)
    }

    @Test("unstretched inverts stretched", arguments: dimensions)
    func inverse(d: Double) {
        for x in [0.0, 0.5, 13, 200, d, 4 * d, -77, -2 * d] {
            let b = RubberBand.stretched(x, dimension: d)
            #expect(isClose(RubberBand.unstretched(b, dimension: d), x, absolute: 1e-9, relative: 1e-9), "x \(x)")
        }
        #expect(RubberBand.unstretched(d, dimension: d) == .infinity)
        #expect(RubberBand.unstretched(-d * 1.5, dimension: d) == -.infinity)
    }

    @Test("an empty viewport does not stretch")
    func empty() {
        #expect(RubberBand.stretched(100, dimension: 0) == 0)
        #expect(RubberBand.unstretched(100, dimension: 0) == 0)
    }

    @Test("clamp: unchanged inside, edge ± b(excess) outside; unclamp round-trips", arguments: [
        -900.0, -100, -0.5, 0, 250, 1000, 1000.5, 1100, 5000,
    ])
    func clamp(raw: Double) {
        let bounds = 0.0...1000.0, d = 1080.0
        let shown = RubberBand.clamp(raw, bounds: bounds, dimension: d)
        if bounds.contains(raw) {
            #expect(shown == raw)
        } else if raw > 1000 {
            #expect(isClose(shown, 1000 + RubberBand.stretched(raw - 1000, dimension: d)))
            #expect(shown > 1000 && shown < raw)
        } else {
            #expect(isClose(shown, -RubberBand.stretched(-raw, dimension: d)))
            #expect(shown < 0 && shown > raw)
        }
        #expect(isClose(RubberBand.unclamp(shown, bounds: bounds, dimension: d), raw, absolute: 1e-9))
    }
}
