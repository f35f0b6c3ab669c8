import RiffleGeometry

/// Photos laid out whole in justified rows, as Google Photos and Immich show a library (Flickr's
/// justified layout): each row as many photos as fit at about `targetHeight`, then scaled so
/// that they fill the width exactly; the last row keeps the target height, left-aligned.
///
/// With aspect ratios aᵢ (width over height, clamped into `aspectLimits` so that a panorama or a
/// sliver cannot flatten or empty a row), the width W and spacing s: photos are added to a row
/// while Σaᵢ·h + (k − 1)·s < W at h = targetHeight; the row closes with the photo that reaches
/// W, at height h = (W − (k − 1)·s) / Σaᵢ, photo i then aᵢ·h wide. Rows lie `spacing` apart.
/// Built in O(n); a row at an offset and a photo's row are binary searches, so a frame's cost
/// is the rows it shows.
public struct JustifiedRows: Sendable, Equatable {
    /// Aspect ratios are taken within these (4:1 panoramas and 1:4 slivers at most).
    public static let aspectLimits = 0.25...4.0

    public let width: Double
    public let spacing: Double
    public let targetHeight: Double
    /// Each photo's aspect ratio as laid out (clamped).
    public let aspects: [Double]
    /// `rowStarts[r]` is row r's first photo; the last entry is the photo count.
    public let rowStarts: [Int]
    /// `rowTops[r]` is row r's top; the last entry is the content's height.
    public let rowTops: [Double]

    public var contentHeight: Double { rowTops.last ?? 0 }
    public var rowCount: Int { rowStarts.count - 1 }

    /// `aspects` (width over height, one a photo in order; non-finite or non-positive taken as
    /// square) in rows `width` wide, about `targetHeight` high, `spacing` apart.
    public init(aspects: [Double], width: Double, targetHeight: Double, spacing: Double) {
        self.width = width
        self.spacing = spacing
        self.targetHeight = targetHeight
        let aspects = aspects.map { $0.isFinite && $0 > 0 ? min(max($0, Self.aspectLimits.lowerBound), Self.aspectLimits.upperBound) : 1 }
        self.aspects = aspects
        var starts = [0], tops = [0.0]
        var sum = 0.0, count = 0, y = 0.0
        for (index, aspect) in aspects.enumerated() {
            sum += aspect
            count += 1
            if sum * targetHeight + Double(count - 1) * spacing >= width {
                let height = (width - Double(count - 1) * spacing) / sum
                y += height
                starts.append(index + 1)
                tops.append(y + spacing)
                y += spacing
                sum = 0
                count = 0
            }
        }
        if count > 0 {
            starts.append(aspects.count)
            tops.append(y + targetHeight + spacing)
        }
        // The content ends at the last row's bottom, not below its spacing.
        if tops.count > 1 { tops[tops.count - 1] -= spacing }
        rowStarts = starts
        rowTops = tops
    }

    /// Row r's height: the gap to the next row's top less the spacing (the last row's, its own).
    public func height(ofRow r: Int) -> Double {
        r == rowCount - 1 ? rowTops[r + 1] - rowTops[r] : rowTops[r + 1] - rowTops[r] - spacing
    }

    /// The row whose span holds offset `y` (clamped to the first and last rows); nil without rows.
    public func row(atOffset y: Double) -> Int? {
        guard rowCount > 0 else { return nil }
        var low = 0, high = rowCount - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if rowTops[middle] <= y { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The row holding photo `photo`.
    public func row(ofPhoto photo: Int) -> Int? {
        guard (0..<(rowStarts.last ?? 0)).contains(photo) else { return nil }
        var low = 0, high = rowCount - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if rowStarts[middle] <= photo { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Row r's photos and their frames, left to right.
    public func frames(ofRow r: Int) -> [(photo: Int, frame: Rect)] {
        let height = height(ofRow: r)
        var x = 0.0
        return (rowStarts[r]..<rowStarts[r + 1]).map { photo in
            let w = aspects[photo] * height
            defer { x += w + spacing }
            return (photo, Rect(x: x, y: rowTops[r], width: w, height: height))
        }
    }

    /// Photo `photo`'s frame.
    public func frame(ofPhoto photo: Int) -> Rect? {
        row(ofPhoto: photo).flatMap { r in frames(ofRow: r).first { $0.photo == photo }?.frame }
    }
}
