import Foundation
@testable import RiffleApp
import RiffleDisplay
import RiffleGeometry
import RiffleImageIO
import RiffleInteraction
import RiffleRaster
import RiffleTestSupport
import Testing

/// The info panel tells what the file says, all of it and nothing more: a phone photo written
/// here with ExifTool (its tags as an iPhone 6 writes them, at a 100 × 68 size), a PNG with no
/// EXIF, an animated GIF; and the panel fits or scrolls in windows down to 320 × 240.
@Suite struct InfoPanelTests {
    /// The phone photo: "IMG_2040.jpg" in a folder "Helsinki trip" of `scratch`.
    static func phonePhoto(in scratch: ScratchFolder) throws -> String {
        let path = try scratch.makeFolder("Helsinki trip") + "/IMG_2040.jpg"
        var picture = PixelBuffer(width: 100, height: 68)
        for y in 0..<68 { for x in 0..<100 { picture[x, y] = Color(red: UInt8(x * 2), green: UInt8(y * 3), blue: 160).packed } }
        try Data(try JPEGEncoder.encode(picture, quality: 90)).write(to: URL(fileURLWithPath: path))
        try ExternalTool.run("exiftool", [
            "-q", "-overwrite_original", "-Make=Apple", "-Model=iPhone 6", "-LensModel=iPhone 6 back camera 4.15mm f/2.2",
            "-FocalLength=4.15", "-FNumber=2.2", "-ExposureTime=1/120", "-ISO=32", "-DateTimeOriginal=2015:06:20 21:14:03",
            "-GPSLatitude=60 8 48", "-GPSLatitudeRef=N", "-GPSLongitude=24 54 24", "-GPSLongitudeRef=E", path,
        ])
        return path
    }

    @Test func aPhonePhotosDetailsReadAsTheCameraWroteThem() throws {
        let scratch = try ScratchFolder()
        let info = PhotoInfo(path: try Self.phonePhoto(in: scratch))
        #expect(info.value("Name") == "IMG_2040.jpg")
        #expect(info.value("Folder") == "Helsinki trip")
        #expect(info.value("Dimensions") == "100 × 68")
        #expect(info.value("Megapixels") == "0.0068 MP")
        #expect(info.value("Focal length") == "4.15 mm")
        #expect(info.value("Aperture") == "ƒ/2.2")
        #expect(info.value("Exposure") == "1/120 s")
        #expect(info.value("Lens") == "iPhone 6 back camera 4.15mm f/2.2")
        #expect(info.value("Camera") == "Apple iPhone 6")
        #expect(info.value("Taken") == "20 Jun 2015, 21:14")
        #expect(info.value("Modified") == nil, "a photo with a date taken says when, not when its file changed")
        #expect(info.value("Location") == "60.1467° N, 24.9067° E")
        #expect(info.value("Animation") == nil)
    }

    /// A picture without EXIF: its file's time is "Modified", never "Taken", and it has no rows
    /// for what it does not say.
    @Test func aPictureWithoutExifListsOnlyWhatItKnows() throws {
        let info = PhotoInfo(path: TestPaths.photos + "/1 coffee.png")
        #expect(info.rows.map(\.label) == ["Name", "Folder", "Dimensions", "Megapixels", "File size", "Format", "Modified"])
        #expect(info.value("Name") == "1 coffee.png")
        #expect(info.value("Folder") == "Photos")
        #expect(info.value("Megapixels") == "0.24 MP")
        #expect(info.rows.allSatisfy { !$0.value.isEmpty && $0.value != "—" })
    }

    /// An animated GIF's frames and the seconds one loop plays, as ImageMagick reads its delays
    /// (centiseconds, a delay of 10 ms or less shown for 100 ms as browsers do).
    @Test func anAnimatedGIFsFramesAndDuration() throws {
        let path = TestPaths.testsFolder.appendingPathComponent("Animations/1 bounce.gif").path
        let delays = String(decoding: try ExternalTool.run("identify", ["-format", "%T ", path]), as: UTF8.self)
            .split(separator: " ").compactMap { Int($0) }
        let seconds = delays.map { $0 <= 1 ? 0.1 : Double($0) / 100 }.reduce(0, +)
        let info = PhotoInfo(path: path)
        #expect(delays.count > 1)
        #expect(info.value("Animation") == "\(delays.count) frames, " + PhotoInfo.decimal(seconds, places: 2) + " s")
    }

