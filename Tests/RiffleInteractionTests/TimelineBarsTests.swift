import RiffleGeometry
@testable import RiffleInteraction
import Testing

/// The timeline's bars: 34 and 44 points high at the window's top and bottom, four level segments
/// side by side and together centred in the bottom one (86 points each where they fit, else
/// the width less 6-point margins shared), each point on a segment naming its level.
@Suite struct TimelineBarsTests {
    @Test(arguments: [(1280.0, 800.0, 1.0, 86.0), (320.0, 200.0, 1.0, 77.0), (1280.0, 800.0, 2.0, 172.0)])
    func theSegmentsAreCentredSideBySide(width: Double, height: Double, scale: Double, segmentWidth: Double) {
        let bars = TimelineBars(viewport: Size(width: width, height: height), scale: scale)
        #expect(bars.top == Rect(x: 0, y: 0, width: width, height: 34 * scale))
        #expect(bars.bottom == Rect(x: 0, y: height - 44 * scale, width: width, height: 44 * scale))
        #expect(bars.insets == GridInsets(top: 34 * scale, bottom: 44 * scale))
        let segments = bars.segments
        #expect(segments.map(\.level) == [.years, .months, .days, .allPhotos])
        #expect(segments.allSatisfy { $0.rect.width == segmentWidth })
        for (left, right) in zip(segments, segments.dropFirst()) { #expect(left.rect.maxX == right.rect.minX) }
        let middle = (segments[0].rect.minX + segments[3].rect.maxX) / 2
        #expect(abs(middle - width / 2) <= 0.5)
        for segment in segments { #expect(bars.level(at: segment.rect.center) == segment.level) }
        #expect(bars.level(at: Point(x: width / 2, y: 10)) == nil)
        #expect(bars.contains(Point(x: 5, y: 5)) && bars.contains(Point(x: 5, y: height - 1)) && !bars.contains(Point(x: 5, y: height / 2)))
    }
}
