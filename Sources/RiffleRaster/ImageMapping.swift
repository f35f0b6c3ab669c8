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

    /// How far from an exact 1:1 whole-pixel mapping a mapping may be and still be drawn as a
    /// plain copy: 1/1024 pixel, anywhere across the source. Far below what the 8-bit weights
    /// of the bilinear paths can resolve (1/256), so the copy equals their result; it absorbs the
    /// rounding of fit scales such as 1080/4000, which make 6000 · s = 1620.0000000000002.
    static let copyTolerance = 1.0 / 1024

    /// True when the mapping is, within `copyTolerance`, 1:1 at whole-pixel offsets for a source
    /// of `size` (the plain-copy case).
    public func isIntegerTranslation(for size: PixelSize) -> Bool {
        isWholePixelScaling(by: 1, for: size)
    }

    /// True when the mapping scales a source of `size` by exactly `factor` on both axes and puts
    /// its corner on a whole pixel, within `copyTolerance` anywhere across the source.
    public func isWholePixelScaling(by factor: Double, for size: PixelSize) -> Bool {
        abs(scaleX - factor) * Double(size.width) <= Self.copyTolerance
            && abs(scaleY - factor) * Double(size.height) <= Self.copyTolerance
            && abs(offsetX - offsetX.rounded()) <= Self.copyTolerance
            && abs(offsetY - offsetY.rounded()) <= Self.copyTolerance
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
