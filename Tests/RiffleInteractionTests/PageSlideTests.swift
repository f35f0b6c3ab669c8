import RiffleInteraction
import Testing

@Suite struct PageSlideTests {
    /// p(t) = from + (to − from)(1 − (1 − t/T)³), checked at chosen times.
    @Test(arguments: [0.0, 0.05, 0.1, 0.175, 0.3, 0.35, 1.0])
    func followsTheCubicEaseOut(elapsed: Double) {
        let slide = PageSlide(from: 2, to: 3, start: 10)
        let u = min(elapsed / PageSlide.duration, 1)
        let want = 2 + (1 - (1 - u) * (1 - u) * (1 - u))
        #expect(abs(slide.position(at: 10 + elapsed) - want) < 1e-12)
        #expect(slide.isDone(at: 10 + elapsed) == (elapsed >= PageSlide.duration))
    }

    @Test func isMonotoneAndPure() {
        let slide = PageSlide(from: 4, to: 3, start: 0)
        var last = 4.0
        for k in 0...40 {
            let p = slide.position(at: Double(k) / 100)
            #expect(p <= last)
            last = p
        }
        #expect(slide.position(at: 0.2) == slide.position(at: 0.2))
        #expect(slide.position(at: -1) == 4)
    }
}
