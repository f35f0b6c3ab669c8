import RiffleGeometry

/// Where a source buffer lands in a destination buffer: per axis, destination = source · scale
/// + offset, in pixel-edge coordinates (the source's left edge x = 0 lands at `offsetX`).
///
/// Scales are per axis because a photo decoded at a reduced size (a DCT-scaled JPEG, a pyramid
/// level) is mapped back to its full-resolution frame, and the rounding of the decoded size
/// makes the two factors differ by a fraction of a pixel.
public struct ImageMapping: Hashable, Sendable {
    public var scaleX: Double
    public var scaleY: Double
    public var offsetX: Double
    public var offsetY: Double

    public init(scaleX: Double, scaleY: Double, offsetX: Double, offsetY: Double) {
        precondition(scaleX > 0 && scaleY > 0, "mapping scale must be positive")
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.offsetX = offsetX
        self.offsetY = offsetY
    }

    /// Maps a `source`-sized buffer onto `frame` (destination pixels), stretching each axis.
    public init(source: PixelSize, onto frame: Rect) {
        self.init(
            scaleX: frame.width / Double(source.width), scaleY: frame.height / Double(source.height),
            offsetX: frame.minX, offsetY: frame.minY)
    }

    /// The destination rectangle covered by a source of `size`.
    public func frame(of size: PixelSize) -> Rect {
        Rect(x: offsetX, y: offsetY, width: Double(size.width) * scaleX, height: Double(size.height) * scaleY)
    }

    /// True when the mapping is an exact 1:1 copy at whole-pixel offsets (the plain-copy case).
    public var isIntegerTranslation: Bool {
        scaleX == 1 && scaleY == 1 && offsetX == offsetX.rounded() && offsetY == offsetY.rounded()
    }
}

/// The range of destination pixel indices, along one axis, whose centres fall inside
/// [lower, upper) and inside [clipLower, clipUpper): pixel i is covered when lower ≤ i + 0.5 < upper.
@inline(__always)
func coveredPixels(lower: Double, upper: Double, clipLower: Int, clipUpper: Int) -> Range<Int> {
    // i + 0.5 ≥ lower  ⇔  i ≥ lower − 0.5  ⇔  i ≥ ceil(lower − 0.5)
    // i + 0.5 < upper  ⇔  i < upper − 0.5  ⇔  i < ceil(upper − 0.5)
    let first = max(clipLower, Int((lower - 0.5).rounded(.up)))
    let end = min(clipUpper, Int((upper - 0.5).rounded(.up)))
    return first < end ? first..<end : first..<first
}
