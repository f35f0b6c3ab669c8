import RiffleGeometry

extension PixelRect {
    /// The pixels whose centres lie inside `rect` (`coveredPixels`' rule, the one every raster
    /// path samples by).
    init(covering rect: Rect) {
        let cols = coveredPixels(lower: rect.minX, upper: rect.maxX, clipLower: .min / 2, clipUpper: .max / 2)
        let rows = coveredPixels(lower: rect.minY, upper: rect.maxY, clipLower: .min / 2, clipUpper: .max / 2)
        self.init(minX: cols.lowerBound, minY: rows.lowerBound, maxX: cols.upperBound, maxY: rows.upperBound)
    }

    /// This rectangle cut to the rows `rows` (empty when they do not meet).
    func limited(toRows rows: Range<Int>) -> PixelRect {
        PixelRect(minX: x, minY: Swift.max(y, rows.lowerBound), maxX: maxX, maxY: Swift.min(maxY, rows.upperBound))
    }
}
