import RealModule
import Testing
@testable import RifflePhysics

struct ZoomResistanceTests {
    static let limits: [ZoomResistance] = [
        ZoomResistance(minimum: 0.25, maximum: 4), ZoomResistance(minimum: 1, maximum: 1), ZoomResistance(minimum: 0.05, maximum: 8),
    ]

    @Test("Loupe's power law past each limit, identity inside", arguments: limits)
    func formula(_ z: ZoomResistance) {
        for raw in [z.maximum * 1.5, z.maximum * 3, z.maximum * 9.9] {
            #expect(isClose(z.displayed(forRaw: raw), z.maximum * Double.pow(raw / z.maximum, 0.3)))
        }
        for raw in [z.minimum / 1.5, z.minimum / 4, z.minimum / 9.9] {
            #expect(isClose(z.displayed(forRaw: raw), z.minimum * Double.pow(raw / z.minimum, 0.3)))
        }
        for raw in [z.minimum, (z.minimum + z.maximum) / 2, z.maximum] {
            #expect(z.displayed(forRaw: raw) == raw)
        }
        #expect(z.displayed(forRaw: z.maximum * 1000) == 2 * z.maximum)
        #expect(z.displayed(forRaw: z.minimum / 1000) == z.minimum / 2)
        #expect(z.displayed(forRaw: 0) == z.minimum / 2)
    }

    @Test("continuous at the limits", arguments: limits)
    func continuity(_ z: ZoomResistance) {
        let h = 1e-9
        #expect(isClose(z.displayed(forRaw: z.maximum * (1 + h)), z.maximum, relative: 1e-8))
        #expect(isClose(z.displayed(forRaw: z.maximum * (1 - h)), z.maximum, relative: 1e-8))
        #expect(isClose(z.displayed(forRaw: z.minimum * (1 + h)), z.minimum, relative: 1e-8))
        #expect(isClose(z.displayed(forRaw: z.minimum * (1 - h)), z.minimum, relative: 1e-8))
    }

    @Test("monotone: non-decreasing everywhere, increasing short of the caps", arguments: limits)
    func monotone(_ z: ZoomResistance) {
        let capHigh = z.maximum * Double.pow(2, 1 / 0.3), capLow = z.minimum / Double.pow(2, 1 / 0.3)
        var previousRaw = z.minimum / 50, previous = z.displayed(forRaw: previousRaw)
        for i in 1...4000 {
            // Geometric steps from min/50 to max·50.
            let raw = z.minimum / 50 * Double.pow(2500 * z.maximum / z.minimum, Double(i) / 4000)
            let shown = z.displayed(forRaw: raw)
            #expect(shown >= previous)
            if previousRaw > capLow, raw < capHigh { #expect(shown > previous, "raw \(raw)") }
            #expect(shown <= 2 * z.maximum && shown >= z.minimum / 2)
            previous = shown
            previousRaw = raw
        }
    }

    @Test("raw(forDisplayed:) inverts displayed(forRaw:) short of the caps", arguments: limits)
    func inverse(_ z: ZoomResistance) {
        for raw in [z.minimum / 9, z.minimum / 2, z.minimum, (z.minimum + z.maximum) / 2, z.maximum, z.maximum * 1.2, z.maximum * 10] {
            #expect(isClose(z.raw(forDisplayed: z.displayed(forRaw: raw)), raw, relative: 1e-12), "raw \(raw)")
        }
        // At the cap the inverse answers where the cap begins.
        #expect(isClose(z.raw(forDisplayed: 2 * z.maximum), z.maximum * Double.pow(2, 1 / 0.3), relative: 1e-12))
        #expect(isClose(z.raw(forDisplayed: 5 * z.maximum), z.maximum * Double.pow(2, 1 / 0.3), relative: 1e-12))
        #expect(isClose(z.raw(forDisplayed: z.minimum / 3), z.minimum / Double.pow(2, 1 / 0.3), relative: 1e-12))
    }
}