    @Test func megapixelsKeepTheirPrecision() {
        #expect(PhotoInfo.megapixels(width: 100, height: 68) == "0.0068 MP")
        #expect(PhotoInfo.megapixels(width: 600, height: 400) == "0.24 MP")
        #expect(PhotoInfo.megapixels(width: 4032, height: 3024) == "12.2 MP")
        #expect(PhotoInfo.megapixels(width: 1, height: 1) == "0.000001 MP")
    }

    /// A long value wraps at spaces onto lines no wider than the column; a word wider than the
    /// column is cut between characters; past the last line allowed, it ends in "…".
    @Test func longValuesWrap() {
        let measure: (String) -> Int = { $0.count * 7 }
        let lens = ChromeView.wrapped("iPhone 6 back camera 4.15mm f/2.2", width: 140, maxLines: 3, measure: measure)
        #expect(lens == ["iPhone 6 back camera", "4.15mm f/2.2"])
        #expect(lens.allSatisfy { measure($0) <= 140 })
        #expect(ChromeView.wrapped("short", width: 140, maxLines: 3, measure: measure) == ["short"])
        let long = ChromeView.wrapped(String(repeating: "x", count: 50), width: 70, maxLines: 2, measure: measure)
        #expect(long == [String(repeating: "x", count: 10), String(repeating: "x", count: 9) + "…"])
    }

    /// The info sheet of the phone photo in a small window: it stays between the bar and the
    /// window's bottom, and its rows scroll under the wheel until the last (Location) shows.
    @Test(arguments: [
        (400, 300, GoldenImage.named(golden: "info-panel/400x300-top"), GoldenImage.named(golden: "info-panel/400x300-end")),
        (320, 240, GoldenImage.named(golden: "info-panel/320x240-top"), GoldenImage.named(golden: "info-panel/320x240-end")),
    ])
    func theInfoSheetFitsAndScrolls(width: Int, height: Int, topGolden: String, endGolden: String) throws {
        let scratch = try ScratchFolder()
        var harness = ViewerHarness(paths: [try Self.phonePhoto(in: scratch)], size: PixelSize(width: width, height: height))
        harness.press(.character("i"))
        harness.run(0.5)
        var state = harness.viewer.renderState.chrome
        let layout = state.layout
        #expect(state.panel == .info)
        #expect(layout.infoPanel.minY >= layout.bar.maxY, "the sheet reaches over the bar")
        #expect(layout.infoPanel.maxY <= Double(height), "the sheet runs off the bottom")
        #expect(layout.infoScrollLimit > 0, "the rows fit without scrolling: the test shows nothing")
        // In the narrower window the lens's name wraps: more lines than rows.
        let rows = PhotoInfo(path: scratch.path("Helsinki trip/IMG_2040.jpg")).rows.count
        #expect(width == 320 ? layout.infoRows > rows : layout.infoRows == rows, "\(layout.infoRows) lines for \(rows) rows")
        try GoldenImage.check(try harness.settledCapture(), golden: topGolden)
        let onPanel = layout.infoPanel.center
        for _ in 0..<20 {
            harness.viewer.handle(.scroll(delta: Point(x: 0, y: -1), position: onPanel, modifiers: [], precise: false, time: harness.now), now: harness.now)
            harness.run(0.05)
        }
        state = harness.viewer.renderState.chrome
        #expect(state.panelScroll == state.layout.infoScrollLimit, "the wheel does not reach the last row")
        #expect(harness.viewer.current == 0, "the wheel over the panel turned the page")
        try GoldenImage.check(try harness.settledCapture(), golden: endGolden)
        // Back up to the top.
        for _ in 0..<20 {
            harness.viewer.handle(.scroll(delta: Point(x: 0, y: 1), position: onPanel, modifiers: [], precise: false, time: harness.now), now: harness.now)
        }
        #expect(harness.viewer.renderState.chrome.panelScroll == 0)
    }
}
