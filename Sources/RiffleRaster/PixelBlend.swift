/// Porter-Duff source-over on premultiplied BGRA pixels and related per-pixel arithmetic.
///
/// Channels are processed two at a time in the 0x00FF00FF lanes of a UInt32 (the classic
/// SWAR trick): (x · a + 128 + ((x · a + 128) >> 8)) >> 8 is the exact rounded x · a / 255.
enum PixelBlend {
    /// Each channel of `p` times `a`/255, rounded to nearest.
    @inline(__always)
    static func scale(_ p: UInt32, by a: UInt32) -> UInt32 {
        var rb = (p & 0x00FF_00FF) &* a &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((p >> 8) & 0x00FF_00FF) &* a &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return rb | ag
    }

    /// src over dst: src + dst · (255 − src.alpha)/255.
    @inline(__always)
    static func over(_ src: UInt32, _ dst: UInt32) -> UInt32 {
        let a = src >> 24
        if a == 255 { return src }
        if a == 0 && src == 0 { return dst }
        return src &+ scale(dst, by: 255 - a)
    }

    /// Eight pixels in the lanes of a vector: the lane versions below do the scalar arithmetic
    /// lane by lane, bit-exact with it.
    typealias Lanes = SIMD8<UInt32>

    /// `scale(_:by:)` in each lane, by that lane's `a` (0...255).
    @inline(__always)
    static func scale(_ p: Lanes, by a: Lanes) -> Lanes {
        let low = Lanes(repeating: 0x00FF_00FF), half = Lanes(repeating: 0x0080_0080)
        var rb = (p & low) &* a &+ half
        rb = ((rb &+ ((rb &>> 8) & low)) &>> 8) & low
        var ag = ((p &>> 8) & low) &* a &+ half
        ag = (ag &+ ((ag &>> 8) & low)) & Lanes(repeating: 0xFF00_FF00)
        return rb | ag
    }

    /// `over(_:_:)` in each lane: src + dst · (255 − src.alpha)/255 (its shortcuts for opaque
    /// and transparent sources give the same pixels as the formula).
    @inline(__always)
    static func over(_ src: Lanes, _ dst: Lanes) -> Lanes {
        src &+ scale(dst, by: Lanes(repeating: 255) &- (src &>> 24))
    }

    /// Eight pixels in the 16-bit lanes of a vector, two channels to a lane. `scale` splits
    /// each lane's low and high channel and does the arithmetic of the 0x00FF00FF lanes on
    /// each: every step fits 16 bits (x · a + 128 + ⌊(x · a + 128) / 256⌋ ≤ 65407), so the
    /// vector unit's 16-bit multiply does it. SSE2, the x86-64 baseline, has no 32-bit
    /// multiply: `Lanes` pay two multiplies and shuffles for each.
    typealias HalfLanes = SIMD16<UInt16>

    /// `scale(_:by:)` channel by channel, each lane's two channels by that lane's `a`.
    @inline(__always)
    static func scale(_ p: HalfLanes, by a: HalfLanes) -> HalfLanes {
        let byte = HalfLanes(repeating: 0x00FF), half = HalfLanes(repeating: 0x0080)
        var low = (p & byte) &* a &+ half
        low = (low &+ (low &>> 8)) &>> 8
        var high = (p &>> 8) &* a &+ half
        high = (high &+ (high &>> 8)) & HalfLanes(repeating: 0xFF00)
        return low | high
    }

    /// Each channel of each lane times `weight`/65536 (0...65536), rounded to nearest: a pixel
    /// faded by an opacity with 16-bit precision (within 0.502 of the exact product).
    @inline(__always)
    static func fade(_ p: Lanes, by weight: UInt32) -> Lanes {
        let w = Lanes(repeating: weight), half = Lanes(repeating: 0x8000), byte = Lanes(repeating: 0xFF)
        var out = Lanes(repeating: 0)
        for shift: UInt32 in [0, 8, 16, 24] {
            let channel = ((p &>> shift) & byte) &* w &+ half
            out |= (channel &>> 16) &<< shift
        }
        return out
    }
}
