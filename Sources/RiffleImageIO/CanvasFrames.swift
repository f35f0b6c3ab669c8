import CRiffleImaging
import RiffleGeometry
import RiffleRaster

/// An animated file's frames as whole canvases, decoded one after another by the imaging shim's
/// decoder for its format (`rfi_gif_*`, `rfi_webp_animation_*`, `rfi_apng_*`, which share one
/// shape): each canvas as it is shown, stored orientation, at the canvas's full size. After the
/// last frame comes the first again. One thread at a time.
final class CanvasFrames {
    /// The shim's open, next-frame and close calls of one format.
    typealias Open = (
        UnsafePointer<UInt8>?, Int, Int64, UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutablePointer<rfi_animation_info>?,
        UnsafeMutablePointer<CChar>?, Int
    ) -> rfi_status
    typealias Next = (
        OpaquePointer?, UnsafeMutablePointer<UInt32>?, Int32, UnsafeMutablePointer<rfi_animation_frame>?,
        UnsafeMutablePointer<CChar>?, Int
    ) -> rfi_status
    typealias Close = (OpaquePointer?) -> Void

    /// The format, for messages.
    let format: ImageFormat
    /// The canvas every frame covers, as stored.
    let canvasSize: PixelSize
    /// Frames that can be shown (those whose data is all there).
    let frameCount: Int
    /// How many times the frames play; 0 for forever.
    let loopCount: Int
    /// Some pixel may be translucent.
    let hasAlpha: Bool
    /// The data ends before the format's end, or breaks off: frames after `frameCount` are lost.
    let isTruncated: Bool

    private let pinned: PinnedBytes
    private let decoder: OpaquePointer
    private let next: Next
    private let close: Close

    /// Opens `bytes` with the shim's calls for `format`; throws the shim's reason (a canvas over
    /// `pixelLimit` pixels is refused before any is allocated).
    init(bytes: [UInt8], format: ImageFormat, pixelLimit: Int, open: Open, next: @escaping Next, close: @escaping Close) throws(ImageDecodeError) {
        let pinned = PinnedBytes(bytes)
        var opened: OpaquePointer?
        var info = rfi_animation_info()
        var message = MessageBuffer()
        let status = message.withPointer { open(pinned.start, pinned.count, Int64(pixelLimit), &opened, &info, $0, $1) }
        let size = PixelSize(width: Int(info.width), height: Int(info.height))
        try ImageDecoder.check(status, format: format, message: message.text, size: size, pixelLimit: pixelLimit)
        guard let opened else { throw ImageDecodeError(reason: "The \(format.displayName) decoder opened nothing") }
        self.format = format
        self.pinned = pinned
        decoder = opened
        self.next = next
        self.close = close
        canvasSize = size
        frameCount = Int(info.frame_count)
        loopCount = Int(info.loop_count)
        hasAlpha = info.has_alpha != 0
        isTruncated = info.truncated != 0
    }

    deinit { close(decoder) }

    /// One decoded canvas.
    struct Frame {
        /// The whole canvas: premultiplied BGRA, stored orientation, `canvasSize`.
        let canvas: PixelBuffer
        /// How long it is shown, in seconds (`FrameDuration`'s rule applied).
        let duration: Double
        /// What the decoder recovered from in this frame (rows that are grey), for a person;
        /// nil for a whole frame.
        let warning: String?
        /// The same for the app: rows cut off or damaged; nil for a whole frame.
        let damage: ImageDamage?
    }

    /// Decodes the next frame (after the last one, the first). Throws the shim's reason for a
    /// frame that cannot be decoded at all.
    func nextFrame() throws(ImageDecodeError) -> Frame {
        let canvas = PixelBuffer(width: canvasSize.width, height: canvasSize.height)
        var frame = rfi_animation_frame()
        var message = MessageBuffer()
        let status = message.withPointer { next(decoder, canvas.pixels, Int32(canvas.rowPixels), &frame, $0, $1) }
        try ImageDecoder.check(status, format: format, message: message.text, size: canvasSize)
        let damage: ImageDamage? = switch frame.warning {
        case RFI_WARNING_TRUNCATED: .truncated(missing: nil)
        case RFI_WARNING_CORRUPT_DATA: .damagedData
        default: nil
        }
        return Frame(
            canvas: canvas, duration: FrameDuration.seconds(fromFileMicroseconds: frame.duration_us),
            warning: ImageDecoder.warningText(frame.warning, format: format, message: message.text), damage: damage)
    }

    /// The first frame as a still picture with header `info` (upright): the grid's thumbnail
    /// and what the pager shows before an animation plays. A frame cut short keeps the rows
    /// that decoded, grey below, with the warning; a file whose later frames were lost says so.
    func firstFrameImage(info: ImageInfo) throws(ImageDecodeError) -> DecodedImage {
        let first = try nextFrame()
        var warning = first.warning
        var damage = first.damage
        if warning == nil, isTruncated {
            let arrived = frameCount == 1 ? "only its first frame" : "only its first \(frameCount) frames"
            warning = "The \(format.displayName) data ends early (the file is truncated); \(arrived) arrived"
            damage = .truncated(missing: nil)
        }
        return DecodedImage(
            pixels: info.orientation.upright(first.canvas), info: info, warning: warning, isOpaque: first.canvas.isOpaque,
            damage: damage)
    }
}
