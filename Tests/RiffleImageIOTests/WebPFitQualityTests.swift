import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing

/// A WebP decoded for fit (libwebp's rescaler, as it decodes, to twice the size shown, then
/// Lanczos-3: `WebPCodec.scaledDecodeSize`) against Lanczos-3 of its whole full-resolution
/// decode, held to the tolerance `FitQualityTests` holds a JPEG's fit to. Measured on friends.jpg
/// made a WebP by cwebp -q 90: 2.8 % (320×200) and 1.2 % (1280×800) short of the reference's
/// mean gradient; libwebp's rescaler alone straight to the size shown (area averaging) is 7.5 %
/// and 3.9 % short, which is why it only goes to twice the size.
@Suite struct WebPFitQualityTests {
    @Test(arguments: [PixelSize(width: 1280, height: 800), PixelSize(width: 320, height: 200)])
    func fitIsAsSharpAsLanczosOfTheFullPicture(window: PixelSize) throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let photo = FitQualityTests.photos.appendingPathComponent("2 friends.jpg").path
        let png = folder.path + "/friends.png", path = folder.path + "/friends.webp"
        try FormatTools.writePNG(try ImageDecoder.decodeFile(atPath: photo).pixels, to: png)
        try FormatTools.run("cwebp", ["-quiet", "-q", "90", png, "-o", path])
        let full = try ImageDecoder.decodeFile(atPath: path).pixels
        let shown = FitQualityTests.fitted(full.size, in: window)
        let reference = FitQualityTests.meanGradient(ReferenceLanczos.resample(full, toWidth: shown.width, height: shown.height))
        let fit = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in shown })
        #expect(fit.pixels.size == shown)
        let sharpness = FitQualityTests.meanGradient(fit.pixels)
        #expect(abs(sharpness / reference - 1) <= FitQualityTests.sharpnessTolerance, "\(window): \(sharpness) vs \(reference)")
    }
}
