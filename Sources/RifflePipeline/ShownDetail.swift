import RiffleGeometry
import RiffleImageIO

/// What the photo in focus needs in order to look sharp where it is shown, once its zoom or pan
/// has come to rest: its whole picture decoded at a detail relative to fit, or, for a huge photo
/// held as a `TilePyramid`, the tiles of the part of it in the window.
package enum ShownDetail: Equatable {
    /// The whole photo at `detail` × its fit size (1 at fit; the store's decodes are made for the
    /// unturned photo at fit, so the detail is relative to that whatever the turn).
    case whole(detail: Double)
    /// The pyramid's tiles covering the window: none at fit (the base level's pixels are then
    /// exactly the shown size, and no tile is sharper) or where the base level is the one the
    /// scale asks for.
    case tiles([TileKey])

    /// For a photo of upright full size `content`, tiled by `pyramid` when huge, placed in a
    /// window of `viewport` by `transform` (picture point p to s·p + t, in the turned picture's
    /// frame) turned by `rotation`.
    ///
    /// The part in view is the window's corners taken back through the transform and the turn,
    /// into the photo's own upright pixels: p = R⁻¹((q − t) / s).
    package init(content: Size, pyramid: TilePyramid?, viewport: Size, transform: ScaleTranslate, rotation: Rotation) {
        let fit = AspectFit.scale(content: content, viewport: viewport)
        guard let pyramid else {
            self = .whole(detail: max(1, transform.scale / fit))
            return
        }
        guard transform.scale > fit * (1 + 1e-9) else {
            self = .tiles([])
            return
        }
        let corners = [Point.zero, Point(x: viewport.width, y: viewport.height)].map {
            rotation.unturn(transform.invert($0), inPictureOf: content)
        }
        let visible = Rect(
            x: min(corners[0].x, corners[1].x), y: min(corners[0].y, corners[1].y),
            width: abs(corners[1].x - corners[0].x), height: abs(corners[1].y - corners[0].y))
        let keys = pyramid.tiles(covering: visible, atScale: transform.scale)
        self = .tiles(keys.first?.level == pyramid.baseLevel ? [] : keys)
    }
}
