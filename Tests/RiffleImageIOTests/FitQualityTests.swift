import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport
import Testing

/// A photo decoded for fit (`ImageDecoder.decodeFile(atPath:shrunkTo:)`: DCT-scaled by libjpeg,
/// then Lanczos-3) against Lanczos-3 of the whole full-resolution decode (`ReferenceLanczos`):
/// as sharp, and no more aliased. Figures are computed from pixels, never timed.
@Suite struct FitQualityTests {
    static let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Photos")

    /// The size `full` is shown at when fitted in `window`, each side rounded up (the viewer's
    /// rule).
    static func fitted(_ full: PixelSize, in window: PixelSize) -> PixelSize {
        let s = min(Double(window.width) / Double(full.width), Double(window.height) / Double(full.height))
        return PixelSize(width: Int((Double(full.width) * s).rounded(.up)), height: Int((Double(full.height) * s).rounded(.up)))
    }

    /// Luma (ITU-R BT.601 weights: 0.299 R + 0.587 G + 0.114 B) of pixel (x, y) of an opaque picture.
    static func luma(_ b: PixelBuffer, _ x: Int, _ y: Int) -> Double {
        let p = b[x, y]
        return 0.299 * Double((p >> 16) & 0xFF) + 0.587 * Double((p >> 8) & 0xFF) + 0.114 * Double(p & 0xFF)
    }

    /// Fine-detail energy: the mean over the picture of the luma gradient's magnitude,
    /// √(Δx² + Δy²) with forward differences Δx = Y(x+1, y) − Y(x, y), Δy = Y(x, y+1) − Y(x, y),
    /// over every pixel that has both neighbours.
    static func meanGradient(_ b: PixelBuffer) -> Double {
        var sum = 0.0
        for y in 0..<(b.height - 1) {
            for x in 0..<(b.width - 1) {
                let here = luma(b, x, y)
                let dx = luma(b, x + 1, y) - here, dy = luma(b, x, y + 1) - here
                sum += (dx * dx + dy * dy).squareRoot()
            }
        }
        return sum / Double((b.width - 1) * (b.height - 1))
    }

    /// Largest shortfall (or excess) of the fit decode's mean gradient against the reference,
    /// as a fraction of the reference's; measured: 2.6 % short at most (area averaging, what
    /// the viewer did before, 8 to 27 % short).
    static let sharpnessTolerance = 0.05

    /// friends.jpg (2056×3088, progressive) from DCT scales 5/8 and 2/8; hubble.jpg (1000×872)
    /// at full size and from 4/8.

