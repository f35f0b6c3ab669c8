import CRiffleImaging
import RiffleRaster
import Synchronization

/// Why a font could not be opened, in words a person can be shown.
public struct FontError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A complete sentence naming the font and the reason.
    public let reason: String

    /// The reason.
    public var description: String { reason }
}

/// One line of rendered text: anti-aliased coverage plus where its baseline and end are.
public struct TextImage: Sendable {
    /// Coverage of the text, 0...255, as wide as the advance or the ink (whichever is wider) and
    /// as tall as the face's ascender + descender or the ink (whichever is taller).
    public let mask: AlphaMask
    /// Row of `mask`, from the top, on which the glyphs stand.
    public let baseline: Int
    /// Distance from the left edge of `mask` to where the next text would start, in whole
    /// pixels (kerning included).
    public let advance: Int
}

/// A font face found through fontconfig and rendered with FreeType, opened once and reused.
///
/// Safe to share between threads: a lock inside lets one thread at a time render (FreeType
/// faces are not thread-safe), so concurrent callers wait for each other. Rendered glyphs are
/// cached per (Unicode scalar, pixel height) for the life of the face.
public final class FontFace: Sendable {
    /// The fontconfig family that was asked for (the face opened is fontconfig's best match).
    public let family: String
    /// Whether the bold weight was asked for.
    public let bold: Bool
    private let state: Mutex<FontState>

    /// Opens fontconfig's best match for `family` at regular or bold weight.
    ///
    /// fontconfig always substitutes something for an unknown family (usually DejaVu Sans on
    /// Debian), so this throws only when no scalable font is installed or FreeType cannot read it.
    public init(family: String = "DejaVu Sans", bold: Bool = false) throws(FontError) {
        var font: OpaquePointer?
        var message = MessageBuffer()
        let status = message.withPointer { text, capacity in
            rfi_font_open(family, bold ? 1 : 0, &font, text, capacity)
        }
        guard status == RFI_STATUS_OK, let font else {
            throw FontError(reason: "Cannot open the font \"\(family)\": \(message.text)")
        }
        self.family = family
        self.bold = bold
        state = Mutex(FontState(font: font))
    }

    deinit {
        state.withLock { rfi_font_close($0.font) }
    }

    /// Renders `text` on one line with an em size of `pixelHeight` pixels (FT_Set_Pixel_Sizes).
    ///
    /// One glyph per Unicode scalar, no complex shaping, no line breaks (a newline renders as
    /// whatever glyph the face has for it). Pairs are kerned when the face has a kerning table.
    /// A character the face lacks shows its replacement glyph (U+FFFD, else .notdef). Ink left
    /// of the pen's start (a negative left bearing on the first glyph) is clipped. A glyph
    /// FreeType fails to load (a damaged font) is left out. `pixelHeight` below 1 renders at 1.
    public func render(_ text: String, pixelHeight: Int) -> TextImage {
        state.withLock { $0.render(text, pixelHeight: max(1, pixelHeight)) }
    }
}

/// A glyph's rendered coverage and metrics, copied out of FreeType.
private struct CachedGlyph {
    let glyphIndex: UInt32
    let coverage: [UInt8]
    let width: Int
    let height: Int
    /// Bitmap's left edge right of the pen, pixels.
    let left: Int
    /// Bitmap's top edge above the baseline, pixels.
    let top: Int
    /// Pen advance, 1/64 pixel.
    let advance64ths: Int
}

private struct GlyphKey: Hashable {
    let scalar: UInt32
    let pixelHeight: Int
}

/// Everything the lock guards: the FreeType face (stateful: it has a current size and glyph
/// slot) and the caches filled from it.
private struct FontState: ~Copyable {
    let font: OpaquePointer
    let hasKerning: Bool
    var currentPixelHeight = 0
    var currentMetrics = rfi_font_metrics()
    var glyphs: [GlyphKey: CachedGlyph] = [:]
    var sizeIsUsable = false

