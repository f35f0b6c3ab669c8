import RiffleGeometry
import RiffleImageIO
import RiffleRaster

/// Large test JPEGs made at test time from a deterministic pattern (too big to keep as fixtures).
enum TileFixtures {
    /// 3000×2000 is large enough for five levels with 256-pixel tiles and a 256-pixel base.
    static let photoSize = PixelSize(width: 3000, height: 2000)
    static let tileSize = 256
    static let baseLongSide = 256

    /// A baseline 4:2:0 JPEG of `photoSize` holding `pattern`, without EXIF: encoded once, and
    /// a failure to encode it thrown to every test that asks (one test fails, not the run).
    static func photo() throws -> [UInt8] { try encodedPhoto.get() }
    private static let encodedPhoto = Result { try jpeg(photoSize) }

    /// A JPEG of `size` holding `pattern` at quality 90.
    static func jpeg(_ size: PixelSize) throws -> [UInt8] {
        try JPEGEncoder.encode(pattern(size), quality: 90)
    }

    /// Smooth colour ramps crossed by a fine checker and diagonal stripes: detail at every scale,
    /// and no two tiles alike, so a tile taken from the wrong place cannot match.
    static func pattern(_ size: PixelSize) -> PixelBuffer {
        let buffer = PixelBuffer(width: size.width, height: size.height)
        for y in 0..<size.height {
            let row = buffer.row(y)
            for x in 0..<size.width {
                let r = UInt32((x * 255) / max(size.width - 1, 1))
                let g = UInt32((y * 255) / max(size.height - 1, 1))
                let checker: UInt32 = ((x / 3 + y / 3) % 2 == 0) ? 40 : 0
                let b = UInt32(((x + 2 * y) % 97) * 2) + checker
                row[x] = 0xFF00_0000 | (r << 16) | (g << 8) | min(b, 255)
            }
        }
        return buffer
    }

    /// A little-endian TIFF header and IFD0 with one SHORT entry, 0x0112, `orientation`.
    static func orientationTIFF(_ orientation: ImageOrientation) -> [UInt8] {
        [
            0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00,  // II, 42, IFD0 at offset 8
            0x01, 0x00,  // one entry
            0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00,  // tag 0x0112, SHORT, count 1
            UInt8(orientation.rawValue), 0x00, 0x00, 0x00,  // the value, padded to 4 bytes
            0x00, 0x00, 0x00, 0x00,  // no next IFD
        ]
    }

    /// `png` with an eXIf chunk declaring `orientation` inserted after IHDR (which a PNG
    /// signature and IHDR put at byte 33).
    static func withOrientation(png: [UInt8], _ orientation: ImageOrientation) -> [UInt8] {
        withChunk("eXIf", orientationTIFF(orientation), in: png)
    }

    /// `png` with a chunk of `type` holding `data` (its length and CRC computed) inserted after
    /// IHDR, at byte 33.
    static func withChunk(_ type: String, _ data: [UInt8], in png: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        let length = UInt32(data.count), crc = crc32(typeAndData)
        let chunk = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + typeAndData
            + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) }
        return Array(png[0..<33]) + chunk + Array(png[33...])
    }

    /// The CRC-32 of PNG chunks (ISO 3309, reflected polynomial 0xEDB88320), bit by bit.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// `jpeg` with an APP1 EXIF segment declaring `orientation` inserted after SOI.
    static func withOrientation(_ jpeg: [UInt8], _ orientation: ImageOrientation) -> [UInt8] {
        // "Exif\0\0", then the TIFF structure.
        let payload = Array("Exif".utf8) + [0, 0] + orientationTIFF(orientation)
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
    }

    /// A packed copy of `rect` of `buffer`.
    static func crop(_ buffer: PixelBuffer, _ rect: PixelRect) -> PixelBuffer {
        let out = PixelBuffer(width: rect.width, height: rect.height)
        for y in 0..<rect.height {
            for x in 0..<rect.width { out[x, y] = buffer[rect.x + x, rect.y + y] }
        }
        return out
    }

    /// Largest difference of any channel of any pixel; nil when the sizes differ.
    static func maxDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int? {
        guard a.size == b.size else { return nil }
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a[x, y], q = b[x, y]
                for shift in stride(from: 0, to: 32, by: 8) {
                    worst = max(worst, abs(Int((p >> UInt32(shift)) & 0xFF) - Int((q >> UInt32(shift)) & 0xFF)))
                }
            }
        }
        return worst
    }
}