    @Test("At fit a photo is as sharp as Lanczos-3 of its full resolution", arguments: [
        ("2 friends.jpg", PixelSize(width: 1280, height: 800)),
        ("2 friends.jpg", PixelSize(width: 320, height: 200)),
        ("10 hubble.jpg", PixelSize(width: 1280, height: 800)),
        ("10 hubble.jpg", PixelSize(width: 320, height: 200)),
    ])
    func fitIsAsSharpAsLanczosOfTheFullPhoto(name: String, window: PixelSize) throws {
        let path = Self.photos.appendingPathComponent(name).path
        let full = try ImageDecoder.decodeFile(atPath: path).pixels
        let shown = Self.fitted(full.size, in: window)
        let reference = Self.meanGradient(ReferenceLanczos.resample(full, toWidth: shown.width, height: shown.height))
        let fit = try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in shown })
        #expect(fit.pixels.size == shown)
        let sharpness = Self.meanGradient(fit.pixels)
        #expect(abs(sharpness / reference - 1) <= Self.sharpnessTolerance, "\(name) in \(window): \(sharpness) vs \(reference)")
    }

    // MARK: zone plate

    /// A zone plate `side` pixels square, grey: luma 128 + 127·cos(π r² / (2 R)) at distance r
    /// of a pixel's centre from the picture's centre, R the distance to a corner. Its local
    /// frequency, the phase's derivative over 2π, is ν(r) = r / (2R) cycles per pixel: 0 at the
    /// centre, rising linearly to the Nyquist limit (1/2) at the corners, so every frequency a
    /// picture this size holds appears at its own radius.
    static func zonePlate(side: Int) -> PixelBuffer {
        let b = PixelBuffer(width: side, height: side)
        let centre = Double(side) / 2, corner = centre * 2.0.squareRoot()
        for y in 0..<side {
            for x in 0..<side {
                let dx = Double(x) + 0.5 - centre, dy = Double(y) + 0.5 - centre
                let v = UInt32((128 + 127 * cos(Double.pi * (dx * dx + dy * dy) / (2 * corner))).rounded())
                b[x, y] = 0xFF00_0000 | v << 16 | v << 8 | v
            }
        }
        return b
    }

    /// Aliasing on a zone plate shrunk from `side` to `shrunk.side`: the variance of luma over
    /// the aliased region, the output pixels whose centre (i + 0.5)·f, f = side / shrunk.side,
    /// falls where the plate's frequency ν(r) is at least 1.5 times the output's Nyquist limit,
    /// 1.5 · 1/(2f) cycles per source pixel, leaving out the 3 pixels along each edge (where the
    /// filter's support is cut). An ideal filter makes that region flat (variance 0): a pattern
    /// finer than the output grid can show must vanish, and whatever remains there is aliasing
    /// folded down to frequencies the grid shows (moiré, ghost rings). Lanczos-3 passes under
    /// 1 % above 1.5 times the Nyquist limit.
    static func aliasedEnergy(_ shrunk: PixelBuffer, side: Int) -> Double {
        let f = Double(side) / Double(shrunk.width)
        let centre = Double(side) / 2, corner = centre * 2.0.squareRoot()
        var values: [Double] = []
        for y in 3..<(shrunk.height - 3) {
            for x in 3..<(shrunk.width - 3) {
                let dx = (Double(x) + 0.5) * f - centre, dy = (Double(y) + 0.5) * f - centre
                let nu = (dx * dx + dy * dy).squareRoot() / (2 * corner)
                if nu >= 1.5 / (2 * f) { values.append(luma(shrunk, x, y)) }
            }
        }
        let mean = values.reduce(0, +) / Double(values.count)
        return values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
    }

    /// How much more aliased energy than the reference a fit decode may have, in grey levels²
    /// (a variance: a standard deviation of 1 grey level). The DCT-scaled decode meets the
    /// JPEG's quantisation noise otherwise than the full decode does; measured 0.3 at most.
    static let aliasingTolerance = 1.0

    /// Zone plates shrunk 4, 5 and 3 times: from DCT scales 4/8, 4/8 and 6/8 (2, 2.5 and 2.25
    /// times the shown size), where area averaging starts from 2/8, 2/8 and 3/8.
    @Test("A zone plate shrunk for fit is no more aliased than Lanczos-3 of its full resolution, and less than area averaging", arguments: [
        (1200, 300), (1200, 240), (1000, 333),
    ])
    func zonePlateIsNoMoreAliasedThanLanczos(side: Int, shown: Int) throws {
        let bytes = try JPEGEncoder.encode(Self.zonePlate(side: side), quality: 95)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-zone-plate-\(getpid())-\(side)-\(shown).jpg").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let target = PixelSize(width: shown, height: shown)
        let full = try ImageDecoder.decode(bytes).pixels
        let reference = Self.aliasedEnergy(ReferenceLanczos.resample(full, toWidth: shown, height: shown), side: side)
        let fit = Self.aliasedEnergy(try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in target }).pixels, side: side)
        let area = Self.aliasedEnergy(try ImageDecoder.decodeFile(atPath: path, shrunkTo: { _ in target }, filter: .area).pixels, side: side)
        #expect(fit <= reference + Self.aliasingTolerance, "\(side) to \(shown): \(fit) vs Lanczos of the full decode \(reference)")
        #expect(fit < area, "\(side) to \(shown): \(fit) vs area averaging \(area)")
    }
}
