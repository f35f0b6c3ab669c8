@testable import RiffleApp
@testable import RiffleLibrary
@testable import RifflePipeline
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import Testing

/// `ArrivingPhoto`: the part of a photo still arriving that is shown, and its badge.
@Suite struct ArrivingPhotoTests {
    static func photo(_ damage: ImageDamage?) -> DecodedPhoto {
        DecodedPhoto(
            pixels: PixelBuffer(width: 10, height: 5), fullSize: PixelSize(width: 200, height: 100), isOpaque: true, smaller: [],
            isPreview: false, pyramid: nil, damage: damage)
    }

    @Test(arguments: [
        (PictureSide.bottom, "bottom", Rect(x: 0, y: 0, width: 200, height: 75)),
        (.top, "top", Rect(x: 0, y: 25, width: 200, height: 75)),
        (.right, "right", Rect(x: 0, y: 0, width: 150, height: 100)),
        (.left, "left", Rect(x: 50, y: 0, width: 150, height: 100)),
    ])
    func theMissingBandIsLeftOut(side: PictureSide, name: String, arrived: Rect) {
        let photo = Self.photo(.truncated(missing: ImageDamage.MissingPart(share: 0.25, side: side)))
        #expect(photo.arrivedPart == arrived)
        #expect(photo.arrivingText == "Still arriving: the \(name) 25% is yet to come")
    }

    @Test func aWholeOrSpreadLossShowsAllOfIt() {
        let whole = Rect(x: 0, y: 0, width: 200, height: 100)
        #expect(Self.photo(nil).arrivedPart == whole)
        #expect(Self.photo(nil).arrivingText == nil)
        #expect(Self.photo(.truncated(missing: nil)).arrivedPart == whole)
        #expect(Self.photo(.truncated(missing: nil)).arrivingText == DecodedPhoto.stillArriving)
        #expect(Self.photo(.damagedData).arrivingText == DecodedPhoto.stillArriving)
    }
}
