import Foundation
import RiffleGeometry
@testable import RiffleRaster
import RiffleTestSupport
import Testing

/// `buffer` turned `quarters` quarter turns clockwise, written independently of `PixelTurn`: a
/// quarter turn of a w × h buffer is h × w, its pixel (x, y) being the source's (y, h − 1 − x).
func turned(_ buffer: PixelBuffer, quarters: Int) -> PixelBuffer {
    var out = buffer
    for _ in 0..<(quarters % 4) {
        let next = PixelBuffer(width: out.height, height: out.width)
        for y in 0..<next.height {
            for x in 0..<next.width { next[x, y] = out[y, out.height - 1 - x] }
        }
        out = next
    }
    return out
}

/// Where the top-left corner of a w × h window lands once the window is turned `quarters`
/// quarter turns clockwise and put back at the origin: a layer there turned by them shows the
/// turned window.
func turnedCorner(width w: Int, height h: Int, quarters: Int) -> Point {
    switch quarters % 4 {
    case 1: Point(x: Double(h), y: 0)
    case 2: Point(x: Double(w), y: Double(h))
    case 3: Point(x: 0, y: Double(w))
    default: .zero
    }
}

/// A sequential runner with several bands, so the banded fast path is exercised.
let sequentialBands: Compositor.ParallelRunner = { n, job in for k in 0..<n { job(k) } }

/// A layer tree that stresses one way of drawing: the image's scale picks the fast path (copy,
/// doubling, separable or direct bilinear, nearest from 3×), and a clip, a fill, translucency
/// and partial opacity come along.
struct TurnCase: CustomTestStringConvertible, Sendable {
    let name: String
    let scale: Double
    let offset: Point
    let opaque: Bool
    let opacity: Double
    var testDescription: String { name }
}

@Suite struct PixelTurnTests {
    @Test(arguments: 0..<4)
    func pixelsGoWhereTheirSquaresTurn(quarters: Int) {
        let turn = PixelTurn(quarters: quarters, dx: 7, dy: -3)
        for (a, b) in [(0, 0), (5, 2), (-4, 9)] {
            let square = turn.apply(Rect(x: Double(a), y: Double(b), width: 1, height: 1))
            let pixel = turn.pixel(a, b)
            #expect(Double(pixel.x) == square.minX && Double(pixel.y) == square.minY, "\(quarters) quarters, pixel (\(a), \(b))")
            let back = turn.inverse.pixel(pixel.x, pixel.y)
            #expect(back.x == a && back.y == b)
        }
        let box = PixelRect(minX: -2, minY: 1, maxX: 5, maxY: 4)
        #expect(turn.inverse.apply(turn.apply(box)) == box)
        let moved = turn.apply(box)
        #expect(moved.area == 21)
    }

    @Test func turnsCompose() {
        let a = PixelTurn(quarters: 1, dx: 4, dy: 0), b = PixelTurn(quarters: 3, dx: -2, dy: 5)
        let both = a.concatenating(b)
        for (x, y) in [(0, 0), (3, -1), (10, 7)] {
            let inner = b.pixel(x, y)
            let outer = a.pixel(inner.x, inner.y)
            #expect(both.pixel(x, y) == outer)
        }
        #expect(a.concatenating(a.inverse).isIdentity)
    }
}

@Suite struct QuarterTurnTests {
    static let cases = [
        TurnCase(name: "1:1, a plain copy", scale: 1, offset: Point(x: 5, y: -3), opaque: true, opacity: 1),
        TurnCase(name: "2x, exact doubling", scale: 2, offset: Point(x: -7, y: 4), opaque: true, opacity: 1),
        TurnCase(name: "fit-like downscale, fractional offset", scale: 0.37, offset: Point(x: 2.5, y: 1.25), opaque: true, opacity: 1),
        TurnCase(name: "separable upscale", scale: 1.75, offset: Point(x: -3.25, y: 0.5), opaque: true, opacity: 1),
        TurnCase(name: "nearest from 3x", scale: 3.5, offset: Point(x: -20, y: -12), opaque: true, opacity: 1),
        TurnCase(name: "translucent", scale: 1.3, offset: Point(x: 1.5, y: 2), opaque: false, opacity: 1),
        TurnCase(name: "faded", scale: 1, offset: Point(x: 3, y: 2), opaque: true, opacity: 0.6),
        TurnCase(name: "translucent and faded", scale: 0.8, offset: Point(x: -1.5, y: 3.75), opaque: false, opacity: 0.45),
    ]

