/// How long an animation frame is shown, from what its file says: browsers' rule for tiny
/// delays, applied to every animated format (GIF, WebP, APNG).
///
/// Chromium and Firefox show a frame whose delay is 10 ms or less for 100 ms: many GIFs say 0
/// (or 1 centisecond) where their makers meant "the default", and such frames are not meant to
/// flash by at the display's rate. Chromium: `DeferredImageDecoder::FrameDurationAtIndex` in
/// `third_party/blink/renderer/platform/graphics/deferred_image_decoder.cc` ("We follow
/// Firefox's behavior and use a duration of 100 ms for any frames that specify a duration of
/// <= 10 ms"); Firefox: `FrameTimeout::FromRawMilliseconds` in `image/FrameTimeout.h`. A delay of
/// 20 ms (2 centiseconds, the shortest a GIF can say above that) plays at 20 ms in both, so the
/// shortest frame a GIF can have is 20 ms — not a minimum applied to longer delays.
enum FrameDuration {
    /// Delays of at most this many microseconds (10 ms) are shown for `tinyDelayShownFor`.
    static let tinyDelayMicroseconds: Int64 = 10_000
    /// 100 ms, in seconds.
    static let tinyDelayShownFor = 0.1

    /// The seconds a frame whose file says `microseconds` is shown for.
    static func seconds(fromFileMicroseconds microseconds: Int64) -> Double {
        microseconds <= tinyDelayMicroseconds ? tinyDelayShownFor : Double(microseconds) / 1e6
    }
}