    init(font: OpaquePointer) {
        self.font = font
        hasKerning = rfi_font_has_kerning(font) != 0
    }

    mutating func render(_ text: String, pixelHeight: Int) -> TextImage {
        selectSize(pixelHeight)
        var placed: [(glyph: CachedGlyph, penX: Int)] = []
        var pen64ths = 0
        var previousGlyphIndex: UInt32?
        for scalar in text.unicodeScalars {
            guard let glyph = glyph(scalar.value, pixelHeight: pixelHeight) else { continue }
            if hasKerning, let previousGlyphIndex {
                pen64ths += Int(rfi_font_kerning(font, previousGlyphIndex, glyph.glyphIndex))
            }
            placed.append((glyph, roundedPixels(pen64ths)))
            pen64ths += glyph.advance64ths
            previousGlyphIndex = glyph.glyphIndex
        }

        let advance = roundedPixels(pen64ths)
        // Ascender and descender are whole pixels once hinted; ceil in case a face's are not.
        var ascent = (Int(currentMetrics.ascender_64ths) + 63) >> 6
        var descent = (-Int(currentMetrics.descender_64ths) + 63) >> 6
        var width = advance
        for (glyph, penX) in placed where glyph.width > 0 && glyph.height > 0 {
            ascent = max(ascent, glyph.top)
            descent = max(descent, glyph.height - glyph.top)
            width = max(width, penX + glyph.left + glyph.width)
        }
        var mask = AlphaMask(width: max(width, 0), height: max(ascent + descent, 0))
        for (glyph, penX) in placed {
            let originX = penX + glyph.left, originY = ascent - glyph.top
            for y in 0..<glyph.height {
                let maskY = originY + y
                guard maskY >= 0 && maskY < mask.height else { continue }
                for x in 0..<glyph.width {
                    let maskX = originX + x
                    guard maskX >= 0 && maskX < mask.width else { continue }
                    // Neighbouring glyphs may overlap by a pixel; keep the stronger coverage.
                    mask[maskX, maskY] = max(mask[maskX, maskY], glyph.coverage[y * glyph.width + x])
                }
            }
        }
        return TextImage(mask: mask, baseline: ascent, advance: advance)
    }

    private func roundedPixels(_ value64ths: Int) -> Int { (value64ths + 32) >> 6 }

    private mutating func selectSize(_ pixelHeight: Int) {
        guard pixelHeight != currentPixelHeight else { return }
        var message = MessageBuffer()
        var metrics = rfi_font_metrics()
        let status = message.withPointer { text, capacity in
            rfi_font_set_pixel_height(font, Int32(clamping: pixelHeight), &metrics, text, capacity)
        }
        currentPixelHeight = pixelHeight
        currentMetrics = metrics
        sizeIsUsable = status == RFI_STATUS_OK
    }

    /// The cached glyph for `scalar`, rendering it at the current size on first use; nil when
    /// FreeType cannot render it.
    private mutating func glyph(_ scalar: UInt32, pixelHeight: Int) -> CachedGlyph? {
        let key = GlyphKey(scalar: scalar, pixelHeight: pixelHeight)
        if let cached = glyphs[key] { return cached }
        guard sizeIsUsable else { return nil }
        var rendered = rfi_glyph()
        var message = MessageBuffer()
        let status = message.withPointer { text, capacity in
            rfi_font_render_glyph(font, scalar, &rendered, text, capacity)
        }
        guard status == RFI_STATUS_OK else { return nil }
        let width = Int(rendered.width), height = Int(rendered.height)
        let coverage = rendered.coverage.map { Array(UnsafeBufferPointer(start: $0, count: width * height)) } ?? []
        let glyph = CachedGlyph(
            glyphIndex: rendered.glyph_index, coverage: coverage, width: width, height: height,
            left: Int(rendered.left), top: Int(rendered.top), advance64ths: Int(rendered.advance_64ths))
        glyphs[key] = glyph
        return glyph
    }
}