    /// The tree drawn unturned: a background fill, a clipped layer holding the image, a fill
    /// over part of it.
    static func tree(_ c: TurnCase, photo: PixelBuffer) -> Layer {
        let image = Layer(
            transform: ScaleTranslate(scale: c.scale, offset: c.offset), opacity: c.opacity,
            content: .image(ImageContent(pixels: photo, isOpaque: c.opaque)))
        let mark = Layer(content: .fill(Rect(x: 40, y: 6, width: 9, height: 13), Color(red: 200, green: 30, blue: 90)))
        return Layer(clip: Rect(x: 2, y: 3, width: 53, height: 36), sublayers: [image, mark])
    }

    /// At a whole quarter turn the frame is, pixel for pixel, the quarter turn of the same layers
    /// drawn unturned, on either path, in one band or several.
    @Test(arguments: cases, [RasterPath.fast, .reference])
    func aQuarterTurnIsTheTurnedUnturnedDraw(c: TurnCase, path: RasterPath) {
        var rng = SeededGenerator(seed: 41)
        let photo = randomImage(29, 21, opaque: c.opaque, using: &rng)
        let background = randomImage(64, 48, opaque: true, using: &rng)
        for parallel in [nil, sequentialBands] {
            let compositor = Compositor(path: path, parallel: parallel, bands: parallel == nil ? 1 : 3)
            let unturned = background.copy()
            compositor.render(Self.tree(c, photo: photo), into: unturned)
            for quarters in 1...3 {
                let target = turned(background, quarters: quarters)
                let layer = Layer(
                    transform: ScaleTranslate(offset: turnedCorner(width: 64, height: 48, quarters: quarters)),
                    rotation: Rotation(quarterTurns: Double(quarters)), sublayers: [Self.tree(c, photo: photo)])
                compositor.render(layer, into: target)
                let want = turned(unturned, quarters: quarters)
                #expect(maxChannelDifference(target, want) == 0, "\(c.name), \(quarters) quarters, \(path), banded \(parallel != nil)")
            }
        }
    }

    /// Turns compose: three quarter turns and another one are a whole turn, and −1 is 3.
    @Test func turnsAddUp() {
        var rng = SeededGenerator(seed: 42)
        let photo = randomImage(20, 14, opaque: true, using: &rng)
        let image = Layer(transform: ScaleTranslate(scale: 1.5, offset: Point(x: 3, y: 2)), content: .image(ImageContent(pixels: photo, isOpaque: true)))
        let plain = PixelBuffer(width: 40, height: 30)
        Compositor().render(image, into: plain)
        let whole = PixelBuffer(width: 40, height: 30)
        let inner = Layer(transform: ScaleTranslate(offset: Point(x: 30, y: 0)), rotation: Rotation(quarterTurns: 1), sublayers: [image])
        Compositor().render(Layer(transform: ScaleTranslate(offset: Point(x: 0, y: 30)), rotation: Rotation(quarterTurns: 3), sublayers: [inner]), into: whole)
        #expect(maxChannelDifference(plain, whole) == 0)
        let back = PixelBuffer(width: 30, height: 40)
        Compositor().render(Layer(transform: ScaleTranslate(offset: Point(x: 0, y: 40)), rotation: Rotation(quarterTurns: -1), sublayers: [image]), into: back)
        #expect(maxChannelDifference(back, turned(plain, quarters: 3)) == 0)
    }

    /// A turned layer whose origin falls between pixels turns about the nearest pixel corner and
    /// keeps the rest of its offset: the same as moving the unturned image by that rest.
    @Test func aPivotBetweenPixelsKeepsTheRestOfItsOffset() {
        var rng = SeededGenerator(seed: 43)
        let photo = randomImage(12, 9, opaque: true, using: &rng)
        let image = Layer(content: .image(ImageContent(pixels: photo, isOpaque: true)))
        let target = PixelBuffer(width: 30, height: 30), want = PixelBuffer(width: 30, height: 30)
        // Turned a quarter about (20.25, 3): the grid turns about (20, 3), the image's corner
        // sits a quarter pixel right of it, which turned back is a quarter pixel up.
        Compositor().render(Layer(transform: ScaleTranslate(offset: Point(x: 20.25, y: 3)), rotation: Rotation(quarterTurns: 1), sublayers: [image]), into: target)
        Compositor().render(Layer(transform: ScaleTranslate(offset: Point(x: 20, y: 3)), rotation: Rotation(quarterTurns: 1), sublayers: [
            Layer(transform: ScaleTranslate(offset: Point(x: 0, y: -0.25)), sublayers: [image]),
        ]), into: want)
        #expect(maxChannelDifference(target, want) == 0)
    }
}

