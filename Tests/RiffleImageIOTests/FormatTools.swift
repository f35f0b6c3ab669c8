import Foundation
import RiffleGeometry
import RiffleImageIO
import RiffleRaster
import RiffleTestSupport

/// The formats' own tools, run at test time to make fixtures and to decode them for reference:
/// libwebp's `cwebp`, `img2webp`, `webpmux` and `dwebp` (Debian's `webp` package) and
/// ImageMagick's `convert` (`imagemagick`), which `make test` installs.
enum FormatTools {
    /// Runs `tool` (`ExternalTool.run`), its failure as an `ImageDecodeError` (what the format
    /// suites report).
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        do {
            return try ExternalTool.run(tool, arguments)
        } catch let failure as ExternalTool.Failure {
            throw ImageDecodeError(reason: failure.message)
        }
    }

    /// `picture` written as a PNG at `path` (Riffle's encoder), for a tool to read.
    static func writePNG(_ picture: PixelBuffer, to path: String) throws {
        try PNGEncoder.write(picture, toPath: path)
    }

    /// libwebp's own decode of the WebP at `path` (`dwebp -pam`: straight R, G, B, A), as
    /// premultiplied BGRA rounded as Riffle rounds (c·a/255 to nearest).
    static func dwebp(_ path: String) throws -> PixelBuffer {
        let pam = [UInt8](try run("dwebp", [path, "-pam", "-quiet", "-o", "-"]))
        // A PAM header: lines of "KEY value" up to "ENDHDR" (netpbm's pam(5)).
        guard let end = pam.firstRange(of: Array("ENDHDR\n".utf8)) else { throw ImageDecodeError(reason: "dwebp wrote no PAM header") }
        var fields: [String: Int] = [:]
        for line in String(decoding: pam[..<end.lowerBound], as: UTF8.self).split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count == 2, let value = Int(words[1]) { fields[String(words[0])] = value }
        }
        guard let width = fields["WIDTH"], let height = fields["HEIGHT"], fields["DEPTH"] == 4 else {
            throw ImageDecodeError(reason: "dwebp wrote an unexpected PAM header")
        }
        return premultipliedBGRA(fromRGBA: Array(pam[end.upperBound...]), width: width, height: height)
    }

    /// ImageMagick's decode of `path` (`convert PATH -depth 8 rgba:-`, its frames one after
    /// another, each `size`), every frame as premultiplied BGRA.
    static func imageMagickFrames(_ path: String, size: PixelSize, coalesced: Bool = false) throws -> [PixelBuffer] {
        let rgba = [UInt8](try run("convert", [path] + (coalesced ? ["-coalesce"] : []) + ["-depth", "8", "rgba:-"]))
        let frameBytes = size.area * 4
        return stride(from: 0, to: rgba.count - frameBytes + 1, by: frameBytes).map {
            premultipliedBGRA(fromRGBA: Array(rgba[$0..<($0 + frameBytes)]), width: size.width, height: size.height)
        }
    }

    static func premultipliedBGRA(fromRGBA rgba: [UInt8], width: Int, height: Int) -> PixelBuffer {
        let picture = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let a = UInt32(rgba[i + 3])
                func premultiplied(_ c: UInt8) -> UInt32 { (UInt32(c) * a + 127) / 255 }
                picture[x, y] = a << 24 | premultiplied(rgba[i]) << 16 | premultiplied(rgba[i + 1]) << 8 | premultiplied(rgba[i + 2])
            }
        }
        return picture
    }

    /// A `width` × `height` test picture: smooth gradients (red across, green down), a blue
    /// diagonal band and a grid of one-pixel lines, so that both colour and fine detail are
    /// checked; with `alpha`, alpha falls from 255 at the left to 0 at the right.
    static func testPicture(width: Int, height: Int, alpha: Bool = false) -> PixelBuffer {
        let picture = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let r = x * 255 / max(1, width - 1), g = y * 255 / max(1, height - 1)
                let b = abs(x - y) < width / 8 ? 255 : (x % 16 == 0 || y % 16 == 0 ? 40 : 160)
                let a = alpha ? 255 - x * 255 / max(1, width - 1) : 255
                picture[x, y] = UInt32(a) << 24 | UInt32(r * a / 255) << 16 | UInt32(g * a / 255) << 8 | UInt32(b * a / 255)
            }
        }
        return picture
    }
}
