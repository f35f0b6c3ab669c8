import RealModule
import Testing
@testable import RifflePhysics

struct SpringDescriptionTests {
    /// ω = 30: from displacement D a velocity towards the target is capped at 30·|D|; one away from
    /// it, or slower, is kept.
    @Test(arguments: [
        // velocity, displacement (position − target), kept or capped velocity
        (-10_000.0, 200.0, -6000.0), (10_000, -200, 6000), // towards, too fast: capped
        (-6000, 200, -6000), (-5999, 200, -5999), (3000, -200, 3000), // towards, at or under the cap
        (10_000, 200, 10_000), (-10_000, -200, -10_000), // away: kept
        (500, 0, 500), (0, 200, 0), // at the target, or still
    ])
    func nonCrossingVelocity(velocity: Double, displacement: Double, expected: Double) {
        #expect(SpringDescription.pageSnap.nonCrossingVelocity(velocity, displacement: displacement) == expected)
    }

    /// The capped start never crosses: x(t) = (x0 + (v0 + ω·x0)·t)·e^(−ω·t) keeps the sign of x0.
    @Test(arguments: [(-10_000.0, 200.0), (25_000, -300), (-6001, 200)])
    func aCappedStartNeverCrossesTheTarget(velocity: Double, displacement: Double) {
        let spring = SpringDescription.photoTransition
        let v = spring.nonCrossingVelocity(velocity, displacement: displacement)
        let simulation = SpringSimulation(spring: spring, position: 50 + displacement, velocity: v, target: 50)
        #expect(simulation.firstCrossingTime == nil)
        let uncapped = SpringSimulation(spring: spring, position: 50 + displacement, velocity: velocity, target: 50)
        #expect(uncapped.firstCrossingTime != nil)
    }

    /// 19 rad/s leaves (1 + 19·0.35)·e^(−19·0.35) = 0.99 % of the way at 0.35 s; 18.9 rad/s would
    /// leave more than 1 %.
    @Test func theTransitionSpringHasNinetyNinePercentOfItsWayBehindItAt035Seconds() {
        #expect(SpringDescription.photoTransition.naturalFrequency == 19)
        #expect(SpringDescription.photoTransition.dampingRatio == 1)
        let left = { (omega: Double) in (1 + omega * 0.35) * Double.exp(-omega * 0.35) }
        #expect(left(19) < 0.01 && left(18.9) > 0.01)
        let simulation = SpringSimulation(spring: .photoTransition, position: 0, velocity: 0, target: 1)
        #expect(abs(1 - simulation.position(at: 0.35) - left(19)) < 1e-12)
    }
}
