import RiffleGeometry
import RiffleImageIO
import RiffleLibrary

/// The frame decoder of the animated photo playing, kept between frame requests: an animation
/// is decoded in order (each frame is drawn over what the ones before left), so a decoder
/// opened anew for every request would decode every frame before the ones asked for again.
/// One is kept (only the focused photo plays); safe from any decode worker. One per app: its
/// `PhotoPipeline` owns it, its decode workers decode with it and its `PhotoStore` lets it go.
final class AnimationSources: @unchecked Sendable {
    private let lock = ConditionLock()
    /// The decoder held, what it decodes for, the file's colour profile, and the number of the
    /// frame it gives next.
    private var current: (path: String, viewport: PixelSize, animation: any ImageAnimation, profile: [UInt8]?, next: Int)?

    /// Frames `first ..< first + count` (numbered on through the loops) of the animated photo at
    /// `path`, fitted in `viewport` and brought into the display's colours by `colour` (each
    /// frame once, at the size shown, as a still is), with its frame and loop counts. Continues
    /// the decoder held
    /// when it is that photo's and has not passed `first`, else opens the file anew and decodes
    /// up to `first`. Throws `ImageDecodeError.stopped` once `stop` says true (asked before each
    /// frame), the decoder's reason for a frame that cannot be decoded, and a reason for a file
    /// that does not move.
    func frames(
        path: String, viewport: PixelSize, first: Int, count: Int, colour: ColourManagement, until stop: () -> Bool
    ) throws(ImageDecodeError) -> DecodedFrames {
        lock.lock()
        defer { lock.unlock() }
        if let held = current, held.path != path || held.viewport != viewport || held.next > first { current = nil }
        if current == nil {
            let head = try FileBytes.read(atPath: path, upTo: ImageCodecs.headBytes)
            let codec = try ImageCodecs.codec(forHead: head)
            guard let animation = try codec.animation(atPath: path, fitting: viewport, pixelLimit: PhotoDecoding.pixelLimit)
            else { throw ImageDecodeError(reason: "The file is not an animation") }
            current = (path, viewport, animation, try codec.probe(head: head, path: path).iccProfile, 0)
        }
        guard var source = current else { throw ImageDecodeError(reason: "The file is not an animation") }
        var frames: [PlaybackFrame] = []
        // A failure leaves the decoder where it was: the next request opens the file anew.
        current = nil
        while source.next < first + count {
            if stop() {
                current = source
                throw .stopped
            }
            let frame = try source.animation.nextFrame()
            if source.next >= first {
                let isOpaque = frame.pixels.isOpaque
                colour.convert(frame.pixels, from: source.profile, isOpaque: isOpaque)
                frames.append(PlaybackFrame(number: source.next, pixels: frame.pixels, duration: frame.duration, isOpaque: isOpaque))
            }
            source.next += 1
        }
        current = source
        return DecodedFrames(frames: frames, frameCount: source.animation.frameCount, loopCount: source.animation.loopCount)
    }

    /// Lets go of the decoder of the file at `path` (the file's bytes and its canvases).
    func release(path: String) {
        lock.withLock { if current?.path == path { current = nil } }
    }
}