/// The bilinear formula for a turned draw, written independently of the sampler code: the value
/// of channel `shift` at destination pixel (i, j), or nil when its centre maps outside the source.
func expectedTurned(_ src: PixelBuffer, scale: Double, radians: Double, offset: Point, _ i: Int, _ j: Int, shift: UInt32) -> Double? {
    let dx = Double(i) + 0.5 - offset.x, dy = Double(j) + 0.5 - offset.y
    // Turning back by −θ (clockwise on screen is positive θ with y downwards).
    let ux = (dx * cos(radians) + dy * sin(radians)) / scale
    let uy = (-dx * sin(radians) + dy * cos(radians)) / scale
    guard ux >= 0, uy >= 0, ux < Double(src.width), uy < Double(src.height) else { return nil }
    let sx = ux - 0.5, sy = uy - 0.5
    let x0 = Int(sx.rounded(.down)), y0 = Int(sy.rounded(.down))
    let fx = sx - Double(x0), fy = sy - Double(y0)
    func v(_ x: Int, _ y: Int) -> Double {
        Double((src[min(max(x, 0), src.width - 1), min(max(y, 0), src.height - 1)] >> shift) & 0xFF)
    }
    return (v(x0, y0) * (1 - fx) + v(x0 + 1, y0) * fx) * (1 - fy) + (v(x0, y0 + 1) * (1 - fx) + v(x0 + 1, y0 + 1) * fx) * fy
}

@Suite struct FreeTurnTests {
    @Test(arguments: [0.13, 0.5, 1.37, 2.9, -0.4])
    func referenceMatchesTheFormula(quarterTurns: Double) {
        var rng = SeededGenerator(seed: 51)
        let src = randomImage(17, 11, opaque: true, using: &rng)
        // The corner at the middle of a window larger than twice the photo: it shows whole
        // whichever way it turns.
        let dst = PixelBuffer(width: 80, height: 80)
        let offset = Point(x: 40.3, y: 39.6), scale = 1.6
        let mapping = TurnedMapping(scaleX: scale, scaleY: scale, rotation: Rotation(quarterTurns: quarterTurns), offset: offset)
        ReferenceBilinear.drawTurned(src, mapping: mapping, opacity: 1, clip: PixelRect(size: dst.size), into: dst)
        var drawn = 0
        for j in 0..<dst.height {
            for i in 0..<dst.width {
                guard let blue = expectedTurned(src, scale: scale, radians: quarterTurns * .pi / 2, offset: offset, i, j, shift: 0) else {
                    #expect(dst[i, j] == 0, "pixel (\(i), \(j)) outside the turned frame was drawn")
                    continue
                }
                drawn += 1
                for s: UInt32 in [0, 8, 16] {
                    let want = s == 0 ? blue : expectedTurned(src, scale: scale, radians: quarterTurns * .pi / 2, offset: offset, i, j, shift: s) ?? 0
                    let got = Double((dst[i, j] >> s) & 0xFF)
                    #expect(abs(got - want) <= 0.5 + 1e-9, "(\(i), \(j)) channel \(s): \(got) vs \(want)")
                }
            }
        }
        // The turned frame covers its area, 17·11·1.6², give or take its edge pixels.
        #expect(abs(Double(drawn) - 17 * 11 * scale * scale) < 2 * (17 + 11) * scale)
    }

    /// Random turns, scales per axis, offsets, opacities and clips: the fast path within its
    /// tolerance of the reference (a pixel drawn by one path only would be off by far more).
    @Test(arguments: 0..<48)
    func fastPathMatchesReference(seed: Int) {
        var rng = SeededGenerator(seed: UInt64(2000 + seed))
        let opaque = seed % 2 == 0
        let src = randomImage(Int.random(in: 1...30, using: &rng), Int.random(in: 1...25, using: &rng), opaque: opaque, using: &rng)
        let mapping = TurnedMapping(
            scaleX: Double.random(in: 0.5...4, using: &rng), scaleY: Double.random(in: 0.5...4, using: &rng),
            rotation: Rotation(quarterTurns: Double.random(in: -4...4, using: &rng)),
            offset: Point(x: Double.random(in: -10...70, using: &rng), y: Double.random(in: -10...55, using: &rng)))
        let filter: SamplingFilter = seed % 5 == 0 ? .nearest : .bilinear
        let opacity = seed % 3 == 0 ? Double.random(in: 0.1...1, using: &rng) : 1
        let x0 = Int.random(in: 0...20, using: &rng), y0 = Int.random(in: 0...15, using: &rng)
        let clip = PixelRect(minX: x0, minY: y0, maxX: Int.random(in: x0...64, using: &rng), maxY: Int.random(in: y0...48, using: &rng))
        let background = randomImage(64, 48, opaque: true, using: &rng)
        let reference = background.copy(), fast = background.copy()
        ReferenceBilinear.drawTurned(src, mapping: mapping, filter: filter, opacity: opacity, clip: clip, into: reference)
        // In two bands cut anywhere: rows are independent.
        let cut = Int.random(in: 0...48, using: &rng)
        for band in [0..<cut, cut..<48] {
            TurnedBilinear.draw(src, mapping: mapping, filter: filter, opaque: opaque, opacity: opacity, clip: clip, rows: band, into: fast)
        }
        #expect(maxChannelDifference(reference, fast) <= fastPathTolerance, "seed \(2000 + seed), \(mapping), opacity \(opacity)")
    }

