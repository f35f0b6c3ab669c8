import Dispatch

/// Times a piece of work: runs it until at least `minimumSeconds` have passed (and at least
/// `minimumRuns` times) and reports the median of the runs, which resists a noisy neighbour.
enum Stopwatch {
    static func median(minimumRuns: Int = 5, minimumSeconds: Double = 0.5, _ work: () -> Void) -> Double {
        var samples: [Double] = []
        let start = DispatchTime.now().uptimeNanoseconds
        while samples.count < minimumRuns || Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 < minimumSeconds {
            let t0 = DispatchTime.now().uptimeNanoseconds
            work()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
        }
        samples.sort()
        return samples[samples.count / 2]
    }
}

/// Milliseconds with two decimals.
func ms(_ seconds: Double) -> String {
    let v = (seconds * 100_000).rounded() / 100
    return "\(v) ms"
}

/// A ratio with two decimals, "1.23x".
func ratio(_ a: Double, _ b: Double) -> String {
    "\((a / b * 100).rounded() / 100)x"
}
