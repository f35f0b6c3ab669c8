/// A premultiplied BGRA colour, 8 bits a channel, as stored in a `PixelBuffer`.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// 0xAARRGGBB.
    public var packed: UInt32

    public init(packed: UInt32) { self.packed = packed }

    /// An opaque colour from straight 8-bit channels.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        packed = 0xFF00_0000 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
    }

    /// A colour from straight (not premultiplied) channels in 0...1, premultiplied here.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        func byte(_ v: Double) -> UInt32 { UInt32(max(0, min(255, (v * 255).rounded()))) }
        let a = max(0, min(1, alpha))
        packed = byte(a) << 24 | byte(red * a) << 16 | byte(green * a) << 8 | byte(blue * a)
    }

    public var alpha: UInt8 { UInt8(truncatingIfNeeded: packed >> 24) }
    public var red: UInt8 { UInt8(truncatingIfNeeded: packed >> 16) }
    public var green: UInt8 { UInt8(truncatingIfNeeded: packed >> 8) }
    public var blue: UInt8 { UInt8(truncatingIfNeeded: packed) }

    public static let black = Color(packed: 0xFF00_0000)
    public static let white = Color(packed: 0xFFFF_FFFF)
    public static let clear = Color(packed: 0)

    /// Straight linear interpolation of the premultiplied channels: a + (b − a)·t, t in 0...1.
    public static func mix(_ a: Color, _ b: Color, _ t: Double) -> Color {
        let t = max(0, min(1, t))
        func ch(_ shift: UInt32) -> UInt32 {
            let x = Double((a.packed >> shift) & 0xFF), y = Double((b.packed >> shift) & 0xFF)
            return UInt32((x + (y - x) * t).rounded()) << shift
        }
        return Color(packed: ch(24) | ch(16) | ch(8) | ch(0))
    }

    public var description: String {
        "#" + String(packed, radix: 16, uppercase: true).leftPadded(to: 8)
    }
}

extension String {
    fileprivate func leftPadded(to n: Int) -> String {
        count >= n ? self : String(repeating: "0", count: n - count) + self
    }
}
