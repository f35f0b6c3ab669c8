/// When a frame presented now reaches the screen and when the frame after it should start, as
/// a display that knows its timing says (Present's vblanks on X).
///
/// A display synchronised to its scanout shows a frame at the next vblank and the next frame
/// starts then: both times are that vblank. A display with no scanout to tear (an X server
/// whose vblanks are a timer of its own: Xvfb, or a window on no monitor) shows a frame as soon
/// as it is presented; the frames still start on its vblanks, so the pace stays even.
public struct FrameTiming: Equatable, Sendable {
    /// When the frame presented now is on screen: it is drawn as the scene will be then.
    public var shownAt: Double
    /// When the next frame should start.
    public var nextFrameStart: Double

    public init(shownAt: Double, nextFrameStart: Double) {
        self.shownAt = shownAt
        self.nextFrameStart = nextFrameStart
    }
}
