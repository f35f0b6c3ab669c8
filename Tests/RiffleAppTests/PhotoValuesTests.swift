@testable import RiffleLibrary
import Testing

/// Values learned of photos in the order learned: a later value of a photo replaces an earlier
/// one, in what is kept of them and in what they give each photo.
@Suite struct PhotoValuesTests {
    static func photo(_ number: Int) -> Photo { Photo(id: PhotoID(number), path: "/p\(number)") }

    @Test func theLatestOfEachPhotoIsKeptAndOnlyItIsJudged() {
        var values: PhotoValues<Int> = [PhotoID(0): 10, PhotoID(1): 20]
        values.append(contentsOf: [PhotoID(2): 30])
        values.append(PhotoID(0), 11)
        #expect(values.count == 4)
        // Photo 0's latest (11) is refused: its earlier 10 must not come back in its place.
        let kept = values.latest { _, value in value != 11 }
        #expect(Array(kept).map { [$0.0.number, $0.1] } == [[1, 20], [2, 30]])
        let all = values.latest { _, _ in true }
        #expect(Array(all).map { [$0.0.number, $0.1] } == [[1, 20], [2, 30], [0, 11]], "in the order last learned")
    }

    @Test func eachPhotoGetsItsLatestValueOrTheDefault() {
        var values = PhotoValues<Double>()
        values.append(PhotoID(2), 1.5)
        values.append(PhotoID(0), 0.75)
        values.append(PhotoID(2), 2)
        #expect(values.latest(of: [0, 1, 2, 7].map(Self.photo), otherwise: 1) == [0.75, 1, 2, 1])
        #expect(PhotoValues<Double>().latest(of: [Self.photo(0)], otherwise: 1) == [1])
    }
}
