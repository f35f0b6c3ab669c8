import RiffleGeometry
import RiffleRaster

/// What the window shows while a drag it would accept hovers over it: the system blue (the
/// chrome's dark tint) laid over everything at `tintOpacity`, and an opaque outline of it
/// `outlineWidth` points wide, `inset` points inside the window's edge, as GTK's drop highlight
/// frames a drop target.
enum DropHighlight {
    /// How much of the blue covers the window: enough to see the change, little enough to see the
    /// photos under it.
    static let tintOpacity = 0.18
    /// The outline's width, points.
    static let outlineWidth = 3.0
    /// The outline's distance from the window's edge, points.
    static let inset = 8.0

    /// The highlight over a window of `size` pixels at `scale` pixels per point.
    static func layer(in size: Size, scale: Double) -> Layer {
        let window = Rect(origin: .zero, size: size)
        let blue = ChromeView.darkTint
        let width = (outlineWidth * scale).rounded(), inset = (Self.inset * scale).rounded()
        let inner = Rect(x: inset, y: inset, width: max(0, size.width - 2 * inset), height: max(0, size.height - 2 * inset))
        // The outline's four sides: top and bottom full width, left and right between them.
        let sides = [
            Rect(x: inner.minX, y: inner.minY, width: inner.width, height: width),
            Rect(x: inner.minX, y: inner.maxY - width, width: inner.width, height: width),
            Rect(x: inner.minX, y: inner.minY + width, width: width, height: max(0, inner.height - 2 * width)),
            Rect(x: inner.maxX - width, y: inner.minY + width, width: width, height: max(0, inner.height - 2 * width)),
        ]
        return Layer(sublayers: [Layer(opacity: tintOpacity, content: .fill(window, blue))]
            + sides.map { Layer(content: .fill($0, blue)) })
    }
}
