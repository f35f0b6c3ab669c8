import RealModule
@testable import RifflePhysics
@_exported import RiffleTestSupport

/// |a − b| ≤ absolute + relative·max(|a|, |b|).
func isClose(_ a: Double, _ b: Double, absolute: Double = 1e-9, relative: Double = 1e-9) -> Bool {
    abs(a - b) <= absolute + relative * max(abs(a), abs(b))
}

/// Times 0, step, 2·step, … up to and including `end` (integer steps, no accumulated drift).
func sampleTimes(until end: Double, step: Double) -> [Double] {
    (0...Int((end / step).rounded())).map { Double($0) * step }
}

/// Reference integration of m·x'' + c·x' + k·x = 0 about `target` by classical RK4 with a fixed
/// step: independent of the closed forms under test.
func integrateSpring(_ s: SpringDescription, x0: Double, v0: Double, target: Double, until t: Double) -> (x: Double, v: Double) {
    // 1e-5 s steps: RK4's error (∝ step⁴) stays far below the tests' 1e-6 relative tolerance
    // for ω ≤ 100 rad/s.
    let step = 1e-5
    let n = Int((t / step).rounded(.up))
    let h = n == 0 ? 0 : t / Double(n)
    var x = x0 - target, v = v0
    func acceleration(_ x: Double, _ v: Double) -> Double { -(s.damping * v + s.stiffness * x) / s.mass }
    for _ in 0..<n {
        let k1x = v, k1v = acceleration(x, v)
        let k2x = v + h / 2 * k1v, k2v = acceleration(x + h / 2 * k1x, v + h / 2 * k1v)
        let k3x = v + h / 2 * k2v, k3v = acceleration(x + h / 2 * k2x, v + h / 2 * k2v)
        let k4x = v + h * k3v, k4v = acceleration(x + h * k3x, v + h * k3v)
        x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
        v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
    }
    return (target + x, v)
}
