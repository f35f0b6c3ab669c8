/// How a photo sits in a viewport at rest: the largest uniform scale that shows all of it,
/// never enlarging a photo smaller than the viewport (Photos shows small images at 1:1).
public enum AspectFit {
    /// min(viewport.w / content.w, viewport.h / content.h, 1); 1 for an empty content size.
    public static func scale(content: Size, viewport: Size) -> Double {
        guard content.width > 0, content.height > 0 else { return 1 }
        return min(viewport.width / content.width, viewport.height / content.height, 1)
    }

    /// The rectangle the content occupies at `scale(content:viewport:)`, centred in the viewport.
    public static func frame(content: Size, viewport: Size) -> Rect {
        let s = scale(content: content, viewport: viewport)
        let w = content.width * s, h = content.height * s
        return Rect(x: (viewport.width - w) / 2, y: (viewport.height - h) / 2, width: w, height: h)
    }
}
