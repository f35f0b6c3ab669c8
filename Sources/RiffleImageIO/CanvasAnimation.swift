import RiffleGeometry
import RiffleRaster

/// An animation whose frames come from `CanvasFrames` (GIF, animated WebP, APNG): each canvas
/// shrunk by Lanczos-3 to the size the animation is shown at, then turned upright.
///
/// A frame whose data is damaged or cut short ends the animation: `nextFrame()` throws there,
/// and the frames before it are all that plays (the first frame alone is shown with the grey
/// rows and a warning, as a still picture).
final class CanvasAnimation: ImageAnimation {
    let frameSize: PixelSize
    var frameCount: Int { frames.frameCount }
    var loopCount: Int { frames.loopCount }

    private let frames: CanvasFrames
    private let orientation: ImageOrientation
    /// `frameSize` as stored (before the orientation).
    private let storedSize: PixelSize
    private var index = 0

    /// The frames of `frames`, whose header is `info`, fitted in `size` (upright): the largest
    /// size of the canvas's aspect within it, each side rounded up and never above the canvas
    /// (as `AspectFit` and the pager's decodes size a photo).
    init(_ frames: CanvasFrames, info: ImageInfo, fitting size: PixelSize) {
        self.frames = frames
        orientation = info.orientation
        let upright = orientation.uprightSize(ofStored: frames.canvasSize)
        let scale = AspectFit.scale(content: Size(upright), viewport: Size(size))
        frameSize = PixelSize(
            width: min(upright.width, max(1, Int((Double(upright.width) * scale).rounded(.up)))),
            height: min(upright.height, max(1, Int((Double(upright.height) * scale).rounded(.up)))))
        storedSize = orientation.storedSize(ofUpright: frameSize)
    }

    func nextFrame() throws(ImageDecodeError) -> AnimationFrame {
        let frame = try frames.nextFrame()
        if let warning = frame.warning { throw ImageDecodeError(reason: warning) }
        let shown = AnimationFrame(
            pixels: orientation.upright(DownscaleFilter.lanczos3.shrink(frame.canvas, to: storedSize, kernels: .fastest)), index: index,
            duration: frame.duration)
        index = (index + 1) % max(1, frames.frameCount)
        return shown
    }
}
