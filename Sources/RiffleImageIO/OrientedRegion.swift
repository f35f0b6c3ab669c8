import RiffleGeometry
import RiffleRaster

extension ImageOrientation {
    /// The stored pixels that become `rect` of an upright picture of `uprightSize` once this
    /// orientation is applied: `upright(crop(stored, result)) == crop(upright(stored), rect)`.
    ///
    /// Each upright corner maps to a stored pixel by the inverse of the TIFF definitions (for
    /// `rightTop`, upright (ux, uy) is stored (uy, W − 1 − ux) with W the upright width); the
    /// result spans the two mapped corners.
    public func storedRect(ofUpright rect: PixelRect, uprightSize: PixelSize) -> PixelRect {
        let w = uprightSize.width, h = uprightSize.height
        func stored(_ ux: Int, _ uy: Int) -> (x: Int, y: Int) {
            switch self {
            case .topLeft: (ux, uy)
            case .topRight: (w - 1 - ux, uy)
            case .bottomRight: (w - 1 - ux, h - 1 - uy)
            case .bottomLeft: (ux, h - 1 - uy)
            case .leftTop: (uy, ux)
            case .rightTop: (uy, w - 1 - ux)
            case .rightBottom: (h - 1 - uy, w - 1 - ux)
            case .leftBottom: (h - 1 - uy, ux)
            }
        }
        let a = stored(rect.x, rect.y), b = stored(rect.maxX - 1, rect.maxY - 1)
        return PixelRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x) + 1, height: abs(a.y - b.y) + 1)
    }
}
