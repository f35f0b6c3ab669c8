/// Hears what the pager and the scene around it draw and when their photos turn sharp, for
/// `--stats` (`FrameStatistics`). Times are seconds on the runtime's monotonic clock, never the
/// scene's (which a replay drives); the views call it only when the session keeps statistics.
public protocol FrameObserver: AnyObject {
    /// One frame took `seconds` to composite and present.
    func recordFrame(seconds: Double)
    /// The frame drawn `sinceLaunch` seconds after launch showed the current photo, sharp and
    /// refined or not.
    func recordPhotoFrame(sinceLaunch: Double, sharp: Bool, refined: Bool)
    /// A slide ended on a photo; `sharp` when its real pixels were there.
    func recordArrival(sharp: Bool)
    /// The user moved on before the slide to a photo ended.
    func recordPassed()
    /// A zoomed-in view of a huge photo had all its tiles `seconds` after it came to rest.
    func recordZoomedViewSharp(after seconds: Double)
    /// The photo the navigator strip came to rest on was sharp `seconds` after it rested.
    func recordScrubSharp(after seconds: Double)
    /// The photo the navigator strip came to rest on was refined `seconds` after it rested.
    func recordScrubRefined(after seconds: Double)
    /// The grid was drawn `sinceLaunch` seconds after launch, every visible cell sharp or not.
    func recordGridFrame(sinceLaunch: Double, allSharp: Bool)
    /// A photo's flight out of the grid showed its first frame `seconds` after the click.
    func recordFlightStart(after seconds: Double)
    /// A flight into a photo landed; `sharp` when its real pixels were there.
    func recordLanding(sharp: Bool)
}
