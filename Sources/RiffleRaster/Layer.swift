import RiffleGeometry

/// A node of the layer tree the compositor draws: Riffle's frame is
/// root (background) > paging layer > one zoom layer per visible page > image layer, plus the
/// chrome on top.
///
/// A value: the app builds the tree afresh for each frame from its models (a handful of nodes),
/// so there is no retained state to keep in sync.
public struct Layer: Sendable {
    /// Maps this layer's coordinates, once turned by `rotation`, into its parent's.
    public var transform: ScaleTranslate
    /// Turns this layer's content and sublayers about its origin before `transform`: a point p
    /// of the layer lands at transform(R(p)) in its parent.
    ///
    /// Whole quarter turns turn images, fills and clips exactly: an image is drawn, pixel for
    /// pixel, as the quarter turn of its unturned draw (`QuarterTurnedImage`), provided the
    /// layer's origin lands on a pixel corner (else the pixel grid turns about the nearest
    /// corner and the rest of the offset is kept). A turn between quarter turns (a photo while
    /// it turns) draws the images below it turned (`ReferenceBilinear.drawTurned`,
    /// `TurnedBilinear`), each clip below it as the box around its turned rectangle. Fills
    /// below a turn between, and text below any turn, are not drawn: no scene turns them.
    public var rotation: Rotation
    /// Clips this layer and its sublayers to a rectangle in this layer's coordinates (a page's
    /// bounds, as UIScrollView clips to bounds).
    public var clip: Rect?
    /// Multiplies the opacity of everything drawn by this layer and below (0...1).
    public var opacity: Double
    /// What this layer itself draws, below its sublayers.
    public var content: LayerContent?
    /// Drawn in order, each over the previous.
    public var sublayers: [Layer]

    public init(
        transform: ScaleTranslate = .identity, rotation: Rotation = .none, clip: Rect? = nil, opacity: Double = 1,
        content: LayerContent? = nil, sublayers: [Layer] = []
    ) {
        self.transform = transform
        self.rotation = rotation
        self.clip = clip
        self.opacity = opacity
        self.content = content
        self.sublayers = sublayers
    }
}

/// What a layer draws in its own coordinates.
public enum LayerContent: Sendable {
    /// A solid rectangle (the background, a bar); translucent colours blend over what is below.
    case fill(Rect, Color)
    /// A picture occupying (0, 0, size.width, size.height).
    case image(ImageContent)
    /// Coverage filled with a colour, its top-left corner at `origin`, one mask pixel per unit.
    case text(AlphaMask, origin: Point, color: Color)
}

/// A decoded picture placed in a layer: `pixels` stretched over a logical `size`.
///
/// The logical size is the photo's full-resolution upright size in image pixels; `pixels` may be
/// smaller (decoded at a reduced scale) and is scaled up to cover it, so the zoom transform never
/// depends on which resolution happens to be decoded.
///
/// `smaller` holds box-halved copies of `pixels` (each half the previous, see `BoxDownsample`):
/// drawn smaller than half its size, the picture is sampled from the level that keeps the scale
/// at or above 1/2 — bilinear below 1/2 skips source pixels and shimmers while zooming
/// (trilinear-style filtering, as mip-maps do).
public struct ImageContent: Sendable {
    public var pixels: PixelBuffer
    public var size: Size
    /// True when every pixel has alpha 255 (JPEGs, PNGs without alpha); enables the copy path.
    public var isOpaque: Bool
    /// `pixels` halved, halved again, …: the mip-map levels below level 0.
    public var smaller: [PixelBuffer]

    public init(pixels: PixelBuffer, size: Size, isOpaque: Bool, smaller: [PixelBuffer] = []) {
        self.pixels = pixels
        self.size = size
        self.isOpaque = isOpaque
        self.smaller = smaller
    }

    /// The level to sample for a frame `width` pixels wide: the most detailed whose scale onto
    /// the frame is ≥ 1/2 (so in [1/2, 1) when shrinking), or the smallest level there is.
    public func level(forFrameWidth width: Double) -> PixelBuffer {
        for level in [pixels] + smaller where width / Double(level.width) >= 0.5 { return level }
        return smaller.last ?? pixels
    }

    /// True when `pixels` are the picture's own pixels, one per unit of `size` (within half a
    /// pixel of rounding), not a reduced copy such as a preview.
    public var isFullResolution: Bool {
        abs(Double(pixels.width) - size.width) < 0.5 && abs(Double(pixels.height) - size.height) < 0.5
    }

    /// Shown at the buffer's own size.
    public init(pixels: PixelBuffer, isOpaque: Bool) {
        self.init(pixels: pixels, size: Size(pixels.size), isOpaque: isOpaque)
    }
}
