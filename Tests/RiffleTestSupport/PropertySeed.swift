import Glibc

/// The seed of a property test's run: `RIFFLE_PROPERTY_SEED` (decimal) when set, to replay a
/// failure; else the test's fixed seed when `CI` is set, so CI is repeatable; else a new random
/// one. Tests name it in every failure.
public enum PropertySeed {
    /// This run's seed for a test whose CI seed is `fixed`.
    public static func forRun(fixed: UInt64) -> UInt64 {
        if let replay = getenv("RIFFLE_PROPERTY_SEED").flatMap({ UInt64(String(cString: $0)) }) { return replay }
        return getenv("CI") != nil ? fixed : UInt64.random(in: .min ... .max)
    }
}
