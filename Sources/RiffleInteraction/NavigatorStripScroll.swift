import RifflePhysics

/// The navigator strip's own motion while the user drives it (drag, flick, click, wheel): a
/// horizontal `FreeScrollModel` over positions in photos, one photo every `pitch` pixels, that
/// comes to rest on a whole photo. While nobody drives it the strip follows the pager instead,
/// and this model is not used.
///
/// The free scroll position p (pixels) is f · pitch, f the strip's fractional position; its
/// range is [0, (n − 1) · pitch] (content (n − 1)·pitch + viewport, so the rubber band's d is the
/// window's width). A drag moves p by −dx (the strip follows the finger at the closed cells'
/// pitch; an open cell passing under the finger moves a little faster than it). A release
/// snaps: the coast's rest point p0 + v/k (`DecelerationRate.normal`, k = −1000·ln 0.998 per
/// second) is moved to the nearest photo inside the range, p*, and the coast starts with the
/// velocity v* = (p* − p0)·k that heads exactly there (UIScrollView's
/// `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)` adjusts the target the same
/// way). Friction stops where its speed falls under `Tolerance.pixels` (up to 20/k ≈ 10 px
/// short), so the free scroll's spring (ω = 30 rad/s, critically damped) carries it the rest of
/// the way; a release whose p* is the photo nearest p0 (a slow let-go, no flick) takes that
/// spring at once. A release past an end springs back to the end, itself a photo. Clicks and
/// wheel notches animate with the same spring to a photo; notches add up.
public struct NavigatorStripScroll: Hashable, Sendable {
    /// The distance between photos, pixels (`NavigatorStripLayout.pitch`).
    public let pitch: Double
    /// How many photos.
    public let count: Int
    private var model: FreeScrollModel

    /// A strip of `count` photos `pitch` pixels apart in a window `viewportWidth` wide, resting
    /// on position `f` (photos).
    public init(count: Int, pitch: Double, viewportWidth: Double, position f: Double) {
        self.count = max(count, 1)
        self.pitch = max(pitch, 1)
        model = FreeScrollModel(
            viewportLength: viewportWidth, contentLength: Double(self.count - 1) * self.pitch + viewportWidth,
            position: f * self.pitch)
    }

    /// f at `t`: the strip's position in photos (outside [0, n − 1] only while rubber-banded).
    public func position(at t: Double) -> Double { model.position(at: t) / pitch }

    /// The photo nearest the strip's centre at `t`, within [0, n − 1]: the one the pager shows.
    public func photo(at t: Double) -> Int {
        min(max(Int(position(at: t).rounded()), 0), count - 1)
    }

    /// True while the finger holds the strip.
    public var isDragging: Bool { model.isDragging }

    /// True when neither held nor moving: the strip rests on a whole photo.
    public var isAtRest: Bool { !model.isDragging && !model.isAnimating }

    /// Catches the strip where it is at `t` and starts a drag.
    public mutating func grab(at t: Double) { model.grab(at: t) }

    /// The finger moved `dx` window pixels (positive: right, showing earlier photos).
    public mutating func drag(by dx: Double, at t: Double) { model.drag(by: -dx, at: t) }

    /// The finger let go at `t` moving `velocityX` window pixels per second: the snapping coast
    /// described above.
    public mutating func release(velocityX: Double, at t: Double) {
        guard model.isDragging else { return }
        let p0 = model.position(at: t), v = -velocityX
        guard (0...model.maximumPosition).contains(p0) else {
            model.release(velocity: v, at: t)
            return
        }
        let rate = DecelerationRate.normal
        let target = snapped(p0 + v * rate.distancePerVelocity)
        if target == snapped(p0) {
            model.release(velocity: 0, at: t)
            model.scroll(to: target, at: t)
        } else {
            model.release(velocity: (target - p0) * rate.decayConstant, at: t)
        }
    }

    /// Animates to photo `index` (clamped) from the motion at `t`.
    public mutating func scroll(toPhoto index: Int, at t: Double) {
        model.scroll(to: Double(min(max(index, 0), count - 1)) * pitch, at: t)
    }

    /// Animates `photos` photos on from the target of the animation in progress (a wheel notch
    /// each), else from the nearest photo.
    public mutating func scroll(byPhotos photos: Int, at t: Double) {
        // An animated scroll's target is a whole photo, and `scroll(by:)` adds to it.
        if model.isAnimating, !model.isCoasting {
            model.scroll(by: Double(photos) * pitch, at: t)
        } else {
            model.scroll(to: snapped(Double(photo(at: t) + photos) * pitch), at: t)
        }
    }

    /// Ends a motion done at `t`: a spring rests exactly on its photo; a coast that stopped
    /// short of a whole photo springs on to the nearest.
    public mutating func settle(at t: Double) {
        model.settle(at: t)
        guard isAtRest else { return }
        let p = model.position(at: t), target = snapped(p)
        if p != target { model.scroll(to: target, at: t) }
    }

    // The nearest whole photo's position to `p`, within the range.
    private func snapped(_ p: Double) -> Double {
        Double(min(max(Int((p / pitch).rounded()), 0), count - 1)) * pitch
    }
}
