import RiffleGeometry

/// A rectangle of premultiplied BGRA pixels, 32 bits each, in rows of `rowPixels`.
///
/// Each pixel is a `UInt32` read as 0xAARRGGBB, which on the little-endian machines Riffle runs
/// on lays out in memory as B, G, R, A: the byte order of an X11 ZPixmap of depth 24/32, of
/// libjpeg-turbo's `JCS_EXT_BGRA` and of pixman's `a8r8g8b8`. Colour channels are premultiplied:
/// every channel ≤ alpha.
///
/// The buffer either owns its memory (allocated zeroed, i.e. transparent black) or wraps memory
/// that somebody else provides (a decoder's output, an MIT-SHM segment) with a release action run
/// when the buffer goes away. Decoded photos are immutable once published, so sharing a buffer
/// across threads is safe; a buffer being drawn into belongs to one thread at a time.
public final class PixelBuffer: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// Distance between the starts of two rows, in pixels (≥ width).
    public let rowPixels: Int
    /// First pixel of the first row.
    public let pixels: UnsafeMutablePointer<UInt32>
    private let release: (@Sendable (UnsafeMutablePointer<UInt32>) -> Void)?

    /// A new, zeroed (transparent black) buffer owned by Swift.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "negative buffer size \(width)x\(height)")
        self.width = width
        self.height = height
        self.rowPixels = width
        let count = max(width * height, 1)
        pixels = .allocate(capacity: count)
        pixels.initialize(repeating: 0, count: count)
        release = { $0.deallocate() }
    }

    /// Wraps `pixels`; `release` (if any) runs once when the buffer is deinitialised.
    public init(
        wrapping pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, rowPixels: Int,
        release: (@Sendable (UnsafeMutablePointer<UInt32>) -> Void)?
    ) {
        precondition(rowPixels >= width, "row of \(rowPixels) pixels shorter than width \(width)")
        self.width = width
        self.height = height
        self.rowPixels = rowPixels
        self.pixels = pixels
        self.release = release
    }

    deinit { release?(pixels) }

    /// Width and height.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Bytes of pixel memory this buffer holds (rows × row length).
    public var byteCount: Int { rowPixels * height * 4 }

    /// The pixel at column `x`, row `y` (both checked in debug builds).
    public subscript(x: Int, y: Int) -> UInt32 {
        get {
            assert(x >= 0 && x < width && y >= 0 && y < height)
            return pixels[y * rowPixels + x]
        }
        set {
            assert(x >= 0 && x < width && y >= 0 && y < height)
            pixels[y * rowPixels + x] = newValue
        }
    }

    /// Start of row `y`.
    @inline(__always)
    public func row(_ y: Int) -> UnsafeMutablePointer<UInt32> { pixels + y * rowPixels }

    /// Sets every pixel to `color`.
    public func fill(_ color: Color) {
        for y in 0..<height { row(y).update(repeating: color.packed, count: width) }
    }

    /// True when every pixel has alpha 255 (a full scan; call it once per decoded image).
    public var isOpaque: Bool {
        for y in 0..<height {
            let r = row(y)
            for x in 0..<width where r[x] < 0xFF00_0000 { return false }
        }
        return true
    }

    /// A copy that owns its memory, packed (rowPixels == width).
    public func copy() -> PixelBuffer { cropped(to: PixelRect(size: size)) }

    /// A packed copy of the pixels `rect`, which must lie inside the buffer.
    public func cropped(to rect: PixelRect) -> PixelBuffer {
        precondition(PixelRect(size: size).contains(rect) && !rect.isEmpty, "\(rect) is not inside \(width)x\(height)")
        let out = PixelBuffer(width: rect.width, height: rect.height)
        for y in 0..<rect.height { out.row(y).update(from: row(rect.y + y) + rect.x, count: rect.width) }
        return out
    }
}