    /// Rows far longer than the random cases': the fast path steps its source point along a
    /// row in fixed point and still draws the reference's pixels, within its tolerance, to the
    /// far end of each row (a drift would grow with the length).
    @Test(arguments: [0.37, 1.62, -0.81])
    func longRowsDoNotDrift(quarterTurns: Double) {
        var rng = SeededGenerator(seed: 54)
        let src = randomImage(1200, 300, opaque: true, using: &rng)
        let mapping = TurnedMapping(
            scaleX: 1.31, scaleY: 1.29, rotation: Rotation(quarterTurns: quarterTurns), offset: Point(x: 800.4, y: 449.7))
        let reference = PixelBuffer(width: 1600, height: 900), fast = PixelBuffer(width: 1600, height: 900)
        let clip = PixelRect(size: reference.size)
        ReferenceBilinear.drawTurned(src, mapping: mapping, opacity: 1, clip: clip, into: reference)
        TurnedBilinear.draw(src, mapping: mapping, opaque: true, opacity: 1, clip: clip, rows: 0..<900, into: fast)
        #expect(maxChannelDifference(reference, fast) <= fastPathTolerance, "\(quarterTurns) quarter turns")
    }

    /// A turn by exactly a quarter drawn by the free sampler lands within a step of the exact
    /// quarter turn (the free sampler's sines and cosines are exact there too).
    @Test func theFreeSamplerAtAQuarterTurnIsTheExactTurn() {
        var rng = SeededGenerator(seed: 52)
        let src = randomImage(21, 13, opaque: true, using: &rng)
        let exact = PixelBuffer(width: 40, height: 50), free = PixelBuffer(width: 40, height: 50)
        let image = Layer(transform: ScaleTranslate(scale: 1.5), content: .image(ImageContent(pixels: src, isOpaque: true)))
        Compositor(path: .reference).render(Layer(transform: ScaleTranslate(offset: Point(x: 30, y: 4)), rotation: Rotation(quarterTurns: 1), sublayers: [image]), into: exact)
        ReferenceBilinear.drawTurned(
            src, mapping: TurnedMapping(scaleX: 1.5, scaleY: 1.5, rotation: Rotation(quarterTurns: 1), offset: Point(x: 30, y: 4)), opacity: 1,
            clip: PixelRect(size: free.size), into: free)
        #expect(maxChannelDifference(exact, free) <= 1)
    }

    /// Through the compositor, a photo turning: its layer's turn, scale and offset, the banded
    /// fast path against the reference; a clip below the turn clips to its turned box; a fill
    /// below it is not drawn.
    @Test(arguments: [0.25, 0.5, 1.8, 3.3])
    func aTurningPhotoThroughTheCompositor(quarterTurns: Double) {
        var rng = SeededGenerator(seed: 53)
        let photo = randomImage(80, 60, opaque: true, using: &rng)
        let content = ImageContent(pixels: photo, size: Size(width: 80, height: 60), isOpaque: true, smaller: [BoxDownsample.halved(photo)])
        let tree = Layer(content: .fill(Rect(x: 0, y: 0, width: 96, height: 64), .black), sublayers: [
            Layer(transform: ScaleTranslate(scale: 0.7, offset: Point(x: 48, y: 32)), rotation: Rotation(quarterTurns: quarterTurns), sublayers: [
                Layer(transform: ScaleTranslate(offset: Point(x: -40, y: -30)), content: .image(content), sublayers: [
                    Layer(content: .fill(Rect(x: 0, y: 0, width: 10, height: 10), .white)),
                ]),
            ]),
        ])
        let reference = PixelBuffer(width: 96, height: 64), fast = PixelBuffer(width: 96, height: 64)
        Compositor(path: .reference).render(tree, into: reference)
        Compositor(path: .fast, parallel: sequentialBands, bands: 3).render(tree, into: fast)
        #expect(maxChannelDifference(reference, fast) <= fastPathTolerance)
        // The photo's centre lands at (48, 32) whatever the turn: the frame is drawn there.
        #expect(reference[48, 32] != Color.black.packed)
        // No pure white: the fill under the turn is not drawn (random pixels are never 0xFFFFFFFF
        // in more than a few places; the 10×10 fill would be 49 of them).
        var white = 0
        for y in 0..<64 { for x in 0..<96 where reference[x, y] == Color.white.packed { white += 1 } }
        #expect(white < 5)
    }
}
