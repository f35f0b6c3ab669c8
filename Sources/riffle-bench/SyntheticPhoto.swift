import Foundation
import RiffleImageIO
import RiffleRaster

/// A camera-like test picture: smooth colour gradients (sky, ground), fine texture and sharp
/// edges, deterministic for a given size, so JPEG encoding and scaling see photographic work.
enum SyntheticPhoto {
    /// `variant` shifts the colours and the pattern, so generated photos differ from each other.
    static func make(width: Int, height: Int, variant: Int = 0) -> PixelBuffer {
        let b = PixelBuffer(width: width, height: height)
        var seed: UInt32 = 0x1234_5678 &+ UInt32(truncatingIfNeeded: variant) &* 0x9E37_79B9
        let tint = Double(variant % 7) * 12
        for y in 0..<height {
            let row = b.row(y)
            let v = Double(y) / Double(height)
            for x in 0..<width {
                let u = Double(x) / Double(width)
                // xorshift noise for sensor-like grain
                seed ^= seed << 13
                seed ^= seed >> 17
                seed ^= seed << 5
                let grain = Double(seed & 15) - 7.5
                let stripes = ((x / (37 + variant) + y / 53) % 2 == 0) ? 18.0 : 0
                let r = 40 + tint + 160 * u + grain + stripes
                let g = 60 + 150 * (1 - v) + grain
                let bl = 90 + 120 * v * (1 - u) + grain - stripes
                func c(_ d: Double) -> UInt32 { UInt32(max(0, min(255, d))) }
                row[x] = 0xFF00_0000 | c(r) << 16 | c(g) << 8 | c(bl)
            }
        }
        return b
    }

    /// `picture` as a camera writes it: a baseline JPEG at `quality` whose EXIF block holds a
    /// thumbnail 160 pixels on its long side (quality 75, as cameras make them).
    static func cameraFile(_ picture: PixelBuffer, quality: Int, toPath path: String) throws {
        let long = 160
        let scale = Double(long) / Double(max(picture.width, picture.height))
        let small = AreaResample.shrink(
            picture, toWidth: max(1, Int((Double(picture.width) * scale).rounded())),
            height: max(1, Int((Double(picture.height) * scale).rounded())))
        let file = try ExifThumbnail.inserting(
            thumbnail: JPEGEncoder.encode(small, quality: 75), into: JPEGEncoder.encode(picture, quality: quality))
        try Data(file).write(to: URL(fileURLWithPath: path))
    }
}
