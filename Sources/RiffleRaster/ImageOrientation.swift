import RiffleGeometry

/// How a photo's stored pixels sit relative to the upright picture: the EXIF/TIFF Orientation
/// tag (0x0112), whose raw value is the tag's value 1...8.
///
/// Each case is named as the TIFF 6.0 specification describes it: which visual side of the
/// upright picture the stored 0th row is, then which side the stored 0th column is. A camera
/// held upright writes `topLeft`; one turned a quarter clockwise writes `rightTop` (the stored
/// picture must turn 90° clockwise to stand up).
public enum ImageOrientation: Int, Sendable, Hashable, CaseIterable {
    /// 1: stored as shown.
    case topLeft = 1
    /// 2: mirrored left to right.
    case topRight = 2
    /// 3: turned 180°.
    case bottomRight = 3
    /// 4: mirrored top to bottom.
    case bottomLeft = 4
    /// 5: transposed (mirrored across the top-left to bottom-right diagonal).
    case leftTop = 5
    /// 6: must turn 90° clockwise to stand up.
    case rightTop = 6
    /// 7: transversed (mirrored across the top-right to bottom-left diagonal).
    case rightBottom = 7
    /// 8: must turn 90° anticlockwise to stand up.
    case leftBottom = 8

    /// The side of the upright picture where the stored picture's last rows end up (where a file
    /// whose data runs out early is missing its part): opposite the side the 0th row is on.
    public var sideOfLastStoredRows: PictureSide {
        switch self {
        case .topLeft, .topRight: .bottom
        case .bottomRight, .bottomLeft: .top
        case .leftTop, .leftBottom: .right
        case .rightTop, .rightBottom: .left
        }
    }

    /// True when the stored rows become upright columns, so width and height swap.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The upright size of a picture stored at `storedSize`.
    public func uprightSize(ofStored storedSize: PixelSize) -> PixelSize {
        swapsAxes ? storedSize.transposed : storedSize
    }

    /// The stored size of a picture that is `uprightSize` when upright (the inverse of
    /// `uprightSize(ofStored:)`).
    public func storedSize(ofUpright uprightSize: PixelSize) -> PixelSize {
        swapsAxes ? uprightSize.transposed : uprightSize
    }

    /// The upright picture of `stored`: `stored` itself for `topLeft`, otherwise a new packed
    /// buffer of `uprightSize(ofStored: stored.size)` holding every pixel moved to its upright place.
    public func upright(_ stored: PixelBuffer) -> PixelBuffer {
        if self == .topLeft { return stored }
        let size = uprightSize(ofStored: stored.size)
        let upright = PixelBuffer(width: size.width, height: size.height)
        // Upright position of stored pixel (sx, sy) is ux = ax·sx + ay·sy + a0,
        // uy = bx·sx + by·sy + b0; flattened into one index step per stored column and row.
        let w = stored.width, h = stored.height
        let (ax, ay, a0, bx, by, b0): (Int, Int, Int, Int, Int, Int) = switch self {
        case .topLeft: (1, 0, 0, 0, 1, 0)
        case .topRight: (-1, 0, w - 1, 0, 1, 0)
        case .bottomRight: (-1, 0, w - 1, 0, -1, h - 1)
        case .bottomLeft: (1, 0, 0, 0, -1, h - 1)
        case .leftTop: (0, 1, 0, 1, 0, 0)
        case .rightTop: (0, -1, h - 1, 1, 0, 0)
        case .rightBottom: (0, -1, h - 1, -1, 0, w - 1)
        case .leftBottom: (0, 1, 0, -1, 0, w - 1)
        }
        let rowLength = upright.rowPixels
        let stepPerColumn = bx * rowLength + ax
        let stepPerRow = by * rowLength + ay
        let origin = b0 * rowLength + a0
        let target = upright.pixels
        for sy in 0..<h {
            let source = stored.row(sy)
            var index = origin + sy * stepPerRow
            for sx in 0..<w {
                target[index] = source[sx]
                index += stepPerColumn
            }
        }
        return upright
    }
}

/// A side of an upright picture.
public enum PictureSide: Sendable, Hashable {
    case top, bottom, left, right
}
