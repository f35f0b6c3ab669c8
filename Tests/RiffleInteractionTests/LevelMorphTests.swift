import Foundation
import RiffleGeometry
@testable import RiffleInteraction
import Testing

/// The change of level as a morph: at its start every cell stands where the old level drew its
/// photo, at its end where the new one draws it; in between the progress is the critically damped
/// spring's, p(t) = 1 − (1 + ωt)·e^(−ωt) with ω = 19 rad/s.
@Suite struct LevelMorphTests {
    static let a = Rect(x: 0, y: 0, width: 100, height: 100)
    static let b = Rect(x: 200, y: 100, width: 50, height: 50)
    static let c = Rect(x: 10, y: 300, width: 40, height: 40)
    static let d = Rect(x: 300, y: 300, width: 60, height: 60)

    /// Photo 1 in both (a → b); photo 2 only in the new level (at c); photo 3 only in the old
    /// (at d), the new level placing it at b.
    static let morph = LevelMorph(
        outgoing: [(LevelMorph.Cell(photo: 1, rect: a), b), (LevelMorph.Cell(photo: 3, rect: d), b)],
        incoming: [(LevelMorph.Cell(photo: 1, rect: b), a), (LevelMorph.Cell(photo: 2, rect: c), nil)],
        start: 10)

    @Test func itBeginsWhereTheOldLevelDrewAndEndsWhereTheNewDraws() {
        let first = Self.morph.frames(at: 10)
        #expect(first == [
            LevelMorph.Frame(photo: 3, rect: Self.d, opacity: 1),
            LevelMorph.Frame(photo: 1, rect: Self.a, opacity: 1),
            LevelMorph.Frame(photo: 2, rect: Self.c, opacity: 0),
        ])
        #expect(!Self.morph.isDone(at: 10.2))
        #expect(Self.morph.isDone(at: 11))
        #expect(Self.morph.frames(at: 11) == [
            LevelMorph.Frame(photo: 3, rect: Self.b, opacity: 0),
            LevelMorph.Frame(photo: 1, rect: Self.b, opacity: 1),
            LevelMorph.Frame(photo: 2, rect: Self.c, opacity: 1),
        ])
    }

    @Test(arguments: [0.02, 0.05, 0.1, 0.2])
    func theProgressIsTheSpringsFormula(t: Double) {
        let omega = 19.0
        let p = 1 - (1 + omega * t) * exp(-omega * t)
        #expect(abs(Self.morph.progress(at: 10 + t) - p) < 1e-9)
        let frame = Self.morph.frames(at: 10 + t)[1]
        // Photo 1, edge by edge: a + (b − a)·p.
        #expect(abs(frame.rect.minX - 200 * p) < 1e-9 && abs(frame.rect.maxY - (100 + 50 * p)) < 1e-9)
        #expect(abs(Self.morph.frames(at: 10 + t)[2].opacity - p) < 1e-9)
    }
}
