import RiffleGeometry

/// A whole number of quarter turns clockwise followed by a whole-pixel translation,
/// u ↦ (dx, dy) + R(u): it maps the pixel grid onto itself, so what is drawn through it is the
/// same pixels, each moved to another place.
///
/// R turns a quarter as `Rotation` does (y downwards, clockwise on screen): (x, y) ↦ (−y, x);
/// a half turn (−x, −y); three quarters (y, −x). Pixel (a, b), the square [a, a+1) × [b, b+1),
/// goes to the pixel whose square its image is: (dx − b − 1, dy + a) for a quarter turn.
struct PixelTurn: Hashable, Sendable {
    /// Quarter turns clockwise, 0...3.
    let quarters: Int
    /// The translation after the turn, whole pixels.
    let dx: Int
    let dy: Int

    /// `quarters` quarter turns (reduced to 0...3), then (dx, dy).
    init(quarters: Int, dx: Int, dy: Int) {
        self.quarters = ((quarters % 4) + 4) % 4
        self.dx = dx
        self.dy = dy
    }

    /// No turn, no translation.
    static let identity = PixelTurn(quarters: 0, dx: 0, dy: 0)

    var isIdentity: Bool { self == .identity }

    /// (x, y) turned by R, whole numbers.
    private func turned(_ x: Int, _ y: Int) -> (Int, Int) {
        switch quarters {
        case 1: (-y, x)
        case 2: (-x, -y)
        case 3: (y, -x)
        default: (x, y)
        }
    }

    /// The continuous point p moved: (dx, dy) + R(p) (exact: swaps and negations).
    func apply(_ p: Point) -> Point {
        let q: Point = switch quarters {
        case 1: Point(x: -p.y, y: p.x)
        case 2: Point(x: -p.x, y: -p.y)
        case 3: Point(x: p.y, y: -p.x)
        default: p
        }
        return Point(x: q.x + Double(dx), y: q.y + Double(dy))
    }

    /// The rectangle `r` moved (still axis-aligned), its size kept exactly (exchanged by a
    /// quarter turn); the identity returns `r` itself.
    func apply(_ r: Rect) -> Rect {
        let x = Double(dx), y = Double(dy)
        return switch quarters {
        case 1: Rect(x: x - r.maxY, y: y + r.minX, width: r.height, height: r.width)
        case 2: Rect(x: x - r.maxX, y: y - r.maxY, width: r.width, height: r.height)
        case 3: Rect(x: x + r.minY, y: y - r.maxX, width: r.height, height: r.width)
        default: isIdentity ? r : Rect(x: x + r.minX, y: y + r.minY, width: r.width, height: r.height)
        }
    }

    /// The pixels of `box` moved: the box whose pixels are their images.
    func apply(_ box: PixelRect) -> PixelRect {
        // A box's continuous extent [x0, x1) × [y0, y1) turns to another box's: its corners' images.
        let (ax, ay) = turned(box.x, box.y), (bx, by) = turned(box.maxX, box.maxY)
        return PixelRect(minX: min(ax, bx) + dx, minY: min(ay, by) + dy, maxX: max(ax, bx) + dx, maxY: max(ay, by) + dy)
    }

    /// The index step in a buffer of `rowPixels` pixels a row from the image of pixel (a, b) to
    /// that of (a + 1, b) (`alongRow`) and of (a, b + 1) (`alongColumn`).
    func steps(rowPixels: Int) -> (alongRow: Int, alongColumn: Int) {
        let (rx, ry) = turned(1, 0), (cx, cy) = turned(0, 1)
        return (ry * rowPixels + rx, cy * rowPixels + cx)
    }

    /// The pixel pixel (a, b) goes to: its square's image.
    func pixel(_ a: Int, _ b: Int) -> (x: Int, y: Int) {
        let box = apply(PixelRect(minX: a, minY: b, maxX: a + 1, maxY: b + 1))
        return (box.x, box.y)
    }

    /// The turn back: u = R⁻¹(x − (dx, dy)).
    var inverse: PixelTurn {
        let back = PixelTurn(quarters: -quarters, dx: 0, dy: 0)
        let (ox, oy) = back.turned(dx, dy)
        return PixelTurn(quarters: -quarters, dx: -ox, dy: -oy)
    }

    /// `inner` first, then this: u ↦ (dx, dy) + R(inner(u)).
    func concatenating(_ inner: PixelTurn) -> PixelTurn {
        let (ox, oy) = turned(inner.dx, inner.dy)
        return PixelTurn(quarters: quarters + inner.quarters, dx: dx + ox, dy: dy + oy)
    }
}
