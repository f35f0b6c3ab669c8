import RiffleGeometry
import RiffleImageIO
@testable import RifflePipeline
import Testing

/// What a photo at rest needs to look sharp, worked by hand: an 8000×6000 photo in an 800×600
/// window fits at 0.1; its pyramid (512-px tiles, base level 2 at 2000×1500) is asked for tiles
/// only above fit.
@Suite struct ShownDetailTests {
    static let content = Size(width: 8000, height: 6000)
    static let viewport = Size(width: 800, height: 600)
    static let pyramid = TilePyramid(fullSize: PixelSize(width: 8000, height: 6000))

    static func tiles(_ columns: ClosedRange<Int>, _ rows: ClosedRange<Int>) -> [TileKey] {
        rows.flatMap { row in columns.map { TileKey(level: 0, column: $0, row: row) } }
    }

    /// Without a pyramid: the whole photo at scale / fit, never below fit.
    @Test func aPhotoWithoutPyramidIsDecodedWholeAtItsShownDetail() {
        let zoomed = ShownDetail(
            content: Self.content, pyramid: nil, viewport: Self.viewport, transform: ScaleTranslate(scale: 0.25), rotation: .none)
        #expect(zoomed == .whole(detail: 2.5))
        let below = ShownDetail(
            content: Self.content, pyramid: nil, viewport: Self.viewport, transform: ScaleTranslate(scale: 0.05), rotation: .none)
        #expect(below == .whole(detail: 1))
    }

    /// At fit the base level is the shown size: no tiles.
    @Test func atFitAPyramidWantsNoTiles() {
        let fit = ShownDetail(
            content: Self.content, pyramid: Self.pyramid, viewport: Self.viewport, transform: ScaleTranslate(scale: 0.1),
            rotation: .none)
        #expect(fit == .tiles([]))
    }

    /// At 1:1 panned to (1000, 500): the window shows x 1000...1800, y 500...1100 of the photo,
    /// level 0's columns ⌊1000/512⌋ = 1 to ⌈1800/512⌉ − 1 = 3 and rows 0 to ⌈1100/512⌉ − 1 = 2.
    @Test func zoomedInTheTilesCoverTheWindow() {
        let detail = ShownDetail(
            content: Self.content, pyramid: Self.pyramid, viewport: Self.viewport,
            transform: ScaleTranslate(scale: 1, offset: Point(x: -1000, y: -500)), rotation: .none)
        #expect(detail == .tiles(Self.tiles(1...3, 0...2)))
    }

    /// Turned a quarter clockwise, upright (x, y) shows at (6000 − y, x): the same window holds
    /// upright x 500...1100 and y 6000 − 1800 ... 6000 − 1000 = 4200...5000, columns 0 to 2 and
    /// rows ⌊4200/512⌋ = 8 to ⌈5000/512⌉ − 1 = 9.
    @Test func aTurnedPhotosTilesAreTheUprightPartInView() {
        let detail = ShownDetail(
            content: Self.content, pyramid: Self.pyramid, viewport: Self.viewport,
            transform: ScaleTranslate(scale: 1, offset: Point(x: -1000, y: -500)), rotation: Rotation(quarterTurns: 1))
        #expect(detail == .tiles(Self.tiles(0...2, 8...9)))
    }
}
